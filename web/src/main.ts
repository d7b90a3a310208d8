/*
 * main.ts -- the wiring, and nothing else: the page's model, the reducer
 * (reduce.ts) fed by the transports (socket.ts to the server, local.ts to
 * the engine in a Web Worker, or another given in AppOptions), the
 * service worker (sw/sw.ts: installed, and updated only away from a
 * game), the player's input (input.ts), the address (popstate) and
 * other tabs (storage); the effects it returns run by effects.ts on the
 * page's own localStorage, history, timers and fetch; every new model drawn
 * by render.ts (coalesced: one render per frame).
 *
 *   socket | local --events--> reduce(model, event) --> model --> render
 *   input ---------verbs---->        |
 *   timers, fetches <------effects---+--> send, store, history, download
 */
import './style.css';
import { deckStyle, loadDeck } from './cards.js';
import { redrawCards } from './dom.js';
import { playSound } from './sound.js';
import { bindInput } from './input.js';
import { type Event, type Model, type Url, initial } from './model.js';
import { reduce } from './reduce.js';
import { effectRunner } from './effects.js';
import { redraw } from './render.js';
import { type WsLike, Socket } from './socket.js';
import type { Transport, TransportEvents, TransportFactory } from './transport.js';
import { LocalTransport, type WorkerLike } from './local.js';
import * as anim from './anim.js';
import type { HttpResult } from './account.js';

export interface AppOptions {
  /** Another transport (the harness's fake). */
  transport?: TransportFactory;
}

/** The library in WebAssembly in a Web Worker (web/dist/engine). */
function localTransport(events: TransportEvents): LocalTransport {
  return new LocalTransport(
    {
      create: () => new Worker('/engine/worker.js', { type: 'module' }) as unknown as WorkerLike,
      setTimeout: (f, ms) => window.setTimeout(f, ms),
      now: () => Date.now(),
    },
    events,
  );
}

/** Offers a text as a file to save (the game record). */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** A game is on screen and not over: no update may reload the page. */
function playing(m: Model): boolean {
  return m.screen === 'table' && m.gameOver === null && m.msg?.status !== 'finished';
}

/** Installs the service worker (web/dist/sw.js).  A new version waits
 * until the page is away from a game, then takes over and the page
 * reloads into it; a game in progress is never interrupted (and the
 * game in the browser is saved anyway, local.ts). */
function serviceWorker(current: () => Model): () => void {
  const sw = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!sw || location.protocol === 'file:') return () => {}; // (vite's dev server has no sw.js)
  let waiting: ServiceWorker | null = null;
  let registration: ServiceWorkerRegistration | null = null;
  let asked = false;
  const offer = (w: ServiceWorker | null): void => {
    if (w && sw.controller) waiting = w; // the first install needs no switch
  };
  sw.register('/sw.js').then(
    (reg) => {
      registration = reg;
      offer(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const w = reg.installing;
        w?.addEventListener('statechange', () => {
          if (w.state === 'installed') offer(w);
        });
      });
      window.setInterval(() => void reg.update().catch(() => {}), 3600 * 1000);
    },
    () => {}, // no service worker (a private window, say): online only
  );
  sw.addEventListener('controllerchange', () => {
    if (asked) location.reload();
  });
  return () => {
    // the registration's own word too: a statechange missed under load
    // (or one before the page was controlled) must not keep the old version
    if (!waiting) offer(registration?.waiting ?? null);
    if (waiting && !playing(current())) {
      asked = true;
      waiting.postMessage('skipWaiting');
      waiting = null;
    }
  };
}

/** The WebSocket to the server that served the page. */
function socketTransport(events: TransportEvents): Transport {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const clock = {
    setTimeout: (f: () => void, ms: number) => window.setTimeout(f, ms),
    clearTimeout: (h: unknown) => window.clearTimeout(h as number),
    now: () => Date.now(),
  };
  return new Socket({ url, create: (u) => new WebSocket(u) as unknown as WsLike, clock }, events);
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off: the page works without it
  }
}

/** The scopa.* keys of localStorage. */
function readStored(s: Storage | null): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    for (let i = 0; s && i < s.length; i++) {
      const k = s.key(i);
      const v = k?.startsWith('scopa.') ? s.getItem(k) : null;
      if (k && v !== null) out[k] = v;
    }
  } catch {
    /* unreadable: start with nothing remembered */
  }
  return out;
}

const here = (): Url => ({ path: location.pathname, search: location.search, hash: location.hash });

async function getJson(url: string): Promise<unknown> {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

/** The accounts' API: the session cookie goes along by itself (same
 * origin, HttpOnly: the page never sees it). */
async function request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  let json: unknown = null;
  try {
    json = await r.json();
  } catch {
    /* no JSON (a proxy's error page): the status says enough */
  }
  const after = r.headers.get('retry-after');
  return {
    status: r.status,
    json,
    retryAfter: after && /^\d+$/.test(after) ? Number(after) : null,
  };
}

export function startApp(
  root: HTMLElement,
  opts: AppOptions = {},
): { model(): Model; dispatch(e: Event): void } {
  const motion = window.matchMedia?.('(prefers-reduced-motion: reduce)');
  const langs = navigator.languages ?? [navigator.language];
  let model = initial({
    stored: readStored(storage()),
    languages: langs,
    reducedMotion: motion?.matches ?? false,
  });
  anim.setSkip(model.skipAnim);
  // the chosen deck only (its own chunk); cards drawn before it are blanks
  const setDeck = (style: string): void =>
    void loadDeck(deckStyle(style), document).then(() => {
      redrawCards();
      redraw(root, model);
    });
  setDeck(model.stored['scopa.deck'] ?? '');

  let update = (): void => {};
  const dispatch = (e: Event): void => {
    const s = reduce(model, e);
    model = s.model;
    redraw(root, model);
    run(s.effects);
    update();
  };
  const events: TransportEvents = {
    message: (msg) => dispatch({ kind: 'server', msg, now: Date.now() }),
    status: (conn) => dispatch({ kind: 'status', conn }),
    opened: () => dispatch({ kind: 'opened' }),
    resent: () => dispatch({ kind: 'resent' }),
  };
  const transport = (opts.transport ?? socketTransport)(events);
  const local = opts.transport ? undefined : localTransport(events);
  const run = effectRunner({
    transport,
    ...(local ? { local, localRecord: () => local.record() } : {}),
    saveFile,
    dispatch,
    storage: storage(),
    history: window.history,
    setTimeout: (f, ms) => window.setTimeout(f, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => Date.now(),
    getJson,
    request,
    setSkip: anim.setSkip,
    setDeck,
    sound: playSound,
    words: () => ({ lang: model.lang, deck: model.stored['scopa.deck'] ?? '' }),
  });

  bindInput(root, { verb: (verb) => dispatch({ kind: 'verb', verb }), app: () => model });
  window.addEventListener('popstate', () => dispatch({ kind: 'route', url: here() }));
  window.addEventListener('storage', (e) => {
    if (e.key) dispatch({ kind: 'storage', key: e.key, value: e.newValue });
  });
  motion?.addEventListener?.('change', (e) => dispatch({ kind: 'motion', reduced: e.matches }));
  // countdowns (away seats, reconnection, the move clock) tick once a second
  window.setInterval(() => {
    const clock = typeof model.msg?.clock_left === 'number';
    const waits = model.conn.kind === 'down' || model.stalled !== null;
    if (waits || clock || model.awaySince.some((x) => x !== null)) redraw(root, model);
  }, 1000);
  if (!opts.transport) update = serviceWorker(() => model);
  dispatch({ kind: 'route', url: here() });
  return { model: () => model, dispatch };
}

const root = document.getElementById('app');
if (root && !root.dataset.harness) startApp(root);
