/*
 * effects.test.ts -- the effect runner (effects.ts) on a fake page: timers
 * by name, storage that refuses, the ids of tagged requests and the
 * fetches reported back as events; and the whole client without a DOM:
 * the reducer, the runner and the real Socket on a fake WebSocket, taking
 * a seat back after a reload with a stale token.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Effect, Event, Model } from '../src/model.js';
import { effectRunner, type Page } from '../src/effects.js';
import { reduce } from '../src/reduce.js';
import { Socket } from '../src/socket.js';
import type { ClientMsg } from '../src/protocol.js';
import type { Transport } from '../src/transport.js';
import { CODE, fresh, route, state } from './fixtures.js';
import { FakeClock, FakeWs } from './fakes.js';

function fakePage(over: Partial<Page> = {}) {
  const timers = new FakeClock();
  const events: Event[] = [];
  const calls: string[] = [];
  const stored = new Map<string, string>();
  const transport: Transport = {
    connect: () => calls.push('connect'),
    stop: () => calls.push('stop'),
    send: (m: ClientMsg) => (calls.push(`send ${m.type}`), 41),
    move: (mv, ply, round) => calls.push(`move ${mv} ${ply} ${round}`),
  };
  const page: Page = {
    transport,
    dispatch: (e) => events.push(e),
    storage: { setItem: (k, v) => stored.set(k, v), removeItem: (k) => stored.delete(k) },
    history: {
      pushState: (_d, _u, url) => calls.push(`push ${url}`),
      replaceState: (_d, _u, url) => calls.push(`replace ${url}`),
    },
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    now: () => timers.t,
    getJson: (url) => Promise.resolve({ url }),
    setSkip: (on) => calls.push(`skip ${on}`),
    ...over,
  };
  return { run: effectRunner(page), timers, events, calls, stored };
}

test('runner: one timer per name (a new one replaces it), fired with the time', () => {
  const p = fakePage();
  p.run([{ kind: 'timer', timer: { name: 'notice', text: 'a' }, ms: 6000 }]);
  p.timers.advance(3000);
  p.run([{ kind: 'timer', timer: { name: 'notice', text: 'b' }, ms: 6000 }]);
  p.run([
    { kind: 'timer', timer: { name: 'hint' }, ms: 3000 },
    { kind: 'cancel', name: 'hint' },
  ]);
  p.timers.advance(10_000);
  assert.deepEqual(p.events, [{ kind: 'timer', timer: { name: 'notice', text: 'b' }, now: 9000 }]);
});

test('runner: transport, history, storage, animations', () => {
  const p = fakePage();
  const fx: Effect[] = [
    { kind: 'connect', local: false },
    { kind: 'send', msg: { type: 'watch', code: CODE } },
    { kind: 'move', move: '7b', ply: 3, round: 1 },
    { kind: 'history', op: 'push', url: '/t/X' },
    { kind: 'history', op: 'replace', url: '/t/Y' },
    { kind: 'store', key: 'scopa.a', value: '1' },
    { kind: 'store', key: 'scopa.b', value: '2' },
    { kind: 'store', key: 'scopa.a', value: null },
    { kind: 'skipAnim', on: true },
  ];
  p.run(fx);
  assert.deepEqual(p.calls, [
    'connect',
    'send watch',
    'move 7b 3 1',
    'push /t/X',
    'replace /t/Y',
    'skip true',
  ]);
  assert.deepEqual([...p.stored], [['scopa.b', '2']]);
  assert.deepEqual(p.events, [], 'an untagged send reports nothing');
});

test("runner: every message sent says the page's language and deck (issue 33)", () => {
  const sent: unknown[] = [];
  let lang = 'it';
  const p = fakePage({
    transport: {
      connect: () => {},
      stop: () => {},
      send: (m: ClientMsg) => (sent.push(m), 1),
      move: () => {},
    },
    words: () => ({ lang, deck: 'francesi' }),
  });
  p.run([{ kind: 'send', msg: { type: 'watch', code: CODE } }]);
  lang = 'en';
  p.run([{ kind: 'send', msg: { type: 'ping' } }]);
  assert.deepEqual(sent, [
    { type: 'watch', code: CODE, lang: 'it', deck: 'francesi' },
    { type: 'ping', lang: 'en', deck: 'francesi' },
  ]);
});

test('runner: a tagged send reports the id it got, false when down', () => {
  const p = fakePage();
  p.run([{ kind: 'send', msg: { type: 'hint' }, tag: 'hint' }]);
  assert.deepEqual(p.events, [{ kind: 'sent', tag: 'hint', id: 41 }]);
});

test('runner: storage that refuses (private mode) or is absent loses the value, not the page', () => {
  const refusing = fakePage({
    storage: {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    },
  });
  refusing.run([
    { kind: 'store', key: 'scopa.a', value: '1' },
    { kind: 'store', key: 'scopa.a', value: null },
  ]);
  fakePage({ storage: null }).run([{ kind: 'store', key: 'scopa.a', value: '1' }]);
});

test('runner: fetches answered as events, failures in words', async () => {
  const p = fakePage();
  p.run([
    { kind: 'fetchLeaderboard', pool: '3p' },
    { kind: 'fetchRecord', code: 'A B' },
  ]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(p.events, [
    {
      kind: 'leaderboard',
      pool: '3p',
      result: { ok: true, json: { url: '/api/leaderboard?pool=3p' } },
    },
    {
      kind: 'record',
      code: 'A B',
      result: { ok: true, json: { url: '/api/tables/A%20B/record' } },
    },
  ]);
  const q = fakePage({ getJson: () => Promise.reject(new Error('404')) });
  q.run([{ kind: 'fetchRecord', code: CODE }]);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(q.events, [
    { kind: 'record', code: CODE, result: { ok: false, error: 'Error: 404' } },
  ]);
});

// ------------------------------------------------- the client, no DOM --

test('the client over the real Socket: a stale token after a reload joins, is seated, plays', () => {
  const timers = new FakeClock();
  const sockets: FakeWs[] = [];
  const stored = new Map<string, string>([[`scopa.token.${CODE}`, 'stale']]);
  let model: Model = fresh(Object.fromEntries(stored));
  const history: string[] = [];
  const dispatch = (e: Event): void => {
    const s = reduce(model, e);
    model = s.model;
    run(s.effects);
  };
  const socket = new Socket(
    {
      url: 'ws://x/ws',
      create: () => {
        const w = new FakeWs();
        sockets.push(w);
        return w;
      },
      clock: timers,
    },
    {
      message: (msg) => dispatch({ kind: 'server', msg, now: timers.t }),
      status: (conn) => dispatch({ kind: 'status', conn }),
      opened: () => dispatch({ kind: 'opened' }),
      resent: () => dispatch({ kind: 'resent' }),
    },
    () => 0,
  );
  const run = effectRunner({
    transport: socket,
    dispatch,
    storage: { setItem: (k, v) => stored.set(k, v), removeItem: (k) => stored.delete(k) },
    history: {
      pushState: (_d, _u, u) => history.push(u),
      replaceState: (_d, _u, u) => history.push(u),
    },
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    now: () => timers.t,
    getJson: () => Promise.reject(new Error('no server')),
    setSkip: () => undefined,
  });

  dispatch(route(`/t/${CODE}`));
  assert.equal(sockets.length, 1);
  const ws = sockets[0]!;
  ws.up();
  assert.deepEqual(ws.sent[0], { type: 'resume', code: CODE, token: 'stale', id: 1 });
  ws.recv({ type: 'error', message: 'unknown token', id: 1 });
  assert.equal(stored.has(`scopa.token.${CODE}`), false);
  assert.deepEqual(ws.sent[1], { type: 'join', code: CODE, id: 2 });
  ws.recv({ type: 'seated', code: CODE, seat: 0, token: 'fresh', id: 2 });
  assert.equal(stored.get(`scopa.token.${CODE}`), 'fresh');
  assert.deepEqual(history, [], 'already at /t/CODE');
  ws.recv(state());
  assert.equal(model.view?.myTurn, true);
  dispatch({ kind: 'verb', verb: { kind: 'pick', card: '7b' } }); // picked,
  dispatch({ kind: 'verb', verb: { kind: 'pick', card: '7b' } }); // played
  assert.deepEqual(ws.sent[2], { type: 'move', move: '7b', ply: 0, id: 3 });
  // no answer in 4 s: the Socket sends it again, the page says so
  timers.advance(4000);
  assert.deepEqual(ws.sent[3], { type: 'move', move: '7b', ply: 0, id: 4 });
  assert.equal(model.notice, 'Move sent again');
});
