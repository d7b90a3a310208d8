/*
 * hand.ts -- the viewer's seat at the bottom: the hand (buttons for the
 * cards the server's legal list allows, nothing else), the picked card,
 * the words under the hand (the set shown and Play, why a card plays as
 * it does, the hint), and the viewer's pile.  A spectator sees seat 0
 * there, its cards face down.
 */
import { type Lang, t } from './i18n.js';
import { type HintMsg, parseMove } from './protocol.js';
import { sideOf } from './rules.js';
import { type AppState, type TableView, moveKey, selectedMove } from './tableview.js';
import { backEl, describeMove, faceEl, h } from './dom.js';
import { pileEl, pileSeat, seatName } from './seats.js';

export function renderHand(
  app: AppState,
  v: TableView,
  box: HTMLElement,
  choiceBox: HTMLElement,
  infoBox: HTMLElement,
): void {
  const lang = app.lang;
  const me = v.viewer;
  if (me === null) {
    // a spectator: seat 0 sits at the bottom, its cards face down; that
    // the page watches is said under the hand, not as a badge by seat 0's
    // name (it read as if that player were the one watching)
    const side = sideOf(v.eff, 0);
    infoBox.replaceChildren(
      h('span', { class: 'who' }, h('span', { class: 'name', text: seatName(v, 0, lang) })),
      pileSeat(v, side) === 0 ? pileEl(app, v, side) : h('span'),
    );
    const backs = [];
    for (let i = 0; i < (v.counts[0] ?? 0); i++) backs.push(backEl(`back:0:${i}`));
    box.replaceChildren(...backs);
    box.dataset.n = String(backs.length);
    box.parentElement!.classList.toggle('turn', v.toPlay === 0 && v.status === 'playing');
    choiceBox.replaceChildren(h('p', { class: 'help watching', text: t(lang, 'spectator') }));
    return;
  }
  const side = sideOf(v.eff, me);
  const turn = v.toPlay === me && v.status === 'playing';
  box.parentElement!.classList.toggle('turn', turn);
  infoBox.replaceChildren(
    h(
      'span',
      { class: 'who' },
      h('span', { class: 'name', text: seatName(v, me, lang) }),
      v.round?.dealer === me
        ? h('span', { class: 'badge dealer', title: t(lang, 'dealer'), text: 'D' })
        : null,
    ),
    pileEl(app, v, side),
  );
  const sel = app.selection;
  const move = selectedMove(v.choices, sel);
  const cards = v.hand.map((c, i) => {
    const el = faceEl(c, lang);
    const ch = v.choices.find((x) => x.card === c);
    const playable = v.myTurn && !app.pending && !!ch && ch.options.length > 0;
    el.classList.add('inhand');
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.setAttribute('data-action', 'card');
    el.setAttribute('aria-keyshortcuts', String(i + 1));
    if (!playable) el.setAttribute('aria-disabled', 'true');
    else el.classList.add('playable');
    if (sel?.card === c) {
      el.classList.add('selected');
      el.setAttribute('aria-pressed', 'true');
    }
    if (app.hint && v.myTurn && app.hint.move.split('x')[0] === c) el.classList.add('hinted');
    return el;
  });
  box.replaceChildren(...cards);
  box.dataset.n = String(cards.length);
  // the words under the hand: the chosen move, or why a card plays as it does
  const parts: (HTMLElement | null)[] = [];
  if (move && sel) {
    const ch = v.choices.find((x) => x.card === sel.card)!;
    parts.push(
      // what a click on Play will do, as the hints say it ("Lay the 2 of
      // coins on the table"), not as if already done ("laid on the table")
      h('p', {
        class: 'movetext',
        text: v.legalWords.get(moveKey(move)) ?? describeMove(lang, move),
      }),
      h('p', {
        class: 'help',
        // one move: a second click plays it (verbs.ts pick), no "next"
        text:
          ch.options.length > 1
            ? t(lang, 'optionOf', { i: sel.index + 1, n: ch.options.length })
            : t(lang, 'onlyMove'),
      }),
      h(
        'div',
        { class: 'row' },
        h('button', {
          class: 'primary',
          'data-action': 'confirm',
          text: t(lang, 'play'),
        }),
        h('button', { 'data-action': 'cancel', text: t(lang, 'cancel') }),
      ),
    );
  }
  if (app.explain) {
    // why the card plays so: the server's words (the library's), shown as
    // they come; a choice is already said by "option i of n" above
    // (sent with the legal moves: out of turn the page only says so)
    const ch = v.choices.find((x) => x.card === app.explain);
    if (!v.myTurn) parts.push(h('p', { class: 'reason', text: t(lang, 'notYourTurn') }));
    else if (ch?.words && ch.reason !== 'choice')
      parts.push(h('p', { class: 'reason', 'data-reason': ch.reason, text: ch.words }));
  }
  if (app.hint && v.myTurn && app.hintsOn) {
    const hm = app.hint;
    const move = parseMove(hm.move);
    const said =
      typeof hm.words === 'string' && hm.words ? hm.words : move ? describeMove(lang, move) : '';
    const others = compareWords(lang, Array.isArray(hm.moves) ? hm.moves : [], hm.value);
    parts.push(
      h('p', { class: 'hinttext', text: `${t(lang, 'hintSays', { move: said })}. ${others}` }),
    );
  } else if (app.hintState === 'unavailable' && app.hintsOn)
    parts.push(h('p', { class: 'help', text: t(lang, 'hintUnavailable') }));
  choiceBox.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
}

/** How the hinted move stands against the others (the terminal's words,
 * src/tui/session.c): the least any other move costs, when that is
 * beyond its doubt, said as the server says an amount (cost_words). */
function compareWords(
  lang: Lang,
  moves: NonNullable<HintMsg['moves']>,
  bestValue: number | null,
): string {
  const I = lang === 'it';
  if (moves.length === 1) return I ? "È l'unica mossa possibile." : 'It is your only move.';
  let next: { loss: number; margin: number; words: string } | null = null;
  for (const m of moves.slice(1)) {
    const l = m.loss;
    if (typeof l === 'number' && Number.isFinite(l) && (!next || l < next.loss))
      next = {
        loss: l,
        margin: typeof m.loss_margin === 'number' ? m.loss_margin : 0,
        words: typeof m.cost_words === 'string' ? m.cost_words : '',
      };
  }
  if (!next || bestValue === null || (next.loss - next.margin >= 0.1 && !next.words))
    return I
      ? 'Questa volta senza stima di quanto sia meglio.'
      : 'No estimate of how much better it is this time.';
  if (next.loss - next.margin >= 0.1)
    return I
      ? `Ogni altra mossa costa ${next.words} in media.`
      : `Any other move costs ${next.words} on average.`;
  return I
    ? "Un'altra mossa vale più o meno lo stesso: è una scelta difficile."
    : 'Another move is about as good: a close call.';
}
