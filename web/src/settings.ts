/*
 * settings.ts -- the player's own settings that live in localStorage and
 * nowhere else: play on one click (expert), the deck's style, sound muted.
 * Each is read from the model's copy of the scopa.* keys (so another tab's
 * change shows at once) and switched by a verb of verbs.ts through here.
 *
 * What must stay true: the keys are scopa.oneclick ('1' on), scopa.deck
 * (a DeckStyle) and scopa.mute ('1' muted); a missing or unknown value
 * reads as the default (selection first, the Neapolitan deck, sound on).
 */
import { type Model, type Step, store } from './model.js';

type Stored = Readonly<Record<string, string>>;

export const ONE_CLICK_KEY = 'scopa.oneclick';

/** A card with one legal move plays on the first click (expert), instead
 * of being picked first and played on a second click or Enter. */
export const oneClick = (s: Stored | undefined): boolean => s?.[ONE_CLICK_KEY] === '1';

export function toggleOneClick(m: Model): Step {
  return store(m, ONE_CLICK_KEY, oneClick(m.stored) ? '0' : '1');
}
