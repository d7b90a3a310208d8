/*
 * suite.ts -- what the end-to-end suites against the real server set up
 * alike (table.e2e.ts, account.e2e.ts, tournament.e2e.ts): one `scopa
 * serve` and one chromium for the file; pages that note their console
 * errors (every test ends with none, but for the refusals a suite asks
 * for on purpose) and every message the server sent them; the
 * screenshots' folder.  Not a test itself.
 */
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT, type Served, startServe } from './serve.js';

// test-results/ is ignored by git; SCOPA_SHOTS=docs/screenshots (from the
// repository's root) refreshes the committed screenshots
export const SHOTS = resolve(ROOT, process.env.SCOPA_SHOTS ?? 'web/test-results/screenshots');

export interface Suite {
  /** the server's address, once the file's first test runs */
  base(): string;
  /** its SQLite file */
  db(): string;
  browser(): Browser;
  /** console and page errors of the pages, emptied at each test's end */
  errors: string[];
  /** the console errors a suite causes on purpose (a 4xx it asks for) */
  refused: RegExp | null;
}

/** Registers the file's hooks: the server (with `serve`'s flags) and the
 * browser before its tests (then `started`, the file's own start: one
 * hook, so that its order is certain), both stopped after them, and no
 * console error after each test but what `refused` matches. */
export function suite(
  serve: string[] = [],
  refused: RegExp | null = null,
  started?: (s: Suite) => void | Promise<void>,
): Suite {
  let served: Served | null = null;
  let browser: Browser | null = null;
  const s: Suite = {
    base: () => served?.base ?? '',
    db: () => served?.db ?? '',
    browser: () => {
      if (!browser) throw new Error('the browser starts before the first test');
      return browser;
    },
    errors: [],
    refused,
  };
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    served = await startServe(serve);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    await started?.(s);
  });
  after(async () => {
    await browser?.close();
    served?.stop();
  });
  afterEach(() => {
    assert.deepEqual(s.errors.splice(0), []);
  });
  return s;
}

/** Every message the server sent to each page, parsed, in order (the
 * tests compare what the page shows with what the server said). */
export const heard = new WeakMap<Page, Record<string, unknown>[]>();

/** What the server said last to a page (a failure is read by it). */
export const lastHeard = (p: Page): string => JSON.stringify(heard.get(p)?.slice(-3) ?? []);

/** A new page of ctx whose errors go to s and whose messages to heard. */
export async function pageIn(s: Suite, ctx: BrowserContext): Promise<Page> {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => s.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !s.refused?.test(m.text())) s.errors.push(m.text());
  });
  const got: Record<string, unknown>[] = [];
  heard.set(page, got);
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') got.push(JSON.parse(f.payload) as Record<string, unknown>);
    }),
  );
  return page;
}

/** A page in a context of its own, w x h in `locale`; animations off
 * unless `animate` (the tests wait on the server, not on transitions). */
export async function newPage(
  s: Suite,
  w = 1280,
  h = 800,
  locale = 'en-US',
  animate = false,
): Promise<Page> {
  const ctx = await s.browser().newContext({ viewport: { width: w, height: h }, locale });
  if (!animate) await ctx.addInitScript(() => localStorage.setItem('scopa.skip', '1'));
  return pageIn(s, ctx);
}

/** The first message the server sent to `page` that `pred` accepts,
 * waiting for it to arrive (the frame events and the page's own drawing
 * reach the test by different paths); 30 s at most, as Playwright's waits. */
export async function serverSaid(
  page: Page,
  pred: (m: Record<string, unknown>) => boolean,
  what: string,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 1200; i++) {
    const m = heard.get(page)?.find(pred);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the server never sent ${what}`);
}
