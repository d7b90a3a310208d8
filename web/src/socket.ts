/*
 * socket.ts -- the one connection to `scopa serve`'s /ws, in the manner of
 * lichess's socket client: typed messages in and out, a ping every few
 * seconds, reconnection with growing backoff, and a move not answered in
 * time sent again with the same `ply` (the server refuses a stale or repeated
 * move, so nothing plays twice).
 *
 * What must stay true: at most one WebSocket is open; at most one move is
 * pending; the pending move is dropped as soon as a state shows it played (or
 * the round moved on) or the server answers its id with an error (or
 * stops the table, store_failed: the move was not played, stall.ts).  It is
 * the Transport (transport.ts) of a page served by `scopa serve`.  The
 * WebSocket and the clock are injected so test/socket.test.ts runs it under
 * node with fakes.
 */
import { type ClientMsg, type ServerMsg, parse } from './protocol.js';
import type { Transport, TransportEvents } from './transport.js';

/** What a WebSocket must offer us (the browser's does). */
export interface WsLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface Clock {
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  now(): number;
}

/** The socket's hooks are the transport's events. */
export type SocketHooks = TransportEvents;

export interface SocketOptions {
  url: string;
  create: (url: string) => WsLike;
  clock: Clock;
  pingMs?: number; // a ping this often (default 10 s)
  moveTimeoutMs?: number; // resend a move not answered this long (default 4 s)
  backoffMs?: number; // first retry after this long (default 500 ms), doubling
  maxBackoffMs?: number; // never wait longer (default 10 s)
}

const OPEN = 1;

/** Backoff before reconnection attempt n (0-based): base * 2^n, capped, with
 * up to 20% jitter so a restarted server is not hit by every client at once. */
export function backoff(n: number, base: number, max: number, rnd: number): number {
  const d = Math.min(max, base * 2 ** Math.min(n, 20));
  return Math.round(d * (1 - 0.2 * rnd));
}

export class Socket implements Transport {
  private ws: WsLike | null = null;
  private attempt = 0;
  private nextId = 1;
  private pending: { move: string; ply: number; id: number; round: number | null } | null = null;
  private moveTimer: unknown = null;
  private pingTimer: unknown = null;
  private retryTimer: unknown = null;
  private stopped = false;
  private lastHeard = 0; // when the last message arrived (clock ms)
  private answersPings = false; // the server has answered a ping
  private readonly o: Required<SocketOptions>;

  constructor(
    opts: SocketOptions,
    private readonly hooks: SocketHooks,
    private readonly rnd: () => number = Math.random,
  ) {
    this.o = { pingMs: 10000, moveTimeoutMs: 4000, backoffMs: 500, maxBackoffMs: 10000, ...opts };
  }

  connect(): void {
    this.stopped = false;
    this.open();
  }

  /** Close for good (leaving the table). */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.ws?.close();
    this.ws = null;
  }

  get isOpen(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN;
  }

  /** Send one message now, with a fresh id; false when the connection is
   * down (the caller's state will be sent again by opened()). */
  send(msg: ClientMsg): number | false {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    const id = this.nextId++;
    // a tournament message's "id" is the tournament's (CONTRACTS.md): it
    // goes as it is, without a request id of ours
    const named = 'id' in msg && typeof msg.id === 'string';
    this.ws.send(JSON.stringify(named ? msg : { ...msg, id }));
    return id;
  }

  /** Send a move and keep it until a state shows it played.  `round` is the
   * dealer of the round it belongs to, so a state of the next round also
   * answers it. */
  move(move: string, ply: number, round: number | null): void {
    this.pending = { move, ply, id: 0, round };
    this.sendPending(false);
  }

  get pendingMove(): string | null {
    return this.pending?.move ?? null;
  }

  private sendPending(again: boolean): void {
    const p = this.pending;
    if (!p) return;
    const id = this.send({ type: 'move', move: p.move, ply: p.ply });
    if (id !== false) {
      p.id = id;
      if (again) this.hooks.resent?.(p.move, p.ply);
    }
    this.armMoveTimer();
  }

  private armMoveTimer(): void {
    if (this.moveTimer !== null) this.o.clock.clearTimeout(this.moveTimer);
    this.moveTimer = this.o.clock.setTimeout(() => {
      this.moveTimer = null;
      if (this.pending) this.sendPending(true);
    }, this.o.moveTimeoutMs);
  }

  private settle(m: ServerMsg): void {
    const p = this.pending;
    if (!p) return;
    let done = false;
    if (m.type === 'state') {
      const seen = m.round?.moves.length ?? 0;
      const roundId = m.round?.dealer ?? null;
      done =
        seen !== p.ply || roundId !== p.round || m.to_play !== m.seat || m.status !== 'playing';
    } else if (m.type === 'error' && (m.id === p.id || m.code === 'store_failed')) done = true;
    else if (m.type === 'round_over' || m.type === 'game_over') done = true;
    if (done) {
      this.pending = null;
      if (this.moveTimer !== null) this.o.clock.clearTimeout(this.moveTimer);
      this.moveTimer = null;
    }
  }

  private open(): void {
    this.hooks.status({ kind: 'connecting' });
    const ws = this.o.create(this.o.url);
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastHeard = this.o.clock.now();
      this.hooks.status({ kind: 'open' });
      this.hooks.opened();
      if (this.pending) this.sendPending(true);
      this.armPing();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws || typeof ev.data !== 'string') return;
      this.lastHeard = this.o.clock.now();
      const m = parse(ev.data);
      if (!m) return; // a type or shape we do not know: ignored (CONTRACTS.md)
      if (m.type === 'pong') {
        this.answersPings = true;
        return;
      }
      this.settle(m);
      this.hooks.message(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.down();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private down(): void {
    this.clearTimers();
    if (this.stopped) return;
    const wait = backoff(this.attempt, this.o.backoffMs, this.o.maxBackoffMs, this.rnd());
    this.hooks.status({ kind: 'down', retryAt: this.o.clock.now() + wait, attempt: this.attempt });
    this.attempt++;
    this.retryTimer = this.o.clock.setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, wait);
  }

  private armPing(): void {
    this.pingTimer = this.o.clock.setTimeout(() => {
      this.pingTimer = null;
      // a server that answers pings and has said nothing for 2.5 periods is
      // gone (a half-open connection): close and reconnect
      if (this.answersPings && this.o.clock.now() - this.lastHeard > 2.5 * this.o.pingMs) {
        const ws = this.ws;
        this.ws = null;
        ws?.close();
        this.down();
        return;
      }
      // A message type the server may not know: CONTRACTS.md says it is
      // ignored.  It keeps idle connections (and proxies) alive.
      if (this.send({ type: 'ping' }) !== false) this.armPing();
    }, this.o.pingMs);
  }

  private clearTimers(): void {
    for (const t of [this.moveTimer, this.pingTimer, this.retryTimer])
      if (t !== null) this.o.clock.clearTimeout(t);
    this.moveTimer = this.pingTimer = this.retryTimer = null;
  }
}
