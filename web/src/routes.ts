/*
 * routes.ts -- the page's addresses and what each one loads:
 *   /                     the home page (the forms)
 *   /?leaderboard         the leaderboard (fetched by pool)
 *   /t/CODE               a table: take the seat back with the stored token,
 *                         else join it (watch when it has no open seat)
 *   /t/CODE?watch         watch the table
 *   /t/CODE?review        a finished table (the account page's games): watch
 *                         it (or take the seat back) and ask for its review
 *   /account              the account page (account.ts; not signed in: the
 *                         sign-in screen)
 *   /account/login        sign in or create an account
 *   /tournaments          the tournaments: upcoming, running, finished, and
 *                         the form to create one (tourney.ts)
 *   /tournament/ID        one tournament: standings, rounds, join; the
 *                         server's connection open for the next `seated`
 *   /t/CODE#token=TOKEN   store the token, take the fragment out of the
 *                         address (so a shared link never carries it), resume
 * Pure: the address comes in the model (model.url), history is an effect.
 *
 * What must stay true: these addresses and the key scopa.token.CODE are
 * those of CONTRACTS.md and docs/web.md; table codes are upper case.
 */
import { type Model, type Step, type Url, step, store, then } from './model.js';
import type { Rules } from './protocol.js';
import type { LobbyTable } from './tableview.js';
import { presetOf } from './rules.js';
import { dropSeek, ensureConnected } from './session.js';
import { askMe, openAccount, openLogin } from './account.js';
import { askTourney, askTourneys } from './tourney.js';

export type Route =
  | { screen: 'home' }
  | { screen: 'leaderboard' }
  | { screen: 'account' }
  | { screen: 'login' }
  | { screen: 'tourneys' }
  | { screen: 'tourney'; id: string }
  | {
      screen: 'table';
      code: string;
      watch: boolean;
      token: string | null;
      /** ?review: ask for the review once it is seen finished */
      review?: true;
    };

/** "/t/AB?watch#x" -> its path, search and hash, as `location` has them. */
export function parseUrl(s: string): Url {
  const h = s.indexOf('#');
  const hash = h < 0 ? '' : s.slice(h);
  const rest = h < 0 ? s : s.slice(0, h);
  const q = rest.indexOf('?');
  return { path: q < 0 ? rest : rest.slice(0, q), search: q < 0 ? '' : rest.slice(q), hash };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a malformed escape: the token as written
  }
}

export function parseRoute(url: Url): Route {
  const query = new URLSearchParams(url.search);
  const t = /^\/t\/([A-Za-z0-9_-]+)\/?$/.exec(url.path);
  if (t) {
    const frag = /token=([^&]+)/.exec(url.hash);
    const review = query.has('review');
    return {
      screen: 'table',
      code: t[1]!.toUpperCase(),
      // a review watches unless the page holds a seat's token there
      watch: query.has('watch') || review,
      token: frag ? decode(frag[1]!) : null,
      ...(review ? { review: true as const } : {}),
    };
  }
  const tid = /^\/tournament\/([A-Za-z0-9]+)\/?$/.exec(url.path);
  if (tid) return { screen: 'tourney', id: tid[1]!.toUpperCase() };
  if (/^\/tournaments\/?$/.test(url.path)) return { screen: 'tourneys' };
  if (/^\/account\/login\/?$/.test(url.path)) return { screen: 'login' };
  if (/^\/account\/?$/.test(url.path)) return { screen: 'account' };
  return query.has('leaderboard') ? { screen: 'leaderboard' } : { screen: 'home' };
}

/** Show what the model's address names. */
export function route(m: Model): Step {
  const r = parseRoute(m.url);
  // Play now waits on the home page: going anywhere else withdraws it
  if (r.screen !== 'home' && m.seek) return then(dropSeek(m), route);
  if (r.screen === 'leaderboard') return loadLeaderboard({ ...m, screen: 'leaderboard' }, null);
  // is a server there (friends, ratings)?  asked again on each visit home
  if (r.screen === 'home') {
    const home = { ...m, screen: 'home' as const, account: { ...m.account, done: null } };
    return then(then(then(step(home, { kind: 'probe' }), askMe), askLobby), askTourneys);
  }
  // a tournament's pages hold the server's connection: the next round's
  // `seated` takes the player to the table (messages.ts)
  if (r.screen === 'tourneys') {
    const x = { ...m, screen: r.screen, intent: null, tourneys: { ...m.tourneys, busy: false } };
    return then(then(askMe(x), askTourneys), ensureConnected);
  }
  if (r.screen === 'tourney') {
    const tourney = { id: r.id, state: 'loading' as const, view: null, busy: false };
    const x = { ...m, screen: r.screen, intent: null, tourney };
    return then(then(askMe(x), askTourney), ensureConnected);
  }
  if (r.screen === 'account') return openAccount({ ...m, screen: 'account' });
  if (r.screen === 'login') return openLogin({ ...m, screen: 'login' });
  if (r.review) m = { ...m, wantReview: true };
  let s = step(m);
  if (r.token !== null) {
    const bare = `/t/${r.code}${m.url.search}`;
    s = then(store(m, `scopa.token.${r.code}`, r.token), (x) =>
      step(
        { ...x, url: { path: `/t/${r.code}`, search: m.url.search, hash: '' } },
        { kind: 'history', op: 'replace', url: bare },
      ),
    );
  }
  return then(s, (x) => {
    const token = x.stored[`scopa.token.${r.code}`] ?? null;
    const intent = token ? null : r.watch ? { kind: 'watch' as const } : { kind: 'join' as const };
    // a friend's link: their name first (remembered), then the seat;
    // signed in, the seat takes the account's name: no question
    const named = x.stored['scopa.name'] || x.account.status === 'signed';
    if (intent?.kind === 'join' && !named)
      return step({ ...x, code: r.code, token: null, screen: 'name', intent: null });
    return ensureConnected({ ...x, code: r.code, token, screen: 'table', intent });
  });
}

/** Leave the table the page shows (its messages still queued too). */
export function resetTable(m: Model): Model {
  return {
    ...m,
    queue: [],
    msg: null,
    view: null,
    selection: null,
    explain: null,
    peek: null,
    roundOver: null,
    gameOver: null,
    code: null,
    token: null,
    seat: null,
    hint: null,
    review: null,
    reviewState: 'idle',
    hintState: 'idle',
    record: null,
    reviewStep: 0,
    stalled: null,
    storeFails: 0,
    stallAt: null,
    wantReview: false,
    talk: [],
    reported: [],
  };
}

/** Go to an address of this page (history push). */
export function go(m: Model, path: string): Step {
  const moved = { ...resetTable(m), url: parseUrl(path) };
  return then(step(moved, { kind: 'history', op: 'push', url: path }), route);
}

/** The address changed under the page (its load, back, forward). */
export function arrived(m: Model, url: Url): Step {
  return route({ ...resetTable(m), url });
}

// ------------------------------------------------------------- lobby --

/** The lobby's list is asked for again this often while home shows. */
export const LOBBY_REFRESH_MS = 4000;

const isText = (x: unknown): x is string => typeof x === 'string';
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);

/** The tables of GET /api/lobby (docs/serve.md "The lobby"); null when
 * the answer has no list.  A table without a code is left out; a field
 * of the wrong kind is taken as absent. */
export function lobbyTables(j: unknown): LobbyTable[] | null {
  if (!isRow(j) || !Array.isArray(j.tables)) return null;
  const out: LobbyTable[] = [];
  for (const x of j.tables) {
    if (!isRow(x) || !isText(x.code) || !x.code) continue;
    const rules = isRow(x.rules) ? (x.rules as Rules) : {};
    const seats = Array.isArray(x.seats) ? x.seats.filter(isText) : [];
    const people = (Array.isArray(x.people) ? x.people : []).filter(isRow).map((p) => ({
      seat: typeof p.seat === 'number' ? p.seat : -1,
      name: isText(p.name) ? p.name : '',
      rating: typeof p.rating === 'number' ? p.rating : null,
    }));
    out.push({
      code: x.code,
      preset: presetOf(rules),
      target: typeof rules.target === 'number' ? rules.target : null,
      moveClock: typeof x.move_clock === 'number' ? x.move_clock : null,
      bank:
        isInt(x.bank) && x.bank > 0
          ? { bank: x.bank, increment: isInt(x.increment) && x.increment > 0 ? x.increment : 0 }
          : null,
      seats,
      open: typeof x.open === 'number' ? x.open : seats.filter((s) => s === 'open').length,
      people,
    });
  }
  return out;
}

/** Ask for the lobby's list, while home shows and a server may answer. */
export function askLobby(m: Model): Step {
  return m.screen === 'home' && m.server !== 'down' ? step(m, { kind: 'fetchLobby' }) : step(m);
}

export function lobbyFetched(m: Model, result: { ok: true; json: unknown } | { ok: false }): Step {
  // an answer for a home page left since: nothing changes (another
  // screen is not drawn again for it)
  if (m.screen !== 'home') return step(m);
  const tables = result.ok ? lobbyTables(result.json) : null;
  const lobby = tables
    ? { state: 'ok' as const, tables }
    : { state: 'unavailable' as const, tables: [] };
  // asked again in a while, for as long as home shows
  return step({ ...m, lobby }, { kind: 'timer', timer: { name: 'lobby' }, ms: LOBBY_REFRESH_MS });
}

// ------------------------------------------------------- leaderboard --

/** Ask for a pool's leaderboard (null: the pool shown last). */
export function loadLeaderboard(m: Model, pool: string | null): Step {
  const p = pool ?? m.leaderboard.pool;
  return step(
    { ...m, leaderboard: { state: 'loading', pool: p, rows: [] } },
    { kind: 'fetchLeaderboard', pool: p },
  );
}

type Row = Record<string, unknown>;
const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null;

/** The rows of GET /api/leaderboard: a bare array, or one under
 * players, rows or leaderboard (docs/web.md, extension 5); null when the
 * answer is no JSON object at all. */
export function leaderboardRows(j: unknown): Row[] | null {
  if (!isRow(j)) return null;
  const list = [j, j.players, j.rows, j.leaderboard].find(Array.isArray) as unknown[] | undefined;
  return (list ?? []).filter(isRow);
}

export function leaderboardFetched(
  m: Model,
  pool: string,
  result: { ok: true; json: unknown } | { ok: false },
): Step {
  if (pool !== m.leaderboard.pool) return step(m); // an answer for a pool left since
  const rows = result.ok ? leaderboardRows(result.json) : null;
  const leaderboard = rows
    ? { state: 'ok' as const, pool, rows }
    : { state: 'unavailable' as const, pool, rows: [] };
  return step({ ...m, leaderboard });
}
