/*
 * main.ts -- the controller: the routes (/ home, /t/CODE a table,
 * /?leaderboard), the one socket, the server's messages applied to the
 * AppState one at a time (paced so each move can be seen), and the
 * player's verbs from input.ts.  render.ts draws; state.ts computes.
 *
 * What must stay true: a move goes out only from the legal list, with the
 * ply of the state it was chosen on; the seat's token is kept (localStorage,
 * per table code) so a reload, a dropped connection or another device with
 * /t/CODE#token=TOKEN takes back the same seat.
 */
import './style.css';
import { installSprite } from './cards.js';
import { bindInput, type Controller } from './input.js';
import { type Lang, optionName, pickLang, t } from './i18n.js';
import { formatMove, type Card, type ServerMsg, type StateMsg } from './protocol.js';
import { effective, num, conflicts } from './rules.js';
import { fillSeats, readRules, redraw, syncOptions } from './render.js';
import { type WsLike, Socket } from './socket.js';
import { type AppState, pickCard, pickTableCard, selectedMove, tableView } from './state.js';
import { type RecordDoc, reviewSteps } from './review.js';
import * as anim from './anim.js';

/** A level is sent as it is: scopa serve maps it to a bot and its time
 * budget (docs/serve.md), as `scopa play --level` does. */
const LEVELS = ['principiante', 'intermedio', 'esperto', 'campione'];
const levelSeat = (l: string): string => (LEVELS.includes(l) ? l : 'intermedio');
const PACE_MS = 700; // between two moves arriving together (a bot answering at once)

export interface AppOptions {
  createWs?: (url: string) => WsLike;
  wsUrl?: string;
}

function store(k: string, v: string | null): void {
  try {
    if (v === null) localStorage.removeItem(k);
    else localStorage.setItem(k, v);
  } catch {
    /* private mode: the fragment link still works */
  }
}
function load(k: string): string | null {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
}

export function startApp(
  root: HTMLElement,
  opts: AppOptions = {},
): { app: AppState; receive(m: ServerMsg): void } {
  installSprite(document);
  const saved = load('scopa.lang');
  const app: AppState = {
    lang:
      saved === 'it' || saved === 'en'
        ? saved
        : pickLang(navigator.languages ?? [navigator.language]),
    screen: 'home',
    conn: { kind: 'connecting' },
    code: null,
    token: null,
    seat: null,
    msg: null,
    view: null,
    selection: null,
    pending: null,
    explain: null,
    roundOver: null,
    gameOver: null,
    error: null,
    notice: null,
    hintsOn: load('scopa.hints') !== 'off',
    hint: null,
    hintState: 'idle',
    review: null,
    reviewState: 'idle',
    reviewStep: 0,
    record: null,
    awaySince: [],
    msgAt: 0,
    leaderboard: { state: 'loading', pool: '2p', rows: [] },
    skipAnim: load('scopa.skip') === '1',
  };
  anim.setSkip(app.skipAnim);
  const draw = () => redraw(root, app);

  // ---------------------------------------------------------- socket --
  let intent:
    | { kind: 'create'; rules: Record<string, unknown>; seats: string[] }
    | { kind: 'join' | 'watch' }
    | null = null;
  const url =
    opts.wsUrl ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const socket = new Socket(
    {
      url,
      create: opts.createWs ?? ((u) => new WebSocket(u) as unknown as WsLike),
      clock: {
        setTimeout: (f, ms) => window.setTimeout(f, ms),
        clearTimeout: (h) => window.clearTimeout(h as number),
        now: () => Date.now(),
      },
    },
    {
      message: (m) => enqueue(m),
      status: (s) => {
        app.conn = s;
        draw();
      },
      opened: () => greet(),
      resent: () => showNotice(t(app.lang, 'resent')),
    },
  );
  let connected = false;
  function ensureSocket(): void {
    if (!connected) {
      connected = true;
      socket.connect();
    } else if (socket.isOpen) greet();
  }

  /** On every (re)opened connection: take back the seat, or do what the
   * player asked for. */
  let resuming = false;
  function greet(): void {
    const name = load('scopa.name') ?? undefined;
    const player = load('scopa.player') ?? undefined;
    resuming = false;
    if (app.code && app.token) {
      resuming = true;
      socket.send({ type: 'resume', code: app.code, token: app.token });
    } else if (intent?.kind === 'create')
      socket.send({
        type: 'create',
        rules: intent.rules as never,
        seats: intent.seats,
        ...(name ? { name } : {}),
        ...(player ? { player } : {}),
      });
    else if (app.code && intent?.kind === 'join')
      socket.send({
        type: 'join',
        code: app.code,
        ...(name ? { name } : {}),
        ...(player ? { player } : {}),
      });
    else if (app.code) socket.send({ type: 'watch', code: app.code });
  }

  // ---------------------------------------------- messages, one by one --
  const queue: ServerMsg[] = [];
  let pacing: number | null = null;
  let hintTimer: number | null = null;
  let reviewTimer: number | null = null;

  function enqueue(m: ServerMsg): void {
    // answers that do not change the table go straight through
    if (
      m.type === 'hello' ||
      m.type === 'pong' ||
      m.type === 'notice' ||
      m.type === 'hint' ||
      m.type === 'review' ||
      m.type === 'error' ||
      m.type === 'seated'
    ) {
      apply(m);
      return;
    }
    queue.push(m);
    pump();
  }

  function pump(): void {
    while (pacing === null && queue.length && !app.roundOver) {
      const m = queue.shift()!;
      apply(m);
      if (m.type === 'state' && queue.some((x) => x.type === 'state') && !anim.isSkipping()) {
        pacing = window.setTimeout(() => {
          pacing = null;
          pump();
        }, PACE_MS);
      }
    }
  }

  function apply(m: ServerMsg): void {
    switch (m.type) {
      case 'hello':
        if (m.protocol !== 1) app.error = `protocol ${m.protocol}`;
        break;
      case 'pong':
        break;
      case 'notice':
        showNotice(app.lang === 'it' && m.message_it ? m.message_it : m.message);
        break;
      case 'seated':
        app.code = m.code;
        app.seat = m.seat;
        app.token = m.token;
        store(`scopa.token.${m.code}`, m.token);
        if (m.player) store('scopa.player', m.player);
        intent = null;
        if (location.pathname !== `/t/${m.code}` || location.hash)
          history.replaceState(null, '', `/t/${m.code}`);
        app.screen = 'table';
        break;
      case 'state':
        // a late state of a table this page has left: not ours any more
        if (app.code === null || m.code.toUpperCase() !== app.code.toUpperCase()) break;
        resuming = false;
        onState(m);
        break;
      case 'round_over':
        app.roundOver = { msg: m, round: app.msg?.round ?? null, rules: app.msg?.rules ?? {} };
        app.selection = null;
        break;
      case 'game_over':
        app.gameOver = m;
        // no state follows the last round: the final totals come from here
        if (app.msg && app.view) {
          app.msg = { ...app.msg, scores: m.totals, to_play: null, status: 'finished' };
          app.view = tableView(app.msg);
        }
        break;
      case 'error':
        onError(app.lang === 'it' && m.message_it ? m.message_it : m.message, m.id);
        break;
      case 'hint':
        if (hintTimer !== null) window.clearTimeout(hintTimer);
        app.hint = m;
        app.hintState = 'idle';
        break;
      case 'review':
        if (reviewTimer !== null) window.clearTimeout(reviewTimer);
        app.review = m;
        app.reviewState = 'open';
        break;
    }
    draw();
  }

  function onState(m: StateMsg): void {
    const prev = app.msg;
    const samePly =
      prev &&
      prev.round &&
      m.round &&
      prev.round.dealer === m.round.dealer &&
      prev.round.moves.length === m.round.moves.length;
    app.msg = m;
    app.msgAt = Date.now();
    app.code = m.code;
    app.seat = m.seat;
    app.view = tableView(m);
    app.screen = 'table';
    if (!samePly || m.to_play !== m.seat) app.pending = null;
    if (!samePly) {
      app.selection = null;
      app.explain = null;
      app.hint = null;
    }
    // presence: note when a seat went away, for its countdown
    app.awaySince = m.presence.map((p, i) =>
      p === 'away' ? (app.awaySince[i] ?? Date.now()) : null,
    );
    if (m.status === 'playing' && app.gameOver && m.round && m.round.moves.length === 0)
      app.gameOver = null;
  }

  function showNotice(text: string): void {
    app.notice = text;
    window.setTimeout(() => {
      if (app.notice === text) {
        app.notice = null;
        draw();
      }
    }, 6000);
  }

  function onError(message: string, id: unknown): void {
    // a refused create (rules the server cannot play): back to the form
    if (intent?.kind === 'create' && app.code === null) {
      intent = null;
      app.screen = 'home';
      app.error = message;
      return;
    }
    // a refused join (no open seat): watch instead (CONTRACTS.md /t/CODE)
    if (intent?.kind === 'join' && app.code && !app.token) {
      intent = { kind: 'watch' };
      socket.send({ type: 'watch', code: app.code });
      return;
    }
    if (app.hintState === 'asking' && id === hintId) {
      app.hintState = 'unavailable';
      return;
    }
    if (app.reviewState === 'asking' && id === reviewId) {
      app.reviewState = 'unavailable';
      return;
    }
    if (resuming && app.code) {
      // a token the server no longer knows: forget it, join (or watch)
      resuming = false;
      store(`scopa.token.${app.code}`, null);
      app.token = null;
      intent = { kind: 'join' };
      greet();
      return;
    }
    app.error = message;
    app.selection = null;
    app.pending = null;
    window.setTimeout(() => {
      if (app.error === message) {
        app.error = null;
        draw();
      }
    }, 6000);
  }

  // ------------------------------------------------------------ routes --
  function route(): void {
    const path = location.pathname;
    const m = /^\/t\/([A-Za-z0-9_-]+)\/?$/.exec(path);
    if (m) {
      const code = m[1]!.toUpperCase(); // table codes are upper case
      const frag = /token=([^&]+)/.exec(location.hash);
      if (frag) {
        store(`scopa.token.${code}`, decodeURIComponent(frag[1]!));
        history.replaceState(null, '', `/t/${code}${location.search}`);
      }
      app.code = code;
      app.token = load(`scopa.token.${code}`);
      app.screen = 'table';
      intent = app.token
        ? null
        : new URLSearchParams(location.search).has('watch')
          ? { kind: 'watch' }
          : { kind: 'join' };
      ensureSocket();
    } else if (new URLSearchParams(location.search).has('leaderboard')) {
      app.screen = 'leaderboard';
      void loadLeaderboard();
    } else {
      app.screen = 'home';
    }
    draw();
  }

  async function loadLeaderboard(pool = app.leaderboard.pool): Promise<void> {
    app.leaderboard = { state: 'loading', pool, rows: [] };
    draw();
    try {
      const r = await fetch(`/api/leaderboard?pool=${encodeURIComponent(pool)}`, {
        headers: { accept: 'application/json' },
      });
      if (!r.ok) throw new Error(String(r.status));
      const j: unknown = await r.json();
      const o = j as Record<string, unknown>;
      const rows = Array.isArray(j)
        ? j
        : Array.isArray(o.players)
          ? o.players
          : Array.isArray(o.rows)
            ? o.rows
            : Array.isArray(o.leaderboard)
              ? o.leaderboard
              : [];
      app.leaderboard = {
        state: 'ok',
        pool,
        rows: (rows as unknown[]).filter(
          (x): x is Record<string, unknown> => typeof x === 'object' && x !== null,
        ),
      };
    } catch {
      app.leaderboard = { state: 'unavailable', pool, rows: [] };
    }
    draw();
  }

  /** The finished game's record, for the review's stepping. */
  async function loadRecord(code: string): Promise<void> {
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(code)}/record`);
      if (!r.ok) throw new Error(String(r.status));
      const rec = (await r.json()) as RecordDoc;
      if (!Array.isArray(rec.rounds)) throw new Error('not a record');
      app.record = rec;
    } catch (e) {
      app.error = String(e);
    }
    draw();
  }

  function go(path: string): void {
    history.pushState(null, '', path);
    resetTable();
    route();
  }

  function resetTable(): void {
    queue.length = 0;
    Object.assign(app, {
      msg: null,
      view: null,
      selection: null,
      explain: null,
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
    });
  }

  // -------------------------------------------------------- controller --
  let hintId: number | false = false;
  let reviewId: number | false = false;

  function seatsFor(players: number, level: string): string[] {
    const seats = ['me'];
    for (let i = 1; i < players; i++) seats.push(levelSeat(level));
    return seats;
  }

  function rememberName(): void {
    const n = root.querySelector<HTMLInputElement>('#f-name')?.value.trim();
    if (n) store('scopa.name', n);
  }

  function startTable(rules: Record<string, string | number | boolean>, seats: string[]): void {
    const bad = conflicts(rules);
    if (bad.length) {
      app.error = t(app.lang, 'invalidRules', {
        names: bad.map((b) => optionName(app.lang, b)).join(', '),
      });
      draw();
      return;
    }
    rememberName();
    resetTable();
    intent = { kind: 'create', rules, seats };
    app.screen = 'table';
    ensureSocket();
    draw();
  }

  const c: Controller = {
    onTable: () => app.screen === 'table' && !app.roundOver && !app.gameOver,
    selected: () => app.selection?.card ?? null,
    pickCard(card: Card) {
      const v = app.view;
      if (!v || !v.myTurn || app.pending) {
        app.explain = card;
        draw();
        return;
      }
      const r = pickCard(v.choices, app.selection, card);
      app.explain = card;
      if (r.kind === 'play') {
        app.selection = null;
        sendMove(formatMove(r.move));
      } else if (r.kind === 'select') app.selection = r.selection;
      draw();
    },
    pickTableCard(card: Card) {
      const v = app.view;
      if (!v || !app.selection) return;
      const s = pickTableCard(v.choices, app.selection, card);
      if (s) app.selection = s;
      draw();
    },
    confirm() {
      const v = app.view;
      if (!v || !v.myTurn) return;
      const m = selectedMove(v.choices, app.selection);
      if (!m) return;
      app.selection = null;
      sendMove(formatMove(m));
      draw();
    },
    cancel() {
      app.selection = null;
      app.explain = null;
      draw();
    },
    hint() {
      const v = app.view;
      if (!v || !v.myTurn || !app.hintsOn || app.msg?.hints === false) return;
      app.hintState = 'asking';
      hintId = socket.send({ type: 'hint' });
      if (hintTimer !== null) window.clearTimeout(hintTimer);
      hintTimer = window.setTimeout(() => {
        if (app.hintState === 'asking') {
          app.hintState = 'unavailable';
          draw();
        }
      }, 3000);
      draw();
    },
    toggleHints() {
      app.hintsOn = !app.hintsOn;
      if (!app.hintsOn) app.hint = null;
      store('scopa.hints', app.hintsOn ? 'on' : 'off');
      draw();
    },
    toggleSkip() {
      app.skipAnim = !app.skipAnim;
      anim.setSkip(app.skipAnim);
      store('scopa.skip', app.skipAnim ? '1' : '0');
      draw();
    },
    setLang(l: Lang) {
      app.lang = l;
      store('scopa.lang', l);
      draw();
    },
    home() {
      go('/');
    },
    leaderboard() {
      go('/?leaderboard');
    },
    pool(p: string) {
      void loadLeaderboard(p);
    },
    startBot(form) {
      const rules = readRules(form, 'bot');
      const level = (form.querySelector('[name="level"]') as HTMLSelectElement).value;
      store('scopa.level', level);
      startTable(rules, seatsFor(num(effective(rules), 'players'), level));
    },
    create(form) {
      const rules = readRules(form, 'priv');
      const players = num(effective(rules), 'players');
      const seats = ['me'];
      for (let i = 1; i < players; i++) {
        const v = form.querySelector<HTMLSelectElement>(`[data-seat="${i}"]`)?.value ?? 'open';
        seats.push(v === 'open' ? 'open' : levelSeat(v));
      }
      startTable(rules, seats);
    },
    join(code: string) {
      const k = code.trim().toUpperCase();
      if (!k) return;
      rememberName();
      go(`/t/${encodeURIComponent(k)}`);
    },
    watch(code: string) {
      const k = code.trim().toUpperCase();
      if (!k) return;
      go(`/t/${encodeURIComponent(k)}?watch`);
    },
    copyLink() {
      const link = `${location.origin}/t/${app.code ?? ''}`;
      void navigator.clipboard?.writeText(link).catch(() => undefined);
      const input = root.querySelector<HTMLInputElement>('.sharelink');
      input?.select();
    },
    cont() {
      app.roundOver = null;
      draw();
      pump();
    },
    newGame() {
      go('/');
    },
    review() {
      if (!app.code) return;
      app.reviewState = 'asking';
      app.reviewStep = 0;
      void loadRecord(app.code);
      reviewId = socket.send({ type: 'review', code: app.code });
      if (reviewTimer !== null) window.clearTimeout(reviewTimer);
      reviewTimer = window.setTimeout(() => {
        if (app.reviewState === 'asking') {
          app.reviewState = 'unavailable'; // no marks: the record still steps
          draw();
        }
      }, 15000); // the server values every move first: seconds on a busy machine
      draw();
    },
    stepReview(delta: number) {
      gotoStep(app.reviewStep + delta);
    },
    gotoReview(step: number) {
      gotoStep(step);
    },
    rulesChanged(form, prefix, presetChanged) {
      if (presetChanged) syncOptions(form, prefix);
      if (prefix === 'priv') fillSeats(root, app.lang);
    },
    skipAnimations() {
      anim.skip();
    },
  };

  function gotoStep(step: number): void {
    const n = app.record ? reviewSteps(app.record).length : 0;
    app.reviewStep = Math.max(0, Math.min(n - 1, step));
    draw();
  }

  function sendMove(move: string): void {
    const v = app.view;
    if (!v) return;
    app.pending = move;
    socket.move(move, v.ply, v.round?.dealer ?? null);
  }

  bindInput(root, c);
  window.addEventListener('popstate', () => {
    resetTable();
    route();
  });
  // countdowns (away seats, reconnection) tick once a second
  window.setInterval(() => {
    if (app.conn.kind === 'down' || app.awaySince.some((x) => x !== null)) draw();
  }, 1000);
  route();
  return { app, receive: enqueue };
}

const root = document.getElementById('app');
if (root && !root.dataset.harness) startApp(root);
