/*
 * tableview.test.ts -- the headless table (tableview.ts), protocol parsing
 * (protocol.ts) and the rules table (rules.ts), under node's test runner.
 * Test names cite the rule of docs/RULES.md or the contract of
 * docs/CONTRACTS.md they check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type Card,
  type Drawn,
  type StateMsg,
  formatMove,
  parse,
  parseMove,
  sameMove,
} from '../src/protocol.js';
import {
  choices,
  itemise,
  layout,
  moveKey,
  pickCard,
  pickTableCard,
  selectedMove,
  tableView,
  shownScores,
} from '../src/tableview.js';
import { differences, effective, PRESETS, seatsOfSide, sideCount, sideOf } from '../src/rules.js';
import { LANGS, STRINGS, t, pickLang } from '../src/i18n.js';
import { state } from './fixtures.js';

test('notation: moves parse and print as RULES.md writes them', () => {
  assert.deepEqual(parseMove('10bx3c+7b'), { card: '10b', takes: ['3c', '7b'] });
  assert.deepEqual(parseMove('7s'), { card: '7s', takes: [] });
  assert.equal(parseMove('11b'), null);
  assert.equal(parseMove('7S'), null);
  assert.equal(parseMove('7sx'), null);
  assert.equal(parseMove('7sx3c+'), null);
  assert.equal(parseMove('7sx3cx4c'), null);
  assert.equal(formatMove({ card: '10b', takes: ['3c', '7b'] }), '10bx3c+7b');
  assert.ok(sameMove(parseMove('7dx3c+4s')!, parseMove('7dx4s+3c')!));
  assert.ok(!sameMove(parseMove('7dx3c+4s')!, parseMove('7dx7c')!));
});

/** The state message of fixtures.ts, as CONTRACTS.md writes it. */
const STATE = state();

test('contract serve: a state message as CONTRACTS.md writes it parses', () => {
  const m = parse(JSON.stringify(STATE));
  assert.ok(m && m.type === 'state');
  assert.equal(m.code, 'K7QX2M');
  assert.deepEqual(m.hand, ['2d', '5s', '7b']);
});

test('contract serve: unknown fields and types are ignored, broken messages refused', () => {
  const m = parse(JSON.stringify({ ...STATE, future_field: { x: 1 } }));
  assert.ok(m && m.type === 'state');
  assert.equal(parse(JSON.stringify({ type: 'tournament', x: 1 })), null);
  assert.equal(parse('not json'), null);
  assert.equal(parse(JSON.stringify({ ...STATE, hand: ['11d'] })), null);
  assert.equal(parse(JSON.stringify({ ...STATE, presence: ['gone', 'bot'] })), null);
  const spectator = { ...STATE, seat: null, round: { dealer: 1, table: [], moves: [] } } as Record<
    string,
    unknown
  >;
  delete spectator.hand;
  delete spectator.legal;
  const w = parse(JSON.stringify(spectator));
  assert.ok(w && w.type === 'state' && w.seat === null && w.hand === undefined);
  const go = parse(JSON.stringify({ type: 'game_over', totals: [11, 4], winner: 0, seed: 'ab12' }));
  assert.ok(go && go.type === 'game_over' && go.seed === 'ab12');
  const ro = parse(
    JSON.stringify({
      type: 'round_over',
      totals: [3, 1],
      sides: [
        {
          cards: 22,
          denari: 6,
          settebello: true,
          primiera: 78,
          scope: 0,
          sevens: 3,
          round_total: 3,
          points: {},
        },
        {
          cards: 18,
          denari: 4,
          settebello: false,
          primiera: 70,
          scope: 1,
          sevens: 1,
          round_total: 1,
          points: {},
        },
      ],
    }),
  );
  assert.ok(ro && ro.type === 'round_over' && ro.sides.length === 2);
  assert.equal(parse(JSON.stringify({ type: 'seated', code: 'K', seat: 0 })), null); // no token
  // scopa serve names an open seat null
  const open = parse(JSON.stringify({ ...STATE, status: 'waiting', seats: ['Anna', null] }));
  assert.ok(open && open.type === 'state');
  assert.deepEqual(open.seats, ['Anna', '']);
});

test('contract serve (docs/serve.md): a hint without an estimate has value null, and parses', () => {
  const h = parse(
    JSON.stringify({
      type: 'hint',
      move: '5sx5c',
      value: 0.42,
      moves: [{ move: '5sx5c', value: 0.42 }],
    }),
  );
  assert.ok(h && h.type === 'hint' && h.value === 0.42);
  const n = parse(
    JSON.stringify({
      type: 'hint',
      move: '5sx5c',
      value: null,
      moves: [{ move: '5sx5c', value: null }],
    }),
  );
  assert.ok(n && n.type === 'hint' && n.value === null);
  assert.equal(parse(JSON.stringify({ type: 'hint', move: '5sx5c', value: 'high' })), null);
});

/** A drawn with the server's reasons (the library's, drawn.reasons). */
function drawnWith(reasons: unknown): Drawn {
  return {
    table: [],
    hands: [3, 3],
    stock: 0,
    piles: [[], []],
    scope: [[], []],
    last: null,
    reasons,
  } as Drawn;
}

test("issue 33: why a card plays so is the server's reason and words, never decided here", () => {
  const d = drawnWith([
    { card: '5s', reason: 'match_first', words: 'A card of the same rank is on the table.' },
    { card: '2c', reason: 'lay', words: 'No capture.' },
  ]);
  const cs = choices(['5s', '2c'], ['5sx5b', '2c'], d);
  assert.equal(cs[0]!.options.length, 1);
  assert.deepEqual(
    cs.map((c) => [c.card, c.reason, c.words]),
    [
      ['5s', 'match_first', 'A card of the same rank is on the table.'],
      ['2c', 'lay', 'No capture.'],
    ],
  );
  // the same legal list with other reasons: the page says what it is told
  // (no rule of its own overrides the server's)
  const other = choices(
    ['5s'],
    ['5sx5b'],
    drawnWith([{ card: '5s', reason: 'must_take', words: 'Must.' }]),
  );
  assert.equal(other[0]!.reason, 'must_take');
  // no reasons (an older server), malformed ones: nothing to say
  assert.deepEqual(
    choices(['5s'], ['5sx5b'], drawnWith(undefined)).map((c) => [c.reason, c.words]),
    [[null, null]],
  );
  assert.deepEqual(
    choices(
      ['5s', '2c'],
      [],
      drawnWith([
        { card: 'zz', reason: 'lay' },
        7,
        { card: '2c', reason: 3 },
        { card: '5s', reason: 'lay', words: '' },
      ]),
    ).map((c) => [c.reason, c.words]),
    [
      ['lay', null],
      [null, null],
    ],
  );
  assert.deepEqual(choices(['5s'], [], null)[0]!.reason, null);
});

test('capture-2: several sets for one card cycle on each click, then wrap', () => {
  // seed 004, figure 2b: "the program lets you choose ... if you click again".
  const legal = ['9dx5c+1s+3b', '9dx5c+4b', '9dx1s+3b+5c+', '2c'].filter((m) => parseMove(m));
  const cs = choices(['9d', '2c'], legal, null);
  assert.equal(cs[0]!.options.length, 2);
  // fewest cards first
  assert.equal(formatMove(cs[0]!.options[0]!), '9dx5c+4b');
  let r = pickCard(cs, null, '9d');
  assert.equal(r.kind, 'select');
  let sel = r.kind === 'select' ? r.selection : null;
  assert.equal(formatMove(selectedMove(cs, sel)!), '9dx5c+4b');
  r = pickCard(cs, sel, '9d');
  sel = r.kind === 'select' ? r.selection : null;
  assert.equal(formatMove(selectedMove(cs, sel)!), '9dx5c+1s+3b');
  r = pickCard(cs, sel, '9d');
  sel = r.kind === 'select' ? r.selection : null;
  assert.equal(sel!.index, 0);
  // a single-move card plays at once
  const two = pickCard(cs, sel, '2c');
  assert.equal(two.kind, 'play');
});

test('capture-2: a click on a table card picks the next set that takes it', () => {
  const cs = choices(['9d'], ['9dx5c+4b', '9dx5c+1s+3b'], null);
  const sel = { card: '9d' as Card, index: 0 };
  const s2 = pickTableCard(cs, sel, '1s');
  assert.deepEqual(s2, { card: '9d', index: 1 });
  assert.deepEqual(pickTableCard(cs, s2, '5c'), { card: '9d', index: 0 });
  assert.equal(pickTableCard(cs, sel, '7d'), null);
});

test('mandatory_capture false: the lay is the last of the choices', () => {
  const free = choices(['7d'], ['7d', '7dx3c+4s'], null);
  assert.equal(free[0]!.options.length, 2);
  assert.equal(formatMove(free[0]!.options[1]!), '7d');
});

test('illegal plays are impossible: a card not in legal cannot be picked', () => {
  const cs = choices(['1d', '5s'], ['5s'], null);
  assert.equal(cs[0]!.options.length, 0);
  assert.equal(pickCard(cs, null, '1d').kind, 'none');
  assert.equal(pickCard(cs, null, '7d').kind, 'none');
});

test('seats: the next seat sits on the right, the partner opposite (2, 3, 4, 6 players)', () => {
  assert.deepEqual(layout(2, 0), ['bottom', 'top']);
  assert.deepEqual(layout(2, 1), ['top', 'bottom']);
  assert.deepEqual(layout(3, 2), ['top-right', 'top-left', 'bottom']);
  assert.deepEqual(layout(4, 1), ['left', 'bottom', 'right', 'top']);
  const r4 = effective({ players: 4, teams: true });
  assert.equal(layout(4, 1)[(1 + 2) % 4], 'top'); // partner of seat 1 is seat 3
  assert.equal(sideOf(r4, 3), sideOf(r4, 1));
  const six2 = effective({ players: 6, teams: true, team_size: 2 });
  assert.equal(sideCount(six2), 3);
  assert.deepEqual(seatsOfSide(six2, 0), [0, 3]);
  assert.equal(layout(6, 0)[3], 'top');
  const six3 = effective({ players: 6, teams: true, team_size: 3 });
  assert.deepEqual(seatsOfSide(six3, 1), [1, 3, 5]);
  assert.deepEqual(layout(6, 4), [
    'top-right',
    'top',
    'top-left',
    'bottom-left',
    'bottom',
    'bottom-right',
  ]);
  assert.equal(layout(4, null)[0], 'bottom'); // a spectator sees seat 0 at the bottom
});

test("presets and defaults: scopone plays 4 in teams, presets are RULES.md's", () => {
  const s = effective(PRESETS.scopone!);
  assert.equal(s.players, 4);
  assert.equal(s.teams, true);
  assert.equal(effective({}).target, 11);
  assert.equal(effective(PRESETS.escoba!).target, 21);
  assert.deepEqual(differences({ target: 21 }), [['target', 21]]);
  assert.deepEqual(differences(PRESETS.scopone!), []);
});

test("the round score's cards are the server's categories, and only when its counts agree", () => {
  const side = (cards: number, denari: number) => ({
    cards,
    denari,
    settebello: false,
    primiera: 0,
    scope: 0,
    sevens: 0,
    round_total: 0,
    points: {} as never,
  });
  const prim = (card: Card, value: number) => ({ card, value });
  const drawn: Drawn = {
    table: [],
    hands: [0, 0],
    stock: 0,
    piles: [
      ['7d', '10d', '1c'],
      ['2s', '5b'],
    ],
    scope: [['1c'], []],
    last: { seat: 1, move: '5b' },
    categories: [
      {
        denari: ['7d', '10d'],
        sevens: ['7d'],
        primiera: [prim('7d', 21), prim('1c', 16), null, null],
      },
      { denari: [], sevens: [], primiera: [null, null, prim('2s', 12), prim('5b', 15)] },
    ],
  };
  const it = itemise(drawn, [side(3, 2), side(2, 0)]);
  assert.ok(it);
  assert.equal(it.reBello, 0);
  assert.deepEqual(it.primiera[1]![3], { card: '5b', value: 15 });
  assert.deepEqual(it.scope, [['1c'], []]);
  // a round seen only in part, or a server without categories: numbers only
  assert.equal(itemise(drawn, [side(4, 2), side(2, 0)]), null);
  assert.equal(itemise({ ...drawn, categories: undefined }, [side(3, 2), side(2, 0)]), null);
  assert.equal(itemise(null, [side(3, 2), side(2, 0)]), null);
});

test('tableView: whose turn, the last move and the ply of the next move', () => {
  const drawn: Drawn = {
    table: ['1c', '5c', '6s', '9d', '9s'],
    hands: [2, 3],
    stock: 30,
    piles: [[], []],
    scope: [[], []],
    last: { seat: 0, move: '9s' },
  };
  const v = tableView({
    ...STATE,
    round: { dealer: 1, table: ['1c', '5c', '6s', '9d'], dealt: [], moves: ['9s'] },
    to_play: 1,
    legal: undefined,
    drawn,
  });
  assert.equal(v.myTurn, false);
  assert.deepEqual(v.lastMove, { seat: 0, move: { card: '9s', takes: [] }, words: null });
  assert.equal(v.ply, 1);
  // issue 33: the counts, the stock and the table are the server's, as sent
  assert.deepEqual(v.counts, [2, 3]);
  assert.equal(v.stock, 30);
  assert.deepEqual(v.drawn?.table, drawn.table);
  // a state without drawn (a server that does not say) draws no card
  const bare = tableView(parse(JSON.stringify({ ...STATE, drawn: undefined })) as StateMsg);
  assert.equal(bare.drawn, null);
  assert.deepEqual(bare.counts, [0, 0]);
  const mine = tableView(STATE);
  assert.equal(mine.myTurn, true);
  assert.equal(mine.ply, 0);
  assert.deepEqual(mine.slots, ['bottom', 'top']);
});

test("levels and reactions: the library's lists (the catalogue), each with words in both languages", async () => {
  const { LEVELS } = await import('../src/rules.js');
  const { CATALOGUE } = await import('../src/catalogue.gen.js');
  assert.deepEqual(
    LEVELS,
    CATALOGUE.levels.map((l) => l.name),
  );
  assert.ok(LEVELS.length >= 4);
  // the reactions too: the catalogue's ids, each with its words
  const { REACTIONS } = await import('../src/i18n.js');
  assert.deepEqual(REACTIONS, CATALOGUE.reactions);
  assert.ok(REACTIONS.length >= 9);
  for (const r of REACTIONS)
    for (const lang of LANGS)
      assert.ok((STRINGS[lang] as Record<string, string>)[`r_${r}`], `${lang} lacks r_${r}`);
  for (const l of LEVELS)
    for (const lang of LANGS)
      assert.ok((STRINGS[lang] as Record<string, string>)[`lv_${l}`], `${lang} lacks lv_${l}`);
});

test('i18n: Italian and English have the same keys, and the browser picks the language', () => {
  for (const l of LANGS)
    for (const k of Object.keys(STRINGS.en))
      assert.ok((STRINGS[l] as Record<string, string>)[k], `${l} lacks ${k}`);
  assert.equal(pickLang(['it-IT', 'en']), 'it');
  assert.equal(pickLang(['de-DE', 'en-US']), 'en');
  assert.equal(pickLang(['de-DE']), 'en');
  assert.equal(t('en', 'turnOf', { name: 'Anna' }), 'Anna to play');
});

test('contract serve: while a round score is open the sidebar shows its totals, not the scores from before the round', () => {
  const view = tableView(parse(JSON.stringify(STATE)) as StateMsg); // scores [3, 5]
  const ro = parse(JSON.stringify({ type: 'round_over', round: 2, sides: [], totals: [6, 7] }));
  assert.ok(ro && ro.type === 'round_over');
  assert.deepEqual(shownScores({ view, roundOver: null, gameOver: null }), [3, 5]);
  assert.deepEqual(
    shownScores({ view, roundOver: { msg: ro, drawn: null, rules: {} }, gameOver: null }),
    [6, 7],
  );
  const go = parse(JSON.stringify({ type: 'game_over', totals: [11, 7], winner: 0, seed: 'ab' }));
  assert.ok(go && go.type === 'game_over');
  // the last round's score first, then the result
  assert.deepEqual(
    shownScores({ view, roundOver: { msg: ro, drawn: null, rules: {} }, gameOver: go }),
    [6, 7],
  );
  assert.deepEqual(shownScores({ view, roundOver: null, gameOver: go }), [11, 7]);
});

test('seat names: an open seat is "Seat N"; a name two seats share is followed by the seat number', async () => {
  const { nameOf } = await import('../src/dom.js');
  const names = ['Tester', 'principiante', 'principiante', '', 'Anna'];
  assert.equal(nameOf(names, 0, 'en'), 'Tester');
  assert.equal(nameOf(names, 1, 'en'), 'Beginner 2');
  assert.equal(nameOf(names, 2, 'it'), 'Principiante 3');
  assert.equal(nameOf(names, 3, 'en'), 'Seat 4');
  assert.equal(nameOf(names, 4, 'en'), 'Anna');
  assert.equal(nameOf(['best', 'Anna'], 0, 'en'), 'best');
  // issue 34: the server's name for a nameless person, in the page's language
  assert.equal(nameOf(['Player 1', 'Giocatore 2'], 0, 'it'), 'Giocatore 1');
  assert.equal(nameOf(['Player 1', 'Giocatore 2'], 1, 'en'), 'Player 2');
  assert.equal(nameOf(['Player 3', 'x'], 0, 'it'), 'Player 3'); // not seat 1's default
});

test('a move described: the cards it takes as one list ("and"), not a comma that reads as two moves', async () => {
  const { describeMove } = await import('../src/dom.js');
  const { parseMove } = await import('../src/protocol.js');
  const m = parseMove('6cx2s+4s')!;
  assert.equal(describeMove('en', m), '6 of cups takes 2 of swords and 4 of swords');
  assert.equal(describeMove('it', m), '6 di coppe prende 2 di spade e 4 di spade');
  assert.equal(
    describeMove('en', parseMove('10bx1d+2c+7s')!),
    'king of clubs takes ace of coins, 2 of cups and 7 of swords',
  );
  assert.equal(describeMove('en', parseMove('5dx5c')!), '5 of coins takes 5 of cups');
  assert.equal(describeMove('en', parseMove('3b')!), '3 of clubs laid on the table');
});

test("tableView: the server's words of each legal move and of the last one (issue 33)", () => {
  const v = tableView({
    ...STATE,
    round: { dealer: 1, table: ['3c', '4s'], dealt: [], moves: ['9s'] },
    to_play: 0,
    hand: ['7b', '2d'],
    legal: ['7bx4s+3c', '2d'],
    legal_words: [
      'Take the 3 of cups and the 4 of swords with your 7 of clubs',
      'Lay the 2 of coins on the table',
    ],
    drawn: {
      table: ['3c', '4s'],
      hands: [2, 3],
      stock: 30,
      piles: [[], []],
      scope: [[], []],
      last: { seat: 1, move: '9s', words: 'lays the 9 of swords on the table' },
    },
  });
  // by the move, whatever the order of its taken cards
  assert.equal(
    v.legalWords.get(moveKey({ card: '7b', takes: ['3c', '4s'] })),
    'Take the 3 of cups and the 4 of swords with your 7 of clubs',
  );
  assert.equal(
    v.legalWords.get(moveKey({ card: '2d', takes: [] })),
    'Lay the 2 of coins on the table',
  );
  assert.equal(v.lastMove?.words, 'lays the 9 of swords on the table');
  // words that do not match legal one for one are not used
  const bad = tableView({ ...STATE, legal: ['2d'], legal_words: ['a', 'b'] });
  assert.equal(bad.legalWords.size, 0);
});
