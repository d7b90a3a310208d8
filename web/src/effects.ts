/*
 * effects.ts -- runs the reducer's effects: the transport, localStorage,
 * history, timers and fetches.  Each is injected (main.ts passes the
 * page's own), so test/effects.test.ts runs it under node with fakes.
 * What an effect answers comes back to the reducer as an event through
 * `dispatch`: a request's id (sent), a timer (timer), a fetch (leaderboard,
 * record).
 *
 * What must stay true: one timer of each name runs at a time (starting one
 * cancels the last); localStorage that refuses (private mode, quota) loses
 * the value, never the page (the token link still works); a fetch that
 * fails is reported, never thrown.
 */
import type { Effect, Event, Fetched, Timer } from './model.js';
import type { Transport } from './transport.js';
import type { SoundName } from './sounds.js';

/** What the runner needs of the page. */
export interface Page {
  transport: Transport;
  dispatch(e: Event): void;
  storage: { setItem(k: string, v: string): void; removeItem(k: string): void } | null;
  history: {
    pushState(d: null, u: string, url: string): void;
    replaceState(d: null, u: string, url: string): void;
  };
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  now(): number;
  /** GET a URL as JSON; rejects on a status other than 2xx. */
  getJson(url: string): Promise<unknown>;
  setSkip(on: boolean): void;
  /** Load a deck style and redraw the cards in it (main.ts). */
  setDeck?(style: string): void;
  /** Play a sound (sound.ts). */
  sound?(name: SoundName): void;
}

export function effectRunner(page: Page): (effects: readonly Effect[]) => void {
  const timers = new Map<Timer['name'], unknown>();

  function cancel(name: Timer['name']): void {
    const h = timers.get(name);
    if (h !== undefined) page.clearTimeout(h);
    timers.delete(name);
  }

  function start(timer: Timer, ms: number): void {
    cancel(timer.name);
    const h = page.setTimeout(() => {
      timers.delete(timer.name);
      page.dispatch({ kind: 'timer', timer, now: page.now() });
    }, ms);
    timers.set(timer.name, h);
  }

  function store(key: string, value: string | null): void {
    try {
      if (value === null) page.storage?.removeItem(key);
      else page.storage?.setItem(key, value);
    } catch {
      /* private mode: the fragment link still works */
    }
  }

  async function fetched(url: string): Promise<Fetched> {
    try {
      return { ok: true, json: await page.getJson(url) };
    } catch (e) {
      return { ok: false, error: String(e) };
    }
  }

  function run(e: Effect): void {
    switch (e.kind) {
      case 'connect':
        return page.transport.connect();
      case 'send': {
        const id = page.transport.send(e.msg);
        if (e.tag) page.dispatch({ kind: 'sent', tag: e.tag, id });
        return;
      }
      case 'move':
        return page.transport.move(e.move, e.ply, e.round);
      case 'store':
        return store(e.key, e.value);
      case 'history':
        if (e.op === 'push') page.history.pushState(null, '', e.url);
        else page.history.replaceState(null, '', e.url);
        return;
      case 'timer':
        return start(e.timer, e.ms);
      case 'cancel':
        return cancel(e.name);
      case 'fetchLeaderboard': {
        const pool = e.pool;
        void fetched(`/api/leaderboard?pool=${encodeURIComponent(pool)}`).then((result) =>
          page.dispatch({ kind: 'leaderboard', pool, result }),
        );
        return;
      }
      case 'fetchRecord': {
        const code = e.code;
        void fetched(`/api/tables/${encodeURIComponent(code)}/record`).then((result) =>
          page.dispatch({ kind: 'record', code, result }),
        );
        return;
      }
      case 'skipAnim':
        return page.setSkip(e.on);
      case 'deck':
        return page.setDeck?.(e.style);
      case 'sound':
        return page.sound?.(e.name);
    }
  }

  return (effects) => effects.forEach(run);
}
