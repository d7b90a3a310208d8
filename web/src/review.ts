/*
 * review.ts -- the review of a finished game, headless: every move the
 * server's review message speaks of, with who played it and the table
 * before it as the review says them (issue 33: the library's
 * scopa_match_review_json carries each move's seat and table; the client
 * replays no rules), and the bot's verdict on each (docs/serve.md: value,
 * best, cost, mark "?" from `slip` points of cost, "??" from `blunder`).
 *
 * What must stay true: the steps, the tables and the marks shown are the
 * server's.  A verdict is attached to a move only when the review names
 * that very move at that place (round, ply); a review of other moves
 * marks nothing.  The client never marks a move by a threshold of its own
 * while the server sends its mark (only an older server without `mark`
 * gets the server's own slip and blunder thresholds applied to its cost).
 * A review from a server older than the `table` field steps through its
 * moves without a table (before is null), never a guessed one.
 */
import {
  type Card,
  type Move,
  type ReviewMsg,
  type Rules,
  isCard,
  parseMove,
  sameMove,
} from './protocol.js';

/** A game record (RULES.md "Game records"), as much as the page reads. */
export interface RecordDoc {
  format: string;
  rules: Rules;
  seats?: string[];
  rounds: { dealer: number; deck: Card[]; moves: string[] }[];
  seed?: string;
}

export interface ReviewStep {
  round: number; // 0-based
  index: number; // the move's index in its round (its ply)
  seat: number;
  move: Move;
  /** The table just before the move, as the review says it (null from a
   * server without the field). */
  before: Card[] | null;
  /** Moves of this round in the review. */
  of: number;
}

/** The review's cards, or null when the field is not a list of cards. */
function cardsOf(x: unknown): Card[] | null {
  if (!Array.isArray(x)) return null;
  const out: Card[] = [];
  for (const c of x) {
    if (!isCard(c)) return null;
    out.push(c);
  }
  return out;
}

/** Every move the review speaks of, in order, for stepping through:
 * the review's own order, each with its seat and table. */
export function reviewSteps(review: ReviewMsg | null): ReviewStep[] {
  const out: ReviewStep[] = [];
  const rounds = Array.isArray(review?.rounds) ? review.rounds : [];
  rounds.forEach((rd, k) => {
    const moves = Array.isArray(rd?.moves) ? rd.moves : [];
    const round = typeof rd?.round === 'number' ? rd.round : k;
    const first = out.length;
    moves.forEach((m, i) => {
      const move = typeof m?.move === 'string' ? parseMove(m.move) : null;
      if (!move || typeof m.seat !== 'number') return;
      const index = typeof m.ply === 'number' ? m.ply : i;
      out.push({ round, index, seat: m.seat, move, before: cardsOf(m.table), of: 0 });
    });
    for (let j = first; j < out.length; j++) out[j]!.of = moves.length;
  });
  return out;
}

export type Mark = '' | '?' | '??';

/** The bot's verdict on one move. */
export interface Verdict {
  mark: Mark; // '' for a move that cost (almost) nothing
  cost: number; // expected points of the round the move cost its side
  best: string; // the bot's move there
  margin: number; // the cost's uncertainty (NaN when not sent)
  /** The server's sentences (docs/serve.md, the library's words in the
   * page's language): the move and what it does, the move alone, the
   * best move and what it does, what the loss means, the cost as an
   * amount.  null from a server without them. */
  words: string | null;
  moveWords: string | null;
  bestWords: string | null;
  lossWords: string | null;
  costWords: string | null;
}

const str = (x: unknown): string | null => (typeof x === 'string' && x ? x : null);

/** The server's thresholds (scopa.h scopa_match_review_json), for a
 * review that carries costs without marks. */
const SLIP = 0.3;
const BLUNDER = 1.0;

type ReviewMove = ReviewMsg['rounds'][number]['moves'][number];

function finite(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function roundOf(review: ReviewMsg, round: number): ReviewMsg['rounds'][number] | undefined {
  const rs = Array.isArray(review.rounds) ? review.rounds : [];
  return (
    rs.find((r) => r?.round === round) ??
    (rs.every((r) => r?.round === undefined) ? rs[round] : undefined)
  );
}

function moveOf(moves: ReviewMove[], ply: number): ReviewMove | undefined {
  return (
    moves.find((m) => m?.ply === ply) ??
    (moves.every((m) => m?.ply === undefined) ? moves[ply] : undefined)
  );
}

/** The server's verdict on a step, or null when its review does not
 * speak of that move (no review, another move at that place, a field of
 * the wrong kind). */
export function verdictOf(review: ReviewMsg | null, st: ReviewStep): Verdict | null {
  if (!review) return null;
  const rd = roundOf(review, st.round);
  if (!rd || !Array.isArray(rd.moves)) return null;
  const m = moveOf(rd.moves, st.index);
  if (!m || typeof m.move !== 'string') return null;
  const played = parseMove(m.move);
  if (!played || !sameMove(played, st.move)) return null;
  const cost = finite(m.cost) ?? finite(m.loss);
  if (cost === null) return null;
  let mark: Mark;
  if (m.mark === '' || m.mark === '?' || m.mark === '??') mark = m.mark;
  else {
    const slip = finite(review.slip) ?? SLIP;
    const blunder = finite(review.blunder) ?? BLUNDER;
    mark = cost >= blunder ? '??' : cost >= slip ? '?' : '';
  }
  return {
    mark,
    cost,
    best: typeof m.best === 'string' ? m.best : '',
    margin: finite(m.loss_margin) ?? NaN,
    words: str(m.words),
    moveWords: str(m.move_words),
    bestWords: str(m.best_words),
    lossWords: str(m.loss_words),
    costWords: str(m.cost_words),
  };
}

/** Each step's verdict, and whether the review speaks of every move. */
export function verdicts(
  review: ReviewMsg | null,
  steps: readonly ReviewStep[],
): { each: (Verdict | null)[]; complete: boolean } {
  const each = steps.map((st) => verdictOf(review, st));
  return { each, complete: steps.length > 0 && each.every((v) => v !== null) };
}

/** The steps the server marked (their indexes in `steps`), in order. */
export function markedSteps(each: readonly (Verdict | null)[]): number[] {
  const out: number[] = [];
  each.forEach((v, i) => {
    if (v && v.mark !== '') out.push(i);
  });
  return out;
}
