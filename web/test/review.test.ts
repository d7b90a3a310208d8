/*
 * review.test.ts -- the review (review.ts) against a review that
 * `scopa serve` really sent: test/data/review-S.json is the server's
 * message after a 3-round game against the beginner bot (target 6), and
 * test/data/record-S.json that game's record from
 * /api/tables/CODE/record (captured with tests/server/serverlib.py).
 * The marks, costs and best moves the client attaches to each step must
 * be exactly the server's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ReviewMsg, formatMove, parse } from '../src/protocol.js';
import { type RecordDoc, markedSteps, reviewSteps, verdictOf, verdicts } from '../src/review.js';

const DATA = join(import.meta.dirname ?? '.', '../../test/data');
const record = JSON.parse(readFileSync(join(DATA, 'record-S.json'), 'utf8')) as RecordDoc;
const reviewText = readFileSync(join(DATA, 'review-S.json'), 'utf8');
const review = (): ReviewMsg => {
  const m = parse(reviewText);
  assert.ok(m && m.type === 'review');
  return m;
};
type RawMove = { ply: number; move: string; mark: string; cost: number; best: string };
const raw = JSON.parse(reviewText) as { rounds: { round: number; moves: RawMove[] }[] };

test('issue 33: the review steps through its moves with the seat and the table it gives (no replay here)', () => {
  const msg: ReviewMsg = {
    type: 'review',
    rounds: [
      {
        round: 0,
        dealer: 1,
        moves: [
          { ply: 0, seat: 0, move: '2dx2c', best: '2dx2c', value: 0, loss: 0, table: ['2c', '7d'] },
          { ply: 1, seat: 1, move: '1d', best: '1d', value: 0, loss: 0, table: ['7d'] },
          { ply: 2, seat: 0, move: '8cx1d+7d', best: '1d', value: 0, loss: 0, table: [] },
        ],
      },
    ],
  };
  const steps = reviewSteps(msg);
  assert.equal(steps.length, 3);
  assert.deepEqual(
    steps.map((s) => [s.round, s.index, s.seat, s.before, s.of]),
    [
      [0, 0, 0, ['2c', '7d'], 3],
      [0, 1, 1, ['7d'], 3],
      [0, 2, 0, [], 3],
    ],
  );
  // an unreadable table is no table, never a guessed one; a move without
  // a seat or a readable move is no step
  const odd = structuredClone(msg);
  (odd.rounds[0]!.moves[0] as { table: unknown }).table = ['2c', 'zz'];
  (odd.rounds[0]!.moves[1] as { seat: unknown }).seat = 'one';
  odd.rounds[0]!.moves[2]!.move = '8cx';
  const s2 = reviewSteps(odd);
  assert.equal(s2.length, 1);
  assert.equal(s2[0]!.before, null);
  // before a review there are no steps
  assert.deepEqual(reviewSteps(null), []);
  assert.deepEqual(reviewSteps({ type: 'review', rounds: 'x' } as unknown as ReviewMsg), []);
});

test('contract serve review: an older review without tables still steps through every move of the record', () => {
  // review-S.json was sent before the `table` field (issue 33): its steps
  // are the record's moves, each without a table
  const steps = reviewSteps(review());
  const moves = record.rounds.flatMap((rd, r) => rd.moves.map((m, i) => `${r}/${i} ${m}`));
  assert.deepEqual(
    steps.map((st) => `${st.round}/${st.index} ${formatMove(st.move)}`),
    moves,
  );
  assert.ok(steps.every((st) => st.before === null && st.of === 36));
});

test("contract serve review: every move of the record gets the server's verdict, the marked ones exactly the server's", () => {
  const steps = reviewSteps(review());
  assert.equal(steps.length, 108, 'three rounds of 36 moves');
  const { each, complete } = verdicts(review(), steps);
  assert.ok(complete, 'the review speaks of every move');
  // what the server marked, as (round, ply, move, mark, cost, best)
  const server = raw.rounds.flatMap((r) =>
    r.moves
      .filter((m) => m.mark !== '')
      .map((m) => `${r.round}/${m.ply} ${m.move} ${m.mark} ${m.cost} ${m.best}`),
  );
  const shown = markedSteps(each).map((i) => {
    const st = steps[i]!;
    const v = each[i]!;
    return `${st.round}/${st.index} ${st.move.card}${st.move.takes.length ? 'x' + st.move.takes.join('+') : ''} ${v.mark} ${v.cost} ${v.best}`;
  });
  assert.equal(server.length, 16);
  assert.deepEqual(shown, server);
  // a cost that prints as 1.00 but is under the server's blunder mark
  // stays "?": the mark is the server's, never re-derived from the text
  const r0p12 = each[steps.findIndex((s) => s.round === 0 && s.index === 12)]!;
  assert.equal(r0p12.mark, '?');
  assert.equal(r0p12.cost.toFixed(2), '1.00');
  // every unmarked move cost less than the server's slip
  each.forEach((v, i) => {
    if (v!.mark === '') assert.ok(v!.cost < 0.3, `step ${i}`);
  });
});

test('contract serve review: a review of other moves marks nothing', () => {
  const steps = reviewSteps(review());
  const other = review();
  // the same review against a record whose first move differs
  const first = steps[0]!;
  const moved = {
    ...first,
    move: { card: first.move.card === '1d' ? '2d' : '1d', takes: [] },
  } as typeof first;
  assert.equal(verdictOf(other, moved), null);
  assert.ok(verdictOf(other, first) !== null);
  // rounds out of place: no verdicts
  const shifted = {
    ...other,
    rounds: other.rounds.map((r) => ({ ...r, round: (r.round ?? 0) + 1 })),
  };
  assert.equal(verdicts(shifted, steps).complete, false);
  assert.equal(verdicts(null, steps).complete, false);
  assert.deepEqual(markedSteps(verdicts(null, steps).each), []);
});

test("contract serve review: without `mark` the server's own slip and blunder thresholds apply to the cost", () => {
  const steps = reviewSteps(review());
  const r = review();
  const bare = {
    ...r,
    slip: 0.5,
    blunder: 2,
    rounds: r.rounds.map((rd) => ({ ...rd, moves: rd.moves.map(({ mark: _m, ...m }) => m) })),
  };
  const { each } = verdicts(bare, steps);
  const want = raw.rounds.flatMap((rd) =>
    rd.moves.map((m) => (m.cost >= 2 ? '??' : m.cost >= 0.5 ? '?' : '')),
  );
  assert.deepEqual(
    each.map((v) => v!.mark),
    want,
  );
});
