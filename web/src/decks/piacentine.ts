/*
 * decks/piacentine.ts -- a deck in the spirit of the Piacentine cards of
 * northern Italy: denari as red-and-gold rosettes, coppe as lidless blue
 * and gold goblets, spade as curved sabres, bastoni as knotted red
 * clubs; fante, cavallo and re as busts in an arched window, the suit held
 * beside them; bold corner numbers; the back blue stripes.  Drawn by the
 * project (no copy of a printed deck).
 */
import type { Rank, Suit } from '../protocol.js';
import { type Deck, SANS, deckOf, use } from './common.js';

const SYMBOLS: Record<Suit, string> = {
  d: `<circle r="9.8" fill="#f0b429" stroke="#6b3d00" stroke-width="1.1"/>
      <path d="M0,-8 L2,-2 L8,0 L2,2 L0,8 L-2,2 L-8,0 L-2,-2 Z" fill="#c0392b"/>
      <path d="M-5.6,-5.6 L0,-1.5 L5.6,-5.6 L1.5,0 L5.6,5.6 L0,1.5 L-5.6,5.6 L-1.5,0 Z" fill="#c0392b" opacity=".75"/>
      <circle r="2.2" fill="#f7e08a" stroke="#6b3d00" stroke-width=".5"/>`,
  c: `<path d="M-8.5,-9 H8.5 Q8.5,0 1.4,2.2 V5.5 L5.5,8.2 V9.6 H-5.5 V8.2 L-1.4,5.5 V2.2 Q-8.5,0 -8.5,-9 Z"
        fill="#2f5fa8" stroke="#142c55" stroke-width="1"/>
      <path d="M-8.3,-6.6 H8.3" stroke="#f0b429" stroke-width="2"/>
      <path d="M-3,-3 Q0,0 3,-3" fill="none" stroke="#f0b429" stroke-width="1"/>`,
  s: `<path d="M-1.5,5 Q-6,-3 -1,-11.5 Q1,-4 2.4,5 Z" fill="#9cb7d8" stroke="#1d3557" stroke-width=".9"/>
      <path d="M-5.5,5 H6 L5,7 H-4.5 Z" fill="#c0392b" stroke="#5a1410" stroke-width=".6"/>
      <rect x="-1" y="7" width="2.4" height="3.4" fill="#6b3d00"/>
      <circle cx=".2" cy="11" r="1.3" fill="#f0b429"/>`,
  b: `<path d="M-1.8,10.5 L-2.6,-8 Q0,-11.8 2.6,-8 L1.8,10.5 Z" fill="#b5472f" stroke="#4a1a0e" stroke-width="1"/>
      <path d="M-2.6,-5 l-2.6,-1.6 M2.5,-1 l2.6,-1.4 M-2.3,3 l-2.4,-1" stroke="#4a1a0e" stroke-width="1.3"/>
      <path d="M-2.4,-6.2 H2.4 M-2.2,6.8 H2.2" stroke="#f0b429" stroke-width="1.4"/>`,
};

const SUIT_COLOR: Record<Suit, string> = { d: '#b0281a', c: '#1d4f91', s: '#1d3557', b: '#7a2a12' };
const CLOTH: Record<Suit, [string, string]> = {
  d: ['#c0392b', '#f0b429'],
  c: ['#2f5fa8', '#c0392b'],
  s: ['#3c7a3c', '#2f5fa8'],
  b: ['#f0b429', '#3c7a3c'],
};

const STRIPES = `<pattern id="scopa-back" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(-35)">
  <rect width="10" height="10" fill="#1d4f91"/><path d="M0,2.5 H10" stroke="#e8eef7" stroke-width="2.4"/></pattern>`;

/** Fante, cavallo, re: a bust in an arched window, the suit beside. */
function bust(rank: Rank, s: Suit): string {
  const [tunic, trim] = CLOTH[s];
  const ink = 'stroke="#2b1d0e" stroke-width="1"';
  const skin = '#f3d3ad';
  const hat =
    rank === 8
      ? `<path d="M37,68 Q50,52 63,68 Z" fill="${trim}"/><path d="M61,62 q10,-12 14,-3" fill="none" stroke="#c0392b" stroke-width="2.2"/>`
      : rank === 9
        ? `<path d="M38,70 Q38,54 50,53 Q62,54 62,70 Z" fill="#a9b4c2"/><path d="M50,53 q2,-10 10,-12" fill="none" stroke="${trim}" stroke-width="3"/>`
        : `<path d="M37,68 L37,53 L43,60 L50,49 L57,60 L63,53 L63,68 Z" fill="#f0b429"/><circle cx="50" cy="57" r="1.6" fill="#c0392b"/>`;
  const horse =
    rank === 9
      ? `<path d="M18,120 L20,98 Q24,84 34,86 L36,96 L28,100 L30,120 Z" fill="#efe6d2"/><path d="M22,92 q4,-8 10,-6" fill="none" stroke="#6b3d00" stroke-width="2.5"/>`
      : '';
  const beard = rank === 10 ? `<path d="M41,78 Q50,96 59,78 Q50,84 41,78 Z" fill="#7a4a1e"/>` : '';
  return `<path d="M16,142 V62 Q50,26 84,62 V142 Z" fill="#f6ead0" stroke="#8a6a3a" stroke-width="1.2"/>
    <g ${ink}>${horse}
      <path d="M24,142 Q26,100 50,96 Q74,100 76,142 Z" fill="${tunic}"/>
      <path d="M42,98 L58,98 L55,142 H45 Z" fill="${trim}"/>
      <circle cx="50" cy="76" r="11" fill="${skin}"/>${beard}${hat}
    </g>${use(s, 66, 114, 1.2)}`;
}

export const deck: Deck = deckOf({
  style: 'piacentine',
  symbols: SYMBOLS,
  pattern: STRIPES,
  paper: '#fffaf0',
  edge: '#5c4a2e',
  inner: '#c9a96b',
  font: SANS,
  color: (s) => SUIT_COLOR[s],
  ace: (s) =>
    `<circle cx="50" cy="80" r="34" fill="none" stroke="#d9bf8a" stroke-width="1.2"/>${use(s, 50, 80, 2.9)}`,
  court: bust,
  trim: '#f0b429',
  medal: use('c', 50, 80, 1.1),
});
