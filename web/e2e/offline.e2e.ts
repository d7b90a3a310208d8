/*
 * offline.e2e.ts -- the game without a server, in Debian's chromium
 * (docs/web.md "Offline"):
 *
 *   - web/dist served by a plain static file server (python3 -m
 *     http.server: no `scopa serve` anywhere): the home page offers the
 *     bots only, and a whole game against each level is played by
 *     clicking, through the page's own engine (local.ts, the worker);
 *     against campione (best at its level's budget) a full game to 11 with
 *     no main-thread task over 50 ms (the long-task timing);
 *   - the record downloaded from the result replays with build/scopa
 *     replay to the totals on screen; the review comes from the engine;
 *   - a reload mid-hand, and a closed tab, find the game where it was
 *     (IndexedDB), and it plays on;
 *   - chromium finds the app installable (its own check, through the
 *     DevTools protocol, in a profile that is not incognito);
 *   - a new version (a new sw.js) installs while a game is played and
 *     waits: the page is not reloaded and the game goes on; at home it
 *     takes over, the page reloads into it, the old cache goes, and the
 *     saved game continues;
 *   - the page loaded once from `scopa serve` (friends offered), then the
 *     network cut (the browser's offline emulation) and the page reloaded:
 *     it opens from the service worker and plays a game against a bot.
 *
 * Screenshots of the offline home and table, at desktop and phone sizes,
 * go to web/test-results/screenshots (SCOPA_SHOTS elsewhere).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT, SCOPA, freePort, startServe } from './serve.js';
import { playOne } from './play.js';

const DIST = join(ROOT, 'web', 'dist');
const SHOTS = resolve(ROOT, process.env.SCOPA_SHOTS ?? 'web/test-results/screenshots');

async function up(url: string, proc: ChildProcess, what: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (i === 100 || proc.exitCode !== null) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let browser: Browser;
let statics: ChildProcess;
let STATIC = '';
const errors: string[] = [];

before(async () => {
  const port = await freePort();
  STATIC = `http://127.0.0.1:${port}`;
  statics = spawn(
    'python3',
    ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', DIST, String(port)],
    { stdio: 'ignore' },
  );
  await up(`${STATIC}/index.html`, statics, 'python3 -m http.server');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  statics?.kill('SIGTERM');
});

async function newContext(w = 1280, h = 800): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    viewport: { width: w, height: h },
    acceptDownloads: true,
  });
  await ctx.addInitScript(() => {
    if (!localStorage.getItem('scopa.skip')) {
      localStorage.setItem('scopa.skip', '1'); // no animations: the test waits on the engine
      localStorage.setItem('scopa.oneclick', '1');
      localStorage.setItem('scopa.mute', '1');
    }
  });
  return ctx;
}

function watch(page: Page): void {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // the probe's /healthz answers 404 on a static host: that is its point
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(m.text());
  });
}

async function startBot(page: Page, level: string, target: number): Promise<void> {
  const form = page.locator('form[data-form="bot"]');
  await page.locator('.home .offline:not([hidden])').waitFor();
  await page.fill('#f-name', 'Tester');
  await form.locator('select[name="level"]').selectOption(level);
  await form.locator('summary').click();
  await form.locator('[data-opt="target"]').fill(String(target));
  await form.locator('[data-opt="target"]').dispatchEvent('change');
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/t\/LOCAL$/);
}

/** What the page offers now: the result, a round score, or a card. */
async function whatNow(page: Page): Promise<string> {
  const h = await page.waitForFunction(
    () => {
      if (document.querySelector('.dialog.result')) return 'result';
      if (document.querySelector('.dialog.roundover')) return 'round';
      if (document.querySelector('.hand .card.playable')) return 'play';
      return false;
    },
    undefined,
    { timeout: 60000 },
  );
  return (await h.jsonValue()) as string;
}

/** Plays on until the result; `moves` moves at most (then stops). */
async function play(page: Page, moves = Infinity): Promise<number> {
  let n = 0;
  for (;;) {
    const now = await whatNow(page);
    if (now === 'result') return n;
    if (now === 'round') {
      await page.click('[data-action="continue"]');
      await page.locator('.dialog.roundover').waitFor({ state: 'detached' });
      continue;
    }
    if (n === moves) return n;
    await playOne(page);
    n++;
    assert.ok(n < 400, 'the game ends');
  }
}

const texts = async (page: Page, sel: string): Promise<string[]> =>
  (await page.locator(sel).allTextContents()).map((x) => x.trim());

/** The downloaded record replays with build/scopa replay to the result
 * on screen. */
async function checkRecord(page: Page): Promise<void> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-action="download-local"]'),
  ]);
  assert.equal(download.suggestedFilename(), 'scopa-LOCAL.json');
  const record = readFileSync(await download.path(), 'utf8');
  const replay = spawnSync(SCOPA, ['replay', '--json', '-'], { input: record, encoding: 'utf8' });
  assert.equal(replay.status, 0, replay.stderr);
  const r = JSON.parse(replay.stdout) as { valid: boolean; finished: boolean; totals: number[] };
  assert.equal(r.valid, true);
  assert.equal(r.finished, true);
  assert.deepEqual(r.totals.map(String), await texts(page, '.dialog.result .scoretable td'));
  const shown = await page.locator('.dialog.result .seed code').textContent();
  assert.equal((JSON.parse(record) as { seed: string }).seed, shown);
}

/** The load average of the last minute per core: above 1, other work
 * waits for the cores, and so does the page's. */
const loadPerCore = (): number => loadavg()[0]! / cpus().length;

const serviceWorkerReady = (page: Page): Promise<unknown> =>
  page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: 30000,
  });

test(
  'static host: the bots only, a whole game against each level',
  { timeout: 600_000 },
  async (t) => {
    errors.length = 0;
    for (const [w, h, size] of [
      [1280, 800, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      const ctx = await newContext(w, h);
      const page = await ctx.newPage();
      watch(page);
      await page.goto(`${STATIC}/`);
      await page.locator('.home .offline:not([hidden])').waitFor();
      assert.equal(await page.locator('form[data-form="bot"]').isVisible(), true);
      assert.equal(await page.locator('form[data-form="private"]').isVisible(), false);
      assert.equal(await page.locator('form[data-form="join"]').isVisible(), false);
      await page.screenshot({ path: join(SHOTS, `offline-home-${size}.png`) });
      await startBot(page, 'esperto', 11);
      await play(page, 3);
      await page.screenshot({ path: join(SHOTS, `offline-table-${size}.png`) });
      await ctx.close();
    }
    for (const level of ['principiante', 'intermedio', 'esperto']) {
      const ctx = await newContext();
      const page = await ctx.newPage();
      watch(page);
      await page.goto(`${STATIC}/`);
      const start = Date.now();
      await startBot(page, level, 1);
      const moves = await play(page);
      t.diagnostic(`${level} to 1 point: ${moves} moves of ours, ${Date.now() - start} ms`);
      await checkRecord(page);
      if (level === 'principiante') {
        // the review: the record and every move's mark from the page's engine
        const asked = Date.now();
        await page.click('[data-action="review"]');
        await page.locator('.reviewer[data-marks="server"]').waitFor({ timeout: 60000 });
        t.diagnostic(`the review of ${moves * 2} moves in the browser: ${Date.now() - asked} ms`);
      }
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  },
);

test(
  'campione (best at its budget) to 11: the page never blocked, the record replays',
  { timeout: 600_000 },
  async (t) => {
    errors.length = 0;
    const ctx = await newContext();
    const page = await ctx.newPage();
    watch(page);
    await page.goto(`${STATIC}/`);
    await startBot(page, 'campione', 11);
    await page.locator('.hand .card').first().waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push(e.duration);
      }).observe({ type: 'longtask' });
    });
    const load0 = loadPerCore();
    const start = Date.now();
    const moves = await play(page);
    const ms = Date.now() - start;
    const load = Math.max(load0, loadPerCore());
    const long = await page.evaluate(
      () => (window as unknown as { longTasks: number[] }).longTasks,
    );
    const blocked = long.reduce((a, b) => a + b, 0);
    t.diagnostic(
      `campione to 11: ${moves} moves of ours in ${ms} ms; main-thread tasks over 50 ms: ` +
        `${long.length} ${JSON.stringify(long.map(Math.round))}, ${Math.round(blocked)} ms ` +
        `in all; load average per core ${load.toFixed(2)}`,
    );
    if (load < 1 || process.env.SCOPA_STRICT_LONGTASKS === '1')
      assert.deepEqual(long, [], 'no main-thread task over 50 ms');
    // An oversubscribed machine (other builds on its cores) stretches the
    // page's own drawing past 50 ms now and then; the bots thinking on the
    // page's thread would block it for most of the game (engine.e2e.ts's
    // control: every campione move a long task), so the bound still fails
    // on that.
    else assert.ok(blocked < 0.2 * ms, `long tasks took ${blocked} ms of ${ms}`);
    await checkRecord(page);
    assert.deepEqual(errors, []);
    await ctx.close();
  },
);

test('a reload mid-hand and a closed tab resume the game', { timeout: 300_000 }, async () => {
  errors.length = 0;
  const ctx = await newContext();
  let page = await ctx.newPage();
  watch(page);
  await page.goto(`${STATIC}/`);
  await serviceWorkerReady(page); // /t/LOCAL on a static host is the service worker's
  await startBot(page, 'intermedio', 11);
  await play(page, 2);
  await whatNow(page);
  const seen = async (p: Page): Promise<string[][]> => [
    await p.locator('.hand .card').evaluateAll((e) => e.map((x) => x.getAttribute('data-card')!)),
    await p
      .locator('.tablecards .card')
      .evaluateAll((e) => e.map((x) => x.getAttribute('data-card')!)),
    await texts(p, '.side .scores td'),
  ];
  const before = await seen(page);
  assert.ok(before[0]!.length > 0 && before[0]!.length < 3, 'mid-hand');
  await page.reload();
  await page.waitForURL(/\/t\/LOCAL$/);
  await whatNow(page);
  assert.deepEqual(await seen(page), before, 'the reload shows the game where it was');
  await play(page, 1);
  const after1 = await seen(page);
  // the tab closed; the app opened again at its start: "Continue"
  await page.close();
  page = await ctx.newPage();
  watch(page);
  await page.goto(`${STATIC}/`);
  await page.click('[data-action="continue-local"]');
  await page.waitForURL(/\/t\/LOCAL$/);
  await whatNow(page);
  assert.deepEqual(await seen(page), after1, 'a closed tab finds the game too');
  await play(page, 1);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test(
  'loaded once from scopa serve, then offline: it opens from the service worker and plays',
  { timeout: 300_000 },
  async (t) => {
    errors.length = 0;
    const served = await startServe();
    const base = served.base;
    try {
      const ctx = await newContext(390, 844);
      const page = await ctx.newPage();
      watch(page);
      await page.goto(`${base}/`);
      // a server answers: friends and the leaderboard are offered
      await page.locator('form[data-form="private"]').waitFor();
      assert.equal(await page.locator('.home .offline').isVisible(), false);
      await serviceWorkerReady(page);
      await ctx.setOffline(true);
      const start = Date.now();
      await page.reload();
      await page.locator('.home .offline:not([hidden])').waitFor();
      const opened = Date.now() - start;
      assert.equal(await page.locator('form[data-form="private"]').isVisible(), false);
      await startBot(page, 'principiante', 1);
      await page.locator('.hand .card').first().waitFor();
      t.diagnostic(
        `offline: home shown ${opened} ms after the reload, a hand ${Date.now() - start} ms`,
      );
      await play(page);
      await checkRecord(page);
      assert.deepEqual(errors, []);
      await ctx.close();
    } finally {
      served.stop();
    }
  },
);

test(
  'a new version waits while a game is played, and takes over at home',
  { timeout: 300_000 },
  async () => {
    errors.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'scopa-e2e-update-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    cpSync(DIST, dir, { recursive: true });
    const files = spawn(
      'python3',
      ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, String(port)],
      { stdio: 'ignore' },
    );
    try {
      await up(`${base}/index.html`, files, 'python3 -m http.server');
      const ctx = await newContext();
      const page = await ctx.newPage();
      watch(page);
      await page.goto(`${base}/`);
      await serviceWorkerReady(page);
      const cachesNow = () => page.evaluate(() => caches.keys());
      const [first] = await cachesNow();
      await startBot(page, 'principiante', 11);
      await play(page, 2);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
      // a new build: another version in sw.js
      const sw = join(dir, 'sw.js');
      const text = readFileSync(sw, 'utf8');
      const next = text.replace(
        /const VERSION = "[0-9a-f]+"/,
        'const VERSION = "0000000000000001"',
      );
      assert.notEqual(next, text);
      writeFileSync(sw, next);
      rmSync(`${sw}.gz`, { force: true });
      await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        await reg!.update();
      });
      await page.waitForFunction(
        async () => (await navigator.serviceWorker.getRegistration())?.waiting != null,
      );
      // in the game: the new version waits, the page goes on
      await play(page, 2);
      await new Promise((r) => setTimeout(r, 1000)); // (a reload takes far less)
      assert.ok(
        await page.evaluate(
          async () => (await navigator.serviceWorker.getRegistration())?.waiting != null,
        ),
        'still waiting',
      );
      assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1);
      assert.deepEqual((await cachesNow()).sort(), [first, 'scopa-0000000000000001'].sort());
      const hand = await page
        .locator('.hand .card')
        .evaluateAll((e) => e.map((x) => x.getAttribute('data-card')));
      // at home it takes over: the page reloads into it, the old cache goes
      await page.click('[data-action="home"]');
      // (90 s: at a load of 11 on 2 cores the reload once took over 30)
      await page.waitForFunction(
        () => (window as unknown as { marker?: number }).marker === undefined,
        undefined,
        { timeout: 90000 },
      );
      await page.locator('.home').waitFor();
      await page.waitForFunction(async () => (await caches.keys()).length === 1);
      assert.deepEqual(await cachesNow(), ['scopa-0000000000000001']);
      // and the game saved in the browser goes on
      await page.click('[data-action="continue-local"]');
      await whatNow(page);
      assert.deepEqual(
        await page
          .locator('.hand .card')
          .evaluateAll((e) => e.map((x) => x.getAttribute('data-card'))),
        hand,
      );
      await play(page, 1);
      assert.deepEqual(errors, []);
      await ctx.close();
    } finally {
      files.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('chromium finds the app installable', { timeout: 120_000 }, async () => {
  const profile = mkdtempSync(join(tmpdir(), 'scopa-e2e-profile-'));
  // a browser context of its own: playwright's are incognito, where
  // nothing installs
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
  });
  try {
    const page = await ctx.newPage();
    await page.goto(`${STATIC}/`);
    await serviceWorkerReady(page);
    const cdp = await ctx.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.equal(manifest.url, `${STATIC}/manifest.webmanifest`);
    assert.deepEqual(manifest.errors, []);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
