/*
 * tourney.ts -- the tournaments (docs/serve.md "Running a tournament"):
 * the list of GET /api/tournaments (the home page's panel and
 * /tournaments), one tournament's page from GET /api/tournaments/ID,
 * asked again every few seconds while it shows and replaced at once by
 * the server's `tournament` answer, and the verbs: join, withdraw, start
 * now, create.  Pure, like routes.ts; tourneyview.ts draws it.
 *
 * What must stay true: a tournament's pages keep the server's connection
 * open, so that the `seated` of the player's next table takes the page
 * there (messages.ts); a guest is offered sign-in, never a message the
 * server refuses with sign_in; a field of the wrong kind in an answer is
 * taken as absent, and a line without an id is left out.
 */
import type { Rules } from './protocol.js';
import { type Model, type Step, step } from './model.js';
import { presetOf } from './rules.js';

/** A tournament's tables' clock (-1 in the answer: the server's default,
 * null here). */
export interface TourneyClock {
  moveClock: number | null;
  bank: number | null;
  increment: number | null;
}

/** One line of GET /api/tournaments. */
export interface TourneyLine {
  id: string;
  name: string;
  format: string; // swiss, arena, duplicate
  preset: string;
  target: number | null;
  /** rounds planned (Swiss, duplicate) */
  roundCount: number | null;
  minutes: number | null;
  /** server clock, ms since 1970 */
  startsAt: number | null;
  endsAt: number | null;
  status: string; // upcoming, running, finished
  round: number;
  rated: boolean;
  players: number;
  /** its creator's name (GET /api/tournaments/ID only) */
  creator: string | null;
  /** Scopone pairs: each entry is two accounts */
  pairs: boolean;
  /** the entries it takes at most */
  seats: number | null;
  clock: TourneyClock;
}

export interface Standing {
  rank: number;
  name: string;
  points: number;
  games: number;
  wins: number;
  active: boolean;
  buchholz: number | null;
  sb: number | null;
  streak: number | null;
  /** a pair's two names (Scopone), [] for a player alone */
  members: string[];
}

export interface TourneyTable {
  code: string | null;
  seats: (string | null)[];
  /** a, b, draw, both_lost, bye; null while it is played */
  result: string | null;
}

export interface TourneyView extends TourneyLine {
  standings: Standing[];
  /** pairs: the joins that wait for the partner's (each names the other) */
  invites: { name: string; partner: string }[];
  rounds: { round: number; tables: TourneyTable[] }[];
}

export interface TourneyList {
  state: 'loading' | 'ok' | 'unavailable';
  upcoming: TourneyLine[];
  running: TourneyLine[];
  finished: TourneyLine[];
  /** a tournament_create sent and not answered yet */
  busy: boolean;
}

export interface TourneyPage {
  id: string;
  state: 'loading' | 'ok' | 'missing' | 'unavailable';
  view: TourneyView | null;
  /** a join, leave or start sent and not answered yet */
  busy: boolean;
}

export const initialTourneys = (): TourneyList => ({
  state: 'loading',
  upcoming: [],
  running: [],
  finished: [],
  busy: false,
});

/** The list is asked for again this often on the home page and the
 * list's page; a tournament's page more often (its standings move). */
export const TOURNEYS_REFRESH_MS = 10000;
export const TOURNEY_REFRESH_MS = 3000;

type Row = Record<string, unknown>;
const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const int = (x: unknown): number | null =>
  typeof x === 'number' && Number.isInteger(x) ? x : null;
const numOr = (x: unknown, d: number): number => (typeof x === 'number' && isFinite(x) ? x : d);
const seconds = (x: unknown): number | null => {
  const n = int(x);
  return n !== null && n >= 0 ? n : null;
};

/** A line of the list (or the head of a tournament's answer); null
 * without an id. */
export function tourneyLine(x: unknown): TourneyLine | null {
  if (!isRow(x)) return null;
  const id = str(x.id);
  if (!id) return null;
  const rules = isRow(x.rules) ? (x.rules as Rules) : {};
  const clock = isRow(x.clock) ? x.clock : {};
  return {
    id,
    name: str(x.name) ?? id,
    format: str(x.format) ?? '',
    preset: presetOf(rules),
    target: int(rules.target),
    // a tournament's whole view has its rounds played under "rounds"
    roundCount: int(x.rounds) ?? int(x.rounds_planned),
    minutes: int(x.minutes),
    startsAt: int(x.starts_at),
    endsAt: int(x.ends_at),
    status: str(x.status) ?? '',
    round: int(x.round) ?? 0,
    rated: x.rated !== false,
    players: int(x.players) ?? 0,
    creator: str(x.creator),
    pairs: x.pairs === true,
    seats: int(x.seats),
    clock: {
      moveClock: seconds(clock.move_clock),
      bank: seconds(clock.bank),
      increment: seconds(clock.increment),
    },
  };
}

/** GET /api/tournaments's three lists; null when the answer has none. */
export function tourneyLists(j: unknown): Omit<TourneyList, 'state' | 'busy'> | null {
  if (!isRow(j)) return null;
  const keys = ['upcoming', 'running', 'finished'] as const;
  if (!keys.some((k) => Array.isArray(j[k]))) return null;
  const list = (k: (typeof keys)[number]): TourneyLine[] =>
    (Array.isArray(j[k]) ? (j[k] as unknown[]) : [])
      .map(tourneyLine)
      .filter((l): l is TourneyLine => l !== null);
  return { upcoming: list('upcoming'), running: list('running'), finished: list('finished') };
}

/** A tournament's whole view (its GET, or the `tournament` message). */
export function tourneyView(j: unknown): TourneyView | null {
  const line = tourneyLine(j);
  if (!line || !isRow(j)) return null;
  const standings = (Array.isArray(j.standings) ? j.standings : [])
    .filter(isRow)
    .map((s): Standing => ({
      rank: int(s.rank) ?? 0,
      name: str(s.name) ?? '',
      points: numOr(s.points, 0),
      games: int(s.games) ?? 0,
      wins: int(s.wins) ?? 0,
      active: s.active !== false,
      buchholz: typeof s.buchholz === 'number' ? s.buchholz : null,
      sb: typeof s.sonneborn_berger === 'number' ? s.sonneborn_berger : null,
      streak: int(s.streak),
      members: Array.isArray(s.members) ? s.members.filter((n) => typeof n === 'string') : [],
    }));
  const invites = (Array.isArray(j.invites) ? j.invites : []).filter(isRow).flatMap((x) => {
    const name = str(x.name);
    const partner = str(x.partner);
    return name && partner ? [{ name, partner }] : [];
  });
  const rounds = (Array.isArray(j.rounds) ? j.rounds : []).filter(isRow).map((r) => ({
    round: int(r.round) ?? 0,
    tables: (Array.isArray(r.tables) ? r.tables : []).filter(isRow).map((t): TourneyTable => ({
      code: str(t.code),
      seats: (Array.isArray(t.seats) ? t.seats : []).map(str),
      result: str(t.result),
    })),
  }));
  return { ...line, standings, invites, rounds };
}

// ------------------------------------------------------------ fetches --

/** Ask for the list, on the screens that show it. */
export function askTourneys(m: Model): Step {
  const shows = m.screen === 'tourneys' || (m.screen === 'home' && m.server !== 'down');
  return shows ? step(m, { kind: 'fetchTourneys' }) : step(m);
}

export function tourneysFetched(m: Model, r: { ok: true; json: unknown } | { ok: false }): Step {
  if (m.screen !== 'home' && m.screen !== 'tourneys') return step(m);
  const lists = r.ok ? tourneyLists(r.json) : null;
  const tourneys: TourneyList = lists
    ? { ...m.tourneys, state: 'ok', ...lists }
    : { ...m.tourneys, state: 'unavailable' };
  return step(
    { ...m, tourneys },
    { kind: 'timer', timer: { name: 'tourneys' }, ms: TOURNEYS_REFRESH_MS },
  );
}

/** Ask for the tournament the page shows. */
export function askTourney(m: Model): Step {
  return m.screen === 'tourney' && m.tourney
    ? step(m, { kind: 'fetchTourney', id: m.tourney.id })
    : step(m);
}

export function tourneyFetched(
  m: Model,
  id: string,
  r: { ok: true; json: unknown } | { ok: false; error: string },
): Step {
  if (m.screen !== 'tourney' || m.tourney?.id !== id) return step(m); // a page left since
  const view = r.ok ? tourneyView(r.json) : null;
  const state = view ? 'ok' : !r.ok && /404/.test(r.error) ? 'missing' : 'unavailable';
  const tourney = { ...m.tourney, state, view: view ?? m.tourney.view } as TourneyPage;
  // a finished tournament changes no more: asked once
  const again = state === 'missing' || view?.status === 'finished';
  const s = step({ ...m, tourney });
  return again
    ? s
    : { ...s, effects: [{ kind: 'timer', timer: { name: 'tourney' }, ms: TOURNEY_REFRESH_MS }] };
}

/** The server's answer to a tournament message: the tournament's view. */
export function onTournament(m: Model, j: unknown): Step {
  const view = tourneyView(j);
  if (!view) return step(m);
  // a create answered: the new tournament's page
  if (m.screen === 'tourneys' && m.tourneys.busy)
    return step(
      {
        ...m,
        tourneys: { ...m.tourneys, busy: false },
        screen: 'tourney',
        tourney: { id: view.id, state: 'ok', view, busy: false },
        url: { path: `/tournament/${view.id}`, search: '', hash: '' },
      },
      { kind: 'history', op: 'push', url: `/tournament/${view.id}` },
      { kind: 'timer', timer: { name: 'tourney' }, ms: TOURNEY_REFRESH_MS },
    );
  if (m.tourney?.id !== view.id) return step(m);
  return step({ ...m, tourney: { ...m.tourney, state: 'ok', view, busy: false } });
}

/** A refusal on a tournament's screens: the buttons come back. */
export function tourneyRefused(m: Model): Model {
  return {
    ...m,
    tourneys: { ...m.tourneys, busy: false },
    tourney: m.tourney ? { ...m.tourney, busy: false } : null,
  };
}

// -------------------------------------------------------------- verbs --

/** What the create form says (tourneyview.ts reads it). */
export interface TourneyForm {
  name: string;
  format: string;
  rules: Rules;
  /** rounds (Swiss, duplicate) or minutes (arena) */
  length: number;
  /** minutes from now */
  startsIn: number;
  moveClock: number;
  rated: boolean;
  /** the entries it takes at most (absent: the server's 1,024) */
  seats?: number;
}

export type TourneyVerb =
  /** partner: a Scopone pair's other one (an account name) */
  | { kind: 'tourneyJoin'; partner?: string }
  | { kind: 'tourneyLeave' }
  | { kind: 'tourneyStart' }
  | { kind: 'tourneyCreate'; form: TourneyForm };

/** The server's connection is there to send on. */
export const online = (m: Model): boolean => m.connected === 'server' && m.conn.kind === 'open';

export function tourneyVerb(m: Model, v: TourneyVerb, signin: (m: Model) => Step): Step {
  if (m.account.status !== 'signed') return signin(m);
  if (!online(m)) return step(m);
  if (v.kind === 'tourneyCreate') {
    if (m.tourneys.busy) return step(m);
    const f = v.form;
    const arena = f.format === 'arena';
    const name = f.name.trim();
    return step(
      { ...m, tourneys: { ...m.tourneys, busy: true } },
      {
        kind: 'send',
        msg: {
          type: 'tournament_create',
          format: f.format,
          rules: f.rules,
          ...(arena ? { minutes: f.length } : { rounds: f.length }),
          starts_in: Math.round(f.startsIn * 60),
          ...(name ? { name } : {}),
          move_clock: f.moveClock,
          ...(f.seats !== undefined ? { seats: f.seats } : {}),
          away_timeout: Math.max(f.moveClock, 30),
          rated: f.rated,
        },
      },
    );
  }
  if (!m.tourney || m.tourney.busy) return step(m);
  const type: 'tournament_join' | 'tournament_leave' | 'tournament_start' =
    v.kind === 'tourneyJoin'
      ? 'tournament_join'
      : v.kind === 'tourneyLeave'
        ? 'tournament_leave'
        : 'tournament_start';
  // a Scopone pair's join names the partner (docs/serve.md)
  const partner = v.kind === 'tourneyJoin' ? (v.partner ?? '').trim() : '';
  const msg = { type, id: m.tourney.id, ...(partner ? { partner } : {}) };
  return step({ ...m, tourney: { ...m.tourney, busy: true } }, { kind: 'send', msg });
}

/** The signed-in account's line of the standings (its own, or its
 * pair's), if it has one. */
export function myStanding(m: Model | { account: Model['account'] }, v: TourneyView) {
  const me = m.account.status === 'signed' ? m.account.name : null;
  if (me === null) return null;
  return v.standings.find((s) => s.name === me || s.members.includes(me)) ?? null;
}
