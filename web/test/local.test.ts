/*
 * local.test.ts -- the second transport (local.ts) on a fake Web Worker,
 * and where the client sends a table: the page's own engine for the game
 * saved in the browser and for bot games while no server answers
 * (session.ts wantsLocal), the server otherwise; the effect runner
 * switching between the two (effects.ts), the local game's record from
 * the worker for the review and the download.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_CODE, LocalTransport, type WorkerLike } from '../src/local.js';
import type { ConnStatus, Transport, TransportEvents } from '../src/transport.js';
import type { Event } from '../src/model.js';
import { effectRunner, type Page } from '../src/effects.js';
import type { ServerMsg } from '../src/protocol.js';
import { FakeClock } from './fakes.js';
import { drive, fresh, route, verb } from './fixtures.js';

class FakeWorker implements WorkerLike {
  posted: Record<string, unknown>[] = [];
  terminated = false;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  postMessage(data: string): void {
    this.posted.push(JSON.parse(data) as Record<string, unknown>);
  }
  terminate(): void {
    this.terminated = true;
  }
  say(m: object): void {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
}

function local() {
  const clock = new FakeClock();
  const workers: FakeWorker[] = [];
  const heard: string[] = [];
  const events: TransportEvents = {
    message: (m: ServerMsg) => heard.push(m.type),
    status: (s: ConnStatus) => heard.push(`status ${s.kind}`),
    opened: () => heard.push('opened'),
  };
  const t = new LocalTransport(
    {
      create: () => {
        const w = new FakeWorker();
        workers.push(w);
        return w;
      },
      setTimeout: clock.setTimeout,
      now: () => clock.t,
      retryMs: 1000,
    },
    events,
  );
  return { t, clock, workers, heard };
}

const HELLO = { type: 'hello', protocol: 1, server: 'scopa' };

test('local: opened once the worker says hello; ids on what is sent; a move is sent once', () => {
  const { t, workers, heard } = local();
  t.connect();
  assert.deepEqual(heard, ['status connecting']);
  assert.equal(t.send({ type: 'ping' }), false, 'nothing before the hello');
  workers[0]!.say(HELLO);
  assert.deepEqual(heard, ['status connecting', 'hello', 'status open', 'opened']);
  assert.equal(t.send({ type: 'hint' }), 1);
  t.move('7d', 3, 0);
  assert.deepEqual(workers[0]!.posted, [
    { type: 'hint', id: 1 },
    { type: 'move', move: '7d', ply: 3, id: 2 },
  ]);
  workers[0]!.onmessage?.({ data: '{"type": "nonsense"' });
  workers[0]!.onmessage?.({ data: 7 });
  assert.equal(heard.length, 4, 'what is not a message is ignored');
  t.connect();
  assert.equal(workers.length, 1, 'one worker');
});

test('local: the record asked of the worker, and null when there is none', async () => {
  const { t, workers } = local();
  assert.equal(await t.record(), null, 'no worker yet');
  t.connect();
  workers[0]!.say(HELLO);
  const asked = t.record();
  assert.deepEqual(workers[0]!.posted, [{ type: 'record' }]);
  workers[0]!.say({ type: 'record', record: '{"format":1}' });
  assert.equal(await asked, '{"format":1}');
  const none = t.record();
  workers[0]!.say({ type: 'record', record: null });
  assert.equal(await none, null);
  const dropped = t.record();
  t.stop();
  assert.equal(await dropped, null, 'a stopped worker answers nobody: null');
  assert.equal(workers[0]!.terminated, true);
});

test('local: a worker that fails is down, started again after a wait; stop() ends that', () => {
  const { t, workers, heard, clock } = local();
  t.connect();
  workers[0]!.onerror?.({});
  assert.equal(workers[0]!.terminated, true);
  assert.equal(heard.at(-1), 'status down');
  clock.advance(999);
  assert.equal(workers.length, 1);
  clock.advance(1);
  assert.equal(workers.length, 2, 'started again');
  workers[1]!.onerror?.({});
  t.stop();
  clock.advance(60_000);
  assert.equal(workers.length, 2, 'stopped: no new worker');
});

test('where a table is played: the engine in the page, or the server', () => {
  const bots = { kind: 'startBot' as const, rules: {}, level: 'esperto', name: 'Anna' };
  const connect = (e: { effects: readonly { kind: string }[] }) =>
    e.effects.filter((x) => x.kind === 'connect');
  // no server answered: a bot game is the page's own
  let d = drive(fresh({}, { server: 'down' }), verb(bots));
  assert.deepEqual(connect(d), [{ kind: 'connect', local: true }]);
  assert.equal(d.model.connected, 'local');
  // a server answered (or has not said yet): the server, as before
  for (const server of ['up', 'unknown'] as const) {
    d = drive(fresh({}, { server }), verb(bots));
    assert.deepEqual(connect(d), [{ kind: 'connect', local: false }]);
  }
  // a table with open seats needs the server, whatever the probe said
  d = drive(
    fresh({}, { server: 'down' }),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'open'], name: 'Anna' }),
  );
  assert.deepEqual(connect(d), [{ kind: 'connect', local: false }]);
  // the saved game is the page's; any other table the server's, switching back
  const stored = { [`scopa.token.${LOCAL_CODE}`]: 'browser', 'scopa.name': 'Anna' };
  d = drive(fresh(stored, { server: 'up' }));
  d.on(route(`/t/${LOCAL_CODE}`));
  assert.deepEqual(connect(d), [{ kind: 'connect', local: true }]);
  d.on(route('/t/K7QX2M'));
  assert.deepEqual(connect(d), [
    { kind: 'connect', local: true },
    { kind: 'connect', local: false },
  ]);
  // the probe's answer
  d.on({ kind: 'probed', up: false });
  assert.equal(d.model.server, 'down');
});

function page(over: Partial<Page> = {}) {
  const calls: string[] = [];
  const events: Event[] = [];
  const fake = (name: string): Transport => ({
    connect: () => calls.push(`${name} connect`),
    stop: () => calls.push(`${name} stop`),
    send: (m) => (calls.push(`${name} send ${m.type}`), 1),
    move: (mv) => calls.push(`${name} move ${mv}`),
  });
  const clock = new FakeClock();
  const run = effectRunner({
    transport: fake('server'),
    local: fake('local'),
    dispatch: (e) => events.push(e),
    storage: null,
    history: { pushState: () => {}, replaceState: () => {} },
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: () => clock.t,
    getJson: (url) =>
      url === '/healthz' ? Promise.resolve({ ok: true }) : Promise.reject(new Error('404')),
    setSkip: () => {},
    ...over,
  });
  return { run, calls, events };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('runner: connect switches transports; send and move go to the one in use', () => {
  const p = page();
  p.run([
    { kind: 'connect', local: true },
    { kind: 'move', move: '7d', ply: 0, round: 0 },
    { kind: 'connect', local: false },
    { kind: 'send', msg: { type: 'ping' } },
    { kind: 'connect', local: false },
  ]);
  assert.deepEqual(p.calls, [
    'server stop',
    'local connect',
    'local move 7d',
    'local stop',
    'server connect',
    'server send ping',
    'server connect',
  ]);
});

test('runner: the probe, the local record for the review and the download', async () => {
  const saved: [string, string][] = [];
  const p = page({
    localRecord: () => Promise.resolve('{"format":1,"rounds":[]}'),
    saveFile: (name, text) => saved.push([name, text]),
  });
  p.run([
    { kind: 'probe' },
    { kind: 'fetchRecord', code: LOCAL_CODE },
    { kind: 'download', code: LOCAL_CODE },
    { kind: 'download', code: 'K7QX2M' }, // the server's (404 here)
  ]);
  await tick();
  await tick();
  assert.deepEqual(saved, [['scopa-LOCAL.json', '{"format":1,"rounds":[]}']]);
  const byKind = (e: Event) => `${e.kind}${'code' in e ? e.code : ''}`;
  assert.deepEqual(
    p.events.sort((a, b) => byKind(a).localeCompare(byKind(b))),
    [
      { kind: 'probed', up: true },
      { kind: 'record', code: 'K7QX2M', result: { ok: false, error: 'Error: 404' } },
      { kind: 'record', code: LOCAL_CODE, result: { ok: true, json: { format: 1, rounds: [] } } },
    ],
  );
  const down = page({ getJson: () => Promise.reject(new Error('offline')) });
  down.run([{ kind: 'probe' }]);
  await tick();
  assert.deepEqual(down.events, [{ kind: 'probed', up: false }]);
});
