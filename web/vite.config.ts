// vite.config.ts -- builds index.html and its modules into dist/, the static
// files `scopa serve` serves.  Paths are absolute ('/assets/...') because the
// same page is served at / and at /t/CODE.  harness.html (the development
// page that replays saved messages) is served by `vite` in development only
// and never built into dist/.  Once dist/ is written, tools/precompress.mjs
// puts a FILE.gz beside each text file, which the server sends to clients
// that take gzip; files in dist/assets/ are named after their content's hash
// ('[name]-[hash].js', vite's default), so the server lets browsers keep
// them for a year (docs/serve.md "Caching and compression").
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './tools/precompress.mjs';

function gzipDist(): Plugin {
  let outDir = 'dist';
  return {
    name: 'scopa-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      precompress(outDir);
    },
  };
}

export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    rollupOptions: { input: 'index.html' },
  },
  plugins: [gzipDist()],
  server: { host: '127.0.0.1' },
});
