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

function fillConn(el: Element, app: AppState): void {
  const c = app.conn;
  let text = '';
  const secs = (at: number): number => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  if (c.kind === 'down') text = t(app.lang, 'offline', { s: secs(c.retryAt) });
  else if (app.stalled)
    // the server stopped the table (stall.ts): said in words, with the wait
    text =
      app.stalled.retryAt === null
        ? t(app.lang, 'stalledNow')
        : t(app.lang, 'stalled', { s: secs(app.stalled.retryAt) });
  el.textContent = text;
  el.classList.toggle('shown', text !== '');
}

export function setConn(root: HTMLElement, app: AppState): void {
  const el = root.querySelector('.conn');
  if (el) fillConn(el, app);
}
