/*
 * moveswords.test.ts -- the round's moves in words and what a tap on a
 * pile shows (moveswords.ts), and the peek verb (verbs.ts).  Test names
 * cite docs/RULES.md or the hidden-information rule of docs/CONTRACTS.md
 * ("nothing sent ... names a card that its seat cannot know").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Card, StateMsg } from '../src/protocol.js';
import { tableView } from '../src/tableview.js';
import { movesWords, pileShown, playedMoves, seatOfMove } from '../src/moveswords.js';
import { after, drive, seated, state, verb } from './fixtures.js';

/** The sample table (dealer 1: Anna, seat 0, leads) after `moves`, with
 * the scope and piles the server would draw. */
function table(moves: string[], over: Partial<StateMsg> = {}, scope: Card[][] = [[], []]) {
  const s = after(moves, over);
  return tableView({ ...s, drawn: { ...s.drawn!, scope } });
}

test('moves-1.1 (RULES.md "Seats, sides, order"): the seat after the dealer leads, then in seat order', () => {
  assert.equal(seatOfMove(1, 2, 0), 0);
  assert.equal(seatOfMove(1, 2, 1), 1);
  assert.equal(seatOfMove(3, 4, 0), 0);
  assert.equal(seatOfMove(3, 4, 5), 1);
  assert.equal(seatOfMove(5, 6, 7), 1);
  const ps = playedMoves(table(['5sx5c', '6b', '2d']));
  assert.deepEqual(
    ps.map((p) => [p.seat, p.side, p.scopa]),
    [
      [0, 0, false],
      [1, 1, false],
      [0, 0, false],
    ],
  );
});

test('moves-1.2: a capture, a laid card, one line each in English and Italian, oldest first', () => {
  const v = table(['5sx5c', '6b']);
  assert.deepEqual(movesWords('en', v), [
    'Anna: 5 of swords takes 5 of cups',
    'best: 6 of clubs laid on the table',
  ]);
  assert.deepEqual(movesWords('it', v), [
    'Anna: 5 di spade prende 5 di coppe',
    'best: 6 di bastoni posato sul tavolo',
  ]);
  assert.deepEqual(movesWords('en', table([])), []);
});

test('moves-1.3 (RULES.md "Scopa"): a capture of several cards that swept the table says scopa (drawn.scope)', () => {
  const v = table(['7dx3c+4s', '2b'], {}, [['7d'], []]);
  assert.deepEqual(movesWords('en', v), [
    'Anna: 7 of coins takes 3 of cups and 4 of swords — scopa!',
    'best: 2 of clubs laid on the table',
  ]);
  assert.equal(movesWords('it', v)[0], 'Anna: 7 di denari prende 3 di coppe e 4 di spade — scopa!');
});

test('moves-1.4 (RULES.md ace_sweeps, asso piglia tutto): an ace taking the whole table, every card named', () => {
  const v = table(['3b', '1dx1c+3b+5c+6s+9d'], { rules: { ace_sweeps: true } }, [[], ['1d']]);
  assert.equal(
    movesWords('en', v)[1],
    'best: ace of coins takes ace of cups, 3 of clubs, 5 of cups, 6 of swords and horse of coins — scopa!',
  );
  assert.equal(
    movesWords('it', v)[1],
    'best: asso di denari prende asso di coppe, 3 di bastoni, 5 di coppe, 6 di spade e cavallo di denari — scopa!',
  );
});

test("moves-1.5: the list is the state's round.moves (a reload draws the same), a new round starts it again", () => {
  const v = table(['5sx5c', '6b']);
  const again = tableView(JSON.parse(JSON.stringify(after(['5sx5c', '6b']))) as StateMsg);
  assert.deepEqual(movesWords('en', again), movesWords('en', v));
  const next = state({ round: { dealer: 0, table: ['1c'], moves: [] } });
  assert.deepEqual(movesWords('en', tableView(next)), []);
});

test("pile-1.1: the viewer's own pile shows every card its side captured, its scope marked", () => {
  const v = table(['5sx5c', '6b', '2d', '6sx6b'], {}, [[], []]);
  const mine = pileShown(v, 0);
  assert.deepEqual(mine, { kind: 'all', side: 0, cards: ['5s', '5c'], scope: [] });
  const swept = table(['7dx3c+4s'], {}, [['7d'], []]);
  assert.deepEqual(pileShown(swept, 0), {
    kind: 'all',
    side: 0,
    cards: ['7d', '3c', '4s'],
    scope: ['7d'],
  });
});

test("pile-1.2 (CONTRACTS.md, hidden information): another side's pile shows its last capture alone", () => {
  // best takes twice; only the second capture is shown, never its whole pile
  const v = table(['2d', '9dx9c', '5sx5c', '6sx2d+4b']);
  const other = pileShown(v, 1);
  assert.equal(other.kind, 'last');
  if (other.kind !== 'last') return;
  assert.equal(other.last?.seat, 1);
  assert.deepEqual(other.last?.move, { card: '6s', takes: ['2d', '4b'] });
  assert.ok(!JSON.stringify(other).includes('9c'), 'an earlier capture is not shown');
  // before it captured anything: nothing
  assert.deepEqual(pileShown(table(['5sx5c', '6b']), 1), { kind: 'last', side: 1, last: null });
  // a laid card is no capture: the last capture stays the last one shown
  const laid = pileShown(table(['2d', '9dx9c', '5sx5c', '6b']), 1);
  assert.deepEqual(laid.kind === 'last' && laid.last?.move, { card: '9d', takes: ['9c'] });
});

test("pile-1.3: a spectator sees every side's last capture alone, no whole pile", () => {
  const v = table(['5sx5c', '9dx9c'], { seat: null, hand: undefined, legal: undefined });
  const a = pileShown(v, 0);
  const b = pileShown(v, 1);
  assert.equal(a.kind, 'last');
  assert.equal(b.kind, 'last');
  assert.deepEqual(a.kind === 'last' && a.last?.move, { card: '5s', takes: ['5c'] });
  assert.deepEqual(b.kind === 'last' && b.last?.move, { card: '9d', takes: ['9c'] });
});

test("pile-1.4 (RULES.md teams): at four, a partner's capture is the side's; the other side's last one alone", () => {
  const s = state({
    seats: ['Anna', 'b1', 'Carla', 'b3'],
    presence: ['here', 'bot', 'here', 'bot'],
    rules: { game: 'scopone', players: 4, teams: true },
    round: { dealer: 3, table: [], moves: ['5sx5c', '9dx9c', '2bx2c', '7sx3c+4c'] },
    drawn: {
      table: [],
      hands: [8, 8, 8, 8],
      stock: 0,
      piles: [
        ['5s', '5c', '2b', '2c'],
        ['9d', '9c', '7s', '3c', '4c'],
      ],
      scope: [[], ['7s']],
      last: { seat: 3, move: '7sx3c+4c' },
    },
  });
  const v = tableView(s);
  assert.equal(pileShown(v, 0).kind, 'all');
  const o = pileShown(v, 1);
  assert.deepEqual(o.kind === 'last' && [o.last?.seat, o.last?.move, o.last?.scopa], [
    3,
    { card: '7s', takes: ['3c', '4c'] },
    true,
  ]);
  assert.equal(movesWords('en', v)[2], 'Carla: 2 of clubs takes 2 of cups');
});

test('peek: a pile or the moves opened and closed by the verb; leaving the table closes it', () => {
  const d = drive(seated(), verb({ kind: 'peek', what: 1 }));
  assert.equal(d.model.peek, 1);
  d.on(verb({ kind: 'peek', what: 'moves' }));
  assert.equal(d.model.peek, 'moves');
  d.on(verb({ kind: 'peek', what: null }));
  assert.equal(d.model.peek, null);
  d.on(verb({ kind: 'peek', what: 0 }), verb({ kind: 'home' }));
  assert.equal(d.model.peek, null);
});
