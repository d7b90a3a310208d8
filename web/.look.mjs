import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
const PORT = 18000 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}`;
const srv = spawn('../build/scopa', ['serve', '--port', String(PORT), '--db', `/tmp/webcap/look-${PORT}.db`, '--web', 'dist', '--quiet'], { stdio: 'inherit' });
await new Promise((r) => setTimeout(r, 800));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const out = process.argv[2] ?? '/tmp/webcap/look';
async function game(w, h, locale, name, target = 1) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, locale });
  await ctx.addInitScript(() => localStorage.setItem('scopa.skip', '1'));
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(BASE + '/');
  await page.screenshot({ path: `${out}-${name}-home.png` });
  await page.fill('#f-name', 'Tester');
  const form = page.locator('form[data-form="bot"]');
  await form.locator('select[name="level"]').selectOption('principiante');
  await form.locator('summary').click();
  await form.locator('[data-opt="target"]').fill(String(target));
  await form.locator('[data-opt="target"]').dispatchEvent('change');
  await form.locator('button[type="submit"]').click();
  await page.waitForURL(/\/t\//);
  let moves = 0, shotRound = false;
  for (;;) {
    const what = await (await page.waitForFunction(() => document.querySelector('.dialog.result') ? 'result' : document.querySelector('.dialog.roundover') ? 'round' : document.querySelector('.hand .card.playable') ? 'play' : false)).jsonValue();
    if (what === 'result') break;
    if (what === 'round') { if (!shotRound) { await page.screenshot({ path: `${out}-${name}-round.png` }); shotRound = true; } const k = await page.locator('.dialog.roundover').getAttribute('data-round'); await page.click('[data-action=continue]'); await page.locator(`.dialog.roundover[data-round="${k}"]`).waitFor({ state: 'detached' }); continue; }
    if (moves === 5) await page.screenshot({ path: `${out}-${name}-table.png` });
    const card = page.locator('.hand .card.playable').first();
    const c = await card.getAttribute('data-card');
    await card.click();
    await page.waitForFunction((k) => !document.querySelector(`.hand .card[data-card="${k}"]`) || document.querySelector('.choice button.primary'), c);
    if (await page.locator(`.hand .card[data-card="${c}"]`).count()) { await page.screenshot({ path: `${out}-${name}-choice.png` }); await page.locator('.choice button.primary').click(); await page.locator(`.hand .card[data-card="${c}"]`).waitFor({ state: 'detached' }); }
    moves++;
  }
  await page.screenshot({ path: `${out}-${name}-result.png` });
  await page.click('[data-action=review]');
  await page.locator('.reviewer[data-marks="server"]').waitFor();
  await page.screenshot({ path: `${out}-${name}-review.png` });
  await ctx.close();
}
const which = process.argv[3] ?? 'all';
if (which === 'all' || which === 'land') await game(844, 390, 'it-IT', 'land-it');
if (which === 'all' || which === 'it') await game(1280, 800, 'it-IT', 'desk-it');
if (which === 'all' || which === 'small') await game(360, 640, 'en-US', 'small-en');
await browser.close();
srv.kill();
