/*
 * account.e2e.ts -- the accounts in the browser against the REAL server
 * (CONTRACTS.md "Accounts, sessions and origins"; issue 32): a guest plays
 * a quick game with no account and no request about one; two people
 * create accounts (the form's own checks and the server's refusals said
 * in words, in English and Italian), play a rated game against each other
 * at a private table, and open their account pages (rating, its chart,
 * the game with its review and record, the statistics, the export); then
 * change password (the other session ends), log out everywhere, and
 * delete (the game stays, the name anonymised).  The tests run in order
 * and share one server.  Screenshots go where table.e2e.ts puts them
 * (SCOPA_SHOTS=docs/screenshots refreshes the committed ones).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { playTogether, signUp } from './play.js';
import { SHOTS, lastHeard, newPage as pageOf, serverSaid, suite } from './suite.js';

let BASE = '';
let accounts = false;
// but for the refusals these tests ask for on purpose (chromium logs
// every 4xx answer of a fetch as a console error)
const S = suite(
  [],
  /Failed to load resource: the server responded with a status of (400|401|409|429)/,
  async (s) => {
    BASE = s.base();
    // a server built before the accounts (issue 32) answers 404 here: the
    // tests say so and are skipped, by name, never silently
    accounts = (await fetch(`${BASE}/api/me`)).status === 401;
  },
);
const NO_ACCOUNTS =
  'this scopa serve has no accounts (GET /api/me is not 401): build one with issue 32 merged';

/** Every request of the accounts' API a page made. */
const asked = new WeakMap<Page, string[]>();

async function newPage(w = 1280, h = 800, locale = 'en-US'): Promise<Page> {
  const page = await pageOf(S, w, h, locale);
  const api: string[] = [];
  asked.set(page, api);
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/^\/api\/(me|login|signup|logout|password|delete)/.test(u.pathname))
      api.push(`${r.method()} ${u.pathname}`);
  });
  return page;
}

/** A screenshot from the top of the page, or (`at`) with that element
 * scrolled into view. */
async function shot(page: Page, name: string, fullPage = false, at?: string): Promise<void> {
  if (at) await page.locator(at).scrollIntoViewIfNeeded();
  else await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, name), fullPage });
}

const text = async (page: Page, sel: string): Promise<string> =>
  ((await page.locator(sel).first().textContent()) ?? '').trim();

/** The status line of the form or panel `within`, once it says what
 * `words` matches (a string: exactly that); its text. */
async function said(page: Page, within: string, words: RegExp | string): Promise<string> {
  const re =
    typeof words === 'string'
      ? new RegExp(`^\\s*${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)
      : words;
  const line = page.locator(`${within} .status-line`, { hasText: re }).first();
  await line.waitFor();
  return ((await line.textContent()) ?? '').trim();
}

/** The sign-in screen from the home page's small line. */
async function toLogin(page: Page): Promise<void> {
  await page.goto(BASE + '/');
  await page.locator('.topbar .acct a[data-action="signin"]').click();
  await page.locator('form.login').waitFor();
}

async function signIn(page: Page, name: string, password: string): Promise<void> {
  await toLogin(page);
  await page.fill('#f-acct-name', name);
  await page.fill('#f-acct-password', password);
  await page.click('form.login button[type="submit"]');
  await page.locator(`.topbar .acct a[data-action="account"]`, { hasText: name }).waitFor();
}

/** The account page, from the home page's name link. */
async function toAccount(page: Page): Promise<void> {
  if (!page.url().endsWith('/')) await page.goto(BASE + '/');
  await page.locator('.topbar .acct a[data-action="account"]').click();
  await page.locator('.account .gtable, .account .games p').first().waitFor();
}

const ANNA = 'anna_e2e';
const BO = 'bo_e2e';
let anna: Page;
let bo: Page;
let code = '';
let gameOver: Record<string, unknown> = {};

// a guest's page is the same with or without accounts on the server
test('account e2e: a guest plays a quick game with no account, and is offered to sign in', async () => {
  const page = await newPage(390, 844);
  await page.goto(BASE + '/');
  const offer = page.locator('.topbar .acct a[data-action="signin"]');
  assert.equal((await offer.textContent())?.trim(), 'Sign in to play rated');
  await shot(page, 'home-guest-phone.png');
  await page.fill('#f-name', 'Guest');
  const form = page.locator('form[data-form="bot"]');
  await form.locator('select[name="level"]').selectOption('principiante');
  await form.locator('summary').click();
  await form.locator('[data-opt="target"]').fill('1');
  await form.locator('[data-opt="target"]').dispatchEvent('change');
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  const state = await serverSaid(page, (m) => m.type === 'state', 'a state');
  assert.deepEqual((state.seats as string[])[0], 'Guest');
  if ('rated' in state) {
    assert.equal(state.rated, false, "a guest's game against a bot is not rated");
    assert.match(await text(page, '.rated-line'), /Not rated/);
  }
  await playTogether([page], lastHeard);
  assert.deepEqual(asked.get(page), [], 'not one request about accounts');
  await page.context().close();
});

test('account e2e: create accounts; every refusal said in words (English, Italian)', async (t) => {
  if (!accounts) return t.skip(NO_ACCOUNTS);
  anna = await newPage();
  await toLogin(anna);
  await shot(anna, 'login-desktop.png');
  await anna.click('[data-action="login-mode"]');
  await anna.locator('#f-acct-repeat').waitFor();
  // the form's own checks: nothing sent
  await signUp(anna, 'ab', 'long-enough');
  await said(anna, 'form.login', /3 to 20 characters/);
  await signUp(anna, ANNA, 'short');
  await said(anna, 'form.login', /at least 8 characters/);
  await anna.fill('#f-acct-name', ANNA);
  await anna.fill('#f-acct-password', 'first-pass-1');
  await anna.fill('#f-acct-repeat', 'first-pass-2');
  await anna.click('form.login button[type="submit"]');
  await said(anna, 'form.login', /not the same/);
  assert.deepEqual(asked.get(anna), [], 'no request for a form the server would refuse');
  await signUp(anna, ANNA, 'first-pass-1');
  await anna.locator('.topbar .acct a[data-action="account"]', { hasText: ANNA }).waitFor();
  assert.equal(await anna.locator('#f-name').count(), 0, 'signed in: no name to type');

  bo = await newPage(390, 844, 'it-IT');
  await bo.goto(BASE + '/');
  const offer = bo.locator('.topbar .acct a[data-action="signin"]');
  assert.equal((await offer.textContent())?.trim(), 'Accedi per giocare le partite in classifica');
  await shot(bo, 'home-guest-phone-it.png');
  await toLogin(bo);
  await bo.click('[data-action="login-mode"]');
  await signUp(bo, ANNA.toUpperCase(), 'bo-password');
  await said(bo, 'form.login', /Questo nome è già preso/);
  await shot(bo, 'signup-taken-phone-it.png');
  await signUp(bo, BO, 'bo-password');
  await bo.locator('.topbar .acct a[data-action="account"]', { hasText: BO }).waitFor();
  assert.equal(await text(bo, '.topbar .acct button'), 'Esci');
  await shot(bo, 'home-signed-in-phone-it.png');
});

test('account e2e: two accounts play a rated game; the seats carry their names', async (t) => {
  if (!accounts) return t.skip(NO_ACCOUNTS);
  await anna.goto(BASE + '/');
  const form = anna.locator('form[data-form="private"]');
  await form.locator('summary').click();
  await form.locator('[data-opt="target"]').fill('1');
  await form.locator('[data-opt="target"]').dispatchEvent('change');
  await form.locator('button[type="submit"]').click();
  await anna.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  code = anna.url().split('/t/')[1]!;
  await bo.goto(`${BASE}/t/${code}`);
  const hello = await serverSaid(bo, (m) => m.type === 'hello', 'hello');
  if ('account' in hello) assert.equal(hello.account, BO, 'the socket plays as the account');
  const st = await serverSaid(
    anna,
    (m) => m.type === 'state' && (m.seats as string[]).every((s) => s !== ''),
    'a state with both seats taken',
  );
  assert.deepEqual(st.seats, [ANNA, BO]);
  await anna.locator('.side .scores th', { hasText: BO }).waitFor();
  const rated = 'rated' in st;
  if (rated) assert.equal(st.rated, true, 'two accounts on two sides: rated');
  await playTogether([anna, bo], lastHeard, async (n) => {
    if (n !== 2) return;
    if (rated) {
      assert.match(await text(anna, '.tcode'), /Rated/);
      assert.match(await text(anna, '.rated-line'), /Rated game/);
    }
    await shot(anna, 'table-rated-desktop.png');
    await shot(bo, 'table-rated-phone-it.png');
  });
  gameOver = await serverSaid(anna, (m) => m.type === 'game_over', 'game_over');
});

test('account e2e: the account page: rating, chart, the game, statistics, record, export', async (t) => {
  if (!accounts) return t.skip(NO_ACCOUNTS);
  // the leaderboard lists the accounts, their ratings to the point
  await anna.goto(BASE + '/?leaderboard');
  const rows = anna.locator('table.leaders tbody tr');
  await rows.nth(1).waitFor();
  const board = (await rows.allTextContents()).join(' ');
  assert.ok(board.includes(ANNA) && board.includes(BO), board);
  assert.doesNotMatch(board, /\d\.\d/, 'ratings rounded');
  await shot(anna, 'leaderboard-accounts-desktop.png');
  await toAccount(anna);
  await anna.locator(`.gtable tr.game[data-code="${code}"]`).waitFor();
  const row = anna.locator(`.gtable tr.game[data-code="${code}"]`);
  assert.equal(await text(anna, `.gtable tr.game[data-code="${code}"] .opp`), BO);
  const totals = gameOver.totals as number[];
  const winner = gameOver.winner as number | null;
  assert.equal(await text(anna, `.gtable tr.game[data-code="${code}"] .pts`), totals.join('–'));
  assert.equal(
    await text(anna, `.gtable tr.game[data-code="${code}"] .res`),
    winner === null ? 'No winner' : winner === 0 ? 'Won' : 'Lost',
  );
  assert.equal(await row.locator('.badge.rated').count(), 1, 'marked rated');
  // the rating of the 2-player pool, provisional after one game, and its chart
  const r2 = anna.locator('.rtable tr[data-pool="2p"]');
  assert.match((await r2.locator('.rating').textContent()) ?? '', /^\d+$/);
  assert.equal(await r2.locator('.badge').count(), 1, 'provisional after one game');
  assert.ok((await anna.locator('svg.chart circle.dot').count()) >= 1, 'a point on the chart');
  assert.equal(await text(anna, '.statlist [data-stat="st_games"] dd'), '1');
  assert.equal(await text(anna, '.statlist [data-stat="st_won"] dd'), winner === 0 ? '1' : '0');
  await shot(anna, 'account-desktop.png', true);
  // the record, and every game in one download, with the session's cookie
  const href = (await row.locator('a[download]').getAttribute('href'))!;
  const rec = await anna.request.get(BASE + href);
  assert.equal(rec.status(), 200);
  assert.equal(((await rec.json()) as { format: string }).format, 'scopa-record/1');
  const exp = await anna.request.get(
    BASE + (await anna.locator('a[data-action="export"]').getAttribute('href'))!,
  );
  assert.equal(exp.status(), 200);
  const all = (await exp.json()) as { name: string; games: unknown[] };
  assert.equal(all.name, ANNA);
  assert.equal(all.games.length, 1);
  // bo's page, on a phone in Italian
  await toAccount(bo);
  await bo.locator(`.gtable tr.game[data-code="${code}"]`).waitFor();
  assert.equal(await text(bo, `.gtable tr.game[data-code="${code}"] .opp`), ANNA);
  await shot(bo, 'account-phone-it.png', true);
  // the review, from the games list
  await row.locator('a[data-action="go"]').click();
  await anna.waitForURL(new RegExp(`/t/${code}\\?review$`));
  await anna.locator('.dialog.result .reviewer').waitFor({ timeout: 60000 });
  assert.equal(await anna.locator('.dialog.result .scoretable').count(), 0, 'no totals said wrong');
  await shot(anna, 'account-review-desktop.png');
});

test('account e2e: change password ends the other sessions; log out everywhere', async (t) => {
  if (!accounts) return t.skip(NO_ACCOUNTS);
  const phone = await newPage(390, 844);
  await signIn(phone, ANNA, 'first-pass-1');
  await toAccount(anna);
  const pwForm = 'form[data-form="password"]';
  await anna.fill('#f-acct-old', 'not-my-password');
  await anna.fill('#f-acct-new', 'second-pass-1');
  await anna.fill('#f-acct-new2', 'second-pass-1');
  await anna.click(`${pwForm} button[type="submit"]`);
  await said(anna, pwForm, 'Wrong name or password.');
  await anna.fill('#f-acct-old', 'first-pass-1');
  await anna.fill('#f-acct-new', 'second-pass-1');
  await anna.fill('#f-acct-new2', 'second-pass-1');
  await anna.click(`${pwForm} button[type="submit"]`);
  await anna.locator(`${pwForm} .status-line.done`).waitFor();
  await said(anna, pwForm, /Password changed/);
  assert.equal(await anna.inputValue('#f-acct-new'), '', 'the passwords typed are not kept');
  await shot(anna, 'password-changed-desktop.png', false, pwForm);
  // the phone's session ended: its next page load sees a guest
  assert.equal((await phone.request.get(BASE + '/api/me')).status(), 401);
  await phone.goto(BASE + '/');
  await phone.locator('.topbar .acct a[data-action="signin"]').waitFor();
  // signed in again with the new password, then out everywhere from the desktop
  await signIn(phone, ANNA, 'second-pass-1');
  await toAccount(anna);
  await anna.click('[data-action="logout-all"]');
  await anna.locator('form.login').waitFor();
  await said(anna, 'form.login', 'You are signed out on every device.');
  await shot(anna, 'logged-out-everywhere-desktop.png');
  assert.equal((await phone.request.get(BASE + '/api/me')).status(), 401);
  assert.equal((await anna.request.get(BASE + '/api/me')).status(), 401);
  await phone.context().close();
});

test('account e2e: delete the account: the password asked; the game stays, anonymised', async (t) => {
  if (!accounts) return t.skip(NO_ACCOUNTS);
  await signIn(anna, ANNA, 'second-pass-1');
  await toAccount(anna);
  const del = 'form[data-form="delete"]';
  await anna.fill('#f-acct-delete', 'wrong-password');
  await anna.click(`${del} button[type="submit"]`);
  await said(anna, del, 'Wrong name or password.');
  await anna.fill('#f-acct-delete', 'second-pass-1');
  await anna.click(`${del} button[type="submit"]`);
  await anna.locator('form.login').waitFor();
  await said(anna, 'form.login', /Your account is deleted/);
  await shot(anna, 'account-deleted-desktop.png');
  await anna.fill('#f-acct-name', ANNA);
  await anna.fill('#f-acct-password', 'second-pass-1');
  await anna.click('form.login button[type="submit"]');
  await anna.locator('form.login .status-line.error').waitFor();
  await said(anna, 'form.login', 'Wrong name or password.');
  // too many tries on one name: refused with the wait said in words
  for (let i = 0; i < 12; i++) {
    const r = await anna.request.post(BASE + '/api/login', {
      data: { name: ANNA, password: `wrong-${i}-password` },
    });
    if (r.status() === 429) break;
  }
  await anna.fill('#f-acct-password', 'second-pass-1');
  await anna.click('form.login button[type="submit"]');
  await said(anna, 'form.login', /^Too many tries: wait \d+ (seconds|minutes) and try again\.$/);
  await shot(anna, 'too-many-desktop.png');
  // bo's game is still there, the other name no longer anna's
  await bo.goto(BASE + '/');
  await toAccount(bo);
  await bo.locator(`.gtable tr.game[data-code="${code}"]`).waitFor();
  const opp = await text(bo, `.gtable tr.game[data-code="${code}"] .opp`);
  assert.ok(opp && !opp.includes(ANNA), `anonymised: ${opp}`);
  await anna.context().close();
  await bo.context().close();
});
