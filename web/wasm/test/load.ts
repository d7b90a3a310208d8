// load.ts -- what the WebAssembly tests share: the module built into
// dist/engine (web/wasm/build; the tests run from web/), and the native
// `scopa` they compare it with (SCOPA_BIN, else ../build/scopa).

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScopaFactory } from '../scopa.mjs';
import { Wasm } from '../engine.js';

export const DIST = resolve(process.cwd(), 'dist/engine');
export const NATIVE = resolve(process.env.SCOPA_BIN ?? '../build/scopa');

export async function loadWasm(): Promise<Wasm> {
  const url = pathToFileURL(join(DIST, 'scopa.mjs')).href;
  const { default: factory } = (await import(url)) as { default: ScopaFactory };
  return Wasm.load(factory, { wasmBinary: readFileSync(join(DIST, 'scopa.wasm')) });
}

/** Runs the native scopa with args and input; its stdout (exit 0 or 1). */
export function native(args: string[], input = ''): string {
  const r = spawnSync(NATIVE, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${NATIVE} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** A small seeded generator (splitmix32) for the tests' own choices. */
export function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) % n;
  };
}
