// positions.test.ts -- the WebAssembly bots play the native bots' moves:
// 200 fixed positions (seeded games of the local table under eight sets
// of rules, 2 to 6 seats), each asked of every kind of bot with a node
// budget and a seed, as `scopa engine` requests (docs/engine.md): the same
// JSON line in gives the same answer line out, natively (build/scopa
// engine) and in WebAssembly (scopa_engine_answer in the module).  Every
// fifth request is a `hint`, whose values must agree to the last digit.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerMessage, Wasm } from '../engine.js';
import { loadWasm, native, rng } from './load.js';

const RULES: [unknown, number][] = [
  ['scopa', 2], ['scopone', 4], ['scientifico', 4], ['assi', 2],
  ['quindici', 2], ['escoba', 2], [{ players: 3 }, 3], [{ players: 6 }, 6],
];
const BOTS = ['random', 'greedy', 'rules', 'chitarrella', 'pimc', 'infer', 'best'];
const NODES = [2000, 10000, 40000, 100000];

/** The states where the person is to play in one seeded game. */
function positions(wasm: Wasm, game: number): ServerMessage[] {
  const [rules, players] = RULES[game % RULES.length]!;
  const pick = rng(game + 1);
  const seats = Array.from({ length: players }, () => 'greedy');
  seats[game % players] = 'me';
  const table = wasm.table();
  const found: ServerMessage[] = [];
  let messages = table.send({ type: 'create', rules, seats, seed: (game + 1).toString(16) });
  for (let guard = 0; guard < 2000; guard++) {
    const state = messages.filter((m) => m.type === 'state').pop();
    assert.ok(state, JSON.stringify(messages));
    if (state.status !== 'playing') break;
    if (state.to_play !== state.seat) {
      messages = table.step();
      continue;
    }
    found.push(state);
    const legal = state.legal as string[];
    messages = table.send({ type: 'move', move: legal[pick(legal.length)], ply: state.ply });
  }
  table.free();
  return found;
}

test('200 positions: the same request, the same answer natively and in WebAssembly', async (t) => {
  const wasm = await loadWasm();
  const pick = rng(2026);
  const requests: string[] = [];
  for (let game = 0; requests.length < 200; game++) {
    const states = positions(wasm, game);
    for (let k = 0; k < 4 && requests.length < 200; k++) {
      const s = states[pick(states.length)]!;
      const i = requests.length;
      requests.push(JSON.stringify({
        cmd: i % 5 === 4 ? 'hint' : 'go', id: i, bot: BOTS[i % BOTS.length],
        seed: pick(1 << 30), nodes: NODES[pick(NODES.length)],
        rules: s.rules, seat: s.seat, scores: s.scores, round: s.round,
      }));
    }
  }
  const engine = wasm.engine();
  const start = performance.now();
  const ours = requests.map((line) => engine.answer(line));
  const wasmMs = performance.now() - start;
  engine.free();
  const nativeStart = performance.now();
  const theirs = native(['engine'], requests.join('\n') + '\n').trimEnd().split('\n');
  const nativeMs = performance.now() - nativeStart;
  t.diagnostic(`the 200 answers: wasm ${wasmMs.toFixed(0)} ms, native ` +
    `${nativeMs.toFixed(0)} ms (its process included), ratio ${(nativeMs / wasmMs).toFixed(2)}`);
  assert.equal(theirs.length, 200);
  let searched = 0;
  for (let i = 0; i < 200; i++) {
    assert.equal(ours[i], theirs[i], `request ${i}: ${requests[i]}`);
    assert.ok(!theirs[i]!.includes('"error"'), theirs[i]);
    searched += /"bot":"(pimc|infer|best)"/.test(requests[i]!) ? 1 : 0;
  }
  assert.ok(searched >= 80, `${searched} searching requests`);
});
