/*
 * tourneyview.ts -- the tournaments' screens (tourney.ts holds their
 * data): the home page's panel, /tournaments (upcoming, running,
 * finished, and the create form) and /tournament/ID (what it is, the
 * countdown, join and withdraw, the standings, every round's tables with
 * watch or review where the rules allow).
 *
 * What must stay true: a screen is drawn again only when what it shows
 * changed (the lists come every few seconds; the create form keeps what
 * was typed, and a focused button its focus); a duplicate round's tables
 * offer nothing to watch before the round is over (the server refuses it
 * anyway: docs/serve.md "Duplicate tables are sealed"); the countdowns
 * tick by themselves, once a second.
 */
import { type Key, type Lang, presetName, t } from './i18n.js';
import type { AppState } from './tableview.js';
import { h } from './dom.js';
import { connBanner, setConn, topBar } from './chrome.js';
import {
  CLOCK_DEFAULT,
  SEEK_CLOCKS,
  forgetHome,
  readRules,
  rulesFieldset,
  syncOptions,
} from './home.js';
import { accountLine } from './accountview.js';
import { type TourneyForm, type TourneyLine, type TourneyView, myStanding } from './tourney.js';

// ----------------------------------------------------------- countdown --

/** "1:02:03", "4:05", "0:09". */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

let ticker: ReturnType<typeof setInterval> | null = null;

/** Every [data-deadline] of the page says its time left, once a second. */
function tick(root: HTMLElement): void {
  const lang: Lang = document.documentElement.lang === 'it' ? 'it' : 'en';
  for (const el of root.querySelectorAll<HTMLElement>('[data-deadline]')) {
    const left = Number(el.dataset.deadline) - Date.now();
    el.textContent =
      left > 0
        ? t(lang, el.dataset.words as Key, { t: clockText(left) })
        : el.dataset.after
          ? t(lang, el.dataset.after as Key)
          : '';
  }
}

function startTicker(root: HTMLElement): void {
  tick(root);
  if (ticker === null) ticker = setInterval(() => tick(root), 1000);
}

/** Another screen: the countdowns stop, the screens are built afresh. */
export function forgetTourneys(): void {
  if (ticker !== null) clearInterval(ticker);
  ticker = null;
  built = '';
}

// ------------------------------------------------------------- words --

const fmtName = (lang: Lang, f: string): string =>
  f === 'swiss' || f === 'arena' || f === 'duplicate' ? t(lang, `fmt_${f}`) : f;

/** The game, its length and its count of players, in a line. */
function lineWords(lang: Lang, l: TourneyLine): string {
  const parts = [fmtName(lang, l.format), presetName(lang, l.preset)];
  if (l.target !== null) parts[1] += ` ${t(lang, 'lobbyTarget', { n: l.target })}`;
  const count = (n: number, one: Key, many: Key): string => t(lang, n === 1 ? one : many, { n });
  if (l.minutes !== null) parts.push(count(l.minutes, 'tourneyOneMinute', 'tourneyMinutes'));
  else if (l.roundCount !== null)
    parts.push(count(l.roundCount, 'tourneyOneRound', 'tourneyRounds'));
  if (l.pairs) parts.push(count(l.players, 'tourneyOnePair', 'tourneyPairsN'));
  else parts.push(count(l.players, 'tourneyOnePlayer', 'tourneyPlayers'));
  if (l.seats !== null && l.seats < 1024) parts.push(t(lang, 'tourneySeatsMax', { n: l.seats }));
  return parts.join(' · ');
}

/** Where it is: a countdown to its start or end, its round, or over. */
function statusNode(lang: Lang, l: TourneyLine): HTMLElement {
  if (l.status === 'upcoming' && l.startsAt !== null)
    return h('span', {
      class: 'countdown',
      'data-deadline': String(l.startsAt),
      'data-words': 'tourneyStartsIn',
      'data-after': 'tourneyWaiting',
      text: '',
    });
  if (l.status === 'running' && l.endsAt !== null)
    return h('span', {
      class: 'countdown',
      'data-deadline': String(l.endsAt),
      'data-words': 'tourneyEndsIn',
      text: '',
    });
  if (l.status === 'running' && l.roundCount !== null)
    return h('span', { text: t(lang, 'tourneyRoundOf', { n: l.round, of: l.roundCount }) });
  return h('span', { text: l.status === 'finished' ? t(lang, 'tourneyFinishedWord') : '' });
}

function lineItem(lang: Lang, l: TourneyLine): HTMLElement {
  return h(
    'li',
    { 'data-id': l.id },
    h('a', { href: `/tournament/${l.id}`, 'data-action': 'go', class: 'tname', text: l.name }),
    h('span', { class: 'help', text: lineWords(lang, l) }),
    h('span', { class: 'tstatus' }, statusNode(lang, l)),
  );
}

// --------------------------------------------------------- home panel --

/** The home page's panel: what runs and what comes, the first few. */
export function tourneysPanel(lang: Lang): HTMLElement {
  return h(
    'section',
    { class: 'card-panel tourneys-panel', 'aria-labelledby': 'tourneys-title' },
    h('h2', { id: 'tourneys-title', text: t(lang, 'tourneysTitle') }),
    h('div', { class: 'tourneys-list', 'aria-live': 'polite' }),
    h('p', {}, h('a', { href: '/tournaments', 'data-action': 'go', text: t(lang, 'tourneysAll') })),
  );
}

export const HOME_TOURNEYS = 5;

export function setTourneysPanel(root: HTMLElement, app: AppState): void {
  const box = root.querySelector<HTMLElement>('.home .tourneys-list');
  if (!box) return;
  const { state, running, upcoming } = app.tourneys;
  const key = JSON.stringify([app.lang, state, running, upcoming]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    const lines = [...running, ...upcoming].slice(0, HOME_TOURNEYS);
    const words =
      state === 'loading' ? 'connecting' : state === 'ok' ? 'tourneysNone' : 'tourneysUnavailable';
    box.replaceChildren(
      lines.length
        ? h('ul', { class: 'tourneys' }, ...lines.map((l) => lineItem(app.lang, l)))
        : h('p', { class: 'help', text: t(app.lang, words) }),
    );
  }
  startTicker(root);
}

// ------------------------------------------------------ /tournaments --

let built = '';

function createForm(app: AppState): HTMLElement {
  const lang = app.lang;
  if (app.account.status !== 'signed')
    return h(
      'section',
      { class: 'card-panel' },
      h('h2', { text: t(lang, 'tourneyCreate') }),
      h(
        'p',
        {},
        h('a', {
          href: '/account/login?next=%2Ftournaments',
          'data-action': 'go',
          text: t(lang, 'tourneySignInCreate'),
        }),
      ),
    );
  const field = (label: string, input: HTMLElement): HTMLElement =>
    h('label', { class: 'field', for: input.id }, h('span', { text: label }), input);
  const select = (id: string, options: [string, string][], value: string): HTMLElement =>
    h(
      'select',
      { id, name: id },
      ...options.map(([v, text]) => h('option', { value: v, selected: v === value, text })),
    );
  const number = (id: string, min: number, max: number, value: number, off = false) =>
    h('input', { id, name: id, type: 'number', min, max, step: 1, value, disabled: off });
  const formats = ['swiss', 'arena', 'duplicate'].map((f): [string, string] => [
    f,
    fmtName(lang, f),
  ]);
  return h(
    'form',
    { class: 'card-panel tourney-create', 'data-form': 'tourney' },
    h('h2', { text: t(lang, 'tourneyCreate') }),
    h('p', { class: 'help', text: t(lang, 'tourneyCreateHelp') }),
    field(
      t(lang, 'tourneyName'),
      h('input', { id: 't-name', name: 't-name', maxlength: 64, autocomplete: 'off' }),
    ),
    field(t(lang, 'tourneyFormat'), select('t-format', formats, 'swiss')),
    ...['swiss', 'arena', 'duplicate'].map((f) =>
      h('p', {
        class: 'help fmt-help',
        'data-format': f,
        hidden: f !== 'swiss',
        text: t(lang, `fmtHelp_${f}` as Key),
      }),
    ),
    // the rules as a table's (two players: Scopone pairs are not run yet)
    rulesFieldset(lang, 'tourney'),
    h(
      'div',
      { class: 'row' },
      field(
        t(lang, 'clock'),
        select(
          't-clock',
          SEEK_CLOCKS.map(([k, s]): [string, string] => [String(s), t(lang, k)]),
          String(CLOCK_DEFAULT),
        ),
      ),
    ),
    h(
      'div',
      { class: 'row' },
      field(t(lang, 'tourneyLengthRounds'), number('t-rounds', 1, 20, 3)),
      field(t(lang, 'tourneyLengthMinutes'), number('t-minutes', 1, 720, 30, true)),
      field(t(lang, 'tourneyStartsField'), number('t-starts', 0, 10080, 10)),
      field(
        t(lang, 'tourneySeatsField'),
        h('input', {
          id: 't-seats',
          name: 't-seats',
          type: 'number',
          min: 2,
          max: 1024,
          step: 1,
          placeholder: '1024',
        }),
      ),
    ),
    h(
      'label',
      { class: 'check', for: 't-rated' },
      h('input', { type: 'checkbox', id: 't-rated', name: 't-rated', checked: true }),
      h('span', { text: ` ${t(lang, 'tourneyRated')}` }),
    ),
    h('button', {
      class: 'primary',
      type: 'submit',
      disabled: app.tourneys.busy,
      text: t(lang, 'tourneyCreateGo'),
    }),
  );
}

/** The format chosen: its words shown, and rounds or minutes asked. */
export function syncTourneyForm(form: HTMLElement): void {
  const format = form.querySelector<HTMLSelectElement>('#t-format')?.value ?? 'swiss';
  for (const p of form.querySelectorAll<HTMLElement>('.fmt-help'))
    p.hidden = p.dataset.format !== format;
  const rounds = form.querySelector<HTMLInputElement>('#t-rounds');
  const minutes = form.querySelector<HTMLInputElement>('#t-minutes');
  if (rounds) rounds.disabled = format === 'arena';
  if (minutes) minutes.disabled = format !== 'arena';
}

/** The create form's fields as the verb wants them. */
export function readTourneyForm(form: HTMLElement): TourneyForm {
  const v = (id: string): string => form.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '';
  const n = (id: string, d: number): number => {
    const x = Number(v(id));
    return Number.isFinite(x) ? Math.round(x) : d;
  };
  const format = v('t-format') || 'swiss';
  return {
    name: v('t-name'),
    format,
    rules: readRules(form, 'tourney'),
    length: format === 'arena' ? n('t-minutes', 30) : n('t-rounds', 3),
    startsIn: Math.max(0, n('t-starts', 10)),
    moveClock: n('t-clock', CLOCK_DEFAULT),
    rated: form.querySelector<HTMLInputElement>('#t-rated')?.checked ?? true,
    // empty: as many as the server takes
    ...(v('t-seats').trim() ? { seats: n('t-seats', 1024) } : {}),
  };
}

function listSection(lang: Lang, title: Key, lines: TourneyLine[]): HTMLElement {
  return h(
    'section',
    { class: 'tlist' },
    h('h2', { text: t(lang, title) }),
    lines.length
      ? h('ul', { class: 'tourneys' }, ...lines.map((l) => lineItem(lang, l)))
      : h('p', { class: 'help', text: t(lang, 'tourneysNoneHere') }),
  );
}

export function renderTourneys(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const page = `list:${lang}:${app.account.status}:${app.account.name ?? ''}`;
  if (built !== page || !root.querySelector('.tourneys-page')) {
    built = page;
    root.replaceChildren(
      topBar(app, [], [accountLine(app)]),
      h(
        'main',
        { class: 'page tourneys-page' },
        h('h1', { text: t(lang, 'tourneysTitle') }),
        h('p', { class: 'error', role: 'alert' }),
        h('div', { class: 'tlists', 'aria-live': 'polite' }),
        createForm(app),
      ),
      connBanner(app),
    );
    forgetHome();
    const rules = root.querySelector<HTMLElement>('fieldset[data-prefix="tourney"]');
    if (rules) syncOptions(rules, 'tourney'); // the option fields show that variant
  }
  root.querySelector('.tourneys-page .error')!.textContent = app.error ?? '';
  const submit = root.querySelector<HTMLButtonElement>('.tourney-create button[type="submit"]');
  if (submit) submit.disabled = app.tourneys.busy;
  const box = root.querySelector<HTMLElement>('.tlists')!;
  const { state, upcoming, running, finished } = app.tourneys;
  const key = JSON.stringify([state, upcoming, running, finished]);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(
      ...(state === 'ok'
        ? [
            listSection(lang, 'tourneysRunning', running),
            listSection(lang, 'tourneysUpcoming', upcoming),
            listSection(lang, 'tourneysFinished', finished),
          ]
        : [
            h('p', {
              class: 'help',
              text: t(lang, state === 'loading' ? 'connecting' : 'tourneysUnavailable'),
            }),
          ]),
    );
  }
  setConn(root, app);
  startTicker(root);
}

// ---------------------------------------------------- /tournament/ID --

/** Join, withdraw, start now, or sign in: what this player may do. */
function actions(app: AppState, v: TourneyView): HTMLElement {
  const lang = app.lang;
  const row = h('div', { class: 'row tactions' });
  if (v.status === 'finished') return row;
  if (app.account.status !== 'signed') {
    row.append(
      h('a', {
        class: 'button primary',
        href: `/account/login?next=${encodeURIComponent(`/tournament/${v.id}`)}`,
        'data-action': 'go',
        text: t(lang, 'tourneySignIn'),
      }),
    );
    return row;
  }
  const me = myStanding(app, v);
  const off = app.tourney?.busy === true || app.conn.kind !== 'open';
  if (v.pairs && !me) return pairJoin(app, v, row, off);
  const button = (action: string, words: Key, primary: boolean): HTMLElement =>
    h('button', {
      type: 'button',
      class: primary ? 'primary' : '',
      'data-action': action,
      disabled: off,
      text: t(lang, words),
    });
  if (!me) row.append(button('tourney-join', 'tourneyJoin', true));
  else if (!me.active) row.append(button('tourney-join', 'tourneyRejoin', true));
  else row.append(button('tourney-leave', 'tourneyLeave', false));
  if (v.status === 'upcoming' && v.creator !== null && v.creator === app.account.name)
    row.append(button('tourney-start', 'tourneyStart', !!me));
  return row;
}

/** A Scopone pair's join: each one names the other.  This player's own
 * invitation waiting (withdraw it), someone's naming this player (join
 * with them at once), or the partner's name to type. */
function pairJoin(app: AppState, v: TourneyView, row: HTMLElement, off: boolean): HTMLElement {
  const lang = app.lang;
  const me = app.account.name ?? '';
  const mine = v.invites.find((x) => x.name === me);
  const box = h('div', { class: 'pairjoin' });
  if (mine) {
    box.append(
      h('p', {
        class: 'joined',
        role: 'status',
        text: t(lang, 'tourneyAsked', { name: mine.partner }),
      }),
      row,
    );
    row.append(
      h('button', {
        type: 'button',
        'data-action': 'tourney-leave',
        disabled: off,
        text: t(lang, 'tourneyLeave'),
      }),
    );
    return box;
  }
  // asked by someone: that answer first, the form for another partner below
  for (const x of v.invites.filter((i) => i.partner.toLowerCase() === me.toLowerCase())) {
    box.append(
      h('p', { class: 'joined', text: t(lang, 'tourneyAskedBy', { name: x.name }) }),
      h('button', {
        type: 'button',
        class: 'primary',
        'data-action': 'tourney-join-with',
        'data-value': x.name,
        disabled: off,
        text: t(lang, 'tourneyJoinWith', { name: x.name }),
      }),
    );
  }
  box.append(
    h('p', { class: 'help', text: t(lang, 'tourneyPairHelp') }),
    h(
      'form',
      { class: 'row', 'data-form': 'tourney-join' },
      h(
        'label',
        { class: 'field', for: 't-partner' },
        h('span', { text: t(lang, 'tourneyPartner') }),
        h('input', { id: 't-partner', name: 't-partner', autocomplete: 'off', maxlength: 20 }),
      ),
      h('button', {
        type: 'submit',
        class: 'primary',
        disabled: off,
        text: t(lang, 'tourneyJoin'),
      }),
    ),
    row,
  );
  return box;
}

function standingsTable(lang: Lang, app: AppState, v: TourneyView): HTMLElement {
  if (!v.standings.length) return h('p', { class: 'help', text: t(lang, 'tourneyNoEntries') });
  const swiss = v.format === 'swiss';
  const arena = v.format === 'arena';
  const me = myStanding(app, v);
  const cols: [Key, (s: TourneyView['standings'][number]) => string][] = [
    ['rank', (s) => String(s.rank)],
    ['player', (s) => (s.active ? s.name : `${s.name} (${t(lang, 'tourneyOut')})`)],
    ['colPoints', (s) => points(s.points)],
    ['games', (s) => String(s.games)],
    ['colWins', (s) => String(s.wins)],
  ];
  if (swiss)
    cols.push(['colBuchholz', (s) => points(s.buchholz ?? 0)], ['colSB', (s) => points(s.sb ?? 0)]);
  if (arena) cols.push(['colStreak', (s) => String(s.streak ?? 0)]);
  // a phone scrolls the table sideways, never the page
  return h(
    'div',
    { class: 'tscroll' },
    h(
      'table',
      { class: 'leaders standings' },
      h(
        'thead',
        {},
        h('tr', {}, ...cols.map(([k]) => h('th', { scope: 'col', text: t(lang, k) }))),
      ),
      h(
        'tbody',
        {},
        ...v.standings.map((s) =>
          h(
            'tr',
            { class: s === me ? 'you' : s.active ? '' : 'out' },
            ...cols.map(([, f]) => h('td', { text: f(s) })),
          ),
        ),
      ),
    ),
  );
}

/** 1.5 as "1½", a duplicate score to two places. */
function points(x: number): string {
  if (Number.isInteger(x)) return String(x);
  if (Number.isInteger(x * 2)) return `${Math.floor(x) || ''}½`;
  return x.toFixed(2);
}

function resultWords(lang: Lang, r: string | null, seats: (string | null)[]): string {
  if (r === 'a' || r === 'b') return t(lang, 'resWon', { name: seats[r === 'a' ? 0 : 1] ?? '' });
  if (r === 'draw') return t(lang, 'resDraw');
  if (r === 'both_lost') return t(lang, 'resBothLost');
  if (r === 'bye') return t(lang, 'resBye');
  return t(lang, 'resPlaying');
}

function roundsPart(lang: Lang, app: AppState, v: TourneyView): HTMLElement {
  if (!v.rounds.length) return h('p', { class: 'help', text: t(lang, 'tourneyNoRounds') });
  // a pair's tables carry the pair's name
  const me = myStanding(app, v)?.name ?? null;
  const dup = v.format === 'duplicate';
  const table = (tb: TourneyView['rounds'][number]['tables'][number], done: boolean) => {
    const mine = me !== null && tb.seats.includes(me);
    const names = tb.seats.map((s) => s ?? '—').join(' – ');
    let link: HTMLElement | null = null;
    if (tb.code && tb.result === null && mine)
      link = h('a', {
        class: 'button primary',
        href: `/t/${tb.code}`,
        'data-action': 'go',
        text: t(lang, 'tourneyMyTable'),
      });
    else if (tb.code && dup && !done)
      link = h('span', { class: 'help', text: t(lang, 'tourneySealed') });
    else if (tb.code && tb.result === null)
      link = h('a', {
        href: `/t/${tb.code}?watch`,
        'data-action': 'go',
        text: t(lang, 'tourneyWatch'),
      });
    else if (tb.code && tb.result !== 'bye')
      link = h('a', {
        href: `/t/${tb.code}?review`,
        'data-action': 'go',
        text: t(lang, 'tourneyReview'),
      });
    return h(
      'li',
      { class: mine ? 'mine' : '', 'data-code': tb.code ?? '' },
      h('span', { class: 'tseats', text: names }),
      h('span', { class: 'tresult help', text: resultWords(lang, tb.result, tb.seats) }),
      link,
    );
  };
  // newest first: the round in play is what people look for
  const rounds = [...v.rounds].reverse();
  if (v.format === 'arena') {
    const games = rounds.flatMap((r) => r.tables);
    return h('ul', { class: 'ttables' }, ...games.map((tb) => table(tb, true)));
  }
  return h(
    'div',
    {},
    ...rounds.map((r) => {
      const done = r.tables.every((tb) => tb.result !== null);
      return h(
        'section',
        { class: 'tround' },
        h('h3', { text: t(lang, 'tourneyRoundN', { n: r.round }) }),
        h('ul', { class: 'ttables' }, ...r.tables.map((tb) => table(tb, done))),
      );
    }),
  );
}

function clockWords(lang: Lang, v: TourneyView): string {
  const c = v.clock;
  if (c.bank !== null && c.bank > 0) return `${Math.round(c.bank / 60)}′ + ${c.increment ?? 0}″`;
  return c.moveClock !== null ? t(lang, 'lobbyClock', { s: c.moveClock }) : '';
}

function pageBody(app: AppState): HTMLElement[] {
  const lang = app.lang;
  const p = app.tourney;
  if (!p || (p.state === 'loading' && !p.view)) return [h('p', { text: t(lang, 'connecting') })];
  if (p.state === 'missing') return [h('p', { class: 'help', text: t(lang, 'tourneyMissing') })];
  const v = p.view;
  if (!v) return [h('p', { class: 'help', text: t(lang, 'tourneysUnavailable') })];
  const me = myStanding(app, v);
  const meta = [
    lineWords(lang, v),
    clockWords(lang, v),
    t(lang, v.rated ? 'tourneyRated' : 'tourneyUnrated'),
    v.creator ? t(lang, 'tourneyBy', { name: v.creator }) : '',
  ].filter((x) => x);
  const waiting =
    v.status === 'running' &&
    v.format !== 'arena' &&
    v.rounds.at(-1)?.tables.every((x) => x.result !== null);
  return [
    h('h1', { text: v.name }),
    h('p', { class: 'tmeta', text: meta.join(' · ') }),
    h('p', { class: 'tstatus big' }, statusNode(lang, v)),
    waiting ? h('p', { class: 'help', text: t(lang, 'tourneyNextRound') }) : null,
    h('p', { class: 'help', text: t(lang, `fmtHelp_${v.format}` as Key) }),
    actions(app, v),
    me && v.status !== 'finished'
      ? h('p', {
          class: 'joined',
          role: 'status',
          text: t(lang, me.active ? 'tourneyJoined' : 'tourneyWithdrawn'),
        })
      : null,
    h('p', { class: 'error', role: 'alert', text: app.error ?? '' }),
    h('h2', { text: t(lang, 'tourneyStandings') }),
    standingsTable(lang, app, v),
    h('h2', { text: t(lang, 'tourneyRoundsTitle') }),
    roundsPart(lang, app, v),
  ].filter((x): x is HTMLElement => x !== null);
}

export function renderTourney(root: HTMLElement, app: AppState): void {
  const key = JSON.stringify([
    'page',
    app.lang,
    app.account.status,
    app.account.name,
    app.conn.kind,
    app.error,
    app.tourney,
  ]);
  if (built !== key || !root.querySelector('.tourney-page')) {
    built = key;
    // the focused button keeps its focus across the refresh
    const had =
      document.activeElement instanceof HTMLElement
        ? document.activeElement.dataset.action
        : undefined;
    // and a partner's name being typed stays, with its focus
    const typed = root.querySelector<HTMLInputElement>('#t-partner');
    const typing = typed !== null && document.activeElement === typed;
    const partner = typed?.value ?? '';
    root.replaceChildren(
      topBar(app, [], [accountLine(app)]),
      h('main', { class: 'page tourney-page' }, ...pageBody(app)),
      connBanner(app),
    );
    forgetHome();
    const box = root.querySelector<HTMLInputElement>('#t-partner');
    if (box) box.value = partner;
    if (box && typing) box.focus();
    else if (had)
      root
        .querySelector<HTMLElement>(`.tourney-page [data-action="${had}"]:not([disabled])`)
        ?.focus();
  }
  setConn(root, app);
  startTicker(root);
}
