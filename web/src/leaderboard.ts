/*
 * leaderboard.ts -- the leaderboard page, by pool (2, 3, 4, 6 players):
 * every scalar field the server keeps is a column, the known ones named;
 * an empty pool and an unreachable server are said in words.
 */
import { type Key, type Lang, t } from './i18n.js';
import type { AppState } from './tableview.js';
import { h } from './dom.js';
import { topBar } from './chrome.js';
import { forgetHome } from './home.js';

/** A field as a cell: a scalar as text; an object (in a row other than
 * the first, which chose the columns) as nothing, never "[object Object]". */
function scalar(lang: Lang, v: unknown): string {
  if (typeof v === 'string') return v;
  // a rating and its deviation to the point, as the account page shows them
  if (typeof v === 'number') return String(Number.isInteger(v) ? v : Math.round(v));
  if (typeof v === 'boolean') return t(lang, v ? 'yes' : 'no');
  return '';
}

export function renderLeaderboard(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const lb = app.leaderboard;
  let body: HTMLElement;
  if (lb.state === 'loading') body = h('p', { text: t(lang, 'connecting') });
  else if (lb.state === 'unavailable')
    body = h('p', { class: 'help', text: t(lang, 'noLeaderboard') });
  else if (!lb.rows.length) body = h('p', { class: 'help', text: t(lang, 'noRatedGames') });
  else {
    // every scalar field the server keeps is a column; the known ones named
    const known: Record<string, Key> = {
      name: 'player',
      rating: 'rating',
      games: 'games',
      rd: 'deviation',
      provisional: 'provisionalCol',
    };
    const cols = Object.keys(lb.rows[0]!).filter((k) => typeof lb.rows[0]![k] !== 'object');
    body = h(
      'table',
      { class: 'leaders' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', text: t(lang, 'rank') }),
          ...cols.map((c) => h('th', { scope: 'col', text: known[c] ? t(lang, known[c]) : c })),
        ),
      ),
      h(
        'tbody',
        {},
        ...lb.rows.map((r, i) =>
          h(
            'tr',
            {},
            h('td', { text: i + 1 }),
            ...cols.map((c) => h('td', { text: scalar(lang, r[c]) })),
          ),
        ),
      ),
    );
  }
  const pools = h(
    'nav',
    { class: 'row pools', 'aria-label': t(lang, 'pools') },
    ...['2p', '3p', '4p', '6p'].map((p) =>
      h('button', {
        'data-action': 'pool',
        'data-value': p,
        'aria-pressed': String(lb.pool === p),
        class: lb.pool === p ? 'primary' : '',
        text: t(lang, 'pool', { n: p[0]! }),
      }),
    ),
  );
  root.replaceChildren(
    topBar(app),
    h('main', { class: 'page' }, h('h1', { text: t(lang, 'leaderboard') }), pools, body),
  );
  forgetHome();
}
