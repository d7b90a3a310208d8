// numbers.test.ts -- the numbers of docs/wasm.md: the size of scopa.wasm
// compressed (gzip and brotli, level 9 and 11; the bar is 300 KB), and
// `scopa bench` in WebAssembly against the native one: the same deals
// give the same checksum, and the speed ratio of deals per second is
// reported (not asserted: it depends on the machine's load).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DIST, loadWasm, native } from './load.js';

test('scopa.wasm compressed is under 300 KB', (t) => {
  const wasm = readFileSync(join(DIST, 'scopa.wasm'));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  const brotli = brotliCompressSync(wasm, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
  t.diagnostic(`scopa.wasm: ${wasm.length} bytes, gzip ${gzip}, brotli ${brotli}`);
  assert.ok(gzip < 300 * 1024, `gzip ${gzip}`);
  assert.ok(brotli < gzip);
});

test('scopa bench in WebAssembly: the same deals, and its speed', async (t) => {
  const wasm = await loadWasm();
  const deals = ['--json', '--deals', '20000', '--seed', '3'];
  const ours = wasm.bench(deals), theirs = native(['bench', ...deals]);
  assert.equal(ours.status, 0);
  const a = JSON.parse(ours.output) as Record<string, number>;
  const b = JSON.parse(theirs) as Record<string, number>;
  assert.equal(a.deals, b.deals);
  assert.equal(a.checksum, b.checksum);
  const seconds = process.env.SCOPA_WASM_BENCH_SECONDS ?? '1';
  const w = JSON.parse(wasm.bench(['--json', '--seconds', seconds]).output) as Record<string, number>;
  const n = JSON.parse(native(['bench', '--json', '--seconds', seconds])) as Record<string, number>;
  const ratio = w.random_deals_per_second! / n.random_deals_per_second!;
  t.diagnostic(`random deals per second: wasm ${w.random_deals_per_second}, ` +
    `native ${n.random_deals_per_second}, ratio ${ratio.toFixed(2)}`);
  assert.ok(ratio > 0);
});
