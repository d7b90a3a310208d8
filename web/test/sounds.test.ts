/*
 * sounds.test.ts -- the sounds the reducer asks for (sounds.ts): a card
 * laid, a capture, a scopa, the viewer's turn, the end of a round; none
 * before the player's first gesture, none when muted (remembered in
 * scopa.mute), none for the moves of a table seen for the first time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Effect } from '../src/model.js';
import type { ServerMsg } from '../src/protocol.js';
import { after, drawnAfter, drive, only, seated, server, state, verb } from './fixtures.js';

const heard = (effects: Effect[]): string[] =>
  only(effects, 'sound').map((e) => (e as { name: string }).name);

const ROUND_OVER = {
  type: 'round_over',
  code: 'K7QX2M',
  round: 0,
  sides: [
    { cards: 0, coins: 0, settebello: false, primiera: 0, scope: 0 },
    { cards: 0, coins: 0, settebello: false, primiera: 0, scope: 0 },
  ],
  totals: [9, 5],
} as unknown as ServerMsg;

test('sounds: none before the first gesture, then a lay, a capture, my turn', () => {
  const quiet = drive(seated(), server(after(['7b'])));
  assert.deepEqual(heard(quiet.effects), [], 'no gesture yet');
  const d = drive(seated(), verb({ kind: 'cancel' })); // a gesture
  d.on(server(after(['7b'])));
  assert.deepEqual(heard(d.effects), ['play']);
  const back = state({
    round: {
      dealer: 1,
      table: ['1c', '5c', '6s', '9d'],
      dealt: ['2d', '5s', '7b'],
      moves: ['7b', '6sx1c+5c'],
    },
    hand: ['2d', '5s'],
    legal: ['2d', '5s'],
    drawn: drawnAfter(['7b', '6sx1c+5c']),
  });
  d.on(server(back, 2000));
  assert.deepEqual(heard(d.effects), ['play', 'capture', 'turn']);
});

test('sounds: a scopa is a scopa; the end of a round', () => {
  const d = drive(seated(), verb({ kind: 'cancel' }));
  const swept = after(['5sx5c'], {
    round: { dealer: 1, table: ['5c'], dealt: ['2d', '5s', '7b'], moves: ['5sx5c'] },
    drawn: {
      table: [],
      hands: [2, 3],
      stock: 30,
      piles: [['5s', '5c'], []],
      scope: [['5s'], []],
      last: { seat: 0, move: '5sx5c' },
    },
  });
  d.on(server(swept));
  assert.deepEqual(heard(d.effects), ['scopa']);
  d.on(server(ROUND_OVER, 2000));
  assert.deepEqual(heard(d.effects), ['scopa', 'round']);
});

test('sounds: muted (scopa.mute) nothing is heard; a reload hears no old move', () => {
  const d = drive(seated(), verb({ kind: 'toggleMute' }));
  assert.deepEqual(only(d.effects, 'store'), [{ kind: 'store', key: 'scopa.mute', value: '1' }]);
  d.on(server(after(['7b'])));
  assert.deepEqual(heard(d.effects), []);
  d.on(verb({ kind: 'toggleMute' }), server(after(['7b', '2c']), 2000));
  assert.deepEqual(heard(d.effects), ['play']);
  // a page that has seen no table yet: its first state makes no move sound
  const fresh = drive({ ...seated(), view: null, msg: null, gesture: true }, server(after(['7b'])));
  assert.deepEqual(heard(fresh.effects), []);
});
