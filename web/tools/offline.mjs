// tools/offline.mjs -- the installable, offline app's files in web/dist
// (docs/web.md "Offline"), after the vite build, the WebAssembly build and
// `tsc -p tsconfig.sw.json` (which compiles sw/sw.ts to dist/sw.js):
//
//   - the icons: public/icon.svg (drawn for the project, copied by vite)
//     rendered to icon-192.png and icon-512.png by rsvg-convert (Debian's
//     librsvg2-bin, scripts/bootstrap);
//   - the service worker's precache list and version written into
//     dist/sw.js: every file of dist but the .gz copies, source maps,
//     sw.js itself and the PNG icons; the version is the SHA-256 of
//     their paths and bytes;
//   - 404.html, a copy of the shell, for static hosts that answer unknown
//     paths with it (GitHub Pages; not python's http.server);
//   - the .gz copies of the new text files (precompress.mjs);
//   - sizes: what a first visit stores for offline play, raw and gzipped,
//     printed (and with --json, as JSON on stdout).
//
// Usage: node tools/offline.mjs [DIST] [--json]
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { precompress } from './precompress.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? join(here, '..', 'dist'));
const json = args.includes('--json');

function fail(msg) {
  console.error(`tools/offline.mjs: ${msg}`);
  process.exit(1);
}

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const sw = join(dist, 'sw.js');
if (!existsSync(sw)) fail(`${sw} is missing: run tsc -p tsconfig.sw.json first`);
if (!existsSync(join(dist, 'icon.svg'))) fail('dist/icon.svg is missing: run the vite build');

for (const size of [192, 512]) {
  const out = join(dist, `icon-${size}.png`);
  try {
    execFileSync('rsvg-convert', ['-w', String(size), '-h', String(size), '-o', out, 'icon.svg'], {
      cwd: dist,
    });
  } catch (e) {
    fail(`rsvg-convert (librsvg2-bin, scripts/bootstrap) failed: ${e.message}`);
  }
}

// 404.html: the shell again, for static hosts that answer an unknown path
// (/t/LOCAL before the service worker runs) with it, as GitHub Pages does
copyFileSync(join(dist, 'index.html'), join(dist, '404.html'));
// the PNG icons (40 KB) are the manifest's: the browser fetches them when
// it installs the app, the page never does
const skip = (p) =>
  p.endsWith('.gz') ||
  p.endsWith('.map') ||
  p === 'sw.js' ||
  p === '404.html' ||
  /^icon-\d+\.png$/.test(p);
const listed = [...files(dist)].map((p) => relative(dist, p)).filter((p) => !skip(p));
const hash = createHash('sha256');
let raw = 0;
let gz = 0;
const sizes = {};
for (const p of listed) {
  const bytes = readFileSync(join(dist, p));
  hash.update(p).update('\0').update(bytes);
  const z = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;
  raw += bytes.length;
  gz += Math.min(z, bytes.length); // the server sends a .gz only when smaller
  sizes[p] = { bytes: bytes.length, gzip: z };
}
const version = hash.digest('hex').slice(0, 16);
const source = readFileSync(sw, 'utf8');
if (!source.includes("'__PRECACHE__'") && !source.includes('"__PRECACHE__"'))
  fail('dist/sw.js has no __PRECACHE__ to fill: was it built from sw/sw.ts?');
const urls = listed.map((p) => `/${p.split('\\').join('/')}`);
writeFileSync(
  sw,
  source
    .replace(/\[\s*['"]__PRECACHE__['"]\s*\]/, JSON.stringify(urls))
    .replace(/['"]__VERSION__['"]/, JSON.stringify(version)),
);
precompress(dist);

const summary = { version, files: listed.length, bytes: raw, gzip: gz, sizes };
if (json) console.log(JSON.stringify(summary));
else
  console.log(
    `web/dist offline: ${listed.length} files precached, ${raw} bytes, ${gz} gzipped (sw ${version})`,
  );
