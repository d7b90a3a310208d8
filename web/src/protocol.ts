/*
 * protocol.ts -- the messages of `scopa serve`'s WebSocket (/ws), typed as
 * docs/CONTRACTS.md writes them, plus the card and move notation of
 * docs/RULES.md.  Nothing here touches the DOM or a socket: parse() takes the
 * text of one frame and returns a typed message or null, so it is tested
 * under node.
 *
 * What must stay true: every field CONTRACTS.md names is here with its exact
 * name and JSON type; fields and types we do not know are ignored (the
 * protocol grows), never an error.  The two extensions this client proposes
 * (hint, review) are marked EXTENSION and written down in docs/web.md.
 */

export const PROTOCOL = 1;

export type Suit = 'd' | 'c' | 's' | 'b';
export type Rank = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;
/** A card in record notation: rank digits then suit letter, "7d", "10b". */
export type Card = `${Rank}${Suit}`;

export const SUITS: readonly Suit[] = ['d', 'c', 's', 'b'];
export const RANKS: readonly Rank[] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** A move: the card played and the table cards it takes (none: laid). */
export interface Move {
  card: Card;
  takes: Card[];
}

export function isCard(s: unknown): s is Card {
  return typeof s === 'string' && /^(10|[1-9])[dcsb]$/.test(s);
}

export function rankOf(c: Card): Rank {
  return Number(c.slice(0, -1)) as Rank;
}

export function suitOf(c: Card): Suit {
  return c.slice(-1) as Suit;
}

/** "10bx3c+7b" -> {card: "10b", takes: ["3c", "7b"]}; null when malformed. */
export function parseMove(s: string): Move | null {
  const [card, rest, extra] = s.split('x');
  if (extra !== undefined || !isCard(card)) return null;
  if (rest === undefined) return { card, takes: [] };
  const takes = rest.split('+');
  if (!takes.every(isCard)) return null;
  return { card, takes };
}

export function formatMove(m: Move): string {
  return m.takes.length ? `${m.card}x${m.takes.join('+')}` : m.card;
}

/** The same move whatever the order of its captured cards. */
export function sameMove(a: Move, b: Move): boolean {
  if (a.card !== b.card || a.takes.length !== b.takes.length) return false;
  return a.takes.every((c) => b.takes.includes(c));
}

// ---- rules, round, scores: as in a record and a `scopa engine` request ----

/** A rules object as in a record: options left out take their defaults. */
export type Rules = { [option: string]: string | number | boolean };

export interface Round {
  dealer: number;
  table: Card[]; // the table cards as first dealt this round
  dealt?: Card[]; // every card dealt to this seat (absent for spectators)
  moves: string[]; // every move of this round so far, in record notation
}

export type Presence = 'here' | 'away' | 'bot';
export type Status = 'waiting' | 'playing' | 'finished';

export interface Points {
  scope: number;
  carte: number;
  denari: number;
  settebello: number;
  primiera: number;
  re_bello: number;
  napola: number;
  sevens: number;
  all_sevens: number;
}

/** One side of a scored round, as in `scopa replay --json`. */
export interface Side {
  cards: number;
  denari: number;
  settebello: boolean;
  primiera: number;
  scope: number;
  sevens: number;
  points: Points;
  round_total: number;
}

// ---- server to client ----

export interface HelloMsg {
  type: 'hello';
  protocol: number;
  version: string;
  /** scopa serve with accounts: the account this connection plays as
   * (its session cookie), null for a guest; absent: no accounts. */
  account?: string | null;
  id?: unknown;
}
export interface SeatedMsg {
  type: 'seated';
  code: string;
  seat: number;
  token: string;
  /** Not in CONTRACTS.md: the person's identity for the ratings, sent back
   * with `player` in create and join so the leaderboard knows them. */
  player?: string;
  id?: unknown;
}
/** scopa serve's `drawn` (docs/serve.md), from the library: what the
 * table shows, so the page plays no rule of its own. */
export interface Drawn {
  table: Card[]; // the table now
  hands: number[]; // per seat, cards in hand
  stock: number;
  piles: Card[][]; // per side, its captured cards (leftovers once the round is over)
  scope: Card[][]; // per side, the cards that made its scope, in order
  /** The round's last move; `words`: as played, in the connection's
   * language (scopa serve: scopa_played_words, "takes the 7 of ..."). */
  last: { seat: number; move: string; words?: string } | null;
  /** Once the round is over: per side, the cards behind its categories. */
  categories?: Categories[];
  /** With `legal` only (the seat to play): why each card of its hand plays as it does now (the
   * library's scopa_view_card_reason: "lay", "must_take", "match_first",
   * "sweep", "ace_taken", "choice", "not_playable"), with `words`, the
   * library's sentence in the connection's language.  Read defensively
   * (tableview.ts): a malformed entry is no reason, not a broken state. */
  reasons?: { card: Card; reason: string; words?: string }[];
}

/** One side's cards behind the round's categories (drawn.categories):
 * its coins, its sevens, its best card of each suit (d c s b, null for
 * a suit it lacks) with its primiera value. */
export interface Categories {
  denari: Card[];
  sevens: Card[];
  primiera: ({ card: Card; value: number } | null)[];
}

export interface StateMsg {
  type: 'state';
  code: string;
  seat: number | null;
  status: Status;
  seats: string[];
  presence: Presence[];
  to_play: number | null;
  seed_sha256: string;
  rules: Rules;
  scores: number[];
  /** scopa serve, once finished: every side's final points and the winner. */
  totals?: number[];
  winner?: number | null;
  round: Round | null;
  hand?: Card[];
  legal?: string[];
  /** scopa serve: each of `legal` as the library says it, in its order
   * ("Take the 7 of coins with your 7 of cups"), in the connection's
   * language and deck (the `lang` and `deck` it sent). */
  legal_words?: string[];
  /** What the table shows (null: a server that does not say). */
  drawn: Drawn | null;
  /** scopa serve (docs/serve.md): per seat, the seconds left before a bot
   * plays for an away person, else null. */
  away_seconds?: (number | null)[];
  /** scopa serve: per seat, the seconds since an away person left, else null. */
  away_for?: (number | null)[];
  /** scopa serve: per seat, true while nobody has taken that open seat. */
  open?: boolean[];
  /** scopa serve: the move clock's seconds per move (0: none), and the
   * seconds left to the seat to play when it runs (else null). */
  move_clock?: number;
  clock_left?: number | null;
  /** scopa serve, a time bank table: its seconds per seat and per move
   * given back (0: none); each seat's time left (ms, the seat to play's
   * counted down to when the state was made) and how long before the
   * seat to play's runs (a new round's grace, ms). */
  bank?: number;
  increment?: number;
  bank_ms?: number[];
  /** Table talk (docs/serve.md): whether the people seated may write. */
  talk?: boolean;
  bank_wait_ms?: number;
  /** scopa serve: the tournament this table is a game of (its id). */
  tournament?: string;
  /** scopa serve with accounts: whether this game changes ratings. */
  rated?: boolean;
  /** scopa serve, a finished game: null, or once someone asked to play
   * again, who said yes seat by seat; `next` the new table once it began. */
  rematch?: boolean[] | null;
  next?: string | null;
  /** scopa serve: the spectators, counted, and the names they gave. */
  watching?: { count: number; names: string[] };
  /** scopa serve: false at a table of people only, where hints are refused
   * (fair play: the others could not know); absent means allowed. */
  hints?: boolean;
  id?: unknown;
}
export interface RoundOverMsg {
  type: 'round_over';
  /** scopa serve: the table and the 0-based round (docs/serve.md). */
  code?: string;
  round?: number;
  sides: Side[];
  totals: number[];
  id?: unknown;
}
export interface GameOverMsg {
  type: 'game_over';
  totals: number[];
  winner: number | null;
  seed: string;
  id?: unknown;
}
/** scopa serve: everybody said yes to play again: the table moves to
 * `next` (a `seated` with the new token follows for each person). */
export interface RematchMsg {
  type: 'rematch';
  code: string;
  next: string;
  id?: unknown;
}
/** scopa serve: a person seated sent a reaction (a phrase's id). */
export interface ReactionMsg {
  type: 'reaction';
  code: string;
  seat: number;
  reaction: string;
  id?: unknown;
}
/** Table talk: one line of a person seated (never sent to spectators). */
export interface TalkLine {
  n: number;
  seat: number;
  text: string;
}
/** scopa serve: a person seated said a line (docs/serve.md "Table talk"). */
export interface SaidMsg extends TalkLine {
  type: 'said';
  code: string;
  id?: unknown;
}
/** What was said at the table before this connection sat (or came back). */
export interface TalkMsg {
  type: 'talk';
  code: string;
  lines: TalkLine[];
}
/** The answer to a report: recorded, with the words to say. */
export interface ReportedMsg {
  type: 'reported';
  code: string;
  seat: number;
  message: string;
  message_it?: string;
  id?: unknown;
}
/** scopa serve: something happened at the table (a bot takes an away
 * seat, the seat is back, the move clock ran out). */
export interface NoticeMsg {
  type: 'notice';
  message: string;
  message_it?: string;
  code?: string;
  seat?: number;
  id?: unknown;
}
export interface ErrorMsg {
  type: 'error';
  message: string;
  /** scopa serve: a short machine code ("stale_ply") and the Italian text. */
  code?: string;
  message_it?: string;
  id?: unknown;
}
/** EXTENSION (docs/web.md): the engine's best move for the asking seat;
 * `value` null where the bot has no estimate (docs/serve.md). */
export interface HintMsg {
  type: 'hint';
  move: string;
  value: number | null;
  /** scopa serve: what the move does (scopa.h scopa_move_why_json),
   * each of `moves` has its own, and its loss. */
  why?: unknown;
  /** scopa serve: the best move and what it does, in the library's words
   * ("Take ...: makes a scopa"); each move's too, with what its loss
   * means (`loss_words`) and the loss as an amount (`cost_words`). */
  words?: string;
  moves?: {
    move: string;
    value: number | null;
    loss?: number | null;
    loss_margin?: number | null;
    why?: unknown;
    words?: string;
    loss_words?: string;
    cost_words?: string;
  }[];
  /** scopa serve: how the given move stands against the others, in the
   * library's words (scopa.h scopa_hint_others_words). */
  others_words?: string;
  id?: unknown;
}
/** EXTENSION (docs/web.md): every move of a finished game with the bot's
 * evaluation: `loss` is the points the move cost by that evaluation. */
/** scopa serve's review of a finished game (docs/serve.md; scopa.h
 * scopa_match_review_json): every move valued from its mover's view, the
 * costly ones marked.  Read defensively (review.ts): every field may be
 * missing from another server. */
export interface ReviewMsg {
  type: 'review';
  code?: string;
  bot?: string;
  slip?: number; // cost from which a move is marked "?"
  blunder?: number; // cost from which a move is marked "??"
  rounds: {
    round?: number;
    dealer: number;
    moves: {
      ply?: number;
      seat: number;
      move: string;
      best: string;
      value: number | null; // null: the bot had no estimate there
      best_value?: number | null;
      cost?: number;
      loss: number;
      loss_margin?: number | null;
      mark?: string;
      table?: Card[]; // the table just before the move (issue 33)
      why?: unknown; // what the move played does (scopa_move_why_json)
      best_why?: unknown; // what the best move does
      // the library's sentences in the connection's words (docs/serve.md)
      words?: string; // the move and what it does
      move_words?: string; // the move alone
      best_words?: string; // the best move and what it does
      loss_words?: string; // what its cost means, with its doubt
      cost_words?: string; // the cost as an amount ("about 3/4 of a point")
    }[];
  }[];
  seats?: { seat: number; cost: number; marked: number }[];
  id?: unknown;
}

/** scopa serve's Play now (docs/serve.md): the seek this connection
 * waits with, as the server checked it; `waited` the seconds so far; once
 * `offer_after` seconds passed with nobody, `offer` is a bot level near
 * the seek's rating, to play instead. */
export interface SeekingMsg {
  type: 'seeking';
  rules: Rules;
  clock: { move_clock?: number; away_timeout?: number };
  players: number;
  waited: number;
  offer_after?: number;
  offer: string | null;
  id?: unknown;
}
/** Play now found company: the server joins this connection to `code`
 * (a `seated` and a `state` follow). */
export interface PairedMsg {
  type: 'paired';
  code: string;
  id?: unknown;
}
/** The seek is withdrawn (the answer to `unseek`). */
export interface UnseekedMsg {
  type: 'unseeked';
  id?: unknown;
}

/** A tournament's view (docs/serve.md "Running a tournament"): the
 * answer to every tournament message, read by tourney.ts. */
export interface TournamentMsg {
  type: 'tournament';
  id: string;
  [field: string]: unknown;
}

/** scopa serve answers a ping; used to tell a dead connection. */
export interface PongMsg {
  type: 'pong';
  id?: unknown;
}

export type ServerMsg =
  | PongMsg
  | NoticeMsg
  | HelloMsg
  | SeatedMsg
  | StateMsg
  | RoundOverMsg
  | GameOverMsg
  | ErrorMsg
  | HintMsg
  | ReviewMsg
  | RematchMsg
  | ReactionMsg
  | SeekingMsg
  | PairedMsg
  | UnseekedMsg
  | SaidMsg
  | TalkMsg
  | ReportedMsg
  | TournamentMsg;

// ---- client to server ----

export type SeatSpec = string; // 'me', 'open', or a bot name or level

/** What any message may add (docs/serve.md): the language and deck of
 * the sentences the table sends this connection. */
export interface ClientWords {
  lang?: string;
  deck?: string;
}

export type ClientMsg =
  | {
      type: 'create';
      rules: Rules;
      seats: SeatSpec[];
      name?: string;
      player?: string;
      /** seconds per move, 0: no clock (absent: the server's default) */
      move_clock?: number;
      /** a time bank instead: seconds per seat, and given back per move */
      bank?: number;
      increment?: number;
      /** listed in the lobby (GET /api/lobby) */
      public?: boolean;
      /** table talk on or off (absent: on unless public) */
      talk?: boolean;
      id?: number;
    }
  | { type: 'rematch'; accept: boolean; id?: number }
  /** Play now: be paired with strangers who seek the same game and clock */
  | {
      type: 'seek';
      rules: Rules;
      clock: { move_clock: number } | { bank: number; increment: number };
      name?: string;
      player?: string;
      id?: number;
    }
  | { type: 'unseek'; id?: number }
  /** tournaments (a signed-in account only) */
  | {
      type: 'tournament_create';
      format: string;
      rules: Rules;
      rounds?: number;
      minutes?: number;
      starts_in: number;
      name?: string;
      move_clock?: number;
      away_timeout?: number;
      rated?: boolean;
      seats?: number;
      id?: number;
    }
  | {
      type: 'tournament_join' | 'tournament_leave' | 'tournament_start';
      id: string;
      /** tournament_join of a Scopone pair: the other one's account name */
      partner?: string;
    }
  | { type: 'react'; reaction: string; id?: number }
  | { type: 'say'; text: string; id?: number }
  | { type: 'report'; seat: number; reason?: string; id?: number }
  | { type: 'join'; code: string; name?: string; player?: string; id?: number }
  | { type: 'resume'; code: string; token: string; id?: number }
  | { type: 'watch'; code: string; name?: string; id?: number }
  | { type: 'move'; move: string; ply: number; id?: number }
  | { type: 'ping'; id?: number } // answered by nothing we rely on; keeps NATs open
  | { type: 'hint'; id?: number } // EXTENSION
  | { type: 'review'; code: string; id?: number }; // EXTENSION

// ---- parsing: loose on extras, strict on what we use ----

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isArrOf = <T>(v: unknown, f: (x: unknown) => x is T): v is T[] =>
  Array.isArray(v) && v.every(f);
const isIntOrNull = (v: unknown): v is number | null => v === null || isInt(v);

function isRound(v: unknown): v is Round {
  return (
    isObj(v) &&
    isInt(v.dealer) &&
    isArrOf(v.table, isCard) &&
    (v.dealt === undefined || isArrOf(v.dealt, isCard)) &&
    isArrOf(v.moves, isStr)
  );
}

function isCategories(v: unknown): v is Categories {
  return (
    isObj(v) &&
    isArrOf(v.denari, isCard) &&
    isArrOf(v.sevens, isCard) &&
    isArrOf(
      v.primiera,
      (p): p is { card: Card; value: number } | null =>
        p === null || (isObj(p) && isCard(p.card) && isInt(p.value)),
    )
  );
}

function isDrawn(v: unknown): v is Drawn {
  return (
    isObj(v) &&
    isArrOf(v.table, isCard) &&
    isArrOf(v.hands, isInt) &&
    isInt(v.stock) &&
    isArrOf(v.piles, (p): p is Card[] => isArrOf(p, isCard)) &&
    isArrOf(v.scope, (p): p is Card[] => isArrOf(p, isCard)) &&
    (v.last === null || (isObj(v.last) && isInt(v.last.seat) && isStr(v.last.move))) &&
    (v.categories === undefined || isArrOf(v.categories, isCategories))
  );
}

function isTalkLine(v: unknown): v is TalkLine {
  return isObj(v) && isInt(v.n) && isInt(v.seat) && isStr(v.text);
}

function isSide(v: unknown): v is Side {
  return isObj(v) && isObj(v.points) && isInt(v.cards) && isInt(v.round_total);
}

const PRESENCE: readonly string[] = ['here', 'away', 'bot'];
const STATUS: readonly string[] = ['waiting', 'playing', 'finished'];

function checkState(m: Obj): boolean {
  // scopa serve names an open seat null: read it as an empty name
  if (Array.isArray(m.seats)) m.seats = (m.seats as unknown[]).map((x) => (x === null ? '' : x));
  return (
    isStr(m.code) &&
    isIntOrNull(m.seat) &&
    isStr(m.status) &&
    STATUS.includes(m.status) &&
    isArrOf(m.seats, isStr) &&
    isArrOf(m.presence, (p): p is Presence => isStr(p) && PRESENCE.includes(p)) &&
    isIntOrNull(m.to_play) &&
    isObj(m.rules) &&
    isArrOf(m.scores, isInt) &&
    (m.round === null || m.round === undefined || isRound(m.round)) &&
    (m.hand === undefined || isArrOf(m.hand, isCard)) &&
    (m.legal === undefined || isArrOf(m.legal, isStr))
  );
}

/** One text frame to a message we understand, or null (unknown type, or a
 * known type whose fields are not what CONTRACTS.md says). */
export function parse(text: string): ServerMsg | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(m) || !isStr(m.type)) return null;
  switch (m.type) {
    case 'hello':
      if (m.account !== null && !isStr(m.account)) delete m.account;
      return isInt(m.protocol) ? (m as unknown as HelloMsg) : null;
    case 'pong':
      return m as unknown as PongMsg;
    case 'seated':
      return isStr(m.code) && isInt(m.seat) && isStr(m.token) ? (m as unknown as SeatedMsg) : null;
    case 'state':
      if (!checkState(m)) return null;
      if (m.round === undefined) m.round = null;
      if (!isStr(m.seed_sha256)) m.seed_sha256 = '';
      if (!isDrawn(m.drawn)) m.drawn = null;
      // extensions read defensively: a malformed one is as if absent
      if (!isArrOf(m.rematch, (x) => typeof x === 'boolean')) m.rematch = null;
      if (!isStr(m.next)) m.next = null;
      if (typeof m.clock_left !== 'number') m.clock_left = null;
      if (!isArrOf(m.bank_ms, isInt)) delete m.bank_ms;
      if (!isInt(m.bank_wait_ms)) m.bank_wait_ms = 0;
      if (typeof m.rated !== 'boolean') delete m.rated;
      if (typeof m.talk !== 'boolean') delete m.talk;
      if (!isStr(m.tournament) || !m.tournament) delete m.tournament;
      if (!isObj(m.watching) || !isInt(m.watching.count) || !isArrOf(m.watching.names, isStr))
        delete m.watching;
      return m as unknown as StateMsg;
    case 'round_over':
      return isArrOf(m.sides, isSide) && isArrOf(m.totals, isInt)
        ? (m as unknown as RoundOverMsg)
        : null;
    case 'game_over':
      return isArrOf(m.totals, isInt) && isIntOrNull(m.winner)
        ? ({ ...m, seed: isStr(m.seed) ? m.seed : '' } as unknown as GameOverMsg)
        : null;
    case 'error':
      return isStr(m.message) ? (m as unknown as ErrorMsg) : null;
    case 'notice':
      return isStr(m.message) ? (m as unknown as NoticeMsg) : null;
    case 'hint':
      return isStr(m.move) && (typeof m.value === 'number' || m.value === null)
        ? (m as unknown as HintMsg)
        : null;
    case 'review':
      return Array.isArray(m.rounds) ? (m as unknown as ReviewMsg) : null;
    case 'rematch':
      return isStr(m.code) && isStr(m.next) ? (m as unknown as RematchMsg) : null;
    case 'reaction':
      return isStr(m.code) && isInt(m.seat) && isStr(m.reaction)
        ? (m as unknown as ReactionMsg)
        : null;
    case 'seeking':
      if (!isObj(m.rules) || !isInt(m.players)) return null;
      if (!isObj(m.clock)) m.clock = {};
      if (!isInt(m.waited)) m.waited = 0;
      if (!isStr(m.offer)) m.offer = null;
      return m as unknown as SeekingMsg;
    case 'paired':
      return isStr(m.code) && m.code !== '' ? (m as unknown as PairedMsg) : null;
    case 'unseeked':
      return m as unknown as UnseekedMsg;
    case 'said':
      return isStr(m.code) && isTalkLine(m) ? (m as unknown as SaidMsg) : null;
    case 'talk':
      return isStr(m.code) && isArrOf(m.lines, isTalkLine) ? (m as unknown as TalkMsg) : null;
    case 'reported':
      return isStr(m.code) && isInt(m.seat) && isStr(m.message)
        ? (m as unknown as ReportedMsg)
        : null;
    case 'tournament':
      return isStr(m.id) && m.id !== '' ? (m as unknown as TournamentMsg) : null;
    default:
      return null;
  }
}
