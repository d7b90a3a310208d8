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
import { type Model, type Step, store, then, step } from './model.js';
import { type DeckStyle, deckStyle } from './cards.js';

type Stored = Readonly<Record<string, string>>;

export const ONE_CLICK_KEY = 'scopa.oneclick';

/** A card with one legal move plays on the first click (expert), instead
 * of being picked first and played on a second click or Enter. */
export const oneClick = (s: Stored | undefined): boolean => s?.[ONE_CLICK_KEY] === '1';

export const MUTE_KEY = 'scopa.mute';

/** Sound off (it is on by default, heard only after a gesture). */
export const muted = (s: Stored | undefined): boolean => s?.[MUTE_KEY] === '1';

export function toggleMute(m: Model): Step {
  return store(m, MUTE_KEY, muted(m.stored) ? '0' : '1');
}

export const DECK_KEY = 'scopa.deck';

/** The style the cards are drawn in. */
export const deckOf = (s: Stored | undefined): DeckStyle => deckStyle(s?.[DECK_KEY]);

/** Another style chosen: remembered, and loaded (effects.ts). */
export function setDeck(m: Model, value: string): Step {
  const style = deckStyle(value);
  return then(store(m, DECK_KEY, style), (x) => step(x, { kind: 'deck', style }));
}

export function toggleOneClick(m: Model): Step {
  return store(m, ONE_CLICK_KEY, oneClick(m.stored) ? '0' : '1');
}
