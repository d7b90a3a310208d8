/*
 * decks/napoletane.ts -- the Neapolitan deck (carte napoletane), the
 * project's first: denari (gold coins), coppe (cups), spade (blue swords)
 * and bastoni (green clubs); asso to 7 as pips, fante, cavallo and re as
 * full-length figures; the back a red lattice.  Drawn by the project.
 */
import type { Rank, Suit } from '../protocol.js';
import { type Deck, SERIF, deckOf, use } from './common.js';

/** Suit symbols, each centred on 0,0 and about 20 units tall. */
const SYMBOLS: Record<Suit, string> = {
  d: `<circle r="9.5" fill="#e3a92b" stroke="#7a4a00" stroke-width="1.1"/>
      <circle r="6.8" fill="none" stroke="#b8322a" stroke-width="1.6"/>
      <circle r="3.6" fill="#2f7d4a" stroke="#7a4a00" stroke-width=".6"/>
      <circle r="1.3" fill="#f7d774"/>`,
  c: `<path d="M-7.5,-9.5 H7.5 Q8,-1.5 1.6,1.2 V4.8 H5.2 L6,8.8 H-6 L-5.2,4.8 H-1.6 V1.2 Q-8,-1.5 -7.5,-9.5 Z"
        fill="#e3a92b" stroke="#7a4a00" stroke-width="1"/>
      <path d="M-7.3,-6.5 H7.3" stroke="#b8322a" stroke-width="1.8"/>
      <circle cy="-2.5" r="1.4" fill="#b8322a"/>`,
  s: `<path d="M0,-11 L2.3,-7.5 L2.1,4.6 L-2.1,4.6 L-2.3,-7.5 Z" fill="#7fa6d6" stroke="#1f3f73" stroke-width=".9"/>
      <path d="M0,-9 V3.6" stroke="#dfeaf7" stroke-width=".7"/>
      <rect x="-5.6" y="4.4" width="11.2" height="2.2" rx="1" fill="#e3a92b" stroke="#7a4a00" stroke-width=".6"/>
      <rect x="-1.2" y="6.6" width="2.4" height="3.2" fill="#b8322a"/>
      <circle cy="10.4" r="1.4" fill="#e3a92b" stroke="#7a4a00" stroke-width=".5"/>`,
  b: `<path d="M-1.6,10.5 Q-2.2,1 -3.6,-6.5 Q-3.4,-11.2 0,-11.2 Q3.4,-11.2 3.6,-6.5 Q2.2,1 1.6,10.5 Z"
        fill="#6f9a3c" stroke="#33531a" stroke-width="1"/>
      <circle cx="-2.2" cy="-4" r="1.1" fill="#b8322a"/><circle cx="2" cy="-1" r="1" fill="#b8322a"/>
      <circle cx="-1" cy="3.5" r=".9" fill="#b8322a"/><path d="M-1.4,8.6 H1.4" stroke="#e3a92b" stroke-width="1.4"/>`,
};

const SUIT_COLOR: Record<Suit, string> = { d: '#a8321f', c: '#a8321f', s: '#1f3f73', b: '#2e5a1a' };
/** Tunic and cape colours of the figures, by suit. */
const CLOTH: Record<Suit, [string, string]> = {
  d: ['#b8322a', '#2e6fb0'],
  c: ['#2e6fb0', '#e3a92b'],
  s: ['#2f7d4a', '#b8322a'],
  b: ['#e3a92b', '#2f7d4a'],
};

const LATTICE = `<pattern id="scopa-back" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="12" height="12" fill="#8e1f1b"/><path d="M0,6 H12 M6,0 V12" stroke="#c8443a" stroke-width="2"/></pattern>`;

function figure(rank: Rank, s: Suit): string {
  const [tunic, cape] = CLOTH[s];
  const skin = '#f2d2a9';
  const ink = 'stroke="#3b2a14" stroke-width="1"';
  if (rank === 8) {
    // fante: a page standing, feathered cap, the suit held aside
    return `<g ${ink}>
      <path d="M42,112 h6 v26 h-7 z M52,112 h6 l1,26 h-7 z" fill="#5a3b1e"/>
      <path d="M39,56 Q50,50 61,56 L68,114 H32 Z" fill="${tunic}"/>
      <path d="M39,56 Q50,62 61,56" fill="none"/>
      <path d="M44,60 L56,60 L53,108 H47 Z" fill="${cape}"/>
      <circle cx="50" cy="44" r="9" fill="${skin}"/>
      <path d="M40,40 Q50,28 60,40 Z" fill="${cape}"/><path d="M58,36 q8,-10 12,-4" fill="none" stroke="#b8322a" stroke-width="2"/>
      <path d="M61,60 Q70,70 68,82" fill="none" stroke="${tunic}" stroke-width="5"/>
    </g>${use(s, 70, 86, 1.35)}`;
  }
  if (rank === 9) {
    // cavallo: a rider on a white horse, the suit raised
    return `<g ${ink}>
      <path d="M30,112 l-3,26 h5 l4,-24 M40,114 l-1,24 h5 l2,-24 M60,114 l2,24 h5 l-1,-24 M70,110 l4,28 h5 l-3,-28" fill="#efe6d2"/>
      <ellipse cx="52" cy="106" rx="25" ry="13" fill="#efe6d2"/>
      <path d="M24,102 q-9,6 -6,22 q6,-8 8,-14" fill="#8b5a2b"/>
      <path d="M70,100 L76,78 L88,76 L90,84 L80,88 L76,104 Z" fill="#efe6d2"/>
      <path d="M74,80 q4,-8 10,-6" fill="none" stroke="#8b5a2b" stroke-width="3"/>
      <path d="M40,98 h24 l-3,8 h-18 z" fill="${cape}"/>
      <path d="M45,96 Q52,72 58,96 Z" fill="${tunic}"/>
      <path d="M47,98 l-3,20 h5 l3,-18" fill="${tunic}"/>
      <circle cx="52" cy="66" r="7" fill="${skin}"/>
      <path d="M44,63 Q52,52 60,63 Z" fill="${cape}"/>
      <path d="M47,78 Q38,70 34,58" fill="none" stroke="${tunic}" stroke-width="4.5"/>
    </g>${use(s, 31, 48, 1.15)}`;
  }
  // re: a king with crown, beard and ermine, the suit before him
  return `<g ${ink}>
    <path d="M36,58 Q50,50 64,58 L76,140 H24 Z" fill="${cape}"/>
    <path d="M42,60 L58,60 L62,140 H38 Z" fill="${tunic}"/>
    <path d="M36,58 Q50,66 64,58 L63,64 Q50,72 37,64 Z" fill="#fbf6e9"/>
    <circle cx="44" cy="64" r=".9" fill="#222"/><circle cx="50" cy="67" r=".9" fill="#222"/><circle cx="56" cy="64" r=".9" fill="#222"/>
    <circle cx="50" cy="42" r="9.5" fill="${skin}"/>
    <path d="M41.5,45 Q50,62 58.5,45 Q50,51 41.5,45 Z" fill="#8b5a2b"/>
    <path d="M40,36 L40,24 L45,30 L50,21 L55,30 L60,24 L60,36 Z" fill="#e3a92b"/>
    <circle cx="50" cy="27" r="1.4" fill="#b8322a"/>
    <path d="M68,70 L72,130" stroke="#7a4a00" stroke-width="2.2"/><circle cx="67.6" cy="68" r="3" fill="#e3a92b"/>
  </g>${use(s, 50, 96, 1.4)}`;
}

export const deck: Deck = deckOf({
  style: 'napoletane',
  symbols: SYMBOLS,
  pattern: LATTICE,
  paper: '#fbf6e9',
  edge: '#7d6a48',
  inner: '#d9c9a3',
  font: SERIF,
  color: (s) => SUIT_COLOR[s],
  ace: (s) => use(s, 50, 80, 3.1),
  court: figure,
  trim: '#e3a92b',
  medal: use('d', 50, 80, 1.2),
});
