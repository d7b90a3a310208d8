/*
 * decks/francesi.ts -- the French deck as Scopa is played with it in
 * Italy: cuori (hearts) for coppe, quadri (diamonds) for denari, fiori
 * (clubs) for bastoni, picche (spades) for spade; A, 2 to 7, J, Q, K
 * for the ranks 1 to 10 (the points stay those of the Italian ranks); pips
 * in the lower half turned, the court cards double-headed.  Drawn by the
 * project.
 */
import type { Rank, Suit } from '../protocol.js';
import { type Deck, SANS, deckOf, pipScale, use } from './common.js';

const RED = '#c8102e';
const BLACK = '#1a1a1a';

const SYMBOLS: Record<Suit, string> = {
  c: `<path d="M0,9.5 C-4,5 -10,1 -10,-4 C-10,-8.5 -6.5,-10.5 -4,-10.5 C-2,-10.5 -.5,-9 0,-7 C.5,-9 2,-10.5 4,-10.5 C6.5,-10.5 10,-8.5 10,-4 C10,1 4,5 0,9.5 Z" fill="${RED}"/>`,
  d: `<path d="M0,-11 L8,0 L0,11 L-8,0 Z" fill="${RED}"/>`,
  b: `<circle cy="-5.5" r="4.6" fill="${BLACK}"/><circle cx="-5.2" cy="2" r="4.6" fill="${BLACK}"/>
      <circle cx="5.2" cy="2" r="4.6" fill="${BLACK}"/><path d="M-1.2,1 L-2.8,10.5 H2.8 L1.2,1 Z" fill="${BLACK}"/>`,
  s: `<path d="M0,-11 C3,-6 10,-3 10,2.5 C10,6 7,7.5 4.6,7.5 C2.8,7.5 1.4,6.5 .8,5.5 L2.6,10.8 H-2.6 L-.8,5.5 C-1.4,6.5 -2.8,7.5 -4.6,7.5 C-7,7.5 -10,6 -10,2.5 C-10,-3 -3,-6 0,-11 Z" fill="${BLACK}"/>`,
};

const LABEL: Record<number, string> = { 1: 'A', 8: 'J', 9: 'Q', 10: 'K' };
const COLOR = (s: Suit): string => (s === 'c' || s === 'd' ? RED : BLACK);

const DIAMONDS = `<pattern id="scopa-back" width="10" height="10" patternUnits="userSpaceOnUse">
  <rect width="10" height="10" fill="#23395d"/><path d="M5,0 L10,5 L5,10 L0,5 Z" fill="none" stroke="#8fa9d6" stroke-width="1"/></pattern>`;

/** One half of a court card: the head with its headwear, the shoulders,
 * the suit beside; the other half is the same turned about the centre. */
function courtHalf(rank: Rank, s: Suit): string {
  const robe = s === 'c' || s === 'd' ? '#c8102e' : '#23395d';
  const trim = '#e0a526';
  const hat =
    rank === 10
      ? `<path d="M40,44 L40,32 L45,38 L50,29 L55,38 L60,32 L60,44 Z" fill="${trim}"/>`
      : rank === 9
        ? `<path d="M40,44 Q50,30 60,44 Z" fill="${trim}"/><circle cx="50" cy="34" r="2" fill="${robe}"/>`
        : `<path d="M39,44 Q50,34 61,44 Z" fill="${robe}"/><path d="M58,40 q8,-8 12,-2" fill="none" stroke="${trim}" stroke-width="2"/>`;
  return `<g stroke="#1a1a1a" stroke-width=".9">
      <path d="M26,80 Q28,62 50,60 Q72,62 74,80 Z" fill="${robe}"/>
      <path d="M44,61 L56,61 L54,80 H46 Z" fill="${trim}"/>
      <circle cx="50" cy="50" r="9" fill="#f3d3ad"/>${hat}
      ${rank === 10 ? `<path d="M43,53 Q50,64 57,53 Q50,57 43,53 Z" fill="#6b4a2a"/>` : ''}
    </g>${use(s, 29, 46, 0.8)}`;
}

/** Court cards double-headed: a half, and the same turned about the centre. */
function court(r: Rank, s: Suit): string {
  const half = courtHalf(r, s);
  return `<rect x="18" y="26" width="64" height="108" rx="3" fill="#fdf3dc" stroke="${COLOR(s)}" stroke-width="1.2"/>
      ${half}<g transform="rotate(180 50 80)">${half}</g>
      <path d="M18,80 H82" stroke="${COLOR(s)}" stroke-width="1"/>`;
}

export const deck: Deck = deckOf({
  style: 'francesi',
  symbols: SYMBOLS,
  pattern: DIAMONDS,
  paper: '#ffffff',
  edge: '#888888',
  inner: '#dddddd',
  font: SANS,
  color: COLOR,
  label: (r) => LABEL[r] ?? String(r),
  ace: (s) => use(s, 50, 80, 2.8),
  // pips in the lower half turned
  pip: (s, x, y, r) => use(s, x, y, pipScale(r) * 0.95, y > 80 ? 180 : 0),
  court,
  trim: '#e0a526',
  medal: use('s', 50, 80, 1.1),
});
