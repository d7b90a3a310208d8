/*
 * effects.ts -- runs the reducer's effects: the transport, localStorage,
 * history, timers and fetches.  Each is injected (main.ts passes the
 * page's own), so test/effects.test.ts runs it under node with fakes.
 * What an effect answers comes back to the reducer as an event through
 * `dispatch`: a request's id (sent), a timer (timer), a fetch (leaderboard,
 * record, http).
 *
 * What must stay true: one timer of each name runs at a time (starting one
 * cancels the last); localStorage that refuses (private mode, quota) loses
 * the value, never the page (the token link still works); a fetch that
 * fails is reported, never thrown.
 */
import type { Effect, Event, Fetched, Timer } from './model.js';
import type { Transport } from './transport.js';
import type { SoundName } from './sounds.js';
import { LOCAL_CODE } from './local.js';
import type { HttpResult } from './account.js';
import type { ClientWords } from './protocol.js';

/** What the runner needs of the page. */
export interface Page {
  /** The server's transport (socket.ts). */
  transport: Transport;
  /** The page's own engine (local.ts), for `connect` effects with local. */
  local?: Transport;
  /** The local game's full record (local.ts), null without one. */
  localRecord?(): Promise<string | null>;
  /** Offer a text as a file to save (main.ts). */
  saveFile?(name: string, text: string): void;
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
  /** A request of the accounts' API with the page's cookies (same
   * origin): its status, JSON and Retry-After, whatever the status;
   * rejects only when no answer came. */
  request?(method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpResult>;
  setSkip(on: boolean): void;
  /** Load a deck style and redraw the cards in it (main.ts). */
  setDeck?(style: string): void;
  /** Play a sound (sound.ts). */
  sound?(name: SoundName): void;
  /** The page's language and deck, said with every message sent, so the
   * table's sentences come in them (docs/serve.md, issue 33). */
  words?(): ClientWords;
}

export function effectRunner(page: Page): (effects: readonly Effect[]) => void {
  const timers = new Map<Timer['name'], unknown>();
  let current = page.transport; // where send and move go

  /** The transport a connect effect asks for; the other one is stopped. */
  function connect(local: boolean): void {
    const next = local && page.local ? page.local : page.transport;
    if (next !== current) current.stop();
    current = next;
    current.connect();
  }

  /** A table's record: the worker's for the local game, else the server's. */
  async function recordText(code: string): Promise<string> {
    if (code === LOCAL_CODE && page.localRecord) {
      const text = await page.localRecord();
      if (text === null) throw new Error('no game in this browser');
      return text;
    }
    return JSON.stringify(await page.getJson(`/api/tables/${encodeURIComponent(code)}/record`));
  }

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
        return connect(e.local);
      case 'probe':
        void fetched('/healthz').then((r) =>
          page.dispatch({ kind: 'probed', up: r.ok && (r.json as { ok?: unknown })?.ok === true }),
        );
        return;
      case 'download': {
        const code = e.code;
        void recordText(code).then(
          (text) => page.saveFile?.(`scopa-${code}.json`, text),
          (err: unknown) =>
            page.dispatch({ kind: 'record', code, result: { ok: false, error: String(err) } }),
        );
        return;
      }
      case 'send': {
        const id = current.send(page.words ? { ...e.msg, ...page.words() } : e.msg);
        if (e.tag) page.dispatch({ kind: 'sent', tag: e.tag, id });
        return;
      }
      case 'move':
        return current.move(e.move, e.ply, e.round);
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
      case 'fetchLobby':
        void fetched('/api/lobby').then((result) => page.dispatch({ kind: 'lobby', result }));
        return;
      case 'fetchTourneys':
        void fetched('/api/tournaments').then((result) =>
          page.dispatch({ kind: 'tourneys', result }),
        );
        return;
      case 'fetchTourney': {
        const id = e.id;
        void fetched(`/api/tournaments/${encodeURIComponent(id)}`).then((result) =>
          page.dispatch({ kind: 'tourney', id, result }),
        );
        return;
      }
      case 'fetchRecord': {
        const code = e.code;
        void recordText(code)
          .then((text): Fetched => ({ ok: true, json: JSON.parse(text) as unknown }))
          .catch((err: unknown): Fetched => ({ ok: false, error: String(err) }))
          .then((result) => page.dispatch({ kind: 'record', code, result }));
        return;
      }
      case 'http': {
        const op = e.op;
        const none: HttpResult = { status: 0, json: null, retryAfter: null };
        const asked = page.request
          ? page.request(e.method, e.url, e.body).catch(() => none)
          : Promise.resolve(none);
        void asked.then((result) => page.dispatch({ kind: 'http', op, result }));
        return;
      }
      case 'disconnect':
        return current.stop();
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
