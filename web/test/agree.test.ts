/*
 * agree.test.ts -- what the review screen draws of a finished game agrees
 * with the library on many random rounds (issue 33: the client replays
 * no rules; each step's mover and the table before it come with the
 * review, scopa_match_review_json): tests/web/state_oracle deals 600
 * rounds under random rules (every preset, random options on top), plays
 * them with random legal moves, and writes each state as scopa_state has
 * it beside the round's review, made by a scopa_match of its own.  Every
 * step review.ts makes of that review is compared with the library's
 * state before the move: the move, the seat to play and the table.
 *
 * The oracle is the native build's (SCOPA_STATE_ORACLE, by default
 * ../build/tests/web/state_oracle: web/check runs after the build).  A
 * missing oracle is a failure, never a skip.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Card, type ReviewMsg, type Round, type Rules, formatMove } from '../src/protocol.js';
import { reviewSteps } from '../src/review.js';

interface OracleState {
  table: Card[];
  to_play: number | null;
}

interface OracleRound {
  rules: Rules;
  round: Round;
  states: OracleState[];
  review: ReviewMsg['rounds'] | null;
}

const ORACLE = process.env['SCOPA_STATE_ORACLE'] ?? '../build/tests/web/state_oracle';
const ROUNDS = 600;

function oracleRounds(): OracleRound[] {
  assert.ok(
    existsSync(ORACLE),
    `${ORACLE} is missing: build it (ninja -C build state_oracle) or set SCOPA_STATE_ORACLE`,
  );
  const out = execFileSync(ORACLE, [String(ROUNDS), '23'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return out
    .split('\n')
    .filter((l) => l)
    .map((l) => JSON.parse(l) as OracleRound);
}

/** Compares one round's review steps with the library's states; returns
 * what differs (empty: agrees). */
function differences(o: OracleRound): string[] {
  const where = (k: number) => `${JSON.stringify(o.round)} before move ${k}`;
  if (!o.review) return [`no review (${where(0)})`];
  const steps = reviewSteps({ type: 'review', rounds: o.review });
  const out: string[] = [];
  if (steps.length !== o.round.moves.length)
    out.push(`${steps.length} steps for ${o.round.moves.length} moves (${where(0)})`);
  steps.forEach((st, k) => {
    const want = o.states[k];
    const got = {
      move: formatMove(st.move),
      seat: st.seat,
      table: st.before,
      of: st.of,
    };
    const lib = {
      move: o.round.moves[k],
      seat: want?.to_play,
      table: want?.table,
      of: o.round.moves.length,
    };
    for (const key of ['move', 'seat', 'table', 'of'] as const)
      if (JSON.stringify(got[key]) !== JSON.stringify(lib[key]))
        out.push(
          `${key}: review.ts ${JSON.stringify(got[key])}, library ${JSON.stringify(lib[key])} ` +
            `(${where(k)}, rules ${JSON.stringify(o.rules)})`,
        );
  });
  return out;
}

test("the review's steps (seat, table before each move) agree with the library on 600 random rounds", () => {
  const rounds = oracleRounds();
  assert.ok(rounds.length >= ROUNDS * 0.9, `the oracle wrote only ${rounds.length} rounds`);
  const games = new Set(rounds.map((o) => String(o.rules['game'])));
  assert.ok(games.size >= 3, `rounds of ${[...games].join(', ')} only`);
  let steps = 0;
  const wrong: string[] = [];
  for (const o of rounds) {
    steps += o.round.moves.length;
    wrong.push(...differences(o));
  }
  assert.ok(steps > ROUNDS * 20, `only ${steps} steps compared`);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} differences; the first ones above`);
});

test('the comparison fails on a review that draws the wrong table or seat', () => {
  // the check must be able to fail: the oracle's first round, its review
  // altered as a replaying client once erred (the table after the move,
  // the dealer as the first mover)
  const o = oracleRounds()[0]!;
  assert.deepEqual(differences(o), []);
  const after = o.review!.map((r) => ({
    ...r,
    moves: r.moves.map((m, i) => ({ ...m, table: o.states[i + 1]?.table ?? [] })),
  }));
  assert.ok(differences({ ...o, review: after }).some((d) => d.startsWith('table:')));
  const seat = o.review!.map((r) => ({
    ...r,
    moves: r.moves.map((m) => ({ ...m, seat: r.dealer })),
  }));
  assert.ok(differences({ ...o, review: seat }).some((d) => d.startsWith('seat:')));
  assert.ok(differences({ ...o, review: null }).length > 0);
});
