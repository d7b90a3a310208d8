/*
 * cards.ts -- the 40 cards and the back, drawn as SVG by the project in the
 * spirit of the Neapolitan deck: denari (gold coins), coppe (cups), spade
 * (blue swords) and bastoni (green clubs); asso to 7 as pips, fante, cavallo
 * and re as figures.  A small rank and suit in two corners keep a card
 * readable when cards overlap and at phone size.
 *
 * What must stay true: a card is drawn from its notation alone; the suit
 * symbols live once in a hidden sprite (installSprite) and every card
 * <use>s them, so a hand of 10 costs 10 small elements, not 10 copies.
 */
import { type Card, type Rank, type Suit, rankOf, suitOf } from './protocol.js';

const W = 100;
const H = 160;

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

/** Pip centres of the number cards (ace is one big symbol). */
const PIPS: Record<number, [number, number][]> = {
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
    [32, 46],
    [68, 46],
    [32, 114],
    [68, 114],
  ],
  5: [
    [32, 42],
    [68, 42],
    [50, 80],
    [32, 118],
    [68, 118],
  ],
  6: [
    [32, 38],
    [68, 38],
    [32, 80],
    [68, 80],
    [32, 122],
    [68, 122],
  ],
  7: [
    [32, 36],
    [68, 36],
    [50, 60],
    [32, 84],
    [68, 84],
    [32, 124],
    [68, 124],
  ],
};

const use = (s: Suit, x: number, y: number, k: number): string =>
  `<use href="#scopa-pip-${s}" transform="translate(${x} ${y}) scale(${k})"/>`;

const LATTICE = `<pattern id="scopa-lattice" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
  <rect width="12" height="12" fill="#8e1f1b"/><path d="M0,6 H12 M6,0 V12" stroke="#c8443a" stroke-width="2"/></pattern>`;

/** The hidden sprite with the four suit symbols; call once per document. */
export function installSprite(doc: Document): void {
  if (doc.getElementById('scopa-sprite')) return;
  const div = doc.createElement('div');
  div.innerHTML = `<svg id="scopa-sprite" width="0" height="0" aria-hidden="true"><defs>${(
    Object.keys(SYMBOLS) as Suit[]
  )
    .map((s) => `<g id="scopa-pip-${s}">${SYMBOLS[s]}</g>`)
    .join('')}${LATTICE}</defs></svg>`;
  const svg = div.firstElementChild;
  if (svg) doc.body.append(svg);
}

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

function corner(rank: Rank, s: Suit): string {
  const color = SUIT_COLOR[s];
  const idx = `<text x="0" y="0" text-anchor="middle" font-family="Georgia,'DejaVu Serif',serif" font-weight="700" font-size="19" fill="${color}">${rank}</text>${use(s, 0, 15, 0.62)}`;
  return `<g transform="translate(12 20)">${idx}</g><g transform="rotate(180 ${W / 2} ${H / 2}) translate(12 20)">${idx}</g>`;
}

/** The face of a card as an SVG element's markup (no size: CSS sizes it). */
export function cardSvg(card: Card): string {
  const r = rankOf(card);
  const s = suitOf(card);
  let body: string;
  if (r === 1) body = use(s, 50, 80, 3.1);
  else if (r <= 7) {
    const k = r <= 3 ? 1.6 : r <= 5 ? 1.45 : r === 6 ? 1.3 : 1.12;
    body = (PIPS[r] ?? []).map(([x, y]) => use(s, x, y, k)).join('');
  } else body = figure(r, s);
  return `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="#fbf6e9" stroke="#7d6a48" stroke-width="1.5"/>
    <rect x="6" y="6" width="${W - 12}" height="${H - 12}" rx="5" fill="none" stroke="#d9c9a3" stroke-width="1"/>
    ${body}${corner(r, s)}</svg>`;
}

/** The back of a card: a red lattice in a cream frame. */
export function backSvg(): string {
  return `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="${W - 2}" height="${H - 2}" rx="8" fill="#fbf6e9" stroke="#7d6a48" stroke-width="1.5"/>
    <rect x="7" y="7" width="${W - 14}" height="${H - 14}" rx="5" fill="url(#scopa-lattice)" stroke="#e3a92b" stroke-width="1.5"/>
    <circle cx="50" cy="80" r="14" fill="#fbf6e9" stroke="#e3a92b" stroke-width="2"/>
    <use href="#scopa-pip-d" transform="translate(50 80) scale(1.2)"/></svg>`;
}
