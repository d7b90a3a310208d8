/*
 * render.ts -- draws the AppState into the page, one screen per file:
 * home.ts, leaderboard.ts, table.ts (with seats.ts, hand.ts, center.ts,
 * sidebar.ts, overlay.ts, reviewer.ts), all through dom.ts.  redraw() is
 * coalesced: any number of calls in one frame cost one render.
 *
 * What must stay true: rendering reads the state, never changes it; every
 * interactive element carries data-action (and data-card / data-value) for
 * input.ts, and a label a screen reader can say.
 */
import type { AppState } from './tableview.js';
import { renderHome, renderName } from './home.js';
import { renderLeaderboard } from './leaderboard.js';
import { renderTable } from './table.js';
import { forgetAccountPage, renderAccount, renderLogin } from './accountview.js';
import { forgetTourneys, renderTourney, renderTourneys } from './tourneyview.js';

export { fillSeats, readRules, syncOptions } from './home.js';

let scheduled = false;
let current: { root: HTMLElement; app: AppState } | null = null;

export function redraw(root: HTMLElement, app: AppState): void {
  current = { root, app };
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    if (current) render(current.root, current.app);
  });
}

let lastScreen: AppState['screen'] | null = null;

/** Draw now (tests and the first paint). */
export function render(root: HTMLElement, app: AppState): void {
  document.documentElement.lang = app.lang;
  // another screen starts at its top: on a phone, Start at the bottom of
  // every option opened the table scrolled down, its top off screen
  // (issue 34)
  if (lastScreen !== null && lastScreen !== app.screen) window.scrollTo(0, 0);
  lastScreen = app.screen;
  if (app.screen === 'account' || app.screen === 'login') forgetTourneys();
  if (app.screen === 'account') return renderAccount(root, app);
  if (app.screen === 'login') return renderLogin(root, app);
  forgetAccountPage();
  if (app.screen === 'tourneys') return renderTourneys(root, app);
  if (app.screen === 'tourney') return renderTourney(root, app);
  // the home page's panel keeps its countdowns ticking
  if (app.screen !== 'home') forgetTourneys();
  if (app.screen === 'home') return renderHome(root, app);
  if (app.screen === 'leaderboard') return renderLeaderboard(root, app);
  if (app.screen === 'name') return renderName(root, app);
  renderTable(root, app);
}
