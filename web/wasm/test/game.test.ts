// game.test.ts -- a whole game through the local table in WebAssembly:
// the person plays seeded choices, the bots (the levels) their own; the
// record it gives replays with the native `scopa replay --json` exactly
// (valid, finished, every move of every state announced, each round's
// sides and totals as round_over said them, the winner as game_over
// said); the seed's commitment is node's SHA-256 of the seed.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { ServerMessage } from '../engine.js';
import { loadWasm, native, rng } from './load.js';

test('a whole game against two levels replays with build/scopa replay', async () => {
  const wasm = await loadWasm();
  const table = wasm.table();
  assert.equal(table.hello().type, 'hello');
  const seed = '9e3779b97f4a7c15f39cc0605cedc834';
  const pick = rng(7);
  const all: ServerMessage[] = [];
  let messages = table.send({ type: 'create', rules: { players: 3, target: 11 },
    seats: ['esperto', 'me', 'intermedio'], name: 'Anna', seed, id: 1 });
  assert.equal(messages[0]!.type, 'seated');
  assert.equal(messages[0]!.id, 1);
  for (let guard = 0; guard < 5000; guard++) {
    all.push(...messages);
    const state = messages.filter((m) => m.type === 'state').pop();
    if (!state || state.status === 'finished') break;
    assert.equal(state.seed_sha256, createHash('sha256').update(seed).digest('hex'));
    if (state.to_play !== state.seat) {
      messages = table.step();
      assert.ok(messages.length > 0);
      continue;
    }
    const legal = state.legal as string[];
    messages = table.send({ type: 'move', move: legal[pick(legal.length)], ply: state.ply, id: guard });
    assert.equal(messages[0]!.id, guard);
  }
  const over = all.find((m) => m.type === 'game_over');
  assert.ok(over, 'the game ended');
  assert.equal(over.seed, seed);
  const rounds = all.filter((m) => m.type === 'round_over');

  const record = table.record();
  assert.ok(record);
  const replay = JSON.parse(native(['replay', '--json', '-'], record)) as {
    valid: boolean; finished: boolean; winner: number | null; totals: number[];
    rounds: { sides: unknown[]; totals: number[] }[];
  };
  assert.equal(replay.valid, true);
  assert.equal(replay.finished, true);
  assert.equal(replay.winner, over.winner);
  assert.deepEqual(replay.totals, over.totals);
  assert.equal(replay.rounds.length, rounds.length);
  replay.rounds.forEach((r, i) => {
    assert.deepEqual(r.sides, rounds[i]!.sides, `round ${i}`);
    assert.deepEqual(r.totals, rounds[i]!.totals, `round ${i}`);
  });
  /* Every move the states announced is the record's, in order. */
  const recorded = (JSON.parse(record) as { rounds: { moves: string[] }[] })
    .rounds.map((r) => r.moves);
  const last = new Map<number, string[]>();
  let round = 0;
  for (const m of all) {
    if (m.type === 'round_over') round++;
    if (m.type === 'state') last.set(round, (m.round as { moves: string[] }).moves);
  }
  recorded.forEach((moves, i) => assert.deepEqual(last.get(i), moves, `round ${i} moves`));
  /* Issue 33: the local table's states carry drawn as the server's do:
   * the 40 cards all in a hand, the stock, the table or a pile, the last
   * move the round's, and before each round_over each side's cards and
   * scope as it counts them. */
  type Drawn = { table: string[]; hands: number[]; stock: number; piles: string[][];
    scope: string[][]; last: { seat: number; move: string } | null };
  let before: Drawn | null = null;
  let checked = 0;
  for (const m of all) {
    if (m.type === 'round_over' && before) {
      const sides = m.sides as { cards: number; scope: number }[];
      assert.deepEqual(before.piles.map((p) => p.length), sides.map((x) => x.cards));
      assert.deepEqual(before.scope.map((p) => p.length), sides.map((x) => x.scope));
    }
    if (m.type !== 'state') continue;
    const d = m.drawn as Drawn;
    const moves = (m.round as { moves: string[] }).moves;
    const piled = d.piles.reduce((a, p) => a + p.length, 0);
    assert.equal(d.hands.reduce((a, n) => a + n, 0) + d.stock + d.table.length + piled, 40);
    assert.equal(d.hands[1], (m.hand as string[]).length);
    assert.equal(d.last?.move ?? null, moves.length ? moves[moves.length - 1] : null);
    before = d;
    checked++;
  }
  assert.ok(checked > 50, `${checked} states`);
  table.free();
});

test('the local table refuses what the server refuses', async () => {
  const wasm = await loadWasm();
  const table = wasm.table();
  const code = (m: object | string) => table.send(m)[0]?.code;
  assert.equal(code('{"type":'), 'bad_json');
  assert.equal(code({ type: 'create', seats: ['me', 'open'] }), 'bad_seats');
  assert.equal(code({ type: 'move', move: '7d', ply: 0 }), 'not_seated');
  table.send({ type: 'create', seats: ['me', 'best'], seed: '1' });
  assert.equal(code({ type: 'move', move: '7d', ply: 9 }), 'stale');
  assert.deepEqual(table.send({ type: 'nothing' }), []);
  table.free();
});
