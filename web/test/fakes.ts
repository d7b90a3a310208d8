/*
 * fakes.ts -- a WebSocket and a clock for the tests that run the real
 * Socket (socket.test.ts) and the effect runner (effects.test.ts) under
 * node: the test opens, drops and feeds the socket, and moves time on.
 */
import type { Clock, WsLike } from '../src/socket.js';

export class FakeWs implements WsLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  send(d: string) {
    this.sent.push(JSON.parse(d) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  up() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({});
  }
  recv(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
}

/** Timers that fire only when advance() moves time past them, in order.
 * Its members are bound: they may be passed on alone. */
export class FakeClock implements Clock {
  t = 0;
  private n = 0;
  private due = new Map<number, { at: number; f: () => void }>();
  setTimeout = (f: () => void, ms: number): unknown => {
    this.due.set(++this.n, { at: this.t + ms, f });
    return this.n;
  };
  clearTimeout = (h: unknown): void => {
    this.due.delete(h as number);
  };
  now = (): number => this.t;
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.due.entries()]
        .filter(([, v]) => v.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.due.delete(next[0]);
      this.t = next[1].at;
      next[1].f();
    }
    this.t = end;
  }
}
