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
