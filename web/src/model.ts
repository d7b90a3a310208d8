/*
 * model.ts -- the reducer's vocabulary: the Model (what is on screen, from
 * tableview.ts, plus what the controller alone remembers), the Events it
 * consumes (server messages, the transport's news, the player's verbs,
 * timers firing, fetches answered, the address changing) and the Effects it
 * asks for (send, store, history, timers, fetches).  reduce.ts maps
 * (Model, Event) to (Model, Effect[]); effects.ts runs the effects.
 *
 * What must stay true: everything here is data (no functions, no DOM), so a
 * test builds any model and any event by hand; time comes in the events that
 * need it, never from a clock read inside the reducer; the localStorage keys
 * and the addresses are those of CONTRACTS.md and docs/web.md.
 */
import type { Card, ClientMsg, ServerMsg, Rules } from './protocol.js';
import { type Lang, pickLang } from './i18n.js';
import type { AppState } from './tableview.js';
import type { ConnStatus } from './transport.js';
import type { SoundName } from './sounds.js';
import { type AccountOp, type AccountVerb, type HttpResult, initialAccount } from './account.js';
import { type TourneyVerb, initialTourneys } from './tourney.js';

/** The page's address: what `location` holds, or will once history is
 * pushed or replaced. */
export interface Url {
  path: string; // "/t/K7QX2M"
  search: string; // "" or "?watch", with its "?"
  hash: string; // "" or "#token=...", with its "#"
}

/** A time bank (docs/serve.md): seconds per seat for the game, and
 * given back after each move. */
export interface Bank {
  bank: number;
  increment: number;
}

/** Why the page connects, until a `seated` (or a state) answers it. */
export type Intent =
  | {
      kind: 'create';
      rules: Rules;
      seats: string[];
      clock?: number;
      bank?: Bank;
      listed?: boolean;
      talk?: boolean;
    }
  | { kind: 'join' }
  | { kind: 'watch' }
  | null;

export interface Model extends AppState {
  intent: Intent;
  /** The home form the last create came from (a refusal reopens it). */
  createForm: 'bot' | 'priv';
  /** The transport started for this table, if any: the server's socket
   * or the engine in the page (local.ts); another table may switch. */
  connected: false | 'server' | 'local';
  /** Messages that change the table, waiting their turn (pacing.ts). */
  queue: ServerMsg[];
  /** A pace timer runs: the queue waits for it. */
  pacing: boolean;
  /** The ids the transport gave the last hint and review requests, so
   * their errors are told from others (false: not sent). */
  hintId: number | false;
  reviewId: number | false;
  url: Url;
  /** The scopa.* keys of localStorage as this page knows them: read once
   * at start, kept up to date by the store effects and by other tabs'
   * storage events. */
  stored: Readonly<Record<string, string>>;
  /** The system asks for reduced motion: no pacing, as with skipAnim. */
  reducedMotion: boolean;
  /** The player has done something (a verb): sounds may play (sounds.ts). */
  gesture: boolean;
  /** How many times the table failed to store at the position `stallAt`
   * (stall.ts): the back-off of the next resume grows with it. */
  storeFails: number;
  stallAt: string | null;
  /** The address asked for the review (/t/CODE?review, the account
   * page's link): asked as soon as the finished table's state comes. */
  wantReview: boolean;
}

/** Timers by name; starting one cancels the running one of that name. */
export type Timer =
  | { name: 'pace' } // the next of the moves that arrived together
  | { name: 'hint' } // no answer to a hint request: unavailable
  | { name: 'review' } // no answer to a review request: unavailable
  | { name: 'notice'; text: string } // the notice leaves
  | { name: 'reaction' } // the reactions shown long enough leave
  | { name: 'resume' } // a stopped table is taken back (stall.ts)
  | { name: 'error'; text: string } // the error leaves
  | { name: 'lobby' } // the lobby's list is asked for again
  | { name: 'tourneys' } // the tournaments' list, likewise
  | { name: 'tourney' }; // the tournament the page shows

export type Effect =
  /** Start the server's transport, or the page's own engine (local). */
  | { kind: 'connect'; local: boolean }
  /** Ask whether a server answers (GET /healthz): a `probed` event. */
  | { kind: 'probe' }
  /** Save the table's record as a file (the local game's from the worker). */
  | { kind: 'download'; code: string }
  /** `tag`: the runner reports the id it got back as a `sent` event. */
  | { kind: 'send'; msg: ClientMsg; tag?: 'hint' | 'review' }
  | { kind: 'move'; move: string; ply: number; round: number | null }
  /** localStorage; null removes the key. */
  | { kind: 'store'; key: string; value: string | null }
  | { kind: 'history'; op: 'push' | 'replace'; url: string }
  | { kind: 'timer'; timer: Timer; ms: number }
  | { kind: 'cancel'; name: Timer['name'] }
  | { kind: 'fetchLeaderboard'; pool: string }
  /** GET /api/lobby: the public tables that wait for people. */
  | { kind: 'fetchLobby' }
  /** GET /api/tournaments, and one tournament's GET /api/tournaments/ID. */
  | { kind: 'fetchTourneys' }
  | { kind: 'fetchTourney'; id: string }
  | { kind: 'fetchRecord'; code: string }
  /** A request of the accounts' API (account.ts), answered by an `http`
   * event; the session cookie goes along (same origin), never read here. */
  | { kind: 'http'; op: AccountOp; method: 'GET' | 'POST'; url: string; body?: unknown }
  /** Close the server's connection (signed in or out: the next one
   * carries the new cookie). */
  | { kind: 'disconnect' }
  /** Animations on or off (anim.ts). */
  | { kind: 'skipAnim'; on: boolean }
  /** Draw the cards in this style (cards.ts DeckStyle), loading it. */
  | { kind: 'deck'; style: string }
  /** A sound (sounds.ts), played by sound.ts. */
  | { kind: 'sound'; name: SoundName };

/** What the player does, already read from the page (input.ts). */
export type Verb =
  /** A card of the hand; `look`: by its digit key, which picks or cycles
   * but never plays (Enter does). */
  | { kind: 'pick'; card: Card; look?: boolean }
  | { kind: 'pickTable'; card: Card } // a card of the table, a card picked
  | { kind: 'confirm' }
  | { kind: 'cancel' }
  /** Open a side's pile, the round's moves, or close the panel (null). */
  | { kind: 'peek'; what: number | 'moves' | null }
  | { kind: 'hint' }
  | { kind: 'toggleHints' }
  | { kind: 'toggleSkip' }
  | { kind: 'toggleOneClick' }
  | { kind: 'deck'; style: string } // the cards' style chosen
  | { kind: 'toggleMute' }
  | { kind: 'lang'; lang: Lang }
  | { kind: 'home' }
  | { kind: 'leaderboard' }
  | { kind: 'pool'; pool: string }
  /** The bot form: its rules, level and the name field. */
  | { kind: 'startBot'; rules: Rules; level: string; name: string }
  /** The private table form: `seats[i]` is seat i's select ("open", a
   * level), seat 0 being the player's. */
  | {
      kind: 'create';
      rules: Rules;
      seats: (string | undefined)[];
      name: string;
      /** the move clock's seconds (0: none), for tables of people */
      clock?: number;
      /** or a time bank instead of the move clock */
      bank?: Bank;
      /** listed in the lobby for strangers ("public": true) */
      listed?: boolean;
      /** table talk on or off (absent: the server's default) */
      talk?: boolean;
    }
  | { kind: 'join'; code: string; name: string }
  /** Play now: be paired with strangers for these rules and move clock;
   * withdraw; or take the bot the server offers instead. */
  | { kind: 'seek'; rules: Rules; clock: number; bank?: Bank; name: string }
  | { kind: 'unseek' }
  | { kind: 'seekBot'; name: string }
  | { kind: 'watch'; code: string }
  | { kind: 'continue'; now: number } // the round score closed
  | { kind: 'newGame' }
  /** Play again with the same people and rules: ask or say yes (true),
   * or say no (false). */
  | { kind: 'rematch'; accept: boolean }
  /** A reaction by its id (REACTIONS), and muting them. */
  | { kind: 'react'; reaction: string }
  | { kind: 'toggleReactions' }
  /** Table talk: say a line; hide a seat's lines (or show them again);
   * report a seat's person. */
  | { kind: 'say'; text: string }
  | { kind: 'muteSeat'; seat: number }
  | { kind: 'report'; seat: number }
  | { kind: 'review' }
  | { kind: 'download' }
  /** Back to the game saved in this browser (/t/LOCAL). */
  | { kind: 'continueLocal' }
  | { kind: 'stepReview'; delta: number }
  | { kind: 'gotoReview'; step: number }
  /** Sign in, create an account, the account page's actions (account.ts). */
  | AccountVerb
  /** A tournament's join, withdraw, start now, and the create form. */
  | TourneyVerb;

/** A fetch's outcome: the JSON, or the error in words. */
export type Fetched = { ok: true; json: unknown } | { ok: false; error: string };

export type Event =
  | { kind: 'server'; msg: ServerMsg; now: number }
  | { kind: 'status'; conn: ConnStatus }
  | { kind: 'opened' }
  | { kind: 'resent' }
  | { kind: 'sent'; tag: 'hint' | 'review'; id: number | false }
  | { kind: 'verb'; verb: Verb }
  | { kind: 'timer'; timer: Timer; now: number }
  | { kind: 'leaderboard'; pool: string; result: Fetched }
  | { kind: 'lobby'; result: Fetched }
  | { kind: 'tourneys'; result: Fetched }
  | { kind: 'tourney'; id: string; result: Fetched }
  | { kind: 'record'; code: string; result: Fetched }
  /** An answer of the accounts' API (its status 0 when none came). */
  | { kind: 'http'; op: AccountOp; result: HttpResult }
  /** The address changed under the page: its load, back or forward. */
  | { kind: 'route'; url: Url }
  /** Another tab changed localStorage. */
  | { kind: 'storage'; key: string; value: string | null }
  | { kind: 'motion'; reduced: boolean }
  /** The answer to a probe: a server is there or not. */
  | { kind: 'probed'; up: boolean };

export interface Step {
  model: Model;
  effects: Effect[];
}

export const step = (model: Model, ...effects: Effect[]): Step => ({ model, effects });

/** Run `f` on the model of `s`, the effects of both in order. */
export function then(s: Step, f: (m: Model) => Step): Step {
  const t = f(s.model);
  return { model: t.model, effects: [...s.effects, ...t.effects] };
}

/** Keep a value in localStorage (and in the model's copy of it). */
export function store(m: Model, key: string, value: string | null): Step {
  const stored = { ...m.stored };
  if (value === null) delete stored[key];
  else stored[key] = value;
  return step({ ...m, stored }, { kind: 'store', key, value });
}

/** What the page knows at start. */
export interface Env {
  stored: Readonly<Record<string, string>>;
  languages: readonly string[];
  reducedMotion: boolean;
}

export function initial(env: Env): Model {
  const saved = env.stored['scopa.lang'];
  return {
    lang: saved === 'it' || saved === 'en' ? saved : pickLang(env.languages),
    screen: 'home',
    conn: { kind: 'connecting' },
    server: 'unknown',
    code: null,
    token: null,
    seat: null,
    msg: null,
    view: null,
    selection: null,
    pending: null,
    explain: null,
    peek: null,
    roundOver: null,
    gameOver: null,
    error: null,
    refused: null,
    createForm: 'bot',
    notice: null,
    hintsOn: env.stored['scopa.hints'] !== 'off',
    hint: null,
    hintState: 'idle',
    review: null,
    reviewState: 'idle',
    reviewStep: 0,
    record: null,
    awaySince: [],
    msgAt: 0,
    leaderboard: { state: 'loading', pool: '2p', rows: [] },
    lobby: { state: 'loading', tables: [] },
    tourneys: initialTourneys(),
    tourney: null,
    seek: null,
    skipAnim: env.stored['scopa.skip'] === '1',
    reactions: [],
    reactionsOn: env.stored['scopa.reactions'] !== 'off',
    talk: [],
    reported: [],
    intent: null,
    resuming: false,
    connected: false,
    queue: [],
    pacing: false,
    hintId: false,
    reviewId: false,
    url: { path: '/', search: '', hash: '' },
    stored: env.stored,
    reducedMotion: env.reducedMotion,
    gesture: false,
    stalled: null,
    storeFails: 0,
    stallAt: null,
    wantReview: false,
    account: initialAccount(env.stored),
  };
}
