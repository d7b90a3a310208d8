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
import { type Card, type ReviewMsg, parse } from '../src/protocol.js';
import {
  type RecordDoc,
  dealtTable,
  markedSteps,
  reviewSteps,
  verdictOf,
  verdicts,
} from '../src/review.js';

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

test('records: the review steps through every move with the table before it (the deal: hands first, then the table)', () => {
  const deck = ['1d', '2d', '3d', '4d', '5d', '6d', '7d', '8d', '9d', '10d'] as Card[];
  // 2 players, 3 cards each: the 7th to 10th cards are the table
  assert.deepEqual(dealtTable(deck, {}), ['7d', '8d', '9d', '10d']);
  assert.deepEqual(dealtTable(deck, { game: 'scopone_scientifico' }), []);
  const rec = {
    format: 'scopa-record/1',
    rules: {},
    rounds: [
      {
        dealer: 1,
        deck: [...deck, ...deck.map((c) => c.replace('d', 'c') as Card)],
        moves: ['2dx2c', '1d', '8cx8d'],
      },
    ],
  };
  // seat 0 gets cards 0, 2, 4 of the deck: 1d 3d 5d; seat 1 2d 4d 6d (the
  // moves here only need to be readable, not legal)
  const steps = reviewSteps(rec);
  assert.equal(steps.length, 3);
  assert.equal(steps[0]!.seat, 0);
  assert.deepEqual(steps[0]!.before, ['7d', '8d', '9d', '10d']);
  assert.deepEqual(steps[2]!.before, ['7d', '8d', '9d', '10d', '1d']);
  assert.equal(steps[2]!.seat, 0);
});

test("contract serve review: every move of the record gets the server's verdict, the marked ones exactly the server's", () => {
  const steps = reviewSteps(record);
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
  const steps = reviewSteps(record);
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
  const steps = reviewSteps(record);
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
