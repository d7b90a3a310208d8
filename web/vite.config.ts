// vite.config.ts -- builds index.html and its modules into dist/, the static
// files `scopa serve` serves.  Paths are absolute ('/assets/...') because the
// same page is served at / and at /t/CODE.  harness.html (the development
// page that replays saved messages) is served by `vite` in development only
// and never built into dist/.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    rollupOptions: { input: 'index.html' },
  },
  server: { host: '127.0.0.1' },
});
