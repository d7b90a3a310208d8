/*
 * engine.e2e.ts -- the library in WebAssembly in Debian's chromium
 * (docs/wasm.md): a page served by the real `scopa serve` (its headers,
 * its content security policy) starts the engine's Web Worker
 * (dist/engine/worker.js), which speaks the server's messages, and plays
 * a whole game against `campione` (best, at its level's node budget) with
 * no WebSocket at all.  The page's main thread must stay free (no task
 * over 50 ms while the bots think, by the browser's long-task timing), and
 * the game's record must replay with the native `scopa replay`.  And
 * `scopa bench` in the page: the native checksum, and the speed ratio
 * (chromium's deals per second over native's, printed).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';
import { SCOPA, type Served, startServe } from './serve.js';

let served: Served | undefined;
let browser: Browser;
let base = '';

before(async () => {
  served = await startServe();
  base = served.base;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
});

after(async () => {
  await browser?.close();
  served?.stop();
});

interface Played {
  messages: Record<string, unknown>[];
  record: string;
  firstMs: number;
  longTasks: number[];
}

test(
  'a whole game against campione in a Web Worker, the page never blocked',
  { timeout: 240_000 },
  async (t) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
        errors.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico'))
        errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}/healthz`); /* the server's origin and headers */
    const played = await page.evaluate(async (): Promise<Played> => {
      /* the main thread's stalls, by a 10 ms heartbeat: a gap over
       * 100 ms is a task that held the thread (chromium 156's headless
       * reports no longtask entries at all, not even for a busy loop) */
      const longTasks: number[] = [];
      let last = performance.now();
      const beat = setInterval(() => {
        const now = performance.now();
        if (now - last > 100) longTasks.push(now - last);
        last = now;
      }, 10);
      const start = performance.now();
      const worker = new Worker('/engine/worker.js', { type: 'module' });
      const messages: Record<string, unknown>[] = [];
      let firstMs = 0;
      return new Promise<Played>((done, fail) => {
        worker.onerror = (e) => fail(new Error(`worker: ${e.message}`));
        worker.onmessage = (e: MessageEvent<string>) => {
          const m = JSON.parse(e.data) as Record<string, unknown>;
          messages.push(m);
          if (m.type === 'hello') {
            firstMs = performance.now() - start;
            worker.postMessage(
              JSON.stringify({
                type: 'create',
                rules: { target: 11 },
                seats: ['me', 'campione'],
                name: 'Anna',
              }),
            );
          } else if (m.type === 'state' && m.status === 'playing' && m.to_play === m.seat) {
            const legal = m.legal as string[];
            worker.postMessage(JSON.stringify({ type: 'move', move: legal[0], ply: m.ply }));
          } else if (m.type === 'game_over') {
            worker.postMessage(JSON.stringify({ type: 'record' }));
          } else if (m.type === 'record') {
            worker.terminate();
            clearInterval(beat);
            done({ messages, record: m.record as string, firstMs, longTasks });
          } else if (m.type === 'error') {
            fail(new Error(JSON.stringify(m)));
          }
        };
      });
    });
    assert.deepEqual(errors, []);
    const over = played.messages.find((m) => m.type === 'game_over')!;
    const seed = over.seed as string;
    assert.match(seed, /^[0-9a-f]{64}$/); /* from crypto.getRandomValues */
    const replay = spawnSync(SCOPA, ['replay', '--json', '-'], {
      input: played.record,
      encoding: 'utf8',
    });
    const r = JSON.parse(replay.stdout) as {
      valid: boolean;
      finished: boolean;
      totals: number[];
      winner: number | null;
    };
    assert.equal(r.valid, true);
    assert.equal(r.finished, true);
    assert.deepEqual(r.totals, over.totals);
    assert.equal(r.winner, over.winner);
    const states = played.messages.filter((m) => m.type === 'state').length;
    t.diagnostic(
      `engine in a worker: hello after ${played.firstMs.toFixed(0)} ms, ` +
        `${states} states, main-thread stalls over 100 ms: ${played.longTasks.length}`,
    );
    assert.deepEqual(played.longTasks, [], 'no main-thread stall over 100 ms');

    /* The control: the same bot thinking on the page's own thread is seen
     * by the same long-task timing. */
    /* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call,
       @typescript-eslint/no-unsafe-member-access --
       this runs in the page, on the engine's modules imported by URL, which carry no types here */
    const onPage = await page.evaluate(async () => {
      const seen: number[] = [];
      let last = performance.now();
      const beat = setInterval(() => {
        const now = performance.now();
        if (now - last > 100) seen.push(now - last);
        last = now;
      }, 10);
      const { default: factory } = await import('/engine/scopa.mjs' as string); // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- a URL on the server, not a module here
      const { Wasm } = await import('/engine/engine.js' as string); // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- a URL on the server, not a module here
      const table = (await Wasm.load(factory)).table();
      let m = table.send({ type: 'create', seats: ['me', 'campione'], seed: 'c0ffee' });
      /* campione's moves in one task for 150 ms at least (a new game
       * when one ends): the task is well over 50 ms however fast the bot
       * is (sixteen moves were once enough, until the bots got faster). */
      const start = performance.now();
      while (performance.now() - start < 150) {
        const s = m.filter((x: { type: string }) => x.type === 'state').pop();
        if (!s || s.status === 'finished')
          m = table.send({ type: 'create', seats: ['me', 'campione'], seed: 'c0ffee' });
        else if (s.to_play === s.seat)
          m = table.send({ type: 'move', move: s.legal[0], ply: s.ply });
        else m = table.step();
      }
      await new Promise((r) => setTimeout(r, 200));
      clearInterval(beat);
      return seen;
    });
    /* eslint-enable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call,
       @typescript-eslint/no-unsafe-member-access */
    t.diagnostic(`the same bot on the page's thread: ${onPage.length} stalls over 100 ms`);
    assert.ok(onPage.length > 0, 'the heartbeat sees a bot on the main thread');
    await page.close();
  },
);

test('scopa bench in chromium: the same deals as native, and its speed', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${base}/healthz`);
  const native = (args: string[]) => {
    const r = spawnSync(SCOPA, ['bench', '--json', ...args], { encoding: 'utf8' });
    return JSON.parse(r.stdout) as Record<string, number>;
  };
  /* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call,
     @typescript-eslint/no-unsafe-member-access --
     this runs in the page, on the engine's modules imported by URL, which carry no types here */
  const inPage = (args: string[]) =>
    page.evaluate(async (a) => {
      const w = window as unknown as { wasm?: { bench(a: string[]): { output: string } } };
      if (!w.wasm) {
        const { default: factory } = await import('/engine/scopa.mjs' as string); // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- a URL on the server
        const { Wasm } = await import('/engine/engine.js' as string); // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- a URL on the server
        w.wasm = await Wasm.load(factory);
      }
      return JSON.parse(w.wasm!.bench(['--json', ...a]).output) as Record<string, number>;
    }, args);
  /* eslint-enable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call,
     @typescript-eslint/no-unsafe-member-access */
  const deals = ['--deals', '20000', '--seed', '3'];
  const ours = await inPage(deals);
  const theirs = native(deals);
  assert.equal(ours.checksum, theirs.checksum, 'the same deals, played the same');
  // speed, by wall clock: alternated, best of three each (the machine is shared)
  const w: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < 3; i++) {
    n.push(native(['--seconds', '1']).random_deals_per_second!);
    w.push((await inPage(['--seconds', '1'])).random_deals_per_second!);
  }
  const ratio = Math.max(...w) / Math.max(...n);
  t.diagnostic(
    `scopa bench deals/s, chromium ${JSON.stringify(w)}, native ${JSON.stringify(n)}: ` +
      `best against best ${ratio.toFixed(2)}`,
  );
  assert.ok(ratio > 0);
  await page.close();
});
