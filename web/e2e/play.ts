/*
 * play.ts -- a move played by clicking, as a person plays it, shared by
 * the end-to-end suites (table.e2e.ts against `scopa serve`, offline.e2e.ts
 * against the page's own engine).  Not a test itself.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** Play one move by clicking the first playable card, then Play when the
 * card is picked rather than played (a card is picked first, even with
 * one move, unless settings.ts oneClick is on; several sets: the choice
 * is shown, and `choosing` runs while it is on screen); waits until the
 * state takes the card out of the hand.  Returns the card. */
export async function playOne(page: Page, choosing?: () => Promise<void>): Promise<string> {
  const card = page.locator('.hand .card.playable').first();
  const c = (await card.getAttribute('data-card'))!;
  await card.click();
  // one move: the card leaves the hand; several: the choice is shown
  await page.waitForFunction(
    (k) =>
      !document.querySelector(`.hand .card[data-card="${k}"]`) ||
      document.querySelector('.choice button.primary'),
    c,
  );
  if (await page.locator(`.hand .card[data-card="${c}"]`).count()) {
    // the card is picked (one move or several): a take's set is highlighted
    // the move in words under the hand ("Take the 7 of coins with your 7
    // of cups")
    const said = (await page.locator('.choice .movetext').textContent()) ?? '';
    if (/^(Take|Prendi) /.test(said))
      assert.ok(
        (await page.locator('.tablecards .card.taken').count()) >= 1,
        'the set shown on the table',
      );
    if (choosing) await choosing();
    await page.locator('.choice button.primary').click();
    await page.locator(`.hand .card[data-card="${c}"]`).waitFor({ state: 'detached' });
  }
  return c;
}

/** What the page offers: the result, a round score, a card to play. */
export async function now(page: Page): Promise<string> {
  return page.evaluate(() => {
    if (document.querySelector('.dialog.result')) return 'result';
    if (document.querySelector('.dialog.roundover')) return 'round';
    if (document.querySelector('.hand .card.playable')) return 'play';
    return 'wait';
  });
}

/** Click through a game on every page until each shows the result;
 * `each` runs before each move with its number. */
export async function playTogether(
  pages: Page[],
  said: (p: Page) => string,
  each?: (n: number) => Promise<void>,
): Promise<void> {
  let moves = 0;
  for (let i = 0; i < 4000; i++) {
    const seen = await Promise.all(pages.map(now));
    if (seen.every((s) => s === 'result')) return;
    let acted = false;
    for (const [k, s] of seen.entries())
      if (s === 'round') {
        const p = pages[k]!;
        const dlg = p.locator('.dialog.roundover');
        const round = await dlg.getAttribute('data-round');
        await p.click('.dialog.roundover [data-action="continue"]');
        await p.locator(`.dialog.roundover[data-round="${round}"]`).waitFor({ state: 'detached' });
        acted = true;
      }
    const k = seen.indexOf('play');
    if (k >= 0) {
      await each?.(moves++);
      try {
        await playOne(pages[k]!);
      } catch (e) {
        // what the server said last to each page, to read the failure by
        for (const p of pages) console.error(said(p));
        throw e;
      }
      acted = true;
    }
    if (!acted) await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error('the game did not end');
}

/** The create-account form filled and sent (the sign-in screen shows). */
export async function signUp(page: Page, name: string, password: string): Promise<void> {
  await page.fill('#f-acct-name', name);
  await page.fill('#f-acct-password', password);
  await page.fill('#f-acct-repeat', password);
  await page.click('form.login button[type="submit"]');
}
