/*
 * accountview.ts -- the account's screens, drawn from account.ts's state:
 * the sign-in / create-account screen (/account/login) and the account
 * page (/account): ratings per pool with the provisional mark, their
 * history as a line chart (chart.ts, inline SVG), the statistics, the
 * games newest first (each with its review and its record), the export,
 * change password, log out everywhere and delete.  Also the small account
 * line of the home page's top bar.
 *
 * What must stay true: every refusal is said in words in the page's
 * language (a code the page has no words for: the server's own message);
 * a form is built once per visit and language, so what the player typed
 * stays while answers come (only its status line and buttons change);
 * the password fields are emptied after each answer; nothing here reads
 * or writes the session cookie.
 */
import { type Key, type Lang, gameName, t } from './i18n.js';
import type { AppState } from './tableview.js';
import { type AccountOp, type HistPoint, POOLS, outcome, refusalWords } from './account.js';
import { chart } from './chart.js';
import { effective } from './rules.js';
import { h } from './dom.js';
import { topBar } from './chrome.js';
import { forgetHome } from './home.js';

// ------------------------------------------------------------- words --

const locale = (lang: Lang): string => (lang === 'it' ? 'it-IT' : 'en-GB');

function dateText(lang: Lang, at: number, time = false): string {
  const d = new Date(at * 1000);
  const opts: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
  if (time) Object.assign(opts, { hour: '2-digit', minute: '2-digit' });
  return d.toLocaleString(locale(lang), opts);
}

const poolName = (lang: Lang, pool: string): string =>
  t(lang, 'pool', { n: pool.replace('p', '') });

// ------------------------------------------------------------ pieces --

/** The status line under a form: its refusal, or what was done. */
function status(app: AppState, ops: AccountOp[]): HTMLElement {
  const a = app.account;
  const el = h('p', { class: 'status-line', role: 'alert' });
  if (a.refusal && ops.includes(a.refusal.op)) {
    el.className = 'status-line error';
    el.textContent = refusalWords(app.lang, a.refusal);
  } else if (a.done && ops.includes(a.done) && a.done !== 'login' && a.done !== 'signup') {
    el.className = 'status-line done';
    el.textContent = t(app.lang, `done_${a.done}` as Key);
  }
  return el;
}

function input(
  name: string,
  label: string,
  attrs: Record<string, string | number | boolean>,
  help?: string,
): HTMLElement {
  const id = `f-${name}`;
  return h(
    'label',
    { class: 'field', for: id },
    h('span', { text: label }),
    h('input', { id, name, ...attrs }),
    help ? h('small', { class: 'help', text: help }) : null,
  );
}

const pw = (name: string, label: string, auto: string, help?: string): HTMLElement =>
  input(name, label, { type: 'password', autocomplete: auto, required: true }, help);

/** The forms' buttons wait while their request is out; the status lines
 * follow the answers (the fields keep what was typed). */
function refresh(root: HTMLElement, app: AppState): void {
  const busy = app.account.busy;
  for (const b of root.querySelectorAll<HTMLButtonElement>('button[data-op]')) {
    const waiting = busy !== null && b.dataset.op === busy;
    b.disabled = waiting;
    b.textContent = waiting ? t(app.lang, 'wait') : (b.dataset.label ?? '');
  }
  for (const p of root.querySelectorAll<HTMLElement>('[data-status]')) {
    const next = status(app, (p.dataset.status ?? '').split(' ') as AccountOp[]);
    p.className = next.className;
    p.textContent = next.textContent;
  }
  // an answer came: the passwords typed are not kept
  if (busy === null)
    for (const f of root.querySelectorAll<HTMLInputElement>('input[type="password"]'))
      if (f.dataset.sent === '1') {
        f.value = '';
        delete f.dataset.sent;
      }
}

function statusLine(app: AppState, ops: AccountOp[]): HTMLElement {
  const el = status(app, ops);
  el.dataset.status = ops.join(' ');
  return el;
}

function opButton(
  op: AccountOp,
  label: string,
  attrs: Record<string, string | boolean> = {},
): HTMLElement {
  return h('button', { 'data-op': op, 'data-label': label, text: label, ...attrs });
}

// ----------------------------------------------------- the top bar --

/** The home page's account line, small: "Sign in to play rated", or the
 * account's name (to its page) and Sign out.  Nothing when the server
 * has no accounts (or none answers). */
export function accountLine(app: AppState): HTMLElement | null {
  const a = app.account;
  const lang = app.lang;
  if (a.status === 'signed' && a.name)
    return h(
      'span',
      { class: 'acct' },
      h('a', {
        href: '/account',
        'data-action': 'account',
        'aria-label': t(lang, 'accountOf', { name: a.name }),
        text: a.name,
      }),
      h('button', { class: 'link', 'data-action': 'logout', text: t(lang, 'signOut') }),
    );
  if (a.status === 'guest')
    return h(
      'span',
      { class: 'acct' },
      h('a', { href: '/account/login', 'data-action': 'signin', text: t(lang, 'signInRated') }),
    );
  return null;
}

// ------------------------------------------------- the sign-in screen --

let loginKey = '';

export function renderLogin(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const a = app.account;
  const key = `${lang}:${a.mode}`;
  if (loginKey === key && root.querySelector('.login')) return refresh(root, app);
  loginKey = key;
  forgetAccountPage();
  const signup = a.mode === 'signup';
  const op: AccountOp = signup ? 'signup' : 'login';
  const title = t(lang, signup ? 'signUpTitle' : 'signInTitle');
  const form = h(
    'form',
    { class: 'card-panel login', 'data-form': op, novalidate: true },
    h('h1', { text: title }),
    input(
      'acct-name',
      t(lang, 'accName'),
      {
        autocomplete: 'username',
        required: true,
        autocapitalize: 'off',
        spellcheck: 'false',
        maxlength: 20,
        autofocus: true,
      },
      signup ? t(lang, 'accNameHelp') : undefined,
    ),
    pw(
      'acct-password',
      t(lang, 'password'),
      signup ? 'new-password' : 'current-password',
      signup ? t(lang, 'passwordHelp') : undefined,
    ),
    signup ? pw('acct-repeat', t(lang, 'repeatPassword'), 'new-password') : null,
    statusLine(app, ['login', 'signup', 'logoutAll', 'delete']),
    h(
      'div',
      { class: 'row' },
      opButton(op, t(lang, signup ? 'signUpButton' : 'signInButton'), {
        class: 'primary',
        type: 'submit',
      }),
      h('button', {
        type: 'button',
        class: 'link',
        'data-action': 'login-mode',
        'data-value': signup ? 'login' : 'signup',
        text: t(lang, signup ? 'toSignIn' : 'toSignUp'),
      }),
    ),
  );
  root.replaceChildren(
    topBar(app),
    h(
      'main',
      { class: 'page narrow' },
      form,
      h('p', { class: 'help guest-note', text: t(lang, 'guestNote') }),
      h('p', {}, h('a', { href: '/', 'data-action': 'home', text: t(lang, 'backHome') })),
    ),
  );
  forgetHome();
  root.querySelector<HTMLInputElement>('#f-acct-name')?.focus();
  refresh(root, app);
}

// ------------------------------------------------- the account page --

let pageKey = '';
let pageLang: Lang | null = null;

/** Another screen: the account page is built afresh next time. */
export function forgetAccountPage(): void {
  pageKey = '';
  pageLang = null;
}

export function renderAccount(root: HTMLElement, app: AppState): void {
  const a = app.account;
  const lang = app.lang;
  // the data drawn: a new answer (or language, or pool) redraws the page
  // but the forms below keep their fields (they are moved over)
  const key = JSON.stringify([lang, a.status, a.name, a.me, a.history, a.games, a.pool]);
  if (pageKey === key && root.querySelector('.account')) return refresh(root, app);
  // the same visit and language: the forms are moved over as they are
  const kept = pageLang === lang ? root.querySelector('.account .actions') : null;
  pageKey = key;
  pageLang = lang;
  loginKey = '';
  const main = h(
    'main',
    { class: 'page account' },
    h(
      'header',
      { class: 'acct-head' },
      h('h1', { text: a.name ?? t(lang, 'accountTitle') }),
      a.me?.created
        ? h('p', {
            class: 'help',
            text: t(lang, 'memberSince', { date: dateText(lang, a.me.created) }),
          })
        : null,
    ),
    h('div', { class: 'acct-grid' }, ratingsPanel(app), chartPanel(app), statsPanel(app)),
    gamesPanel(app),
    kept ?? actionsPanel(app),
  );
  root.replaceChildren(topBar(app, [], [accountLine(app)]), main);
  forgetHome();
  refresh(root, app);
}

function ratingsPanel(app: AppState): HTMLElement {
  const lang = app.lang;
  const me = app.account.me;
  const rows = POOLS.map((p) => {
    const r = me?.ratings[p];
    return h(
      'tr',
      { 'data-pool': p, class: r?.provisional ? 'provisional' : '' },
      h('th', { scope: 'row', text: poolName(lang, p) }),
      r
        ? h(
            'td',
            {},
            h('strong', { class: 'rating', text: String(Math.round(r.rating)) }),
            h('span', { class: 'rd', text: ` ± ${Math.round(r.rd)}` }),
            h('span', {
              class: 'games',
              text:
                r.games === 1 ? t(lang, 'ratingGames1') : t(lang, 'ratingGames', { n: r.games }),
            }),
            r.provisional
              ? h('span', {
                  class: 'badge',
                  title: t(lang, 'provisionalHelp'),
                  text: t(lang, 'provisional'),
                })
              : null,
          )
        : h('td', { class: 'help', text: t(lang, 'noRating') }),
    );
  });
  return h(
    'section',
    { class: 'card-panel ratings' },
    h('h2', { text: t(lang, 'ratings') }),
    me
      ? h('table', { class: 'rtable' }, h('tbody', {}, ...rows))
      : h('p', { text: t(lang, 'connecting') }),
    me && POOLS.some((p) => me.ratings[p]?.provisional)
      ? h('p', { class: 'help', text: t(lang, 'provisionalHelp') })
      : null,
  );
}

const SVG = 'http://www.w3.org/2000/svg';

function s(
  tag: string,
  attrs: Record<string, string | number>,
  ...kids: (Node | string)[]
): Element {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...kids);
  return el;
}

/** The history of the chosen pool as a line with its ±rd band. */
export function historySvg(lang: Lang, pool: string, pts: readonly HistPoint[]): Element {
  const box = { width: 560, height: 220, left: 44, right: 12, top: 12, bottom: 26 };
  const c = chart(pts, box);
  const first = pts[0]!;
  const last = pts[pts.length - 1]!;
  const label = t(lang, 'chartLabel', {
    pool: poolName(lang, pool),
    from: Math.round(first.rating),
    to: Math.round(last.rating),
    n: pts.length,
  });
  const g = s(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${box.width} ${box.height}`,
      role: 'img',
      'aria-label': label,
      preserveAspectRatio: 'none',
    },
    s('title', {}, label),
  );
  for (const tk of c.yTicks) {
    g.append(
      s('line', { class: 'grid', x1: box.left, x2: box.width - box.right, y1: tk.y, y2: tk.y }),
      s(
        'text',
        { class: 'ylab', x: box.left - 6, y: tk.y + 4, 'text-anchor': 'end' },
        String(tk.value),
      ),
    );
  }
  c.xTicks.forEach((tk, i) =>
    g.append(
      s(
        'text',
        {
          class: 'xlab',
          x: tk.x,
          y: box.height - 8,
          'text-anchor': c.xTicks.length === 1 ? 'middle' : i === 0 ? 'start' : 'end',
        },
        dateText(lang, tk.at),
      ),
    ),
  );
  g.append(s('path', { class: 'band', d: c.band }), s('path', { class: 'line', d: c.line }));
  for (const d of c.dots)
    g.append(
      s(
        'circle',
        { class: 'dot', cx: d.x, cy: d.y, r: 3.5 },
        s(
          'title',
          {},
          t(lang, 'chartPoint', {
            date: dateText(lang, d.p.at),
            rating: Math.round(d.p.rating),
            rd: Math.round(d.p.rd),
          }),
        ),
      ),
    );
  return g;
}

function chartPanel(app: AppState): HTMLElement {
  const lang = app.lang;
  const a = app.account;
  const panel = h(
    'section',
    { class: 'card-panel history' },
    h('h2', { text: t(lang, 'ratingHistory') }),
  );
  if (a.history === null) return (panel.append(h('p', { text: t(lang, 'connecting') })), panel);
  if (a.history === 'failed')
    return (panel.append(h('p', { class: 'help', text: t(lang, 'notAvailable') })), panel);
  const hist = a.history;
  panel.append(
    h(
      'nav',
      { class: 'row pools', 'aria-label': t(lang, 'pools') },
      ...POOLS.map((p) =>
        h('button', {
          'data-action': 'chart-pool',
          'data-value': p,
          'aria-pressed': String(a.pool === p),
          class: a.pool === p ? 'primary' : '',
          disabled: !hist[p]?.length,
          text: poolName(lang, p),
        }),
      ),
    ),
  );
  const pts = hist[a.pool];
  panel.append(
    pts?.length
      ? h('div', { class: 'chartbox' }, historySvg(lang, a.pool, pts))
      : h('p', { class: 'help', text: t(lang, 'noHistory') }),
  );
  if (pts?.length) panel.append(h('p', { class: 'help', text: t(lang, 'chartHelp') }));
  return panel;
}

function statsPanel(app: AppState): HTMLElement {
  const lang = app.lang;
  const st = app.account.stats;
  const games = app.account.games;
  const panel = h('section', { class: 'card-panel stats' }, h('h2', { text: t(lang, 'stats') }));
  if (games === null) return (panel.append(h('p', { text: t(lang, 'connecting') })), panel);
  if (!st) return (panel.append(h('p', { class: 'help', text: t(lang, 'notAvailable') })), panel);
  const ppg = st.points_per_game.toLocaleString(locale(lang), { maximumFractionDigits: 1 });
  const items: [Key, string][] = [
    ['st_games', String(st.games)],
    ['st_won', String(st.won)],
    ['st_scope', String(st.scope)],
    ['st_settebello', String(st.settebello)],
    ['st_primiera', String(st.primiera)],
    ['st_ppg', ppg],
  ];
  panel.append(
    h(
      'dl',
      { class: 'statlist' },
      ...items.map(([k, v]) =>
        h('div', { 'data-stat': k }, h('dt', { text: t(lang, k) }), h('dd', { text: v })),
      ),
    ),
  );
  return panel;
}

function gamesPanel(app: AppState): HTMLElement {
  const lang = app.lang;
  const games = app.account.games;
  const panel = h(
    'section',
    { class: 'card-panel games' },
    h('h2', { text: t(lang, 'gamesTitle') }),
  );
  if (games === null) return (panel.append(h('p', { text: t(lang, 'connecting') })), panel);
  if (games === 'failed')
    return (panel.append(h('p', { class: 'help', text: t(lang, 'notAvailable') })), panel);
  if (!games.length)
    return (panel.append(h('p', { class: 'help', text: t(lang, 'noGames') })), panel);
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...(['g_date', 'g_game', 'g_opponents', 'g_result', 'g_points'] as Key[]).map((k) =>
        h('th', { scope: 'col', text: t(lang, k) }),
      ),
      h('th', { scope: 'col', class: 'links' }),
    ),
  );
  const rows = games.map((g) => {
    const o = outcome(g);
    const code = encodeURIComponent(g.code);
    return h(
      'tr',
      { class: `game ${o.result}`, 'data-code': g.code },
      h('td', { class: 'date', 'data-label': t(lang, 'g_date'), text: dateText(lang, g.at, true) }),
      h(
        'td',
        { class: 'what', 'data-label': t(lang, 'g_game') },
        `${gameName(lang, effective(g.rules))} · ${poolName(lang, g.pool)}`,
        g.rated ? h('span', { class: 'badge rated', text: t(lang, 'ratedMark') }) : null,
      ),
      h('td', {
        class: 'opp',
        'data-label': t(lang, 'g_opponents'),
        text: o.opponents.join(', ') || '—',
      }),
      h('td', { class: 'res', 'data-label': t(lang, 'g_result'), text: t(lang, o.result) }),
      h('td', {
        class: 'pts',
        'data-label': t(lang, 'g_points'),
        text: [o.mine, ...o.theirs].join('–'),
      }),
      h(
        'td',
        { class: 'links' },
        g.finished
          ? h('a', {
              href: `/t/${code}?review`,
              'data-action': 'go',
              'aria-label': t(lang, 'reviewOf', { code: g.code }),
              text: t(lang, 'reviewLink'),
            })
          : h('a', { href: `/t/${code}`, 'data-action': 'go', text: t(lang, 'openTable') }),
        g.finished
          ? h('a', {
              href: `/api/tables/${code}/record`,
              download: `scopa-${g.code}.json`,
              'aria-label': t(lang, 'recordOf', { code: g.code }),
              text: t(lang, 'recordLink'),
            })
          : null,
      ),
    );
  });
  panel.append(h('table', { class: 'gtable' }, head, h('tbody', {}, ...rows)));
  return panel;
}

/** The account's actions: their forms are built once per visit (what is
 * typed stays while the data above is redrawn). */
function actionsPanel(app: AppState): HTMLElement {
  const lang = app.lang;
  return h(
    'section',
    { class: 'actions' },
    h(
      'div',
      { class: 'card-panel export' },
      h('h2', { text: t(lang, 'exportGames') }),
      h('p', { class: 'help', text: t(lang, 'exportHelp') }),
      h('a', {
        class: 'button',
        href: '/api/me/export',
        download: `scopa-${app.account.name ?? 'games'}.json`,
        'data-action': 'export',
        text: t(lang, 'exportGames'),
      }),
    ),
    h(
      'form',
      { class: 'card-panel', 'data-form': 'password', novalidate: true },
      h('h2', { text: t(lang, 'changePassword') }),
      pw('acct-old', t(lang, 'oldPassword'), 'current-password'),
      pw('acct-new', t(lang, 'newPassword'), 'new-password', t(lang, 'passwordHelp')),
      pw('acct-new2', t(lang, 'repeatPassword'), 'new-password'),
      statusLine(app, ['password']),
      opButton('password', t(lang, 'changePassword'), { type: 'submit', class: 'primary' }),
    ),
    h(
      'div',
      { class: 'card-panel' },
      h('h2', { text: t(lang, 'logoutAll') }),
      h('p', { class: 'help', text: t(lang, 'logoutAllHelp') }),
      statusLine(app, ['logoutAll', 'logout']),
      opButton('logoutAll', t(lang, 'logoutAll'), { 'data-action': 'logout-all' }),
    ),
    h(
      'form',
      { class: 'card-panel danger', 'data-form': 'delete', novalidate: true },
      h('h2', { text: t(lang, 'deleteAccount') }),
      h('p', { class: 'help', text: t(lang, 'deleteHelp') }),
      pw('acct-delete', t(lang, 'password'), 'current-password'),
      statusLine(app, ['delete']),
      opButton('delete', t(lang, 'deleteConfirm'), { type: 'submit', class: 'danger' }),
    ),
  );
}
