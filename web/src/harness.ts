/*
 * harness.ts -- development page (harness.html, served by `npx vite` only,
 * never built into dist/): ?view=cards shows the whole deck; the other views
 * feed saved messages in the CONTRACTS.md shape to the real client (main.ts)
 * through a fake transport, to look at screens without a server.  It tests
 * nothing about the server.
 */
import { backSvg, cardSvg, deckStyle, loadDeck } from './cards.js';
import { RANKS, SUITS, type ServerMsg } from './protocol.js';
import type { Transport, TransportEvents } from './transport.js';
import { startApp } from './main.js';
import { SAMPLE_SIDE, sampleState } from './samples.js';

const q = new URLSearchParams(location.search);
const view = q.get('view') ?? 'cards';
const app = document.getElementById('app')!;

/** A transport with no server behind it: open at once; what the page
 * sends is logged. */
function fakeTransport(events: TransportEvents): Transport {
  return {
    connect: () =>
      setTimeout(() => {
        events.status({ kind: 'open' });
        events.opened();
      }, 0),
    stop: () => undefined,
    send: (m) => {
      console.log('sent', m);
      return false;
    },
    move: (move, ply) => console.log('move', move, ply),
  };
}

const base = sampleState();

const mid = {
  ...base,
  round: {
    dealer: 1,
    table: ['1c', '5c', '6s', '9d'],
    dealt: ['2d', '5s', '7b', '9b', '4c', '3b'],
    moves: ['5sx5c', '8b', '2d', '1s', '7bx6s+1c', '3s', '4s', '4b'],
  },
  hand: ['9b', '4c', '3b'],
  legal: ['9bx9d', '4cx4s', '4cx1s+3s', '4cx4b', '3bx3s'],
  drawn: {
    table: ['9d', '8b', '2d', '1s', '3s', '4s', '4b'],
    hands: [3, 2],
    stock: 24,
    piles: [['5s', '5c', '7b', '6s', '1c'], []],
    scope: [[], []],
    last: { seat: 1, move: '4b' },
  },
};

function msgs(): object[] {
  switch (view) {
    case 'table':
      return [mid];
    case 'opponent':
      return [
        {
          ...mid,
          to_play: 1,
          legal: undefined,
          presence: ['here', 'away'],
          away_seconds: [null, 45],
        },
      ];
    case 'round': {
      const sides = [
        SAMPLE_SIDE,
        {
          cards: 18,
          denari: 4,
          settebello: false,
          primiera: 66,
          scope: 0,
          sevens: 1,
          points: {
            scope: 0,
            carte: 0,
            denari: 0,
            settebello: 0,
            primiera: 0,
            re_bello: 0,
            napola: 0,
            sevens: 0,
            all_sevens: 0,
          },
          round_total: 0,
        },
      ];
      return [mid, { type: 'round_over', sides, totals: [9, 5] }];
    }
    case 'result':
      return [
        { ...mid, status: 'finished', to_play: null, legal: undefined, hand: [] },
        {
          type: 'game_over',
          totals: [12, 8],
          winner: 0,
          seed: '4d902d9101e9bb90aa31c0ffee12345678',
        },
      ];
    case 'scopone':
      return [
        {
          ...base,
          seat: 1,
          seats: ['Anna', 'Bruno', 'Carla', 'Dario'],
          presence: ['here', 'here', 'bot', 'away'],
          to_play: 1,
          rules: { game: 'scopone' },
          scores: [4, 7],
          round: {
            dealer: 0,
            table: ['1c', '5c', '6s', '9d'],
            dealt: ['2d', '5s', '7b', '9b', '4c', '3b', '10d', '8c', '6d'],
            moves: ['9bx9d'],
          },
          drawn: {
            table: ['1c', '5c', '6s'],
            hands: [9, 9, 8, 9],
            stock: 0,
            piles: [[], ['9b', '9d']],
            scope: [[], []],
            last: { seat: 1, move: '9bx9d' },
          },
          hand: ['2d', '5s', '7b', '4c', '3b', '10d', '8c', '6d', '1b'],
          legal: [
            '5sx5c',
            '7bx1c+6s',
            '6dx6s',
            '6dx1c+5c',
            '2d',
            '4c',
            '3b',
            '10d',
            '8c',
            '1b',
          ].filter((m) => !['2d', '4c', '3b', '10d', '8c', '1b'].includes(m)),
        },
      ];
    case 'six':
      return [
        {
          ...base,
          seat: 2,
          seats: ['Anna', 'Bruno', 'Carla', 'Dario', 'Elena', 'Franco'],
          presence: ['here', 'bot', 'here', 'bot', 'away', 'here'],
          away_seconds: [null, null, null, null, 42, null],
          to_play: 2,
          rules: { players: 6, teams: true, team_size: 2 },
          scores: [2, 4, 1],
          round: {
            dealer: 1,
            table: ['1c', '5c', '6s', '9d'],
            dealt: ['2d', '5s', '7b'],
            moves: ['9bx9d'],
          },
          drawn: {
            table: ['1c', '5c', '6s'],
            hands: [3, 3, 3, 3, 3, 3],
            stock: 18,
            piles: [[], [], ['9b', '9d']],
            scope: [[], [], []],
            last: { seat: 2, move: '9bx9d' },
          },
          hand: ['2d', '5s', '7b'],
          legal: ['5sx5c', '7bx1c+6s', '2d'],
        },
      ];
    case 'watch':
      return [
        {
          ...mid,
          seat: null,
          hand: undefined,
          legal: undefined,
          round: { ...mid.round, dealt: undefined },
        },
      ];
    case 'waiting':
      return [
        {
          ...base,
          status: 'waiting',
          to_play: null,
          seats: ['Anna', ''],
          presence: ['here', 'away'],
          round: null,
          hand: [],
          legal: undefined,
        },
      ];
    default:
      return [];
  }
}

if (view === 'cards') {
  await loadDeck(deckStyle(q.get('deck') ?? undefined), document);
  document.body.style.background = '#0d4d2b';
  const size = q.get('w') ?? '90';
  app.innerHTML = SUITS.map(
    (s) =>
      `<div style="display:flex;gap:6px;margin:6px">${RANKS.map(
        (r) => `<div style="width:${size}px">${cardSvg(`${r}${s}`)}</div>`,
      ).join('')}<div style="width:${size}px">${backSvg()}</div></div>`,
  ).join('');
} else {
  if (q.get('lang')) localStorage.setItem('scopa.lang', q.get('lang')!);
  if (q.get('deck')) localStorage.setItem('scopa.deck', q.get('deck')!);
  const a = startApp(app, { transport: fakeTransport });
  // as if at the saved table's address: the client ignores states of a
  // table it is not at (the address bar keeps /harness.html)
  const search = view === 'watch' ? '?watch' : '';
  a.dispatch({ kind: 'route', url: { path: `/t/${base.code}`, search, hash: '' } });
  setTimeout(() => {
    for (const m of msgs()) a.dispatch({ kind: 'server', msg: m as ServerMsg, now: Date.now() });
  }, 50);
}
