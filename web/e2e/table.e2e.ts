/*
 * table.e2e.ts -- end-to-end tests of the browser client in Debian's
 * chromium (playwright-core) against the REAL server: each test starts
 * `build/scopa serve --port P --db TMP` on loopback (SCOPA_BIN names another
 * binary) and drives the page as a player would.  Run by `web/check` (so by
 * scripts/test) whenever the binary has the serve verb.  Screenshots go to
 * web/test-results/screenshots/, or where SCOPA_SHOTS says.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(import.meta.dirname ?? '.', '../../..');
const SCOPA = process.env.SCOPA_BIN ?? join(ROOT, 'build', 'scopa');
// test-results/ is ignored by git; SCOPA_SHOTS=docs/screenshots (from the
// repository's root) refreshes the committed screenshots
const SHOTS = resolve(ROOT, process.env.SCOPA_SHOTS ?? 'web/test-results/screenshots');
let PORT = 0;
let BASE = '';

/** A port free on loopback now (the kernel picks it), so that two runs on
 * one machine never talk to each other's server. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? ok(a.port) : fail(new Error('no port'))));
    });
  });
}

let server: ChildProcess;
let browser: Browser;
let dir: string;

async function healthy(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (server.exitCode !== null) throw new Error(`scopa serve exited with status ${server.exitCode}`);
    try {
      const r = await fetch(`${BASE}/healthz`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('scopa serve did not answer /healthz in 10 s');
}

before(async () => {
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  dir = mkdtempSync(join(tmpdir(), 'scopa-e2e-'));
  mkdirSync(SHOTS, { recursive: true });
  const args = ['serve', '--host', '127.0.0.1', '--port', String(PORT), '--db', join(dir, 'db.sqlite')];
  server = spawn(SCOPA, [...args, '--web', join(ROOT, 'web', 'dist'), '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await healthy();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
});

after(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** What the pages said on their console as errors (a CSP refusal, a
 * failed load): every test ends with none. */
const consoleErrors: string[] = [];
afterEach(() => {
  assert.deepEqual(consoleErrors.splice(0), []);
});

async function newPage(w = 1280, h = 800): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, locale: 'en-US' });
  // animations off: the tests wait on the server, not on transitions
  await ctx.addInitScript(() => localStorage.setItem('scopa.skip', '1'));
  const page = await ctx.newPage();
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  return page;
}

/** Start a game against the beginner bot from the home page, target T. */
async function startBotGame(page: Page, target: number): Promise<void> {
  await page.goto(BASE + '/');
  await page.fill('#f-name', 'Tester');
  const form = page.locator('form[data-form="bot"]');
  await form.locator('select[name="level"]').selectOption('principiante');
  await form.locator('summary').click();
  await form.locator('[data-opt="target"]').fill(String(target));
  await form.locator('[data-opt="target"]').dispatchEvent('change');
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  await page.locator('.hand .card').first().waitFor();
}

/** Play one move by clicking: a playable card, then Play if it asks
 * (`choosing` runs while a capture choice is on screen). */
async function playOne(page: Page, choosing?: () => Promise<void>): Promise<boolean> {
  const card = page.locator('.hand .card.playable').first();
  if ((await card.count()) === 0) return false;
  try {
    await card.click({ timeout: 3000 });
  } catch (e) {
    // the turn moved on between the look and the click (a state arrived)
    if ((await card.count()) === 0) return false;
    throw e;
  }
  const confirm = page.locator('.choice button.primary');
  if (await confirm.count()) {
    // a card with several sets: the set is highlighted on the table
    assert.ok((await page.locator('.tablecards .card.taken').count()) >= 1);
    if (choosing) await choosing();
    await confirm.click();
  }
  return true;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, name) });
}

/** Click through a whole game; screenshots named with `size`. */
async function playGame(page: Page, size: string): Promise<number> {
  let rounds = 0;
  let shotMid = false;
  let shotChoice = false;
  for (let step = 0; step < 3000; step++) {
    if (await page.locator('.dialog.result').count()) break;
    if (await page.locator('.roundscore').count()) {
      rounds++;
      // every category row has a number per side
      assert.ok((await page.locator('.roundscore tr.cat-carte td').count()) >= 2);
      if (rounds === 1) await shot(page, `round-score-${size}.png`);
      await page.click('[data-action="continue"]');
      continue;
    }
    const played = await playOne(page, async () => {
      if (shotChoice) return;
      await shot(page, `capture-choice-${size}.png`);
      shotChoice = true;
    });
    if (played) {
      if (!shotMid && step > 8) {
        await page.waitForTimeout(300);
        await shot(page, `table-${size}.png`);
        shotMid = true;
      }
    } else await page.waitForTimeout(100);
  }
  return rounds;
}

test('e2e: a whole game against a bot, by clicking, with each round score and the result', async () => {
  const page = await newPage();
  await startBotGame(page, 3);
  const rounds = await playGame(page, 'desktop');
  assert.ok(rounds >= 1, 'at least one round score was shown');
  const result = page.locator('.dialog.result');
  await result.waitFor();
  assert.match((await result.textContent()) ?? '', /seed/i);
  const href = await result.locator('a[data-action="download"]').getAttribute('href');
  const rec = await fetch(BASE + href);
  assert.equal(rec.status, 200);
  const record = (await rec.json()) as { format: string; rounds: unknown[] };
  assert.equal(record.format, 'scopa-record/1');
  await shot(page, 'result-desktop.png');
  // the review steps through every move of the record
  await page.click('[data-action="review"]');
  await page.locator('.reviewer').waitFor();
  assert.match((await page.locator('.reviewer').textContent()) ?? '', /1 \/ \d+/);
  await page.keyboard.press('ArrowRight');
  await page.locator('.reviewer', { hasText: /2 \/ \d+/ }).waitFor();
  await shot(page, 'review-desktop.png');
});

test('e2e: two players at one table through its code', async () => {
  const a = await newPage();
  await a.goto(BASE + '/');
  await a.fill('#f-name', 'Anna');
  await a.locator('form[data-form="private"] button[type="submit"]').click();
  await a.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  const code = a.url().split('/t/')[1]!;
  const b = await newPage();
  await b.goto(BASE + '/');
  await b.fill('#f-name', 'Bruno');
  await b.fill('#f-code', code);
  await b.click('[data-action="join"]');
  await b.locator('.hand .card').first().waitFor();
  await a.locator('.hand .card').first().waitFor();
  // whoever is to play plays; the other sees the move
  const first = (await a.locator('.hand .card.playable').count()) ? a : b;
  const other = first === a ? b : a;
  await playOne(first);
  await other.locator('.lastmove').filter({ hasText: /:/ }).waitFor();
  assert.match((await other.locator('.status').textContent()) ?? '', /Your turn|to play/);
  // one leaves: the other sees the seat away, with its countdown
  await other.context().close();
  await first.locator('.seat .badge.pres', { hasText: /away/ }).waitFor();
  assert.match((await first.locator('.seat .badge.pres').textContent()) ?? '', /away: a bot plays in \d+ s|away for \d+ s/);
});

test('e2e: a reload in the middle of a hand returns to the same seat', async () => {
  const page = await newPage();
  await startBotGame(page, 11);
  await playOne(page);
  await page.waitForTimeout(500);
  const url = page.url();
  const handBefore = await page.locator('.hand .card').count();
  await page.reload();
  await page.locator('.hand .card').first().waitFor();
  assert.equal(page.url(), url);
  assert.match((await page.locator('.me .name').textContent()) ?? '', /Tester/);
  assert.ok(Math.abs((await page.locator('.hand .card').count()) - handBefore) <= 1);
});

test('e2e: a phone-sized screen plays a whole game', async () => {
  const page = await newPage(390, 844);
  await startBotGame(page, 1);
  const box = await page.locator('.hand').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, 'the hand fits the screen');
  assert.ok((await playGame(page, 'phone')) >= 1);
  await page.locator('.dialog.result').waitFor();
  await shot(page, 'result-phone.png');
});

test('e2e: the keyboard alone plays a move', async () => {
  const page = await newPage();
  await startBotGame(page, 11);
  await page.locator('.hand .card.playable').first().waitFor();
  const ply = await page.locator('.lastmove').textContent();
  // the hint (an extension scopa serve offers): H asks, the move is shown
  await page.keyboard.press('h');
  await page.locator('.hinttext').waitFor({ timeout: 15000 });
  await page.keyboard.press('1');
  if (await page.locator('.choice button.primary').count()) await page.keyboard.press('Enter');
  await page.waitForFunction((p) => document.querySelector('.lastmove')?.textContent !== p, ply);
});

test('e2e: the leaderboard page reads the server\'s leaderboard', async () => {
  const page = await newPage();
  await page.goto(BASE + '/?leaderboard');
  await page.locator('.pools button[aria-pressed="true"]').waitFor();
  // a fresh database has no rated game: the page says so, in words
  await page.locator('main.page p.help, table.leaders').first().waitFor();
  await page.click('.pools button[data-value="4p"]');
  await page.locator('.pools button[data-value="4p"][aria-pressed="true"]').waitFor();
});
