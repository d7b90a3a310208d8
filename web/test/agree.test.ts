/*
 * agree.test.ts -- the client's replay (state.ts, left for the review's
 * steps through a finished game's record, where no server state is at
 * hand; the live table draws the server's drawn) agrees with the library
 * on many random rounds: the table, the piles and the scope it replays
 * from a round alone must be what the library plays:
 * tests/web/state_oracle deals 600 rounds under random rules (every
 * preset, random options on top), plays them with random legal moves and
 * writes each state and the final score as the library has them; every
 * one is compared.
 *
 * The oracle is the native build's (SCOPA_STATE_ORACLE, by default
 * ../build/tests/web/state_oracle: web/check runs after the build).  A
 * missing oracle is a failure, never a skip.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Card, type Round, type Rules, SUITS, rankOf, suitOf } from '../src/protocol.js';
import { replay } from '../src/state.js';

interface OracleState {
  table: Card[];
  piles: Card[][];
  scope: number[];
  hands: number[];
  stock: number;
  to_play: number | null;
}

interface OracleSide {
  cards: number;
  denari: number;
  settebello: boolean;
  primiera: number;
  sevens: number;
  scope: number;
}

interface OracleRound {
  rules: Rules;
  round: Round;
  states: OracleState[];
  score: OracleSide[];
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

/** The library's card order: rank-major, suits d c s b. */
const cardIndex = (c: Card): number => (rankOf(c) - 1) * 4 + SUITS.indexOf(suitOf(c));
const sorted = (cs: readonly Card[]): Card[] => [...cs].sort((a, b) => cardIndex(a) - cardIndex(b));

/** Compares one round, state by state; returns what differs (empty: agrees). */
function differences(o: OracleRound): string[] {
  const out: string[] = [];
  const rules = o.rules;
  const where = (k: number) => `${JSON.stringify(o.round)} after ${k} moves`;
  o.states.forEach((want, k) => {
    const round: Round = { ...o.round, moves: o.round.moves.slice(0, k) };
    const rep = replay(round, rules);
    const got = {
      table: sorted(rep.table),
      piles: rep.piles.map(sorted),
      scope: rep.scope.map((s) => s.length),
    };
    for (const key of ['table', 'piles', 'scope'] as const)
      if (JSON.stringify(got[key]) !== JSON.stringify(want[key]))
        out.push(
          `${key}: state.ts ${JSON.stringify(got[key])}, library ${JSON.stringify(want[key])} ` +
            `(${where(k)})`,
        );
  });
  // the whole round: each side's pile and scope as the library scored it
  const rep = replay(o.round, rules);
  o.score.forEach((want, side) => {
    const pile = rep.piles[side] ?? [];
    const got = {
      cards: pile.length,
      denari: pile.filter((c) => suitOf(c) === 'd').length,
      scope: rep.scope[side]?.length,
    };
    for (const key of ['cards', 'denari', 'scope'] as const) {
      if (got[key] !== want[key])
        out.push(
          `score ${key} of side ${side}: state.ts ${got[key]}, library ${want[key]} ` +
            `(${where(o.round.moves.length)}, rules ${JSON.stringify(rules)})`,
        );
    }
  });
  return out;
}

test('state.ts replays 600 random rounds as the library plays and scores them (the review steps through records so)', () => {
  const rounds = oracleRounds();
  assert.ok(rounds.length >= ROUNDS * 0.9, `the oracle wrote only ${rounds.length} rounds`);
  const games = new Set(rounds.map((o) => String(o.rules['game'])));
  assert.ok(games.size >= 3, `rounds of ${[...games].join(', ')} only`);
  let states = 0;
  const wrong: string[] = [];
  for (const o of rounds) {
    states += o.states.length;
    wrong.push(...differences(o));
  }
  assert.ok(states > ROUNDS * 20, `only ${states} states compared`);
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} differences; the first ones above`);
});
