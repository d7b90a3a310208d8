/*
 * fixtures.ts -- models, messages and a driver for the reducer's tests
 * (reduce.test.ts, verbs.test.ts, routes.test.ts): a fresh page's model,
 * a state message of a two-player table, and `drive`, which feeds events
 * to reduce() one after the other and keeps every effect, as the page
 * would run them.
 */
import type { Effect, Event, Model, Verb } from '../src/model.js';
import { initial } from '../src/model.js';
import { reduce } from '../src/reduce.js';
import { parseUrl } from '../src/routes.js';
import {
  type Card,
  type Drawn,
  type ServerMsg,
  type StateMsg,
  parseMove,
} from '../src/protocol.js';
import { SAMPLE_CODE, sampleState } from '../src/samples.js';

export const CODE = SAMPLE_CODE;

/** A fresh page: nothing stored, English, motion on. */
export function fresh(stored: Record<string, string> = {}, over: Partial<Model> = {}): Model {
  return { ...initial({ stored, languages: ['en-GB'], reducedMotion: false }), ...over };
}

/** Seat 0 to play at K7QX2M: 5s can take 5c; 2d and 7b are laid. */
export const state = sampleState;

/** What the server draws after the first `moves` of the sample round
 * (dealer 1: seat 0 leads), written out for plain captures of one hand
 * at most: the tests' data, not a rules engine (the server's is the
 * library's, checked by tests/server serve-2.2). */
export function drawnAfter(moves: string[]): Drawn {
  const table: Card[] = [...state().round!.table];
  const piles: Card[][] = [[], []];
  const hands = [3, 3];
  moves.forEach((text, i) => {
    const m = parseMove(text)!;
    hands[i % 2]! -= 1;
    if (!m.takes.length) table.push(m.card);
    else {
      for (const c of m.takes) table.splice(table.indexOf(c), 1);
      piles[i % 2]!.push(m.card, ...m.takes);
    }
  });
  const last = moves.length
    ? { seat: (moves.length - 1) % 2, move: moves[moves.length - 1]! }
    : null;
  return { table, hands, stock: 30, piles, scope: [[], []], last };
}

/** The same table after `moves` (the bot to play: no legal list). */
export function after(moves: string[], over: Partial<StateMsg> = {}): StateMsg {
  const s = state();
  return state({
    round: { ...s.round!, moves },
    to_play: 1,
    legal: [],
    drawn: drawnAfter(moves),
    ...over,
  });
}

export interface Drive {
  model: Model;
  effects: Effect[];
  /** Feed more events, keeping the effects. */
  on(...events: Event[]): Drive;
}

export function drive(model: Model, ...events: Event[]): Drive {
  let m = model;
  const effects: Effect[] = [];
  const d: Drive = {
    get model() {
      return m;
    },
    effects,
    on(...more: Event[]) {
      for (const e of more) {
        const s = reduce(m, e);
        m = s.model;
        effects.push(...s.effects);
      }
      return d;
    },
  };
  return d.on(...events);
}

export const server = (msg: ServerMsg, now = 1000): Event => ({ kind: 'server', msg, now });
export const verb = (v: Verb): Event => ({ kind: 'verb', verb: v });
export const route = (s: string): Event => ({ kind: 'route', url: parseUrl(s) });

/** A page at /t/K7QX2M holding seat 0 (its token stored), connected. */
export function seated(over: Partial<Model> = {}): Model {
  const d = drive(
    fresh({ [`scopa.token.${CODE}`]: 'tok' }),
    route(`/t/${CODE}`),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
    server(state()),
  );
  return { ...d.model, ...over };
}

/** The effects of one kind. */
export function only<K extends Effect['kind']>(
  fx: readonly Effect[],
  kind: K,
): Extract<Effect, { kind: K }>[] {
  return fx.filter((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
}

/** The messages sent, in order. */
export const sent = (fx: readonly Effect[]) => only(fx, 'send').map((e) => e.msg);
