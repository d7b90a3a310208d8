/*
 * local.ts -- the second Transport (transport.ts): the library itself,
 * compiled to WebAssembly, in a Web Worker (web/wasm/worker.ts,
 * docs/wasm.md).  The worker speaks the WebSocket's messages, one JSON
 * text each way, so the reducer and the screens cannot tell the two
 * apart; games against bots are played here when no server answers (or
 * the page is served as static files), and the game saved in the browser
 * (table code LOCAL) always is.
 *
 *   reducer --effects--> effects.ts --+--> Socket          (scopa serve /ws)
 *      ^                              +--> LocalTransport  (worker: scopa.wasm)
 *      +------ the same ServerMsg events from either -------+
 *
 * What must stay true: opened() fires once the worker's hello came, as a
 * socket's on open; a worker that fails to start is "down" and is
 * started again after a wait, as a dropped socket reconnects.  A move
 * needs no resending: the worker answers every message, in order.  The
 * worker is injected so test/local.test.ts runs this under node.
 */
import { type ClientMsg, parse } from './protocol.js';
import type { Transport, TransportEvents } from './transport.js';

/** The table code of the game played in the browser. */
export const LOCAL_CODE = 'LOCAL';

/** What a Worker must offer us (the browser's does). */
export interface WorkerLike {
  postMessage(data: string): void;
  terminate(): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface LocalOptions {
  create: () => WorkerLike;
  setTimeout(f: () => void, ms: number): unknown;
  now(): number;
  retryMs?: number; // start a failed worker again after this long (default 2 s)
}

export class LocalTransport implements Transport {
  private worker: WorkerLike | null = null;
  private ready = false;
  private nextId = 1;
  private attempt = 0;
  private stopped = false;
  private records: ((text: string | null) => void)[] = [];

  constructor(
    private readonly o: LocalOptions,
    private readonly hooks: TransportEvents,
  ) {}

  connect(): void {
    this.stopped = false;
    if (this.worker) return;
    this.hooks.status({ kind: 'connecting' });
    let w: WorkerLike;
    try {
      w = this.o.create();
    } catch {
      return this.failed();
    }
    this.worker = w;
    this.ready = false;
    w.onmessage = (ev) => {
      if (this.worker === w && typeof ev.data === 'string') this.heard(ev.data);
    };
    w.onerror = () => {
      if (this.worker === w) this.failed();
    };
  }

  stop(): void {
    this.stopped = true;
    this.teardown();
  }

  private teardown(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
    this.answerRecords(null);
  }

  send(msg: ClientMsg): number | false {
    if (!this.worker || !this.ready) return false;
    const id = this.nextId++;
    this.worker.postMessage(JSON.stringify({ ...msg, id }));
    return id;
  }

  move(move: string, ply: number, _round?: number | null): void {
    this.send({ type: 'move', move, ply });
  }

  /** The game's full record (the worker's "record"), null without one. */
  record(): Promise<string | null> {
    if (!this.worker || !this.ready) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.records.push(resolve);
      this.worker!.postMessage(JSON.stringify({ type: 'record' }));
    });
  }

  private heard(text: string): void {
    const record = recordOf(text);
    if (record !== undefined) {
      const r = this.records.shift();
      r?.(record);
      return;
    }
    const m = parse(text);
    if (!m) return;
    this.hooks.message(m);
    if (m.type === 'hello' && !this.ready) {
      this.ready = true;
      this.attempt = 0;
      this.hooks.status({ kind: 'open' });
      this.hooks.opened();
    }
  }

  private failed(): void {
    this.teardown();
    const wait = (this.o.retryMs ?? 2000) * 2 ** Math.min(this.attempt, 4);
    this.hooks.status({ kind: 'down', retryAt: this.o.now() + wait, attempt: this.attempt });
    this.attempt++;
    this.o.setTimeout(() => {
      if (!this.worker && !this.stopped) this.connect();
    }, wait);
  }

  private answerRecords(text: string | null): void {
    const waiting = this.records;
    this.records = [];
    waiting.forEach((r) => r(text));
  }
}

/** The record of a worker's {"type": "record"} answer (null: no game);
 * undefined for any other message. */
function recordOf(text: string): string | null | undefined {
  try {
    const m = JSON.parse(text) as { type?: unknown; record?: unknown };
    if (m.type !== 'record') return undefined;
    return typeof m.record === 'string' ? m.record : null;
  } catch {
    return undefined;
  }
}
