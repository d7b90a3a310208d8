/*
 * socket.test.ts -- the connection (socket.ts) with a fake WebSocket and a
 * fake clock: backoff, resume on reconnect, a move sent again with its ply
 * when unanswered, and dropped once a state shows it played.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Socket, backoff } from '../src/socket.js';
import { FakeClock, FakeWs } from './fakes.js';
import type { ConnStatus } from '../src/transport.js';
import type { ServerMsg } from '../src/protocol.js';

function setup() {
  const clock = new FakeClock();
  const sockets: FakeWs[] = [];
  const statuses: ConnStatus[] = [];
  const got: ServerMsg[] = [];
  let opened = 0;
  const resent: number[] = [];
  const s = new Socket(
    {
      url: 'ws://x/ws',
      create: () => {
        const w = new FakeWs();
        sockets.push(w);
        return w;
      },
      clock,
      pingMs: 10000,
      moveTimeoutMs: 4000,
    },
    {
      message: (m) => got.push(m),
      status: (st) => statuses.push(st),
      opened: () => {
        opened++;
      },
      resent: (_m, p) => resent.push(p),
    },
    () => 0,
  );
  s.connect();
  return { s, clock, sockets, statuses, got, resent, opened: () => opened };
}

const state = (moves: string[], toPlay: number) => ({
  type: 'state',
  code: 'K',
  seat: 0,
  status: 'playing',
  seats: ['a', 'b'],
  presence: ['here', 'bot'],
  to_play: toPlay,
  seed_sha256: '',
  rules: {},
  scores: [0, 0],
  round: { dealer: 1, table: [], dealt: [], moves },
  hand: [],
});

test('socket: backoff doubles from 500 ms and stops growing at 10 s', () => {
  assert.equal(backoff(0, 500, 10000, 0), 500);
  assert.equal(backoff(1, 500, 10000, 0), 1000);
  assert.equal(backoff(3, 500, 10000, 0), 4000);
  assert.equal(backoff(10, 500, 10000, 0), 10000);
  assert.equal(backoff(0, 500, 10000, 1), 400); // jitter never waits longer
});

test('socket: a dropped connection is reported down, retried with backoff, and opened() runs again', () => {
  const f = setup();
  f.sockets[0]!.up();
  assert.equal(f.opened(), 1);
  f.sockets[0]!.drop();
  assert.equal(f.statuses.at(-1)!.kind, 'down');
  f.clock.advance(499);
  assert.equal(f.sockets.length, 1);
  f.clock.advance(1);
  assert.equal(f.sockets.length, 2);
  f.sockets[1]!.drop(); // the server is still down: wait longer
  f.clock.advance(999);
  assert.equal(f.sockets.length, 2);
  f.clock.advance(1);
  assert.equal(f.sockets.length, 3);
  f.sockets[2]!.up();
  assert.equal(f.opened(), 2);
  assert.equal(f.statuses.at(-1)!.kind, 'open');
});

test('contract serve: a move not answered in time is sent again with the same ply, then dropped once played', () => {
  const f = setup();
  const ws = f.sockets[0]!;
  ws.up();
  f.s.move('7dx3c+4s', 12, 1);
  assert.deepEqual(
    ws.sent.map((m) => [m.type, m.move, m.ply]),
    [['move', '7dx3c+4s', 12]],
  );
  f.clock.advance(4000);
  assert.equal(ws.sent.filter((m) => m.type === 'move').length, 2);
  assert.deepEqual(f.resent, [12]);
  ws.recv(state(new Array<string>(12).fill('1d'), 0)); // not yet played (a presence change)
  assert.equal(f.s.pendingMove, '7dx3c+4s');
  ws.recv(state(new Array<string>(13).fill('1d'), 1)); // played
  assert.equal(f.s.pendingMove, null);
  f.clock.advance(20000);
  assert.equal(ws.sent.filter((m) => m.type === 'move').length, 2);
});

test('contract serve: a move pending when the connection drops goes again after the resume', () => {
  const f = setup();
  f.sockets[0]!.up();
  f.s.move('5sx5c', 3, 1);
  f.sockets[0]!.drop();
  f.clock.advance(500);
  const ws = f.sockets[1]!;
  ws.up();
  assert.deepEqual(
    ws.sent.map((m) => m.type),
    ['move'],
  );
  assert.equal(ws.sent[0]!.ply, 3);
});

test('contract serve: an error answering the move drops it (no endless resend)', () => {
  const f = setup();
  const ws = f.sockets[0]!;
  ws.up();
  f.s.move('5sx5c', 3, 1);
  const id = ws.sent[0]!.id;
  ws.recv({ type: 'error', message: 'stale ply', id });
  assert.equal(f.s.pendingMove, null);
  assert.equal(f.got.at(-1)!.type, 'error');
});

test('contract serve: a table stopped by the server (store_failed, no id) drops the move: not sent again', () => {
  const f = setup();
  const ws = f.sockets[0]!;
  ws.up();
  f.s.move('5sx5c', 3, 1);
  // the write failed: every connection of the table hears it, without the move's id
  ws.recv({ type: 'error', code: 'store_failed', message: 'Table K stopped' });
  assert.equal(f.s.pendingMove, null);
  f.clock.advance(20000);
  assert.equal(ws.sent.filter((m) => m.type === 'move').length, 1);
});

test('socket: pings go out every 10 s while open', () => {
  const f = setup();
  const ws = f.sockets[0]!;
  ws.up();
  f.clock.advance(30000);
  assert.equal(ws.sent.filter((m) => m.type === 'ping').length, 3);
});

test('socket: a server that answers pings and then goes silent is left and reconnected', () => {
  const f = setup();
  const ws = f.sockets[0]!;
  ws.up();
  f.clock.advance(10000);
  ws.recv({ type: 'pong', id: ws.sent.at(-1)!.id });
  f.clock.advance(20000); // pings at 20 s and 30 s go unanswered
  assert.equal(f.sockets.length, 1);
  f.clock.advance(10000); // at 40 s: 30 s of silence > 25 s
  assert.equal(f.statuses.at(-1)!.kind, 'down');
  f.clock.advance(500);
  assert.equal(f.sockets.length, 2);
});
