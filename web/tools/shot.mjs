// tools/shot.mjs -- development helper: screenshot a URL in Debian's chromium.
// node tools/shot.mjs URL OUT.png [WIDTH HEIGHT]
import { chromium } from 'playwright-core';
const [url, out, w = '1280', h = '800'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
page.on('console', (m) => console.log('console:', m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(url);
await page.waitForTimeout(600);
await page.screenshot({ path: out });
await browser.close();
