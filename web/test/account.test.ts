/*
 * account.test.ts -- the accounts in the reducer (account.ts): a guest
 * plays with no account and no step in between; who is signed in (GET
 * /api/me, the hello); sign in and create an account (the form's own
 * checks, every refusal of CONTRACTS.md "Accounts" in words in both
 * languages, the wait of a 429); the account page's requests and answers
 * (read defensively); change password, log out everywhere, delete; the
 * socket closed after each sign-in or sign-out; a finished table opened
 * for its review; and the chart's geometry (chart.ts).  The answers are
 * samples written from the spec of the accounts' API.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Event, Model } from '../src/model.js';
import {
  type HttpResult,
  type Refusal,
  outcome,
  parseGames,
  parseHistory,
  parseMe,
  refusalWords,
} from '../src/account.js';
import { chart, niceStep } from '../src/chart.js';
import { parse } from '../src/protocol.js';
import { CODE, drive, fresh, only, route, sent, server, state, verb } from './fixtures.js';

const open = [{ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' }] as const;

const answer = (
  op: Extract<Event, { kind: 'http' }>['op'],
  status: number,
  json: unknown = {},
  retryAfter: number | null = null,
): Event => ({ kind: 'http', op, result: { status, json, retryAfter } });

const ME = {
  name: 'anna',
  created: 1764000000,
  ratings: {
    '2p': { rating: 1523.4, rd: 120.2, games: 7, provisional: false },
    '4p': { rating: 1480, rd: 290, games: 1, provisional: true },
  },
};

const HISTORY = {
  ratings: {
    '2p': [
      { at: 1764100000, rating: 1510.0, rd: 200.1, code: 'AAAA' },
      { at: 1764000000, rating: 1500.0, rd: 350, code: 'BBBB' },
      { at: 1764200000, rating: 1523.4, rd: 120.2, code: 'CCCC' },
    ],
    '4p': [{ at: 1764150000, rating: 1480, rd: 290, code: 'DDDD' }],
    '3p': 'nonsense',
  },
};

const GAMES = {
  games: [
    {
      code: 'OLDER1',
      at: 1764000000,
      rules: {},
      pool: '2p',
      seat: 1,
      seats: ['best', 'anna'],
      finished: true,
      rated: true,
      winner: 0,
      totals: [11, 7],
    },
    {
      code: 'NEWER2',
      at: 1764200000,
      rules: { players: 4, teams: true },
      pool: '4p',
      seat: 0,
      seats: ['anna', 'bo', 'cat', 'dan'],
      finished: true,
      rated: false,
      winner: 0,
      totals: [11, 9],
    },
    { code: 'BROKEN' }, // no date: left out
  ],
  stats: {
    games: 12,
    won: 7,
    scope: 9,
    settebello: 6,
    primiera: 8,
    points: 120,
    points_per_game: 10.0,
  },
};

/** A guest at home. */
function guestHome(): Model {
  return drive(fresh(), route('/')).model;
}

/** Signed in as anna (this browser remembers), at home. */
function signedHome(): Model {
  return drive(fresh({ 'scopa.account': 'anna' }), route('/'), answer('me', 200, ME)).model;
}

// --------------------------------------------------------- guests --

test('account-1.1 a guest plays a bot from home with no account request in between', () => {
  const d = drive(guestHome());
  d.on(verb({ kind: 'startBot', rules: {}, level: 'principiante', name: 'Anna' }), ...open);
  assert.equal(only(d.effects, 'http').length, 0);
  assert.equal(sent(d.effects)[0]?.type, 'create');
  assert.equal(d.model.screen, 'table');
});

test("account-1.2 a friend's link /t/CODE joins as before: no account asked, no extra step", () => {
  const d = drive(fresh({ 'scopa.name': 'Bo' }), route(`/t/${CODE}`), ...open);
  assert.equal(only(d.effects, 'http').length, 0);
  assert.deepEqual(sent(d.effects), [{ type: 'join', code: CODE, name: 'Bo' }]);
});

test("account-1.7 signed in, a friend's link seats the account at once: no name asked", () => {
  const d = drive(fresh({ 'scopa.account': 'anna' }), route(`/t/${CODE}`), ...open);
  assert.equal(d.model.screen, 'table');
  assert.deepEqual(sent(d.effects), [{ type: 'join', code: CODE }]);
  const guest = drive(fresh(), route(`/t/${CODE}`));
  assert.equal(guest.model.screen, 'name', 'a guest gives a name first, as before');
});

test('account-1.3 a guest asks nothing; a remembered account is checked once a load', () => {
  const guest = drive(fresh(), route('/'), route('/?leaderboard'), route('/'));
  assert.equal(only(guest.effects, 'http').length, 0, 'no request for a guest');
  assert.equal(guest.model.account.status, 'guest');
  const d = drive(fresh({ 'scopa.account': 'anna' }), route('/'));
  assert.equal(d.model.account.status, 'signed', 'the name shown at once');
  assert.deepEqual(only(d.effects, 'http'), [
    { kind: 'http', op: 'me', method: 'GET', url: '/api/me' },
  ]);
  d.on(route('/'));
  assert.equal(only(d.effects, 'http').length, 1, 'once a page load');
  const s = drive(d.model, answer('me', 200, ME)).model.account;
  assert.equal(s.name, 'anna');
  assert.equal(s.me?.ratings['2p']?.rating, 1523.4);
  assert.equal(s.me?.ratings['4p']?.provisional, true);
  // the session ended elsewhere: a guest, the name forgotten
  const ended = drive(d.model, answer('me', 401, { error: 'not_signed_in' }));
  assert.equal(ended.model.account.status, 'guest');
  assert.deepEqual(only(ended.effects, 'store'), [
    { kind: 'store', key: 'scopa.account', value: null },
  ]);
  // a server without accounts: none offered
  assert.equal(drive(d.model, answer('me', 404, null)).model.account.status, 'none');
  // no answer: what the browser remembers stands
  assert.equal(drive(d.model, answer('me', 0, null)).model.account.status, 'signed');
});

test('account-1.6 another tab signs in or out: this one follows', () => {
  const d = drive(guestHome(), { kind: 'storage', key: 'scopa.account', value: 'bo' });
  assert.equal(d.model.account.name, 'bo');
  d.on({ kind: 'storage', key: 'scopa.account', value: null });
  assert.equal(d.model.account.status, 'guest');
});

test("account-1.4 the hello names the connection's account; null a guest; absent changes nothing", () => {
  const hello = (account?: string | null) =>
    server({
      type: 'hello',
      protocol: 1,
      version: 'x',
      ...(account !== undefined ? { account } : {}),
    });
  const named = drive(guestHome(), hello('anna'));
  assert.equal(named.model.account.name, 'anna');
  assert.equal(named.model.stored['scopa.account'], 'anna', 'remembered');
  assert.equal(drive(signedHome(), hello(null)).model.account.status, 'guest');
  assert.equal(drive(signedHome(), hello()).model.account.status, 'signed');
  // the parser keeps a name or null, drops anything else
  const odd = parse(JSON.stringify({ type: 'hello', protocol: 1, version: '', account: 5 }));
  assert.ok(odd?.type === 'hello' && !('account' in odd));
});

test('account-1.5 a state says whether the game is rated (a boolean, else absent)', () => {
  const s = state();
  const rated = parse(JSON.stringify({ ...s, rated: true }));
  assert.equal(rated?.type === 'state' && rated.rated, true);
  const odd = parse(JSON.stringify({ ...s, rated: 'yes' }));
  assert.ok(odd?.type === 'state' && !('rated' in odd));
});

// --------------------------------------------------------- sign in --

test('account-2.1 /account/login: the form; sign in sends the name and password, its button waits', () => {
  const d = drive(guestHome(), verb({ kind: 'signin' }));
  assert.equal(d.model.screen, 'login');
  assert.deepEqual(only(d.effects, 'history').at(-1), {
    kind: 'history',
    op: 'push',
    url: '/account/login',
  });
  d.on(verb({ kind: 'login', name: ' anna ', password: 'secret-123' }));
  assert.deepEqual(only(d.effects, 'http').at(-1), {
    kind: 'http',
    op: 'login',
    method: 'POST',
    url: '/api/login',
    body: { name: 'anna', password: 'secret-123' },
  });
  assert.equal(d.model.account.busy, 'login');
});

test('account-2.2 signed in: the socket closes (the next one carries the cookie), home, the name shown', () => {
  const d = drive(
    { ...guestHome(), connected: 'server' },
    verb({ kind: 'signin' }),
    verb({ kind: 'login', name: 'anna', password: 'secret-123' }),
  );
  d.effects.length = 0;
  d.on(answer('login', 200, { name: 'Anna' }));
  assert.equal(d.model.account.status, 'signed');
  assert.equal(d.model.account.name, 'Anna', "the server's spelling");
  assert.equal(d.model.stored['scopa.account'], 'Anna');
  assert.equal(d.model.account.busy, null);
  assert.equal(d.model.connected, false);
  assert.deepEqual(only(d.effects, 'disconnect'), [{ kind: 'disconnect' }]);
  assert.equal(d.model.screen, 'home');
  // the next table connects afresh
  d.on(verb({ kind: 'startBot', rules: {}, level: 'principiante', name: '' }));
  assert.deepEqual(only(d.effects, 'connect'), [{ kind: 'connect', local: false }]);
});

test('account-2.3 every refusal of the spec in words, in English and Italian', () => {
  const cases: [Refusal, string, string][] = [
    [{ op: 'login', code: 'bad_login' }, 'Wrong name or password.', 'Nome o password sbagliati.'],
    [{ op: 'signup', code: 'name_taken' }, 'This name is taken', 'Questo nome è già preso'],
    [{ op: 'signup', code: 'bad_name' }, '3 to 20 characters', 'da 3 a 20 caratteri'],
    [{ op: 'signup', code: 'bad_password' }, 'at least 8', 'almeno 8'],
    [{ op: 'login', code: 'too_many', wait: 30 }, 'wait 30 seconds', 'aspetta 30 secondi'],
    [{ op: 'login', code: 'too_many', wait: 600 }, 'wait 10 minutes', 'aspetta 10 minuti'],
    [{ op: 'signup', code: 'mismatch' }, 'not the same', 'non sono uguali'],
    [{ op: 'login', code: 'network' }, 'did not answer', 'non ha risposto'],
    [{ op: 'login', code: 'unavailable' }, 'no accounts', 'non ha account'],
    [{ op: 'login', code: 'weird', message: 'Disk full' }, 'Disk full', 'Disk full'],
  ];
  for (const [r, en, it] of cases) {
    assert.ok(refusalWords('en', r).includes(en), `${r.code}: ${refusalWords('en', r)}`);
    assert.ok(refusalWords('it', r).includes(it), `${r.code}: ${refusalWords('it', r)}`);
  }
});

test("account-2.4 the server's refusals are kept as codes: 401 bad_login, 429 with Retry-After", () => {
  const d = drive(guestHome(), verb({ kind: 'signin' }));
  d.on(verb({ kind: 'login', name: 'anna', password: 'wrong-one' }));
  d.on(answer('login', 401, { error: 'bad_login', message: 'wrong name or password' }));
  assert.deepEqual(d.model.account.refusal, {
    op: 'login',
    code: 'bad_login',
    message: 'wrong name or password',
  });
  assert.equal(d.model.account.status, 'guest');
  assert.equal(d.model.account.busy, null);
  d.on(verb({ kind: 'login', name: 'anna', password: 'wrong-two' }));
  assert.equal(d.model.account.refusal, null, 'a new try clears the last refusal');
  d.on(answer('login', 429, { error: 'too_many', message: 'slow down' }, 42));
  assert.deepEqual(d.model.account.refusal, { op: 'login', code: 'too_many', wait: 42 });
  // no Retry-After: a minute is said
  const refusal = (): Refusal | null => d.model.account.refusal;
  d.on(answer('login', 429, { error: 'too_many' }));
  assert.equal(refusal()?.wait, 60);
  // no answer at all
  d.on(answer('login', 0, null));
  assert.equal(refusal()?.code, 'network');
  // a server without the accounts' routes: none offered any more
  d.on(answer('login', 405, null));
  assert.equal(refusal()?.code, 'unavailable');
  assert.equal(d.model.account.status, 'none');
});

test('account-2.5 create an account: the shape checked before sending (name, 8 characters, twice)', () => {
  const base = drive(
    guestHome(),
    verb({ kind: 'signin' }),
    verb({ kind: 'loginMode', mode: 'signup' }),
  );
  assert.equal(base.model.account.mode, 'signup');
  const tryIt = (name: string, password: string, repeat = password) =>
    drive(base.model, verb({ kind: 'signup', name, password, repeat }));
  for (const bad of ['ab', 'a'.repeat(21), 'anna b', 'anna!', 'ànna'])
    assert.equal(tryIt(bad, 'long-enough').model.account.refusal?.code, 'bad_name', bad);
  assert.equal(tryIt('anna', 'short').model.account.refusal?.code, 'bad_password');
  assert.equal(tryIt('anna', 'long-enough', 'long-enougH').model.account.refusal?.code, 'mismatch');
  for (const r of [tryIt('ab', 'x'), tryIt('anna', 'short')])
    assert.equal(only(r.effects, 'http').length, 0, 'nothing sent');
  const ok = tryIt('an_na-3', 'long-enough');
  assert.deepEqual(only(ok.effects, 'http'), [
    {
      kind: 'http',
      op: 'signup',
      method: 'POST',
      url: '/api/signup',
      body: { name: 'an_na-3', password: 'long-enough' },
    },
  ]);
  const taken = drive(ok.model, answer('signup', 409, { error: 'name_taken' }));
  assert.equal(taken.model.account.refusal?.code, 'name_taken');
  const made = drive(ok.model, answer('signup', 201, { name: 'an_na-3' }));
  assert.equal(made.model.account.status, 'signed');
  assert.equal(made.model.account.name, 'an_na-3');
  assert.deepEqual(only(made.effects, 'disconnect'), [{ kind: 'disconnect' }]);
});

test('account-2.6 sign out from home: a guest again, the socket closed, still home', () => {
  const d = drive(signedHome(), verb({ kind: 'logout' }));
  assert.deepEqual(only(d.effects, 'http'), [
    { kind: 'http', op: 'logout', method: 'POST', url: '/api/logout' },
  ]);
  d.on(answer('logout', 200, {}));
  assert.equal(d.model.account.status, 'guest');
  assert.equal(d.model.account.name, null);
  assert.equal(d.model.stored['scopa.account'], undefined, 'forgotten');
  assert.equal(d.model.screen, 'home');
  assert.deepEqual(only(d.effects, 'disconnect'), [{ kind: 'disconnect' }]);
});

// ----------------------------------------------------- the account page --

function accountPage(): ReturnType<typeof drive> {
  const d = drive(signedHome(), verb({ kind: 'account' }));
  d.on(answer('me', 200, ME), answer('history', 200, HISTORY), answer('games', 200, GAMES));
  return d;
}

test('account-3.1 /account asks for the account, its history and its games', () => {
  const d = drive(signedHome(), verb({ kind: 'account' }));
  assert.equal(d.model.screen, 'account');
  assert.deepEqual(
    only(d.effects, 'http').map((e) => `${e.method} ${e.url}`),
    ['GET /api/me', 'GET /api/me/history', 'GET /api/me/games'],
  );
});

test('account-3.2 not signed in: /account goes to the sign-in screen', () => {
  const d = drive(fresh(), route('/account'), answer('me', 401, { error: 'not_signed_in' }));
  assert.equal(d.model.screen, 'login');
  assert.deepEqual(only(d.effects, 'history').at(-1)?.url, '/account/login');
});

test('account-3.3 the answers, read defensively: history oldest first per pool, games newest first', () => {
  const a = accountPage().model.account;
  const h = a.history as Exclude<typeof a.history, null | 'failed'>;
  assert.deepEqual(
    h['2p']!.map((p) => p.code),
    ['BBBB', 'AAAA', 'CCCC'],
  );
  assert.equal(h['3p'], undefined, 'a malformed pool is left out');
  assert.equal(a.pool, '2p', 'the chart shows the pool with the most games');
  const games = a.games as Exclude<typeof a.games, null | 'failed'>;
  assert.deepEqual(
    games.map((g) => g.code),
    ['NEWER2', 'OLDER1'],
  );
  assert.equal(a.stats?.points_per_game, 10);
  assert.equal(a.stats?.primiera, 8);
  assert.equal(parseMe({ ratings: {} }), null, 'no name: nobody');
  assert.equal(parseHistory([]), null);
  assert.equal(parseGames({}), null);
  assert.equal(
    parseGames({ games: [], stats: { games: 4, points: 30 } })?.stats?.points_per_game,
    7.5,
  );
});

test('account-3.4 a server without the history or games: "not available", never a crash', () => {
  const d = drive(signedHome(), verb({ kind: 'account' }));
  d.on(answer('me', 200, ME), answer('history', 404, null), answer('games', 500, { error: 'x' }));
  assert.equal(d.model.account.history, 'failed');
  assert.equal(d.model.account.games, 'failed');
  assert.equal(d.model.account.refusal, null, 'no refusal said for a page read');
});

test("account-3.5 a game's outcome from the account's seat: its side, opponents, points", () => {
  const [newer, older] = parseGames(GAMES)!.games;
  assert.deepEqual(outcome(older!), { result: 'lost', mine: 7, theirs: [11], opponents: ['best'] });
  // four players in two teams: seats 0 and 2 against 1 and 3
  assert.deepEqual(outcome(newer!), {
    result: 'won',
    mine: 11,
    theirs: [9],
    opponents: ['bo', 'dan'],
  });
  assert.equal(outcome({ ...older!, finished: false }).result, 'unfinished');
  assert.equal(outcome({ ...older!, winner: null }).result, 'drawn');
});

test('account-3.6 the chart pool is chosen by the player', () => {
  const d = accountPage().on(verb({ kind: 'chartPool', pool: '4p' }));
  assert.equal(d.model.account.pool, '4p');
});

test('account-3.7 change password: checked, sent, done said; a wrong old one refused', () => {
  const d = accountPage();
  const short = drive(d.model, verb({ kind: 'password', old: 'a', new: 'short', repeat: 'short' }));
  assert.equal(short.model.account.refusal?.code, 'bad_password');
  const differ = drive(
    d.model,
    verb({ kind: 'password', old: 'a', new: 'long-enough', repeat: 'x' }),
  );
  assert.equal(differ.model.account.refusal?.code, 'mismatch');
  d.on(verb({ kind: 'password', old: 'old-pass-1', new: 'new-pass-2', repeat: 'new-pass-2' }));
  assert.deepEqual(only(d.effects, 'http').at(-1), {
    kind: 'http',
    op: 'password',
    method: 'POST',
    url: '/api/password',
    body: { old: 'old-pass-1', new: 'new-pass-2' },
  });
  const wrong = drive(d.model, answer('password', 401, { error: 'bad_login' }));
  assert.equal(wrong.model.account.refusal?.code, 'bad_login');
  d.on(answer('password', 200, {}));
  assert.equal(d.model.account.done, 'password');
  assert.equal(d.model.account.status, 'signed', 'this session stays');
  assert.equal(d.model.screen, 'account');
});

test('account-3.8 log out everywhere: a guest, the sign-in screen says so', () => {
  const d = accountPage().on(verb({ kind: 'logoutAll' }));
  assert.deepEqual(only(d.effects, 'http').at(-1)?.url, '/api/logout_all');
  d.on(answer('logoutAll', 200, {}));
  assert.equal(d.model.account.status, 'guest');
  assert.equal(d.model.account.me, null);
  assert.equal(d.model.account.games, null, 'the games are not kept for the next person');
  assert.equal(d.model.screen, 'login');
  assert.equal(d.model.account.done, 'logoutAll');
  assert.ok(only(d.effects, 'disconnect').length);
  // the next visit home forgets what was done
  d.on(route('/'));
  assert.equal(d.model.account.done, null);
});

test('account-3.9 delete: the password asked; a wrong one refused; done: a guest, said once', () => {
  const d = accountPage();
  assert.equal(drive(d.model, verb({ kind: 'deleteAccount', password: '' })).effects.length, 0);
  d.on(verb({ kind: 'deleteAccount', password: 'secret-123' }));
  assert.deepEqual(only(d.effects, 'http').at(-1), {
    kind: 'http',
    op: 'delete',
    method: 'POST',
    url: '/api/delete',
    body: { password: 'secret-123' },
  });
  const wrong = drive(d.model, answer('delete', 401, { error: 'bad_login' }));
  assert.equal(wrong.model.account.refusal?.code, 'bad_login');
  assert.equal(wrong.model.account.status, 'signed');
  d.on(answer('delete', 200, {}));
  assert.equal(d.model.account.status, 'guest');
  assert.equal(d.model.screen, 'login');
  assert.equal(d.model.account.done, 'delete');
});

// ----------------------------------------------------- review link --

test('account-4.1 /t/CODE?review watches the finished table and asks for its review', () => {
  const d = drive(fresh(), route(`/t/${CODE}?review`), ...open);
  assert.deepEqual(sent(d.effects), [{ type: 'watch', code: CODE }]);
  assert.equal(d.model.wantReview, true);
  const finished = state({ seat: null, status: 'finished', to_play: null, legal: [], hand: [] });
  d.on(server(finished));
  assert.deepEqual(sent(d.effects).at(-1), { type: 'review', code: CODE });
  assert.deepEqual(only(d.effects, 'fetchRecord'), [{ kind: 'fetchRecord', code: CODE }]);
  assert.equal(d.model.reviewState, 'asking');
  assert.equal(d.model.wantReview, false, 'asked once');
});

test("account-4.3 a finished table opened later shows its final totals, not the last round's start", () => {
  const d = drive(fresh(), route(`/t/${CODE}?review`), ...open);
  const finished = state({ seat: null, status: 'finished', to_play: null, legal: [], hand: [] });
  d.on(server({ ...finished, scores: [0, 0], totals: [0, 4], winner: 1 }));
  assert.deepEqual(d.model.msg?.scores, [0, 4]);
  d.on(server({ ...finished, status: 'playing', scores: [1, 2], totals: [9, 9] }));
  assert.deepEqual(d.model.msg?.scores, [1, 2], 'totals only count once finished');
});

test('account-4.2 with a seat token, ?review resumes; a table still playing asks nothing', () => {
  const d = drive(fresh({ [`scopa.token.${CODE}`]: 'T' }), route(`/t/${CODE}?review`), ...open);
  assert.deepEqual(sent(d.effects), [{ type: 'resume', code: CODE, token: 'T' }]);
  d.on(server(state()));
  assert.equal(only(d.effects, 'fetchRecord').length, 0);
  assert.equal(d.model.wantReview, true, 'still asked for once it ends');
});

// ------------------------------------------------------------ chart --

const BOX = { width: 500, height: 200, left: 40, right: 10, top: 10, bottom: 20 };

test('chart-1.1 time left to right, a higher rating higher, every dot inside the plot', () => {
  const c = chart(
    [
      { at: 100, rating: 1500, rd: 300 },
      { at: 300, rating: 1620, rd: 150 },
      { at: 200, rating: 1450, rd: 200 },
    ],
    BOX,
  );
  const xs = c.dots.map((d) => d.x);
  assert.deepEqual(
    xs,
    [...xs].sort((a, b) => a - b),
    'sorted by time',
  );
  assert.equal(xs[0], 40);
  assert.equal(xs[2], 490);
  const byRating = [...c.dots].sort((a, b) => b.p.rating - a.p.rating);
  assert.ok(byRating[0]!.y < byRating[1]!.y && byRating[1]!.y < byRating[2]!.y);
  for (const d of c.dots) assert.ok(d.y >= 10 && d.y <= 180, `dot at ${d.y}`);
  assert.ok(c.line.startsWith('M40 '));
  assert.ok(c.band.endsWith('Z'));
  // the ticks cover the band and are round numbers
  const vals = c.yTicks.map((t) => t.value);
  assert.ok(vals[0]! <= 1200 && vals.at(-1)! >= 1770, vals.join(','));
  assert.ok(
    vals.every((v) => v % 100 === 0 || v % 50 === 0 || v % 200 === 0),
    vals.join(','),
  );
});

test('chart-1.2 one point: a flat line across; none: nothing drawn', () => {
  const c = chart([{ at: 5, rating: 1500, rd: 0 }], BOX);
  assert.equal(c.dots.length, 1);
  assert.equal(c.dots[0]!.x, 265);
  assert.match(c.line, /^M40 ([\d.]+) L490 \1$/);
  assert.deepEqual(chart([], BOX).dots, []);
});

test('chart-1.3 niceStep: 1, 2 or 5 times a power of ten', () => {
  assert.equal(niceStep(400, 4), 100);
  assert.equal(niceStep(700, 4), 200);
  assert.equal(niceStep(90, 4), 50);
  assert.equal(niceStep(20, 4), 5);
});

// ------------------------------------------------------------ runner --

test('account-5.1 the http effect: the answer comes back with its status; none: status 0', async () => {
  const { effectRunner } = await import('../src/effects.js');
  const events: Event[] = [];
  const calls: string[] = [];
  const base = {
    transport: {
      connect: () => calls.push('connect'),
      stop: () => calls.push('stop'),
      send: () => 1,
      move: () => {},
    },
    dispatch: (e: Event) => events.push(e),
    storage: null,
    history: { pushState: () => {}, replaceState: () => {} },
    setTimeout: () => 0,
    clearTimeout: () => {},
    now: () => 0,
    getJson: () => Promise.resolve(null),
    setSkip: () => {},
  };
  const got: unknown[] = [];
  const result: HttpResult = { status: 429, json: { error: 'too_many' }, retryAfter: 9 };
  const run = effectRunner({
    ...base,
    request: (method, url, body) => (got.push([method, url, body]), Promise.resolve(result)),
  });
  run([{ kind: 'http', op: 'login', method: 'POST', url: '/api/login', body: { name: 'a' } }]);
  run([{ kind: 'disconnect' }]);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(got, [['POST', '/api/login', { name: 'a' }]]);
  assert.deepEqual(events, [{ kind: 'http', op: 'login', result }]);
  assert.deepEqual(calls, ['stop']);
  const failing = effectRunner({ ...base, request: () => Promise.reject(new Error('offline')) });
  events.length = 0;
  failing([{ kind: 'http', op: 'me', method: 'GET', url: '/api/me' }]);
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(events, [
    { kind: 'http', op: 'me', result: { status: 0, json: null, retryAfter: null } },
  ]);
});
