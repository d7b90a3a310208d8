/*
 * tableview.ts -- the headless table: everything the screen shows, computed from
 * the server's last `state` message and the player's selection, with no DOM.
 * render.ts draws it, input.ts changes it, test/tableview.test.ts checks it.
 *
 * What must stay true:
 * - a move can only be chosen from the server's `legal` list (illegal plays
 *   are impossible, not refused later);
 * - the table, the piles, the scope, the hand counts, the stock and the last
 *   move are the server's `drawn` (the library's, issue 33), never replayed
 *   here; a finished game's steps come with the server's review
 *   (review.ts), each with the table before it.
 */
import {
  type Card,
  type Drawn,
  type Move,
  type Presence,
  type Round,
  type Rules,
  type Side,
  type StateMsg,
  formatMove,
  isCard,
  parseMove,
} from './protocol.js';
import { type Effective, effective, num } from './rules.js';
import type { ConnStatus } from './transport.js';
import type { GameOverMsg, HintMsg, ReviewMsg, RoundOverMsg, TalkLine } from './protocol.js';
import type { Lang } from './i18n.js';
import type { Bank } from './model.js';
import type { RecordDoc } from './review.js';
import type { AccountState } from './account.js';
import type { TourneyList, TourneyPage } from './tourney.js';

// ------------------------------------------------------- choosing a move --

export interface CardChoice {
  card: Card;
  options: Move[]; // the legal moves with this card, captures first (fewest cards first), the lay last
  /** Why the card plays as it does, as the server says it (drawn.reasons:
   * the library's code and sentence; issue 33, no rule is decided here);
   * null from a server without it. */
  reason: string | null;
  words: string | null;
}

function orderOptions(ms: Move[]): Move[] {
  return [...ms].sort((a, b) => {
    if (!a.takes.length !== !b.takes.length) return a.takes.length ? -1 : 1;
    if (a.takes.length !== b.takes.length) return a.takes.length - b.takes.length;
    return formatMove(a) < formatMove(b) ? -1 : formatMove(a) > formatMove(b) ? 1 : 0;
  });
}

/** The server's reason of each card (drawn.reasons), by card. */
function reasonsOf(d: Drawn | null): Map<Card, { reason: string; words: string | null }> {
  const out = new Map<Card, { reason: string; words: string | null }>();
  const rs: unknown = d?.reasons;
  if (!Array.isArray(rs)) return out;
  for (const x of rs as unknown[]) {
    if (typeof x !== 'object' || x === null) continue;
    const { card, reason, words } = x as Record<string, unknown>;
    if (isCard(card) && typeof reason === 'string')
      out.set(card, { reason, words: typeof words === 'string' && words ? words : null });
  }
  return out;
}

/** The choice for each card in hand: its moves from the server's legal
 * list alone, and why it plays so from the server's drawn. */
export function choices(
  hand: readonly Card[],
  legal: readonly string[],
  drawn: Drawn | null,
): CardChoice[] {
  const moves = legal.map(parseMove).filter((m): m is Move => m !== null);
  const why = reasonsOf(drawn);
  return hand.map((card) => {
    const options = orderOptions(moves.filter((m) => m.card === card));
    const r = why.get(card);
    return { card, options, reason: r?.reason ?? null, words: r?.words ?? null };
  });
}

/** The player's pending choice: a card picked, and which of its moves is shown. */
export interface Selection {
  card: Card;
  index: number;
}

export type PickResult =
  | { kind: 'none' } // the card cannot be played now
  | { kind: 'play'; move: Move } // one move only: play it at once
  | { kind: 'select'; selection: Selection }; // several: show option `index`

/** A click (or key) on a hand card: the first click picks it, the next ones
 * cycle through its moves (seed 004: "click again on the card"). */
export function pickCard(cs: readonly CardChoice[], sel: Selection | null, card: Card): PickResult {
  const c = cs.find((x) => x.card === card);
  if (!c || c.options.length === 0) return { kind: 'none' };
  if (c.options.length === 1) return { kind: 'play', move: c.options[0]! };
  if (sel && sel.card === card)
    return { kind: 'select', selection: { card, index: (sel.index + 1) % c.options.length } };
  return { kind: 'select', selection: { card, index: 0 } };
}

/** A click on a table card while a hand card is picked: the next of its
 * moves that takes that card (or null: that card cannot be taken). */
export function pickTableCard(
  cs: readonly CardChoice[],
  sel: Selection,
  target: Card,
): Selection | null {
  const c = cs.find((x) => x.card === sel.card);
  if (!c) return null;
  const n = c.options.length;
  for (let k = 1; k <= n; k++) {
    const i = (sel.index + k) % n;
    if (c.options[i]!.takes.includes(target)) return { card: sel.card, index: i };
  }
  return null;
}

export function selectedMove(cs: readonly CardChoice[], sel: Selection | null): Move | null {
  if (!sel) return null;
  const c = cs.find((x) => x.card === sel.card);
  return c?.options[sel.index] ?? null;
}

// --------------------------------------------------------------- layout --

export type Slot =
  'bottom' | 'bottom-right' | 'right' | 'top-right' | 'top' | 'top-left' | 'left' | 'bottom-left';

/** Where each seat sits on screen, the viewer at the bottom.  Play goes
 * counter-clockwise (RULES.md: seat i+1 sits to the right of seat i), so the
 * next seat is on the viewer's right; at 4 and 6 the partner (side i mod S)
 * is opposite. */
export function layout(players: number, viewer: number | null): Slot[] {
  const me = viewer ?? 0;
  const around: Record<number, Slot[]> = {
    2: ['bottom', 'top'],
    3: ['bottom', 'top-right', 'top-left'],
    4: ['bottom', 'right', 'top', 'left'],
    6: ['bottom', 'bottom-right', 'top-right', 'top', 'top-left', 'bottom-left'],
  };
  const slots = around[players] ?? around[2]!;
  const out: Slot[] = [];
  for (let s = 0; s < players; s++) out.push(slots[(s - me + players) % players] ?? 'top');
  return out;
}

// ------------------------------------------------------------ scoring ----

export interface Itemised {
  cards: number[];
  denari: Card[][]; // per side, its coins
  reBello: number | null; // side holding 10d
  primiera: ({ card: Card; value: number } | null)[][]; // per side, per suit (d c s b)
  sevens: Card[][];
  scope: Card[][];
}

/** The cards behind each category of a finished round, as the state
 * after its last move drew them (the library's drawn.categories), for the
 * score screen; the points themselves come from round_over.  Null when
 * that state is not at hand (a round seen only in part) or does not
 * agree with round_over's counts: the screen shows the numbers alone. */
export function itemise(d: Drawn | null, sides: readonly Side[]): Itemised | null {
  const cats = d?.categories;
  if (!d || !cats || cats.length !== sides.length) return null;
  const it: Itemised = {
    cards: d.piles.map((p) => p.length),
    denari: cats.map((c) => c.denari),
    reBello: ((i) => (i < 0 ? null : i))(d.piles.findIndex((p) => p.includes('10d'))),
    primiera: cats.map((c) => c.primiera),
    sevens: cats.map((c) => c.sevens),
    scope: d.scope,
  };
  const agree = sides.every(
    (s, i) => it.cards[i] === s.cards && (it.denari[i]?.length ?? -1) === s.denari,
  );
  return agree ? it : null;
}

// --------------------------------------------------------- the table -----

/** What the table screen shows, all of it derived from one state message. */
export interface TableView {
  code: string;
  viewer: number | null;
  status: StateMsg['status'];
  names: string[];
  presence: Presence[];
  toPlay: number | null;
  rules: Rules;
  eff: Effective;
  scores: number[];
  slots: Slot[];
  round: Round | null;
  /** The server's drawn (null before a deal, or from a server without it). */
  drawn: Drawn | null;
  hand: Card[];
  counts: number[]; // per seat, cards in hand
  stock: number;
  choices: CardChoice[];
  myTurn: boolean;
  /** The round's last move, and as the server says it was played. */
  lastMove: { seat: number; move: Move; words: string | null } | null;
  /** Each legal move (by moveKey) as the server says it, in
   * the page's language (empty from a server without legal_words). */
  legalWords: Map<string, string>;
  ply: number; // moves of this round seen: the `ply` of our next move
}

/** A move's key in legalWords: its notation, the taken cards sorted. */
export const moveKey = (m: Move): string => formatMove({ ...m, takes: [...m.takes].sort() });

/** The server's words of each legal move, by moveKey. */
function legalWords(legal: readonly string[], words: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(words) || words.length !== legal.length) return out;
  legal.forEach((text, i) => {
    const m = parseMove(text);
    const w: unknown = words[i];
    if (m && typeof w === 'string' && w) out.set(moveKey(m), w);
  });
  return out;
}

export function tableView(s: StateMsg): TableView {
  const eff = effective(s.rules);
  const players = num(eff, 'players');
  const round = s.round;
  const drawn = round ? s.drawn : null;
  const hand = s.hand ?? [];
  const legal = s.legal ?? [];
  const last = drawn?.last ? parseMove(drawn.last.move) : null;
  return {
    code: s.code,
    viewer: s.seat,
    status: s.status,
    names: s.seats,
    presence: s.presence,
    toPlay: s.to_play,
    rules: s.rules,
    eff,
    scores: s.scores,
    slots: layout(players, s.seat),
    round,
    drawn,
    hand,
    counts: drawn ? drawn.hands : new Array<number>(players).fill(0),
    stock: drawn?.stock ?? 0,
    choices: choices(hand, legal, drawn),
    myTurn: s.seat !== null && s.to_play === s.seat && legal.length > 0,
    lastMove:
      drawn?.last && last
        ? {
            seat: drawn.last.seat,
            move: last,
            words: typeof drawn.last.words === 'string' ? drawn.last.words : null,
          }
        : null,
    legalWords: legalWords(legal, s.legal_words),
    ply: round?.moves.length ?? 0,
  };
}

// ------------------------------------------------------ the whole app ----

/** The scores beside the table.  While a round's score is on screen the
 * state that carries the new totals waits behind it (pacing.ts applies
 * the messages one at a time), so the totals come from the round_over itself;
 * then from game_over; else from the last state. */
export function shownScores(app: Pick<AppState, 'roundOver' | 'gameOver' | 'view'>): number[] {
  if (app.roundOver) return app.roundOver.msg.totals;
  if (app.gameOver) return app.gameOver.totals;
  return app.view?.scores ?? [];
}

/** A public table of the lobby, as the home page lists it. */
export interface LobbyTable {
  code: string;
  /** the preset its rules are (rules.ts presetOf), and the points to win */
  preset: string;
  target: number | null;
  /** seconds per move (0: none), null when the server did not say */
  moveClock: number | null;
  /** the time bank it plays with instead, else null */
  bank: { bank: number; increment: number } | null;
  /** each seat: a person's name, a bot's name, or "open" */
  seats: string[];
  open: number;
  /** the seated people, with their ratings (null: a guest, or unrated) */
  people: { seat: number; name: string; rating: number | null }[];
}

/** Play now (docs/serve.md): the game sought, until a table is found or
 * the seek withdrawn; `offer` the bot level the server offers instead
 * once nobody came (null: not yet). */
export interface Seek {
  rules: Rules;
  /** the move clock's seconds */
  clock: number;
  /** or a time bank instead */
  bank?: Bank;
  players: number;
  offer: string | null;
}

/** Everything on screen, as data: reduce.ts makes each new one (model.ts
 * adds what the reducer alone remembers), render.ts draws it. */
export interface AppState {
  lang: Lang;
  /** 'name': a friend's link, asking their name before they sit. */
  screen: 'home' | 'table' | 'leaderboard' | 'name' | 'account' | 'login' | 'tourneys' | 'tourney';
  conn: ConnStatus;
  /** The server stopped the table (it could not store a change) and the
   * page takes it back at `retryAt` (client clock, ms; null: asking now). */
  stalled: { retryAt: number | null } | null;
  /** Whether a server answered (GET /healthz): 'down' on a static host or
   * offline, where only games against the bots are offered (local.ts). */
  server: 'unknown' | 'up' | 'down';
  code: string | null;
  token: string | null;
  seat: number | null;
  msg: StateMsg | null;
  view: TableView | null;
  selection: Selection | null;
  /** A move sent and not yet seen played: the hand waits. */
  pending: string | null;
  /** The card whose reason is shown (the last one picked or refused). */
  explain: Card | null;
  /** The small panel open over the table (pileview.ts): a side's pile
   * (its number), the round's moves ('moves', a phone's drawer), or none. */
  peek: number | 'moves' | null;
  /** The round just scored, with what the state after its last move drew (for cards). */
  roundOver: { msg: RoundOverMsg; drawn: Drawn | null; rules: Rules } | null;
  gameOver: GameOverMsg | null;
  error: string | null;
  /** The rules of a create the library refused (issue 33: the page checks
   * none itself): the home form shows them again beside its words. */
  refused: { rules: Rules; form: 'bot' | 'priv' } | null;
  notice: string | null;
  hintsOn: boolean;
  hint: HintMsg | null;
  hintState: 'idle' | 'asking' | 'unavailable';
  /** The bot's marks of the game's moves (the review extension), if any. */
  review: ReviewMsg | null;
  reviewState: 'idle' | 'asking' | 'unavailable' | 'open';
  /** The finished game's record, stepped through in the review. */
  record: RecordDoc | null;
  reviewStep: number;
  /** When each seat was first seen away (client clock, ms). */
  awaySince: (number | null)[];
  /** When the last state arrived (client clock, ms): away_seconds count from it. */
  msgAt: number;
  leaderboard: {
    state: 'loading' | 'ok' | 'unavailable';
    pool: string;
    rows: Record<string, unknown>[];
  };
  /** The lobby's public tables that wait for people (GET /api/lobby). */
  lobby: { state: 'loading' | 'ok' | 'unavailable'; tables: LobbyTable[] };
  /** The tournaments (tourney.ts): the list, and the one the page shows. */
  tourneys: TourneyList;
  tourney: TourneyPage | null;
  /** Play now's seek, while the page waits to be paired (null: none). */
  seek: Seek | null;
  skipAnim: boolean;
  /** The reaction each seat sent last, while it is shown (ms, client
   * clock); a line of talk is shown the same way, with its text. */
  reactions: ({ id: string; at: number; text?: string } | null)[];
  /** A resume went out on this connection and nothing has answered it:
   * an error now means the token is stale (messages.ts); the banner says
   * the seat is being taken back (chrome.ts). */
  resuming: boolean;
  /** Reactions shown (scopa.reactions is "off" when muted). */
  reactionsOn: boolean;
  /** Table talk (talk.ts): the lines said at this table, in order, and
   * the seats this page reported here. */
  talk: TalkLine[];
  reported: number[];
  /** Who is signed in, and the account page's data (account.ts). */
  account: AccountState;
  /** The scopa.* keys of localStorage as the page knows them (settings.ts
   * reads the player's settings from them). */
  stored: Readonly<Record<string, string>>;
}
