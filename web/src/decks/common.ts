/*
 * decks/common.ts -- what every deck style draws alike: the card's size,
 * the frame, the pip layouts of 2 to 7, the corner index and the sprite
 * that holds a style's four suit symbols and its back pattern.  Each deck
 * (napoletane.ts, piacentine.ts, francesi.ts) is its own chunk, loaded
 * only when chosen (cards.ts loadDeck), and only says what sets it apart
 * (a Style); deckOf here draws every face and back from it.
 *
 * What must stay true: the corner index fits inside the card at any rank
 * ("10" is squeezed to the width of one wide digit, never past the edge),
 * and is large enough to read at a phone's hand size (about 60 px wide).
 */
import { type Card, type Rank, type Suit, rankOf, suitOf } from '../protocol.js';

export const W = 100;
export const H = 160;

/** A style of cards: its sprite (the symbols and the back's pattern, in
 * <defs>) and the markup of a face and of the back. */
export interface Deck {
  style: string;
  sprite: string;
  face(card: Card): string;
  back(): string;
}

/** Suit `s`'s symbol of the sprite, centred on x,y, scaled by k (rotated
 * by `turn` degrees: the French deck turns its lower pips). */
export const use = (s: Suit, x: number, y: number, k: number, turn = 0): string =>
  `<use href="#scopa-pip-${s}" transform="translate(${x} ${y}) scale(${k})${turn ? ` rotate(${turn})` : ''}"/>`;

/** The sprite's <defs>: the four symbols (each about 20 units tall,
 * centred on 0,0) and the back's pattern with id scopa-back. */
export function spriteDefs(symbols: Record<Suit, string>, pattern: string): string {
  const pips = (Object.keys(symbols) as Suit[])
    .map((s) => `<g id="scopa-pip-${s}">${symbols[s]}</g>`)
    .join('');
  return `${pips}${pattern}`;
}

/** Pip centres of the number cards 2 to 7 (the ace is one big symbol). */
export const PIPS: Record<number, [number, number][]> = {
  2: [
    [50, 50],
    [50, 110],
  ],
  3: [
    [50, 38],
    [50, 80],
    [50, 122],
  ],
  4: [
    [35, 46],
    [65, 46],
    [35, 114],
    [65, 114],
  ],
  5: [
    [35, 42],
    [65, 42],
    [50, 80],
    [35, 118],
    [65, 118],
  ],
  6: [
    [35, 38],
    [65, 38],
    [35, 80],
    [65, 80],
    [35, 122],
    [65, 122],
  ],
  7: [
    [35, 36],
    [65, 36],
    [50, 60],
    [35, 84],
    [65, 84],
    [35, 124],
    [65, 124],
  ],
};

/** The scale of a pip on a number card, by rank. */
export const pipScale = (r: Rank): number => (r <= 3 ? 1.6 : r <= 5 ? 1.35 : r === 6 ? 1.25 : 1.1);

/** The outline and the inner border of a card. */
export function frame(paper: string, edge: string, inner: string, body: string): string {
  return `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="${paper}" stroke="${edge}" stroke-width="1.5"/>
    <rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="5" fill="none" stroke="${inner}" stroke-width="1"/>
    ${body}</svg>`;
}

/** The index in two opposite corners: the label (a number or a letter)
 * and the suit under it.  Two characters are squeezed to 17 units, so
 * "10" stays inside the card (it spilled over the edge before: 19 units
 * wide from the centre 12, past x = 1). */
export function corner(label: string, color: string, s: Suit, font: string): string {
  const fit = label.length > 1 ? ` textLength="17" lengthAdjust="spacingAndGlyphs"` : '';
  const idx = `<text x="0" y="0" text-anchor="middle" font-family="${font}" font-weight="700" font-size="22"${fit} fill="${color}">${label}</text>${use(s, 0, 15, 0.8)}`;
  return `<g transform="translate(12.5 21)">${idx}</g><g transform="rotate(180 ${W / 2} ${H / 2}) translate(12.5 21)">${idx}</g>`;
}

export const SERIF = `Georgia,'DejaVu Serif',serif`;
export const SANS = `'DejaVu Sans',Arial,sans-serif`;

/** A back: a frame around the style's pattern and a medallion. */
export function backOf(paper: string, edge: string, trim: string, medal: string): string {
  return `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="${paper}" stroke="${edge}" stroke-width="1.5"/>
    <rect x="7" y="7" width="${W - 14}" height="${H - 14}" rx="5" fill="url(#scopa-back)" stroke="${trim}" stroke-width="1.5"/>
    <circle cx="50" cy="80" r="14" fill="${paper}" stroke="${trim}" stroke-width="2"/>${medal}</svg>`;
}

/** What sets a style apart; deckOf draws the rest alike. */
export interface Style {
  style: string;
  symbols: Record<Suit, string>; // the four suit symbols of the sprite
  pattern: string; // the back's pattern (id scopa-back)
  paper: string; // the card's paper, edge and inner border (face and back)
  edge: string;
  inner: string;
  font: string; // the corner index's font
  color: (s: Suit) => string; // the corner index's colour
  label?: (r: Rank) => string; // the corner's label (the rank by default)
  ace: (s: Suit) => string; // the ace's body
  pip?: (s: Suit, x: number, y: number, r: Rank) => string; // a pip of 2 to 7 (upright by default)
  court: (r: Rank, s: Suit) => string; // fante, cavallo and re
  trim: string; // the back's border
  medal: string; // the back's medallion
}

/** A deck from its style: the ace, the pips of 2 to 7 or the court card,
 * with the corner index, in the frame; the back with its medallion. */
export function deckOf(st: Style): Deck {
  const pip = st.pip ?? ((s: Suit, x: number, y: number, r: Rank) => use(s, x, y, pipScale(r)));
  const face = (card: Card): string => {
    const r = rankOf(card);
    const s = suitOf(card);
    const body =
      r === 1
        ? st.ace(s)
        : r <= 7
          ? (PIPS[r] ?? []).map(([x, y]) => pip(s, x, y, r)).join('')
          : st.court(r, s);
    const label = st.label ? st.label(r) : String(r);
    return frame(st.paper, st.edge, st.inner, body + corner(label, st.color(s), s, st.font));
  };
  return {
    style: st.style,
    sprite: spriteDefs(st.symbols, st.pattern),
    face,
    back: () => backOf(st.paper, st.edge, st.trim, st.medal),
  };
}
