/*
 * serve.ts -- the real `scopa serve` the end-to-end tests drive: started
 * on a free loopback port with a fresh database in a temporary folder and
 * web/dist as its pages, waited for on /healthz, stopped and its folder
 * removed afterwards.  SCOPA_BIN names another binary than build/scopa.
 * Shared by the end-to-end suites (not a test itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname ?? '.', '../../..');
export const SCOPA = process.env.SCOPA_BIN ?? join(ROOT, 'build', 'scopa');

/** A port free on loopback now (the kernel picks it), so that two runs on
 * one machine never talk to each other's server. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? ok(a.port) : fail(new Error('no port'))));
    });
  });
}

export interface Served {
  base: string; // http://127.0.0.1:PORT
  db: string; // its SQLite file
  stop(): void;
}

/** Waits until the server answers /healthz (10 s at most). */
async function healthy(server: ChildProcess, base: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (server.exitCode !== null)
      throw new Error(`scopa serve exited with status ${server.exitCode}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('scopa serve did not answer /healthz in 10 s');
}

/** Starts `scopa serve` (with `extra` flags) and waits until it answers. */
export async function startServe(extra: string[] = []): Promise<Served> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'scopa-e2e-'));
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port)];
  const db = join(dir, 'db.sqlite');
  const server = spawn(
    SCOPA,
    [...args, '--db', db, '--web', join(ROOT, 'web', 'dist'), '--quiet', ...extra],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await healthy(server, base);
  } catch (e) {
    stop();
    throw e;
  }
  return { base, db, stop };
}
