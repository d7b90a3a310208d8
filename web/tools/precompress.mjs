// tools/precompress.mjs -- writes FILE.gz beside each text file of a built
// folder (web/dist), which `scopa serve` sends to clients that take gzip
// (docs/serve.md "Caching and compression").  The vite build runs it on
// dist/ (vite.config.ts); `node tools/precompress.mjs DIR` runs it by hand.
//
// Node's zlib (the real zlib), level 9; a .gz is written only where it is
// smaller than its file, and checked by decompressing it again.  The types
// are the server's text types (src/server/http.c TYPES, text = 1).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync, gzipSync } from 'node:zlib';

export const TEXT = [
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.svg',
  '.txt',
];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes the .gz files under dir; returns the paths written. */
export function precompress(dir) {
  const written = [];
  for (const path of files(dir)) {
    if (!TEXT.some((ext) => path.endsWith(ext))) continue;
    const raw = readFileSync(path);
    const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
    if (gz.length >= raw.length) continue;
    if (!gunzipSync(gz).equals(raw)) throw new Error(`gzip of ${path} does not round-trip`);
    writeFileSync(`${path}.gz`, gz);
    written.push(`${path}.gz`);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node tools/precompress.mjs DIR');
    process.exit(2);
  }
  for (const path of precompress(dir)) console.log(path);
}
