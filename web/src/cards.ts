/*
 * cards.ts -- the cards as the page draws them: the deck style in use (one
 * of DECKS, each drawn as SVG by the project in decks/*.ts and loaded only
 * when chosen, so the first load carries one style, not three), its
 * sprite in the document, and the markup of a face and of the back.
 *
 * What must stay true: a card is drawn from its notation alone; the suit
 * symbols live once in a hidden sprite (installSprite) and every card
 * <use>s them, so a hand of 10 costs 10 small elements, not 10 copies.
 * Until a deck is loaded a card is a blank (the first table waits for
 * it: main.ts loads the chosen style before anything is drawn).
 */
import type { Card } from './protocol.js';
import type { Deck } from './decks/common.js';

export type DeckStyle = 'napoletane' | 'piacentine' | 'francesi';
export const DECKS: readonly DeckStyle[] = ['napoletane', 'piacentine', 'francesi'];

/** A stored value as a style (the Neapolitan deck when unknown). */
export const deckStyle = (v: string | undefined): DeckStyle =>
  DECKS.includes(v as DeckStyle) ? (v as DeckStyle) : 'napoletane';

// each style its own chunk (Vite splits a dynamic import)
const LOADERS: Record<DeckStyle, () => Promise<{ deck: Deck }>> = {
  napoletane: () => import('./decks/napoletane.js'),
  piacentine: () => import('./decks/piacentine.js'),
  francesi: () => import('./decks/francesi.js'),
};

let current: Deck | null = null;

/** Load a style (once per style) and put its sprite in the document. */
export async function loadDeck(style: DeckStyle, doc: Document): Promise<void> {
  const { deck } = await LOADERS[style]();
  current = deck;
  installSprite(doc);
}

/** The style drawn now (null before the first load). */
export const deckInUse = (): string | null => current?.style ?? null;

/** The hidden sprite with the style's suit symbols and back pattern. */
export function installSprite(doc: Document): void {
  doc.getElementById('scopa-sprite')?.remove();
  if (!current) return;
  const div = doc.createElement('div');
  div.innerHTML = `<svg id="scopa-sprite" width="0" height="0" aria-hidden="true"><defs>${current.sprite}</defs></svg>`;
  const svg = div.firstElementChild;
  if (svg) doc.body.append(svg);
}

const BLANK = `<svg viewBox="0 0 100 160" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false"><rect x="1" y="1" width="98" height="158" rx="8" fill="#fbf6e9" stroke="#7d6a48" stroke-width="1.5"/></svg>`;

/** The face of a card as an SVG element's markup (no size: CSS sizes it),
 * marked with the style that drew it (data-deck). */
export function cardSvg(card: Card): string {
  return current ? mark(current.face(card), current.style) : BLANK;
}

/** The back of a card in the style in use. */
export function backSvg(): string {
  return current ? mark(current.back(), current.style) : BLANK;
}

const mark = (svg: string, style: string): string =>
  svg.replace('<svg ', `<svg data-deck="${style}" `);
