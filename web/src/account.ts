/*
 * account.ts -- the player's account, headless: who is signed in (GET
 * /api/me, the WebSocket's hello), the sign-in and create-account forms,
 * the account page's data (ratings, their history, the games and the
 * statistics) and its actions (change password, log out everywhere,
 * delete).  Pure: every request is an `http` effect (effects.ts performs
 * it with the page's fetch, the session cookie going along by itself) and
 * every answer comes back as an `http` event with its status.
 *
 * What must stay true: a guest plays with no account and no extra step
 * (nothing here stands between the home page and a table); the cookie is
 * never read or written by the page (it is HttpOnly: the server sets and
 * clears it); a form the server would refuse for its shape (a name of 3-20
 * letters, digits, _ and -; a password of 8 or more) is said before
 * anything is sent; a guest's page asks nothing: the name signed in on
 * this browser is remembered in scopa.account (set by every answer that
 * names the account, removed by every sign-out), and only then is GET
 * /api/me asked, once a page load, to see that the session still holds;
 * every refusal is kept as its code (and the wait of a
 * 429) and said in words at drawing time, in the page's language; after a
 * sign-in or sign-out the WebSocket is closed, so the next table's
 * connection carries the new cookie (CONTRACTS.md "Accounts").
 */
import type { Rules } from './protocol.js';
import { type Key, type Lang, t } from './i18n.js';
import { effective, sideOf } from './rules.js';
import { type Model, type Step, step, store, then } from './model.js';
import { go } from './routes.js';

export const POOLS = ['2p', '3p', '4p', '6p'] as const;

export interface Rating {
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
}

export interface Me {
  name: string;
  /** UNIX seconds, null when the server does not say. */
  created: number | null;
  ratings: Record<string, Rating>;
}

export interface HistPoint {
  at: number; // UNIX seconds
  rating: number;
  rd: number;
  code: string;
}

export interface GameRow {
  code: string;
  at: number; // UNIX seconds
  rules: Rules;
  pool: string;
  seat: number;
  seats: string[];
  finished: boolean;
  rated: boolean;
  /** The winning side, null for none (or not finished). */
  winner: number | null;
  /** Per side. */
  totals: number[];
}

export interface Stats {
  games: number;
  won: number;
  scope: number;
  settebello: number;
  primiera: number;
  points: number;
  points_per_game: number;
}

/** The requests of this file: each answer names its own. */
export type AccountOp =
  'me' | 'history' | 'games' | 'login' | 'signup' | 'logout' | 'logoutAll' | 'password' | 'delete';

/** What the server (or the form's own check) refused, kept as a code and
 * said in words when drawn (accountview.ts). */
export interface Refusal {
  op: AccountOp;
  /** The server's code (bad_login, name_taken, bad_name, bad_password,
   * too_many, ...), or the form's own: mismatch, network, other. */
  code: string;
  /** Seconds to wait (too_many's Retry-After). */
  wait?: number;
  /** The server's message, for a code the page has no words for. */
  message?: string;
}

export interface AccountState {
  /** none: this server has no accounts (it answered 404 or 405);
   * guest: nobody is signed in; signed: `name` is (so the browser
   * remembers, scopa.account, until /api/me or the hello says). */
  status: 'none' | 'guest' | 'signed';
  name: string | null;
  /** GET /api/me was asked on this page load (a session ends elsewhere:
   * the next load sees it). */
  checked: boolean;
  me: Me | null;
  /** null until they come; 'failed' when the server does not give them. */
  history: Record<string, HistPoint[]> | null | 'failed';
  games: GameRow[] | null | 'failed';
  stats: Stats | null;
  /** The pool whose history the chart draws. */
  pool: string;
  /** The sign-in screen's form. */
  mode: 'login' | 'signup';
  /** A request of a form in flight: its button waits. */
  busy: AccountOp | null;
  refusal: Refusal | null;
  /** The last action done, said once on the next screen ("Password
   * changed", "Signed out everywhere", "Account deleted"). */
  done: AccountOp | null;
}

/** The key that remembers who signed in on this browser. */
export const ACCOUNT_KEY = 'scopa.account';

export function initialAccount(stored: Readonly<Record<string, string>>): AccountState {
  const name = stored[ACCOUNT_KEY] ?? null;
  return {
    status: name ? 'signed' : 'guest',
    name,
    checked: false,
    me: null,
    history: null,
    games: null,
    stats: null,
    pool: '2p',
    mode: 'login',
    busy: null,
    refusal: null,
    done: null,
  };
}

/** The answer of one request: its HTTP status (0: none came), its JSON
 * (null when the body was not JSON) and the Retry-After seconds. */
export interface HttpResult {
  status: number;
  json: unknown;
  retryAfter: number | null;
}

export const NAME_RE = /^[A-Za-z0-9_-]{3,20}$/;
export const MIN_PASSWORD = 8;

const obj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const num = (x: unknown): number | null => (typeof x === 'number' && isFinite(x) ? x : null);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

// -------------------------------------------------------------- words --

/** A wait in words: "40 seconds", "3 minutes". */
export function waitWords(lang: Lang, s: number): string {
  return s < 90
    ? t(lang, 'waitSeconds', { n: Math.max(1, Math.round(s)) })
    : t(lang, 'waitMinutes', { n: Math.ceil(s / 60) });
}

const KNOWN = new Set([
  'bad_login',
  'name_taken',
  'bad_name',
  'bad_password',
  'too_many',
  'mismatch',
  'network',
  'not_signed_in',
  'unavailable',
]);

/** A refusal in words. */
export function refusalWords(lang: Lang, r: Refusal): string {
  if (r.code === 'too_many') return t(lang, 'e_too_many', { wait: waitWords(lang, r.wait ?? 60) });
  if (KNOWN.has(r.code)) return t(lang, `e_${r.code}` as Key);
  return t(lang, 'e_other', { msg: r.message ?? r.code });
}

/** A game's outcome for the account: its side's result and points. */
export function outcome(g: GameRow): {
  result: 'won' | 'lost' | 'drawn' | 'unfinished';
  mine: number;
  theirs: number[];
  opponents: string[];
} {
  const eff = effective(g.rules);
  const side = sideOf(eff, g.seat);
  const opponents = g.seats.filter((_, i) => sideOf(eff, i) !== side);
  const mine = g.totals[side] ?? 0;
  const theirs = g.totals.filter((_, i) => i !== side);
  const result = !g.finished
    ? 'unfinished'
    : g.winner === null
      ? 'drawn'
      : g.winner === side
        ? 'won'
        : 'lost';
  return { result, mine, theirs, opponents };
}

// ------------------------------------------------------------ parsing --

export function parseRating(x: unknown): Rating | null {
  if (!obj(x)) return null;
  const rating = num(x.rating);
  if (rating === null) return null;
  return {
    rating,
    rd: num(x.rd) ?? 0,
    games: num(x.games) ?? 0,
    provisional: x.provisional === true,
  };
}

/** GET /api/me's answer, read defensively (a field missing or malformed is
 * as if absent); null when it names nobody. */
export function parseMe(j: unknown): Me | null {
  if (!obj(j)) return null;
  const name = str(j.name);
  if (!name) return null;
  const ratings: Record<string, Rating> = {};
  if (obj(j.ratings))
    for (const [pool, r] of Object.entries(j.ratings)) {
      const p = parseRating(r);
      if (p) ratings[pool] = p;
    }
  return { name, created: num(j.created), ratings };
}

/** GET /api/me/history: per pool, the points oldest first. */
export function parseHistory(j: unknown): Record<string, HistPoint[]> | null {
  if (!obj(j) || !obj(j.ratings)) return null;
  const out: Record<string, HistPoint[]> = {};
  for (const [pool, list] of Object.entries(j.ratings)) {
    if (!Array.isArray(list)) continue;
    const pts: HistPoint[] = [];
    for (const p of list as unknown[]) {
      if (!obj(p)) continue;
      const at = num(p.at);
      const rating = num(p.rating);
      if (at === null || rating === null) continue;
      pts.push({ at, rating, rd: num(p.rd) ?? 0, code: str(p.code) ?? '' });
    }
    pts.sort((a, b) => a.at - b.at);
    if (pts.length) out[pool] = pts;
  }
  return out;
}

function parseGame(g: unknown): GameRow | null {
  if (!obj(g)) return null;
  const code = str(g.code);
  const at = num(g.at);
  if (!code || at === null) return null;
  const seats = Array.isArray(g.seats) ? g.seats.map((s) => (typeof s === 'string' ? s : '')) : [];
  const totals = Array.isArray(g.totals) ? g.totals.map((t) => num(t) ?? 0) : [];
  return {
    code,
    at,
    rules: obj(g.rules) ? (g.rules as Rules) : {},
    pool: str(g.pool) ?? `${seats.length}p`,
    seat: num(g.seat) ?? 0,
    seats,
    finished: g.finished === true,
    rated: g.rated === true,
    winner: num(g.winner),
    totals,
  };
}

function parseStats(s: unknown): Stats | null {
  if (!obj(s)) return null;
  const n = (k: string): number => num(s[k]) ?? 0;
  const games = n('games');
  return {
    games,
    won: n('won'),
    scope: n('scope'),
    settebello: n('settebello'),
    primiera: n('primiera'),
    points: n('points'),
    points_per_game: num(s.points_per_game) ?? (games ? n('points') / games : 0),
  };
}

/** GET /api/me/games: the games newest first, and the statistics. */
export function parseGames(j: unknown): { games: GameRow[]; stats: Stats | null } | null {
  if (!obj(j) || !Array.isArray(j.games)) return null;
  const games = (j.games as unknown[]).map(parseGame).filter((g): g is GameRow => g !== null);
  games.sort((a, b) => b.at - a.at);
  return { games, stats: parseStats(j.stats) };
}

/** A refusal from an answer: the server's error code, its wait. */
export function refusalOf(op: AccountOp, r: HttpResult): Refusal {
  if (r.status === 0) return { op, code: 'network' };
  if (r.status === 404 || r.status === 405) return { op, code: 'unavailable' };
  const j = obj(r.json) ? r.json : {};
  const code = str(j.error) ?? 'other';
  const message = str(j.message) ?? `HTTP ${r.status}`;
  if (code === 'too_many') return { op, code, wait: r.retryAfter ?? 60 };
  return { op, code, message };
}

const ok = (r: HttpResult): boolean => r.status >= 200 && r.status < 300;

// ----------------------------------------------------------- requests --

function get(op: AccountOp, url: string): Step['effects'][number] {
  return { kind: 'http', op, method: 'GET', url };
}

function post(op: AccountOp, url: string, body?: unknown): Step['effects'][number] {
  return { kind: 'http', op, method: 'POST', url, ...(body !== undefined ? { body } : {}) };
}

const withAccount = (m: Model, a: Partial<AccountState>): Model => ({
  ...m,
  account: { ...m.account, ...a },
});

/** The home page: is the account remembered still signed in?  (Asked
 * once a load, and never for a guest.) */
export function askMe(m: Model): Step {
  if (m.account.status !== 'signed' || m.account.checked) return step(m);
  return step(withAccount(m, { checked: true }), get('me', '/api/me'));
}

/** The account's name remembered on this browser, or forgotten. */
function remember(m: Model, name: string | null): Step {
  return (m.stored[ACCOUNT_KEY] ?? null) === name ? step(m) : store(m, ACCOUNT_KEY, name);
}

/** Another tab signed in or out. */
export function accountStored(m: Model, name: string | null): Model {
  if (name) return withAccount(m, { status: 'signed', name });
  return m.account.status === 'signed' ? withAccount(m, { ...signedOut }) : m;
}

/** /account: the account, its history and games, asked afresh. */
export function openAccount(m: Model): Step {
  return step(
    withAccount(m, {
      history: null,
      games: null,
      stats: null,
      refusal: null,
      done: null,
      checked: true,
    }),
    get('me', '/api/me'),
    get('history', '/api/me/history'),
    get('games', '/api/me/games'),
  );
}

/** /account/login: the form, the refusal of the last visit gone. */
export function openLogin(m: Model): Step {
  return step(withAccount(m, { refusal: null, busy: null }));
}

/** The WebSocket's hello says who the connection plays as. */
export function helloAccount(m: Model, account: string | null | undefined): Step {
  if (account === undefined) return step(m); // a server without accounts
  const a =
    account === null
      ? m.account.status === 'signed'
        ? withAccount(m, { ...signedOut })
        : m
      : withAccount(m, { status: 'signed', name: account });
  return remember(a, account);
}

// -------------------------------------------------------------- verbs --

export type AccountVerb =
  | { kind: 'signin' } // to the sign-in screen
  | { kind: 'account' } // to the account page
  | { kind: 'loginMode'; mode: 'login' | 'signup' }
  | { kind: 'login'; name: string; password: string }
  | { kind: 'signup'; name: string; password: string; repeat: string }
  | { kind: 'logout' }
  | { kind: 'logoutAll' }
  | { kind: 'password'; old: string; new: string; repeat: string }
  | { kind: 'deleteAccount'; password: string }
  | { kind: 'chartPool'; pool: string }
  | { kind: 'go'; path: string };

function refuse(m: Model, op: AccountOp, code: string): Step {
  return step(withAccount(m, { refusal: { op, code }, busy: null, done: null }));
}

/** A form sent: its button waits for the answer. */
function sending(m: Model, op: AccountOp, e: Step['effects'][number]): Step {
  return step(withAccount(m, { busy: op, refusal: null, done: null }), e);
}

export function accountVerb(m: Model, v: AccountVerb): Step {
  switch (v.kind) {
    case 'signin':
      return go(m, '/account/login');
    case 'account':
      return go(m, '/account');
    case 'go':
      return go(m, v.path);
    case 'loginMode':
      return step(withAccount(m, { mode: v.mode, refusal: null, done: null }));
    case 'chartPool':
      return step(withAccount(m, { pool: v.pool }));
    case 'login': {
      const name = v.name.trim();
      if (!name || !v.password) return refuse(m, 'login', 'bad_login');
      return sending(m, 'login', post('login', '/api/login', { name, password: v.password }));
    }
    case 'signup': {
      const name = v.name.trim();
      if (!NAME_RE.test(name)) return refuse(m, 'signup', 'bad_name');
      if (v.password.length < MIN_PASSWORD) return refuse(m, 'signup', 'bad_password');
      if (v.password !== v.repeat) return refuse(m, 'signup', 'mismatch');
      return sending(m, 'signup', post('signup', '/api/signup', { name, password: v.password }));
    }
    case 'logout':
      return sending(m, 'logout', post('logout', '/api/logout'));
    case 'logoutAll':
      return sending(m, 'logoutAll', post('logoutAll', '/api/logout_all'));
    case 'password':
      if (v.new.length < MIN_PASSWORD) return refuse(m, 'password', 'bad_password');
      if (v.new !== v.repeat) return refuse(m, 'password', 'mismatch');
      return sending(m, 'password', post('password', '/api/password', { old: v.old, new: v.new }));
    case 'deleteAccount':
      if (!v.password) return refuse(m, 'delete', 'bad_login');
      return sending(m, 'delete', post('delete', '/api/delete', { password: v.password }));
  }
}

// ------------------------------------------------------------ answers --

/** Signed in or out: the socket closes, so the next table's connection
 * carries the new cookie (or none). */
function switched(m: Model, a: Partial<AccountState>): Step {
  const s = step({ ...withAccount(m, a), connected: false }, { kind: 'disconnect' });
  return then(s, (x) => remember(x, x.account.status === 'signed' ? x.account.name : null));
}

const signedOut: Partial<AccountState> = {
  status: 'guest',
  name: null,
  me: null,
  history: null,
  games: null,
  stats: null,
  busy: null,
  refusal: null,
};

/** Where a sign-in goes once done: /account/login?next=/tournament/ID
 * (a guest's Join) back there; only a path of this site, else home. */
export function backTo(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/[A-Za-z0-9/_-]*$/.test(next) && !next.startsWith('//') ? next : '/';
}

export function accountAnswered(m: Model, op: AccountOp, r: HttpResult): Step {
  const a = m.account;
  const mine = a.busy === op ? { busy: null } : {};
  if (!ok(r) && op !== 'me' && op !== 'history' && op !== 'games') {
    const refusal = refusalOf(op, r);
    // a server without accounts: the home page stops offering them
    const none = refusal.code === 'unavailable' ? { status: 'none' as const } : {};
    return step(withAccount(m, { ...mine, ...none, refusal, done: null }));
  }
  switch (op) {
    case 'me':
      return meAnswered(withAccount(m, mine), r);
    case 'history': {
      const h = ok(r) ? parseHistory(r.json) : null;
      const pool = h ? (bestPool(h, a.me) ?? a.pool) : a.pool;
      return step(withAccount(m, { history: h ?? 'failed', pool }));
    }
    case 'games': {
      const g = ok(r) ? parseGames(r.json) : null;
      return step(withAccount(m, { games: g?.games ?? 'failed', stats: g?.stats ?? null }));
    }
    case 'login':
    case 'signup': {
      const name = (obj(r.json) && str(r.json.name)) || null;
      const s = switched(m, { ...signedOut, status: 'signed', name, done: op });
      return then(s, (x) => go(x, backTo(m.url.search)));
    }
    case 'logout':
      return then(switched(m, { ...signedOut, done: null }), (x) =>
        x.screen === 'account' ? go(x, '/') : step(x),
      );
    case 'logoutAll':
    case 'delete':
      return then(switched(m, { ...signedOut, done: op }), (x) => go(x, '/account/login'));
    case 'password':
      return step(withAccount(m, { ...mine, refusal: null, done: 'password' }));
  }
}

function meAnswered(m: Model, r: HttpResult): Step {
  if (r.status === 401 || r.status === 404 || r.status === 405) {
    // the session ended (or this server has no accounts at all)
    const status = r.status === 401 ? 'guest' : 'none';
    const s = then(step(withAccount(m, { ...signedOut, status, done: m.account.done })), (x) =>
      remember(x, null),
    );
    // the account page of nobody: the sign-in screen instead
    return m.screen === 'account' ? then(s, (x) => go(x, '/account/login')) : s;
  }
  const me = ok(r) ? parseMe(r.json) : null;
  // no answer, or a failure: what the browser remembers stands (the
  // account page says its parts are not available)
  if (!me) return step(m);
  return remember(withAccount(m, { status: 'signed', name: me.name, me }), me.name);
}

/** The pool the chart shows first: the one with the most rated games. */
function bestPool(h: Record<string, HistPoint[]>, me: Me | null): string | null {
  let best: string | null = null;
  let most = 0;
  for (const p of POOLS) {
    const n = Math.max(h[p]?.length ?? 0, me?.ratings[p]?.games ?? 0);
    if (n > most) {
      best = p;
      most = n;
    }
  }
  return best;
}
