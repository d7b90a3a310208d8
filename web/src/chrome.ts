/*
 * chrome.ts -- what frames every screen: the top bar (the name, the
 * language switch, the table's code and scores on the table screen) and
 * the banner that says the connection is down (or the table stopped by the
 * server, stall.ts) and when it is tried again.
 */
import { type Lang, t } from './i18n.js';
import type { AppState } from './tableview.js';
import { h } from './dom.js';

/** `extra` after the name (a table's code), `end` before the language
 * switch (the account line). */
export function topBar(
  app: AppState,
  extra: (Node | null)[] = [],
  end: (Node | null)[] = [],
): HTMLElement {
  const other: Lang = app.lang === 'it' ? 'en' : 'it';
  return h(
    'header',
    { class: 'topbar' },
    h('a', { class: 'brand', href: '/', 'data-action': 'home', text: t(app.lang, 'title') }),
    ...extra,
    h('span', { class: 'grow' }),
    ...end,
    h('button', {
      class: 'lang',
      'data-action': 'lang',
      'data-value': other,
      'aria-label': `${t(app.lang, 'language')}: ${other === 'it' ? 'Italiano' : 'English'}`,
      text: other.toUpperCase(),
    }),
  );
}

export function connBanner(app: AppState): HTMLElement {
  const el = h('div', { class: 'conn', role: 'status', 'aria-live': 'assertive' });
  fillConn(el, app);
  return el;
}

/** What the connection banner says now ("": nothing to say). */
export function connText(app: AppState): string {
  const c = app.conn;
  const secs = (at: number): number => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  if (c.kind === 'down') return t(app.lang, 'offline', { s: secs(c.retryAt) });
  // a table on screen and the connection coming back: say so, not a
  // dimmed hand alone (a server that died hands the table to another)
  const atTable = app.screen === 'table' && app.msg !== null;
  if (c.kind === 'connecting' && atTable) return t(app.lang, 'reconnecting');
  if (c.kind === 'open' && app.resuming && atTable) return t(app.lang, 'resumingTable');
  if (app.stalled)
    // the server stopped the table (stall.ts): said in words, with the wait
    return app.stalled.retryAt === null
      ? t(app.lang, 'stalledNow')
      : t(app.lang, 'stalled', { s: secs(app.stalled.retryAt) });
  return '';
}

function fillConn(el: Element, app: AppState): void {
  const text = connText(app);
  el.textContent = text;
  el.classList.toggle('shown', text !== '');
}

export function setConn(root: HTMLElement, app: AppState): void {
  const el = root.querySelector('.conn');
  if (el) fillConn(el, app);
}
