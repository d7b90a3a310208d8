/*
 * verbs.test.ts -- the player's verbs (verbs.ts) through the reducer:
 * picking and playing cards only from the legal list, with the state's ply;
 * hints and reviews; creating (with rules the server would refuse, too),
 * joining and watching tables; the settings remembered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { reviewSteps, type RecordDoc } from '../src/review.js';
import type { ReviewMsg } from '../src/protocol.js';
import { PRESETS } from '../src/rules.js';
import { presetOf } from '../src/verbs.js';
import { CODE, after, drive, fresh, only, seated, sent, server, state, verb } from './fixtures.js';

// ------------------------------------------------------------------ cards --

test('pick: a card with one legal move is picked first, a second click plays it, with the ply and round of its state', () => {
  const d = drive(seated(), verb({ kind: 'pick', card: '7b' }));
  assert.deepEqual(only(d.effects, 'move'), []);
  assert.deepEqual(d.model.selection, { card: '7b', index: 0 });
  assert.equal(d.model.explain, '7b');
  d.on(verb({ kind: 'pick', card: '7b' }));
  assert.deepEqual(only(d.effects, 'move'), [{ kind: 'move', move: '7b', ply: 0, round: 1 }]);
  assert.equal(d.model.pending, '7b');
  assert.equal(d.model.selection, null);
  // the hand waits for the answer: another pick only explains
  d.on(verb({ kind: 'pick', card: '2d' }), verb({ kind: 'pick', card: '2d' }));
  assert.equal(only(d.effects, 'move').length, 1);
  assert.equal(d.model.explain, '2d');
});

test('pick: a card with one move, picked, is played by confirm (Enter); another card moves the pick', () => {
  const d = drive(seated(), verb({ kind: 'pick', card: '7b' }), verb({ kind: 'pick', card: '2d' }));
  assert.deepEqual(only(d.effects, 'move'), []);
  assert.deepEqual(d.model.selection, { card: '2d', index: 0 });
  d.on(verb({ kind: 'confirm' }));
  assert.deepEqual(only(d.effects, 'move'), [{ kind: 'move', move: '2d', ply: 0, round: 1 }]);
});

test('pick by its digit key (look) never plays: the card stays picked until Enter', () => {
  const d = drive(seated(), verb({ kind: 'pick', card: '7b', look: true }));
  d.on(verb({ kind: 'pick', card: '7b', look: true }));
  assert.deepEqual(only(d.effects, 'move'), []);
  assert.deepEqual(d.model.selection, { card: '7b', index: 0 });
  // even with play on one click on
  const e = drive(seated(), verb({ kind: 'toggleOneClick' }));
  e.on(verb({ kind: 'pick', card: '7b', look: true }));
  assert.deepEqual(only(e.effects, 'move'), []);
  e.on(verb({ kind: 'confirm' }));
  assert.deepEqual(only(e.effects, 'move'), [{ kind: 'move', move: '7b', ply: 0, round: 1 }]);
});

test('play on one click (expert): remembered in scopa.oneclick, a one-move card plays at once', () => {
  const d = drive(seated(), verb({ kind: 'toggleOneClick' }));
  assert.deepEqual(only(d.effects, 'store'), [
    { kind: 'store', key: 'scopa.oneclick', value: '1' },
  ]);
  d.on(verb({ kind: 'pick', card: '7b' }));
  assert.deepEqual(only(d.effects, 'move'), [{ kind: 'move', move: '7b', ply: 0, round: 1 }]);
  // a card with several moves is still picked first
  const s = state({ legal: ['5sx5c', '5s', '2d', '7b'] });
  const x = drive(seated({ stored: { 'scopa.oneclick': '1' } }), server(s));
  x.on(verb({ kind: 'pick', card: '5s' }));
  assert.deepEqual(only(x.effects, 'move'), []);
  // switched off again (and read back from another tab's change)
  d.on(verb({ kind: 'toggleOneClick' }));
  assert.equal(d.model.stored['scopa.oneclick'], '0');
  d.on({ kind: 'storage', key: 'scopa.oneclick', value: '1' });
  assert.equal(d.model.stored['scopa.oneclick'], '1');
});

test('pick: a card with several moves is selected, again cycles, confirm plays the one shown', () => {
  const m = seated();
  const s = state({ legal: ['5sx5c', '5s', '2d', '7b'] }); // a lay allowed beside the take
  const d = drive(m, server(s));
  d.on(verb({ kind: 'pick', card: '5s' }));
  assert.deepEqual(d.model.selection, { card: '5s', index: 0 });
  assert.deepEqual(only(d.effects, 'move'), []);
  d.on(verb({ kind: 'pick', card: '5s' }));
  assert.deepEqual(d.model.selection, { card: '5s', index: 1 });
  d.on(verb({ kind: 'confirm' }));
  assert.deepEqual(only(d.effects, 'move'), [{ kind: 'move', move: '5s', ply: 0, round: 1 }]);
  assert.equal(d.model.selection, null);
});

test('pickTable: picks the move of the selected card that takes that table card', () => {
  const s = state({ legal: ['5sx5c', '5s', '2d', '7b'] });
  const d = drive(seated(), server(s), verb({ kind: 'pick', card: '5s' }));
  d.on(verb({ kind: 'pickTable', card: '9d' })); // 5s cannot take it: unchanged
  assert.deepEqual(d.model.selection, { card: '5s', index: 0 });
  d.on(verb({ kind: 'pick', card: '5s' }), verb({ kind: 'pickTable', card: '5c' }));
  assert.deepEqual(d.model.selection, { card: '5s', index: 0 });
  // with no card picked, a table card does nothing
  const none = drive(seated(), verb({ kind: 'pickTable', card: '5c' }));
  assert.equal(none.model.selection, null);
});

test('pick, confirm: not my turn, nothing goes out; the card is explained', () => {
  const d = drive(seated(), server(after(['2d'])), verb({ kind: 'pick', card: '5s' }));
  d.on(verb({ kind: 'confirm' }));
  assert.deepEqual(only(d.effects, 'move'), []);
  assert.equal(d.model.explain, '5s');
  // a card not in the legal list is never played
  const x = drive(seated(), verb({ kind: 'pick', card: '10d' }));
  assert.deepEqual(only(x.effects, 'move'), []);
});

test('cancel: the choice and its explanation go', () => {
  const m = seated({ selection: { card: '5s', index: 0 }, explain: '5s' });
  const d = drive(m, verb({ kind: 'cancel' }));
  assert.equal(d.model.selection, null);
  assert.equal(d.model.explain, null);
});

// ------------------------------------------------------------------ hints --

test('hint: asked on my turn, tagged so its answer is known, given up after 3 s', () => {
  const d = drive(seated(), verb({ kind: 'hint' }));
  assert.deepEqual(d.effects, [
    { kind: 'send', msg: { type: 'hint' }, tag: 'hint' },
    { kind: 'timer', timer: { name: 'hint' }, ms: 3000 },
  ]);
  d.on({ kind: 'sent', tag: 'hint', id: 5 });
  assert.equal(d.model.hintId, 5);
  d.on({ kind: 'timer', timer: { name: 'hint' }, now: 3000 });
  assert.equal(d.model.hintState, 'unavailable');
});

test('hint: not asked when off, refused by the table, or not my turn', () => {
  for (const m of [
    seated({ hintsOn: false }),
    drive(seated(), server(state({ hints: false }))).model,
    drive(seated(), server(after(['2d']))).model,
  ]) {
    const d = drive(m, verb({ kind: 'hint' }));
    assert.deepEqual(d.effects, []);
    assert.equal(d.model.hintState, 'idle');
  }
});

test('settings: hints, animations and language remembered under their keys', () => {
  const d = drive(seated({ hint: { type: 'hint', move: '2d', value: 0 } }));
  d.on(verb({ kind: 'toggleHints' }));
  assert.equal(d.model.hintsOn, false);
  assert.equal(d.model.hint, null);
  d.on(
    verb({ kind: 'toggleHints' }),
    verb({ kind: 'toggleSkip' }),
    verb({ kind: 'lang', lang: 'it' }),
  );
  assert.deepEqual(only(d.effects, 'store'), [
    { kind: 'store', key: 'scopa.hints', value: 'off' },
    { kind: 'store', key: 'scopa.hints', value: 'on' },
    { kind: 'store', key: 'scopa.skip', value: '1' },
    { kind: 'store', key: 'scopa.lang', value: 'it' },
  ]);
  assert.deepEqual(only(d.effects, 'skipAnim'), [{ kind: 'skipAnim', on: true }]);
  assert.equal(d.model.lang, 'it');
  assert.equal(d.model.skipAnim, true);
  // and read back by the next page
  const next = fresh(d.model.stored);
  assert.equal(next.lang, 'it');
  assert.equal(next.skipAnim, true);
  assert.equal(next.hintsOn, true);
});

test('lang at a table (issue 33): the state, a hint on screen and an open review come again in the new words', () => {
  // the hint on screen at the seat's turn: asked again with the ping
  let d = drive(
    seated({ hint: { type: 'hint', move: '2d', value: 0 } }),
    verb({ kind: 'lang', lang: 'it' }),
  );
  assert.deepEqual(
    sent(d.effects).map((m) => m.type),
    ['ping', 'hint'],
  );
  // nothing on screen: only the ping
  d = drive(seated(), verb({ kind: 'deck', style: 'francesi' }));
  assert.deepEqual(
    sent(d.effects).map((m) => m.type),
    ['ping'],
  );
  // an open review: asked again for this table, the step kept
  const review = { type: 'review', code: CODE, rounds: [] } as unknown as NonNullable<
    ReturnType<typeof seated>['review']
  >;
  d = drive(
    seated({ review, reviewState: 'open', reviewStep: 3 }),
    verb({ kind: 'lang', lang: 'it' }),
  );
  assert.deepEqual(sent(d.effects), [{ type: 'ping' }, { type: 'review', code: CODE }]);
  assert.equal(d.model.reviewStep, 3);
});

// ----------------------------------------------------------------- tables --

test('create with rules that do not go together: the library decides (issue 33: no check here)', () => {
  // sent as chosen; a refusal comes back to the form in the library's
  // words (reduce.test.ts "error, refused create")
  const d = drive(fresh(), verb({ kind: 'create', rules: { teams: true }, seats: [], name: 'A' }));
  assert.equal(d.model.error, null);
  assert.deepEqual(d.model.intent, {
    kind: 'create',
    rules: { teams: true },
    seats: ['me', 'open'],
  });
});

test('create: the seats as chosen (open, a level; anything else the middle level)', () => {
  const d = drive(
    fresh({ 'scopa.player': 'p-1' }),
    verb({
      kind: 'create',
      rules: { players: 4, teams: true },
      seats: [undefined, 'open', 'campione', 'nonsense'],
      name: '  Anna ',
    }),
  );
  assert.deepEqual(d.effects, [
    { kind: 'store', key: 'scopa.name', value: 'Anna' },
    { kind: 'store', key: 'scopa.preset', value: 'scopa' },
    { kind: 'connect', local: false },
  ]);
  assert.equal(d.model.screen, 'table');
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [
    {
      type: 'create',
      rules: { players: 4, teams: true },
      seats: ['me', 'open', 'campione', 'intermedio'],
      name: 'Anna',
      player: 'p-1',
    },
  ]);
});

test('the variant played is remembered for the next game (scopa.preset)', () => {
  const [name, rules] = Object.entries(PRESETS).find(([n]) => n !== 'scopa')!;
  const d = drive(
    fresh(),
    verb({ kind: 'startBot', rules: { ...rules, target: 21 }, level: 'esperto', name: '' }),
  );
  assert.equal(d.model.stored['scopa.preset'], name);
  assert.equal(presetOf({}), 'scopa');
});

test('create: the move clock goes with a table of people, never with bots only', () => {
  const open = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'open'], name: '', clock: 20 }),
  );
  open.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(open.effects), [
    { type: 'create', rules: {}, seats: ['me', 'open'], move_clock: 20 },
  ]);
  const bots = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'esperto'], name: '', clock: 20 }),
  );
  bots.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(bots.effects), [{ type: 'create', rules: {}, seats: ['me', 'esperto'] }]);
});

test('startBot: every other seat a bot of the level; the level remembered', () => {
  const d = drive(
    fresh(),
    verb({ kind: 'startBot', rules: { players: 3 }, level: 'esperto', name: '' }),
  );
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [
    { type: 'create', rules: { players: 3 }, seats: ['me', 'esperto', 'esperto'] },
  ]);
  assert.equal(d.model.stored['scopa.level'], 'esperto');
});

test('create on an open connection (a second table): sent at once, the old table left', () => {
  const m = seated();
  const d = drive(m, verb({ kind: 'startBot', rules: {}, level: 'principiante', name: '' }));
  assert.equal(d.model.code, null);
  assert.equal(d.model.msg, null);
  assert.deepEqual(sent(d.effects), [{ type: 'create', rules: {}, seats: ['me', 'principiante'] }]);
  assert.deepEqual(only(d.effects, 'connect'), []);
});

test('join: by code (trimmed, upper case), the address pushed, the name remembered', () => {
  const d = drive(fresh(), verb({ kind: 'join', code: ' k7qx2m ', name: 'Bruno' }));
  assert.deepEqual(d.effects, [
    { kind: 'store', key: 'scopa.name', value: 'Bruno' },
    { kind: 'history', op: 'push', url: `/t/${CODE}` },
    { kind: 'connect', local: false },
  ]);
  assert.deepEqual(d.model.intent, { kind: 'join' });
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [{ type: 'join', code: CODE, name: 'Bruno' }]);
  // an empty code does nothing
  assert.deepEqual(drive(fresh(), verb({ kind: 'join', code: '  ', name: 'x' })).effects, []);
});

test('watch: by code, the address /t/CODE?watch, a watch sent', () => {
  const d = drive(fresh(), verb({ kind: 'watch', code: 'k7qx2m' }));
  assert.deepEqual(only(d.effects, 'history'), [
    { kind: 'history', op: 'push', url: `/t/${CODE}?watch` },
  ]);
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [{ type: 'watch', code: CODE }]);
});

test('home, new game, leaderboard: the address pushed, the table left', () => {
  for (const [v, url] of [
    ['home', '/'],
    ['newGame', '/'],
    ['leaderboard', '/?leaderboard'],
  ] as const) {
    const d = drive(seated(), verb({ kind: v }));
    assert.deepEqual(only(d.effects, 'history'), [{ kind: 'history', op: 'push', url }]);
    assert.equal(d.model.code, null);
    assert.equal(d.model.view, null);
    assert.equal(d.model.screen, v === 'leaderboard' ? 'leaderboard' : 'home');
  }
});

// ----------------------------------------------------------------- review --

const RECORD = JSON.parse(
  readFileSync(new URL('../../test/data/record-S.json', import.meta.url), 'utf8'),
) as RecordDoc;
const REVIEW = JSON.parse(
  readFileSync(new URL('../../test/data/review-S.json', import.meta.url), 'utf8'),
) as ReviewMsg;

test('review: the record fetched and the marks asked (tagged), given up after 15 s', () => {
  const over = drive(
    seated(),
    server({ type: 'game_over', totals: [11, 3], winner: 0, seed: '' }),
  ).model;
  const d = drive(over, verb({ kind: 'review' }));
  assert.deepEqual(d.effects, [
    { kind: 'fetchRecord', code: CODE },
    { kind: 'send', msg: { type: 'review', code: CODE }, tag: 'review' },
    { kind: 'timer', timer: { name: 'review' }, ms: 15000 },
  ]);
  assert.equal(d.model.reviewState, 'asking');
  d.on({ kind: 'timer', timer: { name: 'review' }, now: 0 });
  assert.equal(d.model.reviewState, 'unavailable');
  // away from a table, there is nothing to review
  assert.deepEqual(drive(fresh(), verb({ kind: 'review' })).effects, []);
});

test('review: the review steps, clamped to its moves; a bad record is said', () => {
  const d = drive(seated(), verb({ kind: 'review' }));
  d.on({ kind: 'record', code: CODE, result: { ok: true, json: RECORD } });
  assert.equal(d.model.record, RECORD);
  // before the review comes there is no step to go to
  d.on(verb({ kind: 'stepReview', delta: 1 }));
  assert.equal(d.model.reviewStep, 0);
  d.on(server({ ...REVIEW, code: CODE }));
  const n = reviewSteps(d.model.review).length;
  assert.equal(n, 108);
  d.on(verb({ kind: 'stepReview', delta: -1 }));
  assert.equal(d.model.reviewStep, 0);
  d.on(verb({ kind: 'stepReview', delta: 1 }), verb({ kind: 'stepReview', delta: 1 }));
  assert.equal(d.model.reviewStep, 2);
  d.on(verb({ kind: 'gotoReview', step: 10_000 }));
  assert.equal(d.model.reviewStep, n - 1);
  const bad = drive(seated(), { kind: 'record', code: CODE, result: { ok: true, json: {} } });
  assert.equal(bad.model.error, 'Error: not a record');
  const gone = drive(seated(), {
    kind: 'record',
    code: CODE,
    result: { ok: false, error: 'Error: 404' },
  });
  assert.equal(gone.model.error, 'Error: 404');
  // the record of a table left since is dropped
  const left = drive(fresh(), { kind: 'record', code: CODE, result: { ok: true, json: RECORD } });
  assert.equal(left.model.record, null);
});

test('deck: the style chosen is remembered in scopa.deck and loaded; another tab`s choice too', () => {
  const d = drive(seated(), verb({ kind: 'deck', style: 'francesi' }));
  assert.deepEqual(only(d.effects, 'store'), [
    { kind: 'store', key: 'scopa.deck', value: 'francesi' },
  ]);
  assert.deepEqual(only(d.effects, 'deck'), [{ kind: 'deck', style: 'francesi' }]);
  // an unknown style is the Neapolitan deck
  d.on(verb({ kind: 'deck', style: 'tarocchi' }));
  assert.equal(d.model.stored['scopa.deck'], 'napoletane');
  d.on({ kind: 'storage', key: 'scopa.deck', value: 'piacentine' });
  assert.deepEqual(only(d.effects, 'deck').at(-1), { kind: 'deck', style: 'piacentine' });
  assert.equal(d.model.stored['scopa.deck'], 'piacentine');
});
