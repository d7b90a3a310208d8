/*
 * reduce.test.ts -- the reducer (reduce.ts) on every server message type
 * of protocol.ts, each branch of a refused request, the pacing of moves
 * that arrive together, and the transport's and the timers' events.
 * Pure: no DOM, no clock; each test builds its model and events by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type ServerMsg, parse } from '../src/protocol.js';
import { reduce } from '../src/reduce.js';
import { PACE_MS } from '../src/pacing.js';
import { shownScores } from '../src/tableview.js';
import { t } from '../src/i18n.js';
import { SAMPLE_SIDE } from '../src/samples.js';
import {
  CODE,
  after,
  drive,
  fresh,
  only,
  route,
  seated,
  sent,
  server,
  state,
  verb,
} from './fixtures.js';

const SIDE = SAMPLE_SIDE;

/** One frame of each message type, as the server writes it.  The type is
 * a record over ServerMsg['type']: a type added to protocol.ts without a
 * frame here does not compile. */
const FRAMES: Record<ServerMsg['type'], object> = {
  hello: { type: 'hello', protocol: 1, version: '1.0' },
  pong: { type: 'pong', id: 4 },
  tournament: { type: 'tournament', id: 'S7KQ2M9XPA', status: 'upcoming', standings: [] },
  notice: {
    type: 'notice',
    message: 'A bot plays for Bruno',
    message_it: 'Un bot gioca per Bruno',
  },
  seated: { type: 'seated', code: CODE, seat: 0, token: 'tok2', player: 'p-1' },
  state: state(),
  round_over: { type: 'round_over', code: CODE, round: 0, sides: [SIDE, SIDE], totals: [9, 5] },
  game_over: { type: 'game_over', totals: [12, 8], winner: 0, seed: '4d90' },
  error: { type: 'error', message: 'stale ply', code: 'stale_ply', id: 9 },
  hint: { type: 'hint', move: '5sx5c', value: 0.4, id: 7 },
  review: { type: 'review', code: CODE, rounds: [], id: 8 },
  rematch: { type: 'rematch', code: CODE, next: 'NEW234' },
  reaction: { type: 'reaction', code: CODE, seat: 1, reaction: 'bella' },
  seeking: { type: 'seeking', rules: {}, clock: {}, players: 2, waited: 0, offer: null },
  paired: { type: 'paired', code: CODE },
  unseeked: { type: 'unseeked' },
  said: { type: 'said', code: CODE, seat: 1, n: 0, text: 'ciao' },
  talk: { type: 'talk', code: CODE, lines: [{ n: 0, seat: 1, text: 'ciao' }] },
  reported: { type: 'reported', code: CODE, seat: 1, message: 'Bruno was reported; thank you.' },
};

test('every server message type parses and reduces without throwing, at any screen', () => {
  for (const [type, frame] of Object.entries(FRAMES)) {
    const msg = parse(JSON.stringify(frame));
    assert.ok(msg, `${type} parses`);
    assert.equal(msg.type, type);
    for (const m of [fresh(), seated()]) reduce(m, server(msg));
  }
});

// ------------------------------------------------------------ hello, pong --

test('hello: protocol 1 is ours; another protocol is said', () => {
  const ok = drive(fresh(), server({ type: 'hello', protocol: 1, version: 'x' }));
  assert.equal(ok.model.error, null);
  assert.deepEqual(ok.effects, []);
  const bad = drive(fresh(), server({ type: 'hello', protocol: 2, version: 'x' }));
  assert.equal(bad.model.error, 'protocol 2');
});

test('pong: changes nothing and asks for nothing', () => {
  const m = seated();
  const s = reduce(m, server({ type: 'pong' }));
  assert.equal(s.model, m);
  assert.deepEqual(s.effects, []);
});

// ----------------------------------------------------------------- notice --

test('notice: shown in the page language for 6 s; its timer clears only itself', () => {
  const en = drive(seated(), server({ type: 'notice', message: 'away', message_it: 'assente' }));
  assert.equal(en.model.notice, 'away');
  assert.deepEqual(only(en.effects, 'timer'), [
    { kind: 'timer', timer: { name: 'notice', text: 'away' }, ms: 6000 },
  ]);
  const it = drive(
    seated({ lang: 'it' }),
    server({ type: 'notice', message: 'a', message_it: 'b' }),
  );
  assert.equal(it.model.notice, 'b');
  // a newer notice is not cleared by the older one's timer
  en.on(server({ type: 'notice', message: 'back' }));
  en.on({ kind: 'timer', timer: { name: 'notice', text: 'away' }, now: 7000 });
  assert.equal(en.model.notice, 'back');
  en.on({ kind: 'timer', timer: { name: 'notice', text: 'back' }, now: 7000 });
  assert.equal(en.model.notice, null);
});

// ----------------------------------------------------------------- seated --

test('seated: the token is stored per table, the player kept, the address made the table', () => {
  const d = drive(fresh(), verb({ kind: 'startBot', rules: {}, level: 'esperto', name: '' }));
  d.on(server({ type: 'seated', code: CODE, seat: 0, token: 'T1', player: 'p-9' }));
  assert.equal(d.model.code, CODE);
  assert.equal(d.model.seat, 0);
  assert.equal(d.model.token, 'T1');
  assert.equal(d.model.intent, null);
  assert.equal(d.model.screen, 'table');
  assert.equal(d.model.stored[`scopa.token.${CODE}`], 'T1');
  assert.deepEqual(only(d.effects, 'store').slice(-2), [
    { kind: 'store', key: `scopa.token.${CODE}`, value: 'T1' },
    { kind: 'store', key: 'scopa.player', value: 'p-9' },
  ]);
  assert.deepEqual(only(d.effects, 'history'), [
    { kind: 'history', op: 'replace', url: `/t/${CODE}` },
  ]);
  assert.deepEqual(d.model.url, { path: `/t/${CODE}`, search: '', hash: '' });
});

test('seated: already at /t/CODE with no fragment, the address is left alone', () => {
  const d = drive(fresh(), { kind: 'route', url: { path: `/t/${CODE}`, search: '', hash: '' } });
  d.on(server({ type: 'seated', code: CODE, seat: 1, token: 'T' }));
  assert.deepEqual(only(d.effects, 'history'), []);
  assert.equal(d.model.stored['scopa.player'], undefined); // none sent: none stored
});

// ------------------------------------------------------------------ state --

test('state: applied at its table (codes in any case), with its time and the table view', () => {
  const d = drive(seated(), server(after(['5sx5c'], { code: CODE.toLowerCase() }), 5000));
  assert.equal(d.model.msgAt, 5000);
  assert.equal(d.model.view?.ply, 1);
  assert.equal(d.model.view?.myTurn, false);
  assert.equal(d.model.screen, 'table');
});

test('state: one of another table, or with no table, is ignored', () => {
  const m = seated();
  assert.deepEqual(reduce(m, server(state({ code: 'OTHER1' }))), { model: m, effects: [] });
  const home = fresh();
  assert.deepEqual(reduce(home, server(state())), { model: home, effects: [] });
});

test('state: a new ply drops the selection, the explanation, the hint and the pending move', () => {
  const two = verb({ kind: 'pick', card: '2d' });
  const picked = drive(seated(), two, two).model;
  assert.equal(picked.pending, '2d');
  const d = drive(
    {
      ...picked,
      selection: { card: '5s', index: 0 },
      hint: { type: 'hint', move: '2d', value: 0 },
    },
    server(after(['2d'])),
  );
  assert.equal(d.model.pending, null);
  assert.equal(d.model.selection, null);
  assert.equal(d.model.explain, null);
  assert.equal(d.model.hint, null);
});

test('state: the same ply (a presence change) keeps the selection and the pending move', () => {
  const m = seated({ selection: { card: '5s', index: 0 }, pending: '5sx5c', explain: '5s' });
  const d = drive(m, server(state({ presence: ['here', 'away'] })));
  assert.deepEqual(d.model.selection, { card: '5s', index: 0 });
  assert.equal(d.model.pending, '5sx5c');
  assert.equal(d.model.explain, '5s');
});

test('state: an away seat keeps the time it was first seen away', () => {
  const d = drive(seated(), server(state({ presence: ['here', 'away'] }), 2000));
  d.on(server(state({ presence: ['here', 'away'] }), 9000));
  assert.deepEqual(d.model.awaySince, [null, 2000]);
  d.on(server(state({ presence: ['here', 'here'] }), 9500));
  assert.deepEqual(d.model.awaySince, [null, null]);
});

test('state: the first state of a new game at the table closes the result', () => {
  const over = drive(seated(), server(FRAMES.game_over as ServerMsg)).model;
  assert.ok(over.gameOver);
  const mid = drive(over, server(after(['2d'], { status: 'playing' })));
  assert.ok(mid.model.gameOver, 'a state with moves keeps it');
  assert.equal(drive(over, server(state())).model.gameOver, null);
});

// ------------------------------------------------------ round_over, game_over --

test('round_over: kept with what the last state drew; the next state waits for Continue', () => {
  const m = drive(seated(), server(after(['2d']))).model;
  const d = drive({ ...m, selection: { card: '5s', index: 0 } });
  d.on(server(FRAMES.round_over as ServerMsg), server(state({ scores: [9, 5] }), 3000));
  assert.deepEqual(d.model.roundOver?.drawn?.last, { seat: 0, move: '2d' });
  assert.equal(d.model.selection, null);
  assert.deepEqual(shownScores(d.model), [9, 5]);
  assert.equal(d.model.queue.length, 1, 'the new round waits behind the score');
  assert.deepEqual(d.model.msg?.round?.moves, ['2d']);
  d.on(verb({ kind: 'continue', now: 4000 }));
  assert.equal(d.model.roundOver, null);
  assert.equal(d.model.queue.length, 0);
  assert.deepEqual(d.model.msg?.scores, [9, 5]);
  assert.equal(d.model.msgAt, 4000);
});

test('game_over: the final totals go into the last state, which is finished', () => {
  const d = drive(seated(), server({ type: 'game_over', totals: [12, 8], winner: 0, seed: 's' }));
  assert.equal(d.model.gameOver?.winner, 0);
  assert.deepEqual(d.model.msg?.scores, [12, 8]);
  assert.equal(d.model.msg?.status, 'finished');
  assert.equal(d.model.msg?.to_play, null);
  assert.equal(d.model.view?.status, 'finished');
  assert.equal(d.model.view?.myTurn, false);
  // with no state seen, only the result is kept
  const home = drive(fresh(), server({ type: 'game_over', totals: [1, 2], winner: 1, seed: '' }));
  assert.equal(home.model.msg, null);
  assert.equal(home.model.gameOver?.winner, 1);
});

// ------------------------------------------------------------------ error --

test('error, refused create: back to the form with the server words and the rules, nothing sent', () => {
  const rules = { ace_empty_table: 'taken' };
  const d = drive(fresh(), verb({ kind: 'startBot', rules, level: 'esperto', name: '' }));
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.equal(sent(d.effects)[0]?.type, 'create');
  const n = d.effects.length;
  d.on(server({ type: 'error', message: 'bad rules', message_it: 'regole', code: 'bad_rules' }));
  assert.equal(d.model.screen, 'home');
  assert.equal(d.model.error, 'bad rules');
  assert.equal(d.model.intent, null);
  // issue 33: the library decides; the form shows the refused rules again
  assert.deepEqual(d.model.refused, { rules, form: 'bot' });
  assert.deepEqual(d.effects.slice(n), [], 'no timer: the form keeps the error');
  // the next create forgets them
  d.on(verb({ kind: 'startBot', rules: {}, level: 'esperto', name: '' }));
  assert.equal(d.model.refused, null);
  // a private table's refusal reopens the private table's form
  const p = drive(fresh(), verb({ kind: 'create', rules, seats: [], name: 'A' }));
  p.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  p.on(server({ type: 'error', message: 'bad rules', message_it: 'regole', code: 'bad_rules' }));
  assert.deepEqual(p.model.refused, { rules, form: 'priv' });
});

test('error, refused join (no open seat): watch instead, and told so', () => {
  const d = drive(fresh({ 'scopa.name': 'Carla' }), {
    kind: 'route',
    url: { path: `/t/${CODE}`, search: '', hash: '' },
  });
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.equal(sent(d.effects)[0]?.type, 'join');
  d.on(server({ type: 'error', message: 'table full', code: 'full' }));
  assert.deepEqual(sent(d.effects)[1], { type: 'watch', code: CODE, name: 'Carla' });
  assert.deepEqual(d.model.intent, { kind: 'watch' });
  assert.equal(d.model.error, null);
  assert.equal(d.model.notice, t('en', 'fullWatching'));
});

test("a friend's link with no name stored asks the name first, then joins with it", () => {
  const d = drive(fresh(), { kind: 'route', url: { path: `/t/${CODE}`, search: '', hash: '' } });
  assert.equal(d.model.screen, 'name');
  assert.equal(d.model.code, CODE);
  assert.deepEqual(sent(d.effects), []);
  d.on(verb({ kind: 'join', code: CODE, name: ' Carla ' }));
  assert.equal(d.model.stored['scopa.name'], 'Carla');
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [{ type: 'join', code: CODE, name: 'Carla' }]);
  assert.equal(d.model.screen, 'table');
});

test('error, no such table: the home page says so (no endless connecting)', () => {
  const d = drive(fresh({ [`scopa.token.${CODE}`]: 'old' }), {
    kind: 'route',
    url: { path: `/t/${CODE}`, search: '', hash: '' },
  });
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  d.on(
    server({
      type: 'error',
      code: 'no_table',
      message: 'There is no table K7QX2M.',
      message_it: "Non c'è nessun tavolo K7QX2M.",
    }),
  );
  assert.equal(d.model.screen, 'home');
  assert.equal(d.model.url.path, '/');
  assert.equal(d.model.error, 'There is no table K7QX2M.');
  assert.equal(d.model.stored[`scopa.token.${CODE}`], undefined);
});

test('error, answering the hint request by its id: hints unavailable; another id is an error', () => {
  const d = drive(seated(), verb({ kind: 'hint' }), { kind: 'sent', tag: 'hint', id: 12 });
  assert.equal(d.model.hintState, 'asking');
  const other = drive(d.model, server({ type: 'error', message: 'no', id: 11 }));
  assert.equal(other.model.hintState, 'asking');
  assert.equal(other.model.error, 'no');
  d.on(server({ type: 'error', message: 'no hints', id: 12 }));
  assert.equal(d.model.hintState, 'unavailable');
  assert.equal(d.model.error, null);
});

test('error, answering the review request by its id: review unavailable', () => {
  const over = drive(seated(), server(FRAMES.game_over as ServerMsg)).model;
  const d = drive(over, verb({ kind: 'review' }), { kind: 'sent', tag: 'review', id: 20 });
  d.on(server({ type: 'error', message: 'busy', id: 20 }));
  assert.equal(d.model.reviewState, 'unavailable');
  assert.equal(d.model.error, null);
});

test('error answering a resume (a stale token): forgotten, and the page joins', () => {
  const d = drive(
    fresh({ [`scopa.token.${CODE}`]: 'old', 'scopa.name': 'Anna', 'scopa.player': 'p-1' }),
    { kind: 'route', url: { path: `/t/${CODE}`, search: '', hash: '' } },
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
  );
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'old' }]);
  assert.equal(d.model.resuming, true);
  d.on(server({ type: 'error', message: 'unknown token', code: 'bad_token' }));
  assert.equal(d.model.token, null);
  assert.equal(d.model.resuming, false);
  assert.equal(d.model.stored[`scopa.token.${CODE}`], undefined);
  assert.deepEqual(only(d.effects, 'store'), [
    { kind: 'store', key: `scopa.token.${CODE}`, value: null },
  ]);
  assert.deepEqual(sent(d.effects)[1], { type: 'join', code: CODE, name: 'Anna', player: 'p-1' });
  assert.equal(d.model.error, null);
  // that join refused too: watch
  d.on(server({ type: 'error', message: 'full' }));
  assert.deepEqual(sent(d.effects)[2], { type: 'watch', code: CODE, name: 'Anna' });
});

test('error, any other: shown (in Italian when asked) for 6 s, the choice and the move dropped', () => {
  const m = seated({ lang: 'it', selection: { card: '5s', index: 0 }, pending: '5sx5c' });
  const d = drive(m, server({ type: 'error', message: 'stale', message_it: 'vecchia', id: 3 }));
  assert.equal(d.model.error, 'vecchia');
  assert.equal(d.model.selection, null);
  assert.equal(d.model.pending, null);
  assert.deepEqual(d.effects, [
    { kind: 'timer', timer: { name: 'error', text: 'vecchia' }, ms: 6000 },
  ]);
  d.on({ kind: 'timer', timer: { name: 'error', text: 'other' }, now: 0 });
  assert.equal(d.model.error, 'vecchia');
  d.on({ kind: 'timer', timer: { name: 'error', text: 'vecchia' }, now: 0 });
  assert.equal(d.model.error, null);
});

test('error: a state answering the resume first means a later error is an ordinary one', () => {
  const m = seated();
  assert.equal(m.resuming, false, 'the state cleared it');
  const d = drive(m, server({ type: 'error', message: 'stale' }));
  assert.equal(d.model.token, 'tok');
  assert.equal(d.model.error, 'stale');
});

// ------------------------------------------------------------ store_failed --

const STOPPED = {
  type: 'error',
  code: 'store_failed',
  message: `Table ${CODE} stopped: its last change could not be stored`,
  message_it: `Il tavolo ${CODE} si è fermato`,
} as const;

test('store_failed: said in words, the move dropped, the table resumed with its token after 1 s', () => {
  const m = seated({ selection: { card: '5s', index: 0 }, pending: '5sx5c' });
  const d = drive(m, server(STOPPED, 5000));
  assert.deepEqual(d.model.stalled, { retryAt: 6000 });
  assert.equal(d.model.error, null, 'the banner says it, not an error toast');
  assert.equal(d.model.selection, null);
  assert.equal(d.model.pending, null);
  assert.equal(d.model.token, 'tok', 'the token is kept');
  assert.equal(d.model.stored[`scopa.token.${CODE}`], 'tok');
  assert.deepEqual(only(d.effects, 'timer'), [
    { kind: 'timer', timer: { name: 'resume' }, ms: 1000 },
  ]);
  assert.deepEqual(sent(d.effects), []);
  d.on({ kind: 'timer', timer: { name: 'resume' }, now: 6000 });
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'tok' }]);
  assert.deepEqual(d.model.stalled, { retryAt: null });
  assert.equal(d.model.resuming, true);
  // the server answers: the table is back, and the page says so
  d.on(server({ type: 'seated', code: CODE, seat: 0, token: 'tok' }), server(state(), 6100));
  assert.equal(d.model.stalled, null);
  assert.equal(d.model.notice, t('en', 'tableBack'));
  assert.equal(d.model.msg?.to_play, 0, 'the player plays again');
});

test('store_failed: a resume refused by a failing server keeps the token and waits longer', () => {
  const d = drive(seated(), server(STOPPED, 0));
  d.on({ kind: 'timer', timer: { name: 'resume' }, now: 1000 });
  // the server cannot load the table yet: no stale token, try again later
  d.on(server({ type: 'error', code: 'server', message: 'busy', id: 2 }, 1100));
  assert.equal(d.model.token, 'tok');
  assert.equal(d.model.stored[`scopa.token.${CODE}`], 'tok');
  assert.deepEqual(d.model.stalled, { retryAt: 3100 });
  d.on({ kind: 'timer', timer: { name: 'resume' }, now: 3100 });
  d.on(server(state(), 3200)); // back, at the same position
  assert.equal(d.model.stalled, null);
  // the same move fails again: the back-off goes on growing (4 s)
  d.on(server(STOPPED, 4000));
  assert.deepEqual(d.model.stalled, { retryAt: 8000 });
  assert.deepEqual(
    only(d.effects, 'timer')
      .filter((e) => e.timer.name === 'resume')
      .map((e) => e.ms),
    [1000, 2000, 4000],
  );
  // the table comes back and a move is stored past it: 1 s again next time
  d.on({ kind: 'timer', timer: { name: 'resume' }, now: 8000 });
  d.on(server(after(['5sx5c']), 8100), server(STOPPED, 9000));
  assert.deepEqual(d.model.stalled, { retryAt: 10000 });
  assert.equal(sent(d.effects).filter((x) => x.type === 'resume').length, 3);
});

test('store_failed: a spectator watches again; a stale token while stalled still joins', () => {
  const w = drive(
    fresh(),
    route(`/t/${CODE}?watch`),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
    server(state({ seat: null, hand: [], legal: [] })),
  );
  w.on(server(STOPPED, 0), { kind: 'timer', timer: { name: 'resume' }, now: 1000 });
  assert.deepEqual(sent(w.effects).at(-1), { type: 'watch', code: CODE });
  const d = drive(seated(), server(STOPPED, 0), {
    kind: 'timer',
    timer: { name: 'resume' },
    now: 1000,
  });
  d.on(server({ type: 'error', code: 'bad_token', message: 'unknown token' }));
  assert.equal(d.model.token, null);
  assert.equal(sent(d.effects).at(-1)?.type, 'join');
});

test('store_failed: a timer of a table left does nothing', () => {
  const d = drive(seated(), server(STOPPED, 0), verb({ kind: 'home' }));
  assert.equal(d.model.stalled, null);
  const n = sent(d.effects).length;
  d.on({ kind: 'timer', timer: { name: 'resume' }, now: 1000 });
  assert.equal(sent(d.effects).length, n);
});

// ------------------------------------------------------------ hint, review --

test('hint: shown, the request answered, its timer cancelled', () => {
  const d = drive(seated(), verb({ kind: 'hint' }));
  d.on(server({ type: 'hint', move: '5sx5c', value: 0.4, id: 1 }));
  assert.equal(d.model.hint?.move, '5sx5c');
  assert.equal(d.model.hintState, 'idle');
  assert.deepEqual(d.effects.at(-1), { kind: 'cancel', name: 'hint' });
  // its timer, had it fired before the answer, leaves the answer alone
  d.on({ kind: 'timer', timer: { name: 'hint' }, now: 0 });
  assert.equal(d.model.hintState, 'idle');
});

test('review: kept and opened, its timer cancelled', () => {
  const d = drive(seated(), verb({ kind: 'review' }));
  d.on(server(FRAMES.review as ServerMsg));
  assert.equal(d.model.reviewState, 'open');
  assert.equal(d.model.review?.code, CODE);
  assert.deepEqual(d.effects.at(-1), { kind: 'cancel', name: 'review' });
});

// ------------------------------------------------------------------ pacing --

test(`pacing: states queued together (behind a round score) are shown ${PACE_MS} ms apart`, () => {
  const d = drive(seated(), server(after(['2d'])), server(FRAMES.round_over as ServerMsg));
  // the next round is dealt and the bot leads at once, while the score is open
  d.on(server(state({ round: { dealer: 0, table: ['1c'], moves: [] } })));
  d.on(server(state({ round: { dealer: 0, table: ['1c'], moves: ['3b'] } })));
  assert.equal(d.model.queue.length, 2);
  d.on(verb({ kind: 'continue', now: 500 }));
  assert.deepEqual(d.model.msg?.round?.moves, []);
  assert.equal(d.model.pacing, true);
  assert.deepEqual(only(d.effects, 'timer'), [
    { kind: 'timer', timer: { name: 'pace' }, ms: PACE_MS },
  ]);
  // a state arriving meanwhile waits its turn too; answers that do not
  // change the table do not wait
  d.on(server(state({ round: { dealer: 0, table: ['1c'], moves: ['3b', '4b'] } })));
  d.on(server({ type: 'notice', message: 'n' }));
  assert.equal(d.model.notice, 'n');
  assert.equal(d.model.queue.length, 2);
  d.on({ kind: 'timer', timer: { name: 'pace' }, now: 1200 });
  assert.deepEqual(d.model.msg?.round?.moves, ['3b']);
  assert.equal(d.model.msgAt, 1200);
  d.on({ kind: 'timer', timer: { name: 'pace' }, now: 1900 });
  assert.deepEqual(d.model.msg?.round?.moves, ['3b', '4b']);
  assert.equal(d.model.pacing, false, 'the last one starts no timer');
  assert.equal(only(d.effects, 'timer').filter((e) => e.timer.name === 'pace').length, 2);
});

test('pacing: a state arriving alone is applied at once', () => {
  const d = drive(seated(), server(after(['2d'])), server(after(['2d', '1cx1c'])));
  assert.deepEqual(d.model.msg?.round?.moves, ['2d', '1cx1c']);
  assert.deepEqual(only(d.effects, 'timer'), []);
});

test('pacing: with animations off (the switch or reduced motion) only the score waits', () => {
  const motionOff = drive(seated(), { kind: 'motion', reduced: true }).model;
  for (const m of [seated({ skipAnim: true }), seated({ reducedMotion: true }), motionOff]) {
    const d = drive(m, server(FRAMES.round_over as ServerMsg));
    d.on(server(after(['2d'])), server(after(['2d', '1cx1c'])));
    assert.equal(d.model.queue.length, 2);
    d.on(verb({ kind: 'continue', now: 0 }));
    assert.deepEqual(d.model.msg?.round?.moves, ['2d', '1cx1c']);
    assert.deepEqual(only(d.effects, 'timer'), []);
  }
});

test('pacing: a state then a round score: no wait (only states pace states)', () => {
  const d = drive(seated(), server(after(['2d'])), server(FRAMES.round_over as ServerMsg));
  assert.ok(d.model.roundOver);
  assert.deepEqual(only(d.effects, 'timer'), []);
});

// ------------------------------------------------------ the transport's news --

test('status: the connection shown as the transport says', () => {
  const d = drive(fresh(), { kind: 'status', conn: { kind: 'down', retryAt: 5, attempt: 2 } });
  assert.deepEqual(d.model.conn, { kind: 'down', retryAt: 5, attempt: 2 });
});

test('resent: a short notice in the page language', () => {
  const d = drive(seated({ lang: 'it' }), { kind: 'resent' });
  assert.equal(d.model.notice, t('it', 'resent'));
});

test('opened with nothing asked (the home page): nothing sent', () => {
  const d = drive(fresh(), { kind: 'opened' });
  assert.deepEqual(d.effects, []);
});

test('storage: another tab stores a token; this page resumes with it', () => {
  const d = drive(fresh(), { kind: 'storage', key: `scopa.token.${CODE}`, value: 'fromB' });
  d.on({ kind: 'storage', key: 'other.key', value: 'x' });
  assert.equal(d.model.stored['other.key'], undefined);
  d.on(verb({ kind: 'join', code: CODE, name: '' }));
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'fromB' }]);
  d.on({ kind: 'storage', key: `scopa.token.${CODE}`, value: null });
  assert.equal(d.model.stored[`scopa.token.${CODE}`], undefined);
});

// --------------------------------------------------------------- rematch --

test('rematch: asked and answered from the result; not sent mid-game or by a spectator', () => {
  const over = drive(seated(), server(FRAMES.game_over as ServerMsg)).model;
  assert.deepEqual(sent(drive(over, verb({ kind: 'rematch', accept: true })).effects), [
    { type: 'rematch', accept: true },
  ]);
  assert.deepEqual(sent(drive(over, verb({ kind: 'rematch', accept: false })).effects), [
    { type: 'rematch', accept: false },
  ]);
  assert.deepEqual(sent(drive(seated(), verb({ kind: 'rematch', accept: true })).effects), []);
  assert.deepEqual(
    sent(drive({ ...over, seat: null }, verb({ kind: 'rematch', accept: true })).effects),
    [],
  );
});

test('rematch: the page moves to the next table, its seat token from seated', () => {
  const over = drive(seated(), server(FRAMES.game_over as ServerMsg)).model;
  const d = drive(
    over,
    server(FRAMES.rematch as ServerMsg),
    server({ type: 'seated', code: 'NEW234', seat: 0, token: 'tok9', player: '' }),
    server(state({ code: 'NEW234' })),
  );
  assert.equal(d.model.code, 'NEW234');
  assert.equal(d.model.token, 'tok9');
  assert.equal(d.model.gameOver, null);
  assert.equal(d.model.msg?.code, 'NEW234');
  assert.equal(d.model.stored['scopa.token.NEW234'], 'tok9');
  assert.equal(d.model.url.path, '/t/NEW234');
  // a late state of the old table is not shown any more
  d.on(server(state({ status: 'finished' })));
  assert.equal(d.model.msg?.code, 'NEW234');
  // a rematch of another table changes nothing
  const other = drive(over, server({ type: 'rematch', code: 'ZZZZZZ', next: 'YYYYYY' }));
  assert.equal(other.model.code, CODE);
});

test('rematch: a malformed rematch list in a state reads as none', () => {
  const msg = parse(JSON.stringify(state({ rematch: 'yes' as never, clock_left: '9' as never })));
  assert.ok(msg && msg.type === 'state');
  assert.equal(msg.rematch, null);
  assert.equal(msg.clock_left, null);
});

// -------------------------------------------------------------- reactions --

test('reaction: shown by its seat at once (never queued), then gone after 3 s', () => {
  const d = drive(seated(), server(FRAMES.reaction as ServerMsg, 5000));
  assert.deepEqual(d.model.reactions[1], { id: 'bella', at: 5000 });
  assert.deepEqual(only(d.effects, 'timer').at(-1), {
    kind: 'timer',
    timer: { name: 'reaction' },
    ms: 3000,
  });
  // another seat's, a second later: the first leaves on time, the timer
  // runs again for the second
  d.on(server({ type: 'reaction', code: CODE, seat: 0, reaction: 'applause' }, 6000));
  d.on({ kind: 'timer', timer: { name: 'reaction' }, now: 8000 });
  assert.equal(d.model.reactions[1], null);
  assert.deepEqual(d.model.reactions[0], { id: 'applause', at: 6000 });
  assert.deepEqual(only(d.effects, 'timer').at(-1)?.ms, 1000);
  d.on({ kind: 'timer', timer: { name: 'reaction' }, now: 9000 });
  assert.equal(d.model.reactions[0], null);
});

test('reaction: muted, unknown ids and other tables show nothing; mute remembered', () => {
  const muted = drive(seated(), verb({ kind: 'toggleReactions' }));
  assert.equal(muted.model.stored['scopa.reactions'], 'off');
  muted.on(server(FRAMES.reaction as ServerMsg));
  assert.deepEqual(muted.model.reactions, []);
  const odd = drive(seated(), server({ type: 'reaction', code: CODE, seat: 1, reaction: 'boo' }));
  assert.deepEqual(odd.model.reactions, []);
  const other = drive(
    seated(),
    server({ type: 'reaction', code: 'ZZZZZZ', seat: 1, reaction: 'bella' }),
  );
  assert.deepEqual(other.model.reactions, []);
  assert.equal(fresh({ 'scopa.reactions': 'off' }).reactionsOn, false);
});

test('react: sent by id from a seat; not from a spectator, not an unknown id', () => {
  assert.deepEqual(sent(drive(seated(), verb({ kind: 'react', reaction: 'scopa' })).effects), [
    { type: 'react', reaction: 'scopa' },
  ]);
  assert.deepEqual(
    sent(drive(seated({ seat: null }), verb({ kind: 'react', reaction: 'scopa' })).effects),
    [],
  );
  assert.deepEqual(sent(drive(seated(), verb({ kind: 'react', reaction: 'hello' })).effects), []);
});

test('the banner says what happens while a table comes back: reconnecting, then the seat taken back', async () => {
  const { connText } = await import('../src/chrome.js');
  const d = drive(seated());
  assert.equal(connText(d.model), '');
  d.on({ kind: 'status', conn: { kind: 'down', retryAt: 0, attempt: 1 } });
  assert.match(connText(d.model), /Connection lost/);
  d.on({ kind: 'status', conn: { kind: 'connecting' } });
  assert.equal(connText(d.model), 'Reconnecting…');
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.equal(d.model.resuming, true, 'a resume went out');
  assert.equal(connText(d.model), 'Connected again: taking your seat back at the table…');
  d.on(server(state()));
  assert.equal(connText(d.model), '', 'the state came: nothing to say');
  assert.equal(connText({ ...d.model, lang: 'it', resuming: true }).startsWith('Di nuovo'), true);
});
