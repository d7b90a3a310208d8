// tools/screens.mjs -- development helper: screenshots of the harness page
// (saved messages, no server) at desktop and phone sizes: the screens the
// end-to-end tests do not reach (a scopone table, the home page), into
// docs/screenshots/harness-*.png.  Needs `npx vite --port 5199` running.
// node tools/screens.mjs [BASE]
import { chromium } from 'playwright-core';
const base = process.argv[2] ?? 'http://127.0.0.1:5199';
const sizes = { desktop: [1280, 800], phone: [390, 844] };
const shots = [
  ['scopone', 'scopone', null],
  ['home', 'home', null],
];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const [size, [w, h]] of Object.entries(sizes)) {
  for (const [name, view, act] of shots) {
    const page = await browser.newPage({ viewport: { width: w, height: h }, locale: 'en-US' });
    page.on('pageerror', (e) => console.log('pageerror:', e.message));
    await page.goto(`${base}/harness.html?view=${view}&lang=en`);
    await page.waitForTimeout(400);
    if (act) await act(page);
    await page.waitForTimeout(700);
    await page.screenshot({ path: `../docs/screenshots/harness-${name}-${size}.png` });
    await page.close();
  }
}
await browser.close();
