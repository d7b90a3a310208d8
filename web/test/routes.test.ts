/*
 * routes.test.ts -- the page's addresses (routes.ts, docs/web.md): /,
 * /?leaderboard, /t/CODE (resume with the stored token, else join),
 * /t/CODE?watch, /t/CODE#token=... (stored, the fragment taken out of the
 * address); back and forward; the leaderboard's fetch and its shapes;
 * the lobby's list (docs/serve.md "The lobby"), asked for while home shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LOBBY_REFRESH_MS,
  leaderboardRows,
  lobbyTables,
  parseRoute,
  parseUrl,
} from '../src/routes.js';
import { CODE, drive, fresh, only, route, seated, sent, verb } from './fixtures.js';

const open = [{ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' }] as const;

test('parseUrl: path, search and hash as location has them', () => {
  assert.deepEqual(parseUrl('/t/AB?watch#token=x'), {
    path: '/t/AB',
    search: '?watch',
    hash: '#token=x',
  });
  assert.deepEqual(parseUrl('/'), { path: '/', search: '', hash: '' });
  assert.deepEqual(parseUrl('/#a?b'), { path: '/', search: '', hash: '#a?b' });
});

test('parseRoute: the addresses of docs/web.md', () => {
  const r = (s: string) => parseRoute(parseUrl(s));
  assert.deepEqual(r('/'), { screen: 'home' });
  assert.deepEqual(r('/?leaderboard'), { screen: 'leaderboard' });
  assert.deepEqual(r('/t/k7qx2m'), { screen: 'table', code: CODE, watch: false, token: null });
  assert.deepEqual(r('/t/K7QX2M/'), { screen: 'table', code: CODE, watch: false, token: null });
  assert.deepEqual(r('/t/K7QX2M?watch'), { screen: 'table', code: CODE, watch: true, token: null });
  assert.deepEqual(r('/t/K7QX2M#token=a%2Fb'), {
    screen: 'table',
    code: CODE,
    watch: false,
    token: 'a/b',
  });
  assert.equal(r('/t/K7QX2M#token=%E0%A4%A').screen, 'table', 'a bad escape is no crash');
  assert.deepEqual(r('/t/bad!code'), { screen: 'home' });
  assert.deepEqual(r('/t/'), { screen: 'home' });
  assert.deepEqual(r('/elsewhere'), { screen: 'home' });
});

test('/: the home page, nothing sent; whether a server answers is asked, its lobby and tournaments', () => {
  const d = drive(fresh(), route('/'));
  assert.equal(d.model.screen, 'home');
  assert.deepEqual(d.effects, [
    { kind: 'probe' },
    { kind: 'fetchLobby' },
    { kind: 'fetchTourneys' },
  ]);
});

test('/t/CODE with no token: join (the name and player stored are sent)', () => {
  const d = drive(fresh({ 'scopa.name': 'Anna' }), route('/t/k7qx2m'));
  assert.equal(d.model.code, CODE);
  assert.equal(d.model.screen, 'table');
  assert.deepEqual(d.effects, [{ kind: 'connect', local: false }]);
  d.on(...open);
  assert.deepEqual(sent(d.effects), [{ type: 'join', code: CODE, name: 'Anna' }]);
});

test('/t/CODE with a stored token: resume, and on every reconnection again', () => {
  const d = drive(fresh({ [`scopa.token.${CODE}`]: 'T' }), route(`/t/${CODE}`), ...open);
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'T' }]);
  d.on({ kind: 'status', conn: { kind: 'down', retryAt: 1, attempt: 0 } }, ...open);
  assert.deepEqual(sent(d.effects).at(-1), { type: 'resume', code: CODE, token: 'T' });
  assert.equal(only(d.effects, 'connect').length, 1, 'reconnecting is the transport’s job');
});

test('/t/CODE#token=T: stored, the fragment taken out of the address, then resume', () => {
  const d = drive(fresh(), route(`/t/${CODE}?watch#token=T%2B1`), ...open);
  assert.deepEqual(d.effects.slice(0, 2), [
    { kind: 'store', key: `scopa.token.${CODE}`, value: 'T+1' },
    { kind: 'history', op: 'replace', url: `/t/${CODE}?watch` },
  ]);
  assert.deepEqual(d.model.url, { path: `/t/${CODE}`, search: '?watch', hash: '' });
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'T+1' }]);
});

test('/t/CODE?watch: watch, even with nothing stored', () => {
  const d = drive(fresh(), route(`/t/${CODE}?watch`), ...open);
  assert.deepEqual(d.model.intent, { kind: 'watch' });
  assert.deepEqual(sent(d.effects), [{ type: 'watch', code: CODE }]);
});

test('/?leaderboard: the leaderboard of the pool shown last, fetched', () => {
  const d = drive(fresh(), route('/?leaderboard'));
  assert.equal(d.model.screen, 'leaderboard');
  assert.deepEqual(d.model.leaderboard, { state: 'loading', pool: '2p', rows: [] });
  assert.deepEqual(d.effects, [{ kind: 'fetchLeaderboard', pool: '2p' }]);
  d.on({
    kind: 'leaderboard',
    pool: '2p',
    result: { ok: true, json: { players: [{ name: 'A' }, 3] } },
  });
  assert.deepEqual(d.model.leaderboard, { state: 'ok', pool: '2p', rows: [{ name: 'A' }] });
});

test('leaderboard: another pool; a late answer for the pool left is dropped; errors said', () => {
  const d = drive(fresh(), route('/?leaderboard'), verb({ kind: 'pool', pool: '4p' }));
  assert.deepEqual(only(d.effects, 'fetchLeaderboard').at(-1), {
    kind: 'fetchLeaderboard',
    pool: '4p',
  });
  d.on({ kind: 'leaderboard', pool: '2p', result: { ok: true, json: [{ name: 'old' }] } });
  assert.equal(d.model.leaderboard.state, 'loading');
  d.on({ kind: 'leaderboard', pool: '4p', result: { ok: false, error: 'Error: 500' } });
  assert.deepEqual(d.model.leaderboard, { state: 'unavailable', pool: '4p', rows: [] });
});

test('leaderboardRows: a bare array, or under players, rows or leaderboard', () => {
  assert.deepEqual(leaderboardRows([{ a: 1 }, null]), [{ a: 1 }]);
  assert.deepEqual(leaderboardRows({ players: [{ a: 1 }] }), [{ a: 1 }]);
  assert.deepEqual(leaderboardRows({ rows: [{ a: 2 }] }), [{ a: 2 }]);
  assert.deepEqual(leaderboardRows({ leaderboard: [{ a: 3 }] }), [{ a: 3 }]);
  assert.deepEqual(leaderboardRows({}), []);
  assert.equal(leaderboardRows(null), null);
  assert.equal(leaderboardRows('x'), null);
});

test('back or forward (the address changed under the page): the table left, the new one shown', () => {
  const d = drive(seated(), route('/'));
  assert.equal(d.model.screen, 'home');
  assert.equal(d.model.code, null);
  assert.equal(d.model.msg, null);
  assert.deepEqual(d.model.queue, []);
  const history = d.effects.filter((e) => e.kind === 'history');
  assert.deepEqual(history, [], 'no history effect: the browser moved already');
  d.on(route(`/t/${CODE}`));
  assert.equal(d.model.token, 'tok');
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'tok' }]);
});

const LOBBY = {
  tables: [
    {
      code: 'ABCDEFGHJK',
      rules: { game: 'scopa', players: 2, target: 21 },
      seats: ['Anna', 'open'],
      open: 1,
      players: 2,
      people: [{ seat: 0, name: 'Anna', account: true, rating: 1612, provisional: false }],
      move_clock: 20,
    },
    { rules: {} }, // no code: left out
    { code: 'ZZ', seats: ['open', 7, 'open'], people: 'x', move_clock: 'fast', bank: '5m' },
    { code: 'BK', seats: ['Bea', 'open'], move_clock: 0, bank: 300, increment: 3 },
  ],
};

test('lobbyTables: the tables of GET /api/lobby, a wrong field taken as absent', () => {
  assert.deepEqual(lobbyTables(LOBBY), [
    {
      code: 'ABCDEFGHJK',
      preset: 'scopa',
      target: 21,
      moveClock: 20,
      bank: null,
      seats: ['Anna', 'open'],
      open: 1,
      people: [{ seat: 0, name: 'Anna', rating: 1612 }],
    },
    {
      code: 'ZZ',
      preset: 'scopa',
      target: null,
      moveClock: null,
      bank: null,
      seats: ['open', 'open'],
      open: 2,
      people: [],
    },
    {
      code: 'BK',
      preset: 'scopa',
      target: null,
      moveClock: 0,
      bank: { bank: 300, increment: 3 },
      seats: ['Bea', 'open'],
      open: 1,
      people: [],
    },
  ]);
  assert.equal(lobbyTables({}), null);
  assert.equal(lobbyTables([]), null);
  assert.equal(lobbyTables(null), null);
});

test('the lobby: asked for on the home page, again every few seconds there, never elsewhere', () => {
  const d = drive(fresh(), route('/'));
  assert.equal(only(d.effects, 'fetchLobby').length, 1);
  assert.equal(d.model.lobby.state, 'loading');
  d.on({ kind: 'lobby', result: { ok: true, json: LOBBY } });
  assert.equal(d.model.lobby.state, 'ok');
  assert.equal(d.model.lobby.tables.length, 3);
  const timers = only(d.effects, 'timer').filter((e) => e.timer.name === 'lobby');
  assert.deepEqual(
    timers.map((e) => e.ms),
    [LOBBY_REFRESH_MS],
  );
  d.on({ kind: 'timer', timer: { name: 'lobby' }, now: 5000 });
  assert.equal(only(d.effects, 'fetchLobby').length, 2, 'asked again at home');
  d.on({ kind: 'lobby', result: { ok: false, error: 'Error: 500' } });
  assert.deepEqual(d.model.lobby, { state: 'unavailable', tables: [] });
  // at a table the list is neither asked for nor scheduled
  const t = drive(seated(), { kind: 'timer', timer: { name: 'lobby' }, now: 9000 });
  assert.equal(only(t.effects, 'fetchLobby').length, 0);
  const before = t.model;
  t.on({ kind: 'lobby', result: { ok: true, json: LOBBY } });
  assert.equal(only(t.effects, 'timer').filter((e) => e.timer.name === 'lobby').length, 0);
  assert.equal(t.model, before, 'an answer for a home page left since changes nothing');
});

/** The create a page sends for the private form with these seats, the
 * lobby's box ticked. */
function createSent(seats: string[]) {
  const rules = { game: 'scopa', players: 2 };
  const v = { kind: 'create' as const, rules, seats, name: 'Anna', listed: true };
  const d = drive(fresh({ 'scopa.name': 'Anna' }), route('/'), verb(v), ...open);
  return sent(d.effects).find((m) => m.type === 'create');
}

test('a public table: "public": true in the create, only with a seat for a stranger', () => {
  const create = createSent(['me', 'open']);
  assert.equal(create && 'public' in create && create.public, true);
  const other = createSent(['me', 'esperto']);
  assert.ok(other && !('public' in other), 'no free seat: not listed');
});
