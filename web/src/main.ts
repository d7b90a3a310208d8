/*
 * main.ts -- the wiring, and nothing else: the page's model, the reducer
 * (reduce.ts) fed by the transport (socket.ts, or another given in
 * AppOptions), the player's input (input.ts), the address (popstate) and
 * other tabs (storage); the effects it returns run by effects.ts on the
 * page's own localStorage, history, timers and fetch; every new model drawn
 * by render.ts (coalesced: one render per frame).
 *
 *   transport --events--> reduce(model, event) --> model --> render
 *   input -----verbs---->        |
 *   timers, fetches <--effects---+--> send, store, history
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
import * as anim from './anim.js';

export interface AppOptions {
  /** Another transport (the harness's fake; later, the local engine). */
  transport?: TransportFactory;
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

  const dispatch = (e: Event): void => {
    const s = reduce(model, e);
    model = s.model;
    redraw(root, model);
    run(s.effects);
  };
  const transport = (opts.transport ?? socketTransport)({
    message: (msg) => dispatch({ kind: 'server', msg, now: Date.now() }),
    status: (conn) => dispatch({ kind: 'status', conn }),
    opened: () => dispatch({ kind: 'opened' }),
    resent: () => dispatch({ kind: 'resent' }),
  });
  const run = effectRunner({
    transport,
    dispatch,
    storage: storage(),
    history: window.history,
    setTimeout: (f, ms) => window.setTimeout(f, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
    now: () => Date.now(),
    getJson,
    setSkip: anim.setSkip,
    setDeck,
    sound: playSound,
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
    if (model.conn.kind === 'down' || clock || model.awaySince.some((x) => x !== null))
      redraw(root, model);
  }, 1000);
  dispatch({ kind: 'route', url: here() });
  return { model: () => model, dispatch };
}

const root = document.getElementById('app');
if (root && !root.dataset.harness) startApp(root);
