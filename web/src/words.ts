/*
 * words.ts -- hints and the review in words a player reads, in the page's
 * language and the deck drawn: the move as a sentence ("Take the 7 of
 * coins with your 7 of cups"), what it does from the server's "why"
 * (scopa.h scopa_move_why: "makes a scopa", "leaves 9 on the table: a
 * horse would make a scopa"), an amount of points as a person says it
 * ("about 3/4 of a point") and what a loss means with its doubt.
 *
 * What must stay true: these are the library's sentences (src/ai/words.c
 * scopa_move_words, scopa_why_words, scopa_points_words,
 * scopa_loss_words), word for word in both languages, so the terminal and
 * the browser say the same thing; the reasons are the server's, never
 * the client's own.  No notation ("9bx9s") is ever shown from here.
 */
import { type Lang, cardName, frenchDeck, rankName } from './i18n.js';
import type { Move } from './protocol.js';

/** A move's reasons (scopa_move_why_json): codes in the library's order. */
export interface Why {
  codes: string[];
  cards?: number;
  coins?: number;
  sevens?: number;
  sum?: number;
  rank?: number;
}

const RISKS = ['gives_settebello', 'opens'];
const ORDER = [
  'scopa',
  'settebello',
  'gives_settebello',
  'opens',
  'safe',
  'sevens',
  'coins',
  'cards',
];

const it = (lang: Lang): boolean => lang === 'it';

/** "the 7 of coins", "il 7 di denari", "l'asso di coppe", "la donna di cuori". */
export function cardWords(lang: Lang, card: string): string {
  const name = cardName(lang, card);
  if (!it(lang)) return `the ${name}`;
  const rank = Number(card.slice(0, -1));
  return `${rank === 1 ? "l'" : rank === 9 && frenchDeck() ? 'la ' : 'il '}${name}`;
}

/** "Take the 7 of coins with your 7 of cups", "Lay the 5 of swords on the table". */
export function moveWords(lang: Lang, m: Move): string {
  if (!m.takes.length)
    return it(lang)
      ? `Cala ${cardWords(lang, m.card)}`
      : `Lay ${cardWords(lang, m.card)} on the table`;
  const order = (c: string) => (Number(c.slice(0, -1)) - 1) * 4 + 'dcsb'.indexOf(c.slice(-1));
  const takes = [...m.takes].sort((a, b) => order(a) - order(b)).map((c) => cardWords(lang, c));
  const and = it(lang) ? ' e ' : ' and ';
  const list =
    takes.length > 1 ? `${takes.slice(0, -1).join(', ')}${and}${takes.at(-1)}` : takes[0];
  const own = cardName(lang, m.card);
  if (!it(lang)) return `Take ${list} with your ${own}`;
  const mine = Number(m.card.slice(0, -1)) === 9 && frenchDeck() ? 'la tua' : 'il tuo';
  return `Prendi ${list} con ${mine} ${own}`;
}

/** "a king", "un re", "una donna", "an ace". */
function aRank(lang: Lang, rank: number): string {
  const r = rankName(lang, rank);
  if (it(lang)) return `${rank === 9 && frenchDeck() ? 'una' : 'un'} ${r}`;
  return `${rank === 1 ? 'an' : 'a'} ${r}`;
}

function reason(lang: Lang, code: string, w: Why): string {
  const I = it(lang);
  const n = (x: number | undefined) => x ?? 0;
  switch (code) {
    case 'scopa':
      return I ? 'fa scopa' : 'makes a scopa';
    case 'settebello':
      return I ? 'prende il settebello' : 'takes the settebello';
    case 'gives_settebello':
      return I
        ? `lascia il settebello in tavola: ${aRank(lang, n(w.rank))} lo prenderebbe`
        : `leaves the settebello on the table: ${aRank(lang, n(w.rank))} would take it`;
    case 'opens':
      return I
        ? `lascia ${n(w.sum)} in tavola: ${aRank(lang, n(w.rank))} farebbe scopa`
        : `leaves ${n(w.sum)} on the table: ${aRank(lang, n(w.rank))} would make a scopa`;
    case 'safe':
      return I ? 'non lascia scopa a chi gioca dopo' : 'leaves no scopa to the next player';
    case 'sevens': {
      const k = n(w.sevens) - (w.codes.includes('settebello') ? 1 : 0);
      if (k === 1) return I ? 'prende un sette per la primiera' : 'takes a seven for primiera';
      return I ? `prende ${k} sette per la primiera` : `takes ${k} sevens for primiera`;
    }
    case 'coins':
      if (n(w.coins) === 1) return I ? 'prende un denaro' : 'takes a coin';
      return I ? `prende ${n(w.coins)} denari` : `takes ${n(w.coins)} coins`;
    case 'cards':
      return I ? `prende ${n(w.cards)} carte` : `takes ${n(w.cards)} cards`;
  }
  return '';
}

/** A well-formed why, or null (another server, a field of the wrong kind). */
export function whyOf(x: unknown): Why | null {
  if (!x || typeof x !== 'object') return null;
  const w = x as Why;
  return Array.isArray(w.codes) ? { ...w, codes: w.codes.filter((c) => ORDER.includes(c)) } : null;
}

/** At most `max` of what the move does, then its first risk after "but". */
export function whyWords(lang: Lang, why: Why | null, max = 2): string {
  if (!why) return '';
  const codes = ORDER.filter((c) => why.codes.includes(c));
  const good = codes.filter((c) => !RISKS.includes(c)).slice(0, max);
  const risk = codes.find((c) => RISKS.includes(c));
  const out = good.map((c) => reason(lang, c, why)).join(', ');
  if (!risk) return out;
  const bad = reason(lang, risk, why);
  return out ? `${out}${it(lang) ? ', ma ' : ', but '}${bad}` : bad;
}

/** The move and its reasons: "Take ... with your ...: makes a scopa". */
export function moveAndWhy(lang: Lang, m: Move, why: Why | null): string {
  const w = whyWords(lang, why);
  return w ? `${moveWords(lang, m)}: ${w}` : moveWords(lang, m);
}

/** "about 3/4 of a point", "circa 1 punto e mezzo", "almost nothing". */
export function pointsWords(lang: Lang, x: number): string {
  const I = it(lang);
  const p = Number.isFinite(x) ? Math.abs(x) : 0;
  if (p < 0.125) return I ? 'quasi niente' : 'almost nothing';
  // quarters up to 2 points, halves beyond (C's lround: halves away from 0)
  const q = p < 2.125 ? Math.round(p * 4) : 2 * Math.round(p * 2);
  const whole = Math.floor(q / 4);
  const frac = q % 4;
  const EN = ['', 'a quarter', 'a half', '3/4'];
  const IT = ['', 'un quarto', 'mezzo', '3/4'];
  let s: string;
  if (whole === 0 && frac === 2) s = I ? 'mezzo punto' : 'half a point';
  else if (whole === 0) s = I ? `${IT[frac]} di punto` : `${EN[frac]} of a point`;
  else if (whole === 1 && !frac) s = I ? 'un punto' : 'a point';
  else if (I) s = `${whole} ${whole === 1 ? 'punto' : 'punti'}${frac ? ` e ${IT[frac]}` : ''}`;
  else s = `${whole}${frac ? ` and ${EN[frac]}` : ''} points`;
  return `${I ? 'circa' : 'about'} ${s}`;
}

/** What a move's loss means, with its doubt (scopa_loss_words). */
export function lossWords(lang: Lang, loss: number, margin: number, mark: string): string {
  const I = it(lang);
  if (!Number.isFinite(loss))
    return I ? 'Nessuna stima per questa mossa' : 'No estimate for this move';
  const amount = pointsWords(lang, loss);
  if (mark === '??')
    return I
      ? `Un errore grave (??): quasi certamente è costata un punto o più, ${amount} in media`
      : `A blunder (??): it almost surely cost a point or more, ${amount} on average`;
  if (mark === '?')
    return I
      ? `Una svista (?): molto probabilmente è costata 0,3 punti o più, ${amount} in media`
      : `A slip (?): it very likely cost 0.3 points or more, ${amount} on average`;
  if (loss >= 0.1) {
    const m = (Number.isFinite(margin) ? margin : 0).toFixed(2);
    return I
      ? `Forse è costata ${amount}, ma è dentro il margine della stima (±${m})`
      : `It may have cost ${amount}, but that is within the estimate's margin (±${m})`;
  }
  return I ? 'Buona quanto la mossa migliore' : 'As good as the best move';
}

/** How the hinted move stands against the others (the terminal's words):
 * the least any other move costs, when that is beyond its doubt. */
export function compareWords(
  lang: Lang,
  moves: readonly { loss?: number | null; loss_margin?: number | null }[],
  bestValue: number | null,
): string {
  const I = it(lang);
  if (moves.length === 1) return I ? "È l'unica mossa possibile." : 'It is your only move.';
  let next: { loss: number; margin: number } | null = null;
  for (const m of moves.slice(1)) {
    const l = m.loss;
    if (typeof l === 'number' && Number.isFinite(l) && (!next || l < next.loss))
      next = { loss: l, margin: typeof m.loss_margin === 'number' ? m.loss_margin : 0 };
  }
  if (!next || bestValue === null)
    return I
      ? 'Questa volta senza stima di quanto sia meglio.'
      : 'No estimate of how much better it is this time.';
  if (next.loss - next.margin >= 0.1)
    return I
      ? `Ogni altra mossa costa ${pointsWords(lang, next.loss)} in media.`
      : `Any other move costs ${pointsWords(lang, next.loss)} on average.`;
  return I
    ? "Un'altra mossa vale più o meno lo stesso: è una scelta difficile."
    : 'Another move is about as good: a close call.';
}
