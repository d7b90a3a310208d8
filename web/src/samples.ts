/*
 * samples.ts -- saved server messages in the CONTRACTS.md shape, for the
 * development page (harness.ts) and the unit tests (test/fixtures.ts,
 * reduce.test.ts): one two-player table and one side's round score, so the
 * page a developer looks at and the tests agree on what a message is.
 * Data only; no screen of the client imports it.
 */
import type { Side, StateMsg } from './protocol.js';

export const SAMPLE_CODE = 'K7QX2M';

/** Seat 0 to play at K7QX2M: 5s can take 5c; 2d and 7b are laid. */
export function sampleState(over: Partial<StateMsg> = {}): StateMsg {
  return {
    type: 'state',
    code: SAMPLE_CODE,
    seat: 0,
    status: 'playing',
    seats: ['Anna', 'best'],
    presence: ['here', 'bot'],
    to_play: 0,
    seed_sha256: '9f2c4be0a1d3c5e7f9a0b2c4d6e8f0a1b3c5d7e9f1a3b5c7d9e1f3a5b7c9d1e3',
    rules: {},
    scores: [3, 5],
    round: { dealer: 1, table: ['1c', '5c', '6s', '9d'], dealt: ['2d', '5s', '7b'], moves: [] },
    hand: ['2d', '5s', '7b'],
    legal: ['5sx5c', '2d', '7b'],
    drawn: {
      table: ['1c', '5c', '6s', '9d'],
      hands: [3, 3],
      stock: 30,
      piles: [[], []],
      scope: [[], []],
      last: null,
    },
    ...over,
  };
}

/** One side's round score as round_over sends it: 22 cards, 6 coins, the
 * settebello, primiera 78, two scope. */
export const SAMPLE_SIDE: Side = {
  cards: 22,
  denari: 6,
  settebello: true,
  primiera: 78,
  scope: 2,
  sevens: 3,
  points: {
    scope: 2,
    carte: 1,
    denari: 1,
    settebello: 1,
    primiera: 1,
    re_bello: 0,
    napola: 0,
    sevens: 0,
    all_sevens: 0,
  },
  round_total: 6,
};
