/*
 * dom.ts -- the one way views make elements (h), the card elements, and
 * the words every view uses for a move or a side.
 *
 * What must stay true: a card face or back is ONE element for the life of
 * the page, kept in `cardEls` by card ("7d") or by place ("back:SEAT:I",
 * "stock", "pile:SIDE"), and moved between containers, never rebuilt, so
 * anim.ts can slide it (FLIP).  faceEl() clears whatever a previous place
 * set on the element, so each view sets only what it means.
 */
import { backSvg, cardSvg } from './cards.js';
import type { Card, Move } from './protocol.js';
import { type Lang, cardName, levelName, t } from './i18n.js';
import { type effective, seatsOfSide } from './rules.js';

type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h(
  tag: string,
  attrs: Attrs = {},
  ...children: (Node | string | null | false | undefined)[]
): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== false && c !== undefined) el.append(c);
  return el;
}

export const cardEls = new Map<string, HTMLElement>();

/** The one element of a card face (created once, reused forever). */
export function faceEl(card: Card, lang: Lang): HTMLElement {
  let el = cardEls.get(card);
  if (!el) {
    el = h('div', { class: 'card', 'data-card': card });
    el.innerHTML = cardSvg(card);
    cardEls.set(card, el);
  }
  el.setAttribute('aria-label', cardName(lang, card));
  el.className = 'card';
  el.removeAttribute('tabindex');
  el.setAttribute('role', 'img'); // a hand card becomes a button below
  el.removeAttribute('data-action');
  el.removeAttribute('aria-pressed');
  el.removeAttribute('aria-disabled');
  el.removeAttribute('title');
  return el;
}

/** Draw every card element again (another deck style was loaded). */
export function redrawCards(): void {
  for (const [key, el] of cardEls)
    el.innerHTML = /^\d+[dcsb]$/.test(key) ? cardSvg(key as Card) : backSvg();
}

export function backEl(key: string): HTMLElement {
  let el = cardEls.get(key);
  if (!el) {
    el = h('div', { class: 'card back', 'aria-hidden': 'true' });
    el.innerHTML = backSvg();
    cardEls.set(key, el);
  }
  return el;
}

const minis = new Map<Card, { svg: string; el: HTMLElement }>();

/** A small card (a round score shows dozens): the drawing parsed once per
 * card and deck, then cloned, which is cheaper than parsing it again. */
export function miniCard(card: Card, lang: Lang): HTMLElement {
  const svg = cardSvg(card);
  let kept = minis.get(card);
  if (!kept || kept.svg !== svg) {
    const el = h('span', { class: 'mini', role: 'img' });
    el.innerHTML = svg;
    kept = { svg, el };
    minis.set(card, kept);
  }
  const el = kept.el.cloneNode(true) as HTMLElement;
  el.setAttribute('aria-label', cardName(lang, card));
  return el;
}

export function describeMove(lang: Lang, m: Move): string {
  if (!m.takes.length) return t(lang, 'lays', { card: cardName(lang, m.card) });
  // "2 of swords and 4 of swords", "1, 2 e 3": one list, not two moves
  const names = m.takes.map((c) => cardName(lang, c));
  const last = names.pop()!;
  const and = lang === 'it' ? ' e ' : ' and ';
  return t(lang, 'takes', {
    card: cardName(lang, m.card),
    cards: names.length ? `${names.join(', ')}${and}${last}` : last,
  });
}

/** A seat's name; a seat nobody has taken yet (its name "") is "Seat N".
 * A name that more than one seat has (five bots of one level, two
 * friends called Anna) is followed by the seat's number, as in "Seat N",
 * so that every seat can be told apart.  A bot's level ("principiante")
 * is said in the page's language ("Beginner"), and so is the server's
 * name for a person who gave none ("Player 2", "Giocatore 2"). */
export function nameOf(names: readonly string[], seat: number, lang: Lang): string {
  const n = names[seat];
  if (!n) return t(lang, 'seatN', { n: seat + 1 });
  // a person who gave no name has the server's "Player N" in the
  // language of whoever seated them: said in this page's
  if (n === `Player ${seat + 1}` || n === `Giocatore ${seat + 1}`)
    return t(lang, 'playerN', { n: seat + 1 });
  const shown = levelName(lang, n);
  return names.some((o, i) => i !== seat && o === n) ? `${shown} ${seat + 1}` : shown;
}

export function sideLabel(
  v: { names: string[]; eff: ReturnType<typeof effective> },
  side: number,
  lang: Lang,
): string {
  const seats = seatsOfSide(v.eff, side);
  if (seats.length === 1) return nameOf(v.names, seats[0]!, lang);
  return t(lang, 'team', { names: seats.map((s) => nameOf(v.names, s, lang)).join(' + ') });
}
