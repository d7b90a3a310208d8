/*
 * seats.ts -- the other seats around the table (their names, the dealer,
 * presence and the away countdown, their cards as backs) and the sides'
 * piles, each scopa a card turned across (seed 004); a pile is a button
 * that opens what pileview.ts shows of it.
 *
 * What must stay true: another seat's cards are only ever backs; their
 * number comes from the server's public count (drawn.hands), never from a
 * card.
 */
import { type Lang, t } from './i18n.js';
import { fillReaction } from './faces.js';
import { seatsOfSide, sideOf } from './rules.js';
import type { AppState, TableView } from './tableview.js';
import { backEl, h, miniCard, nameOf, sideLabel } from './dom.js';
import { viewerSide } from './moveswords.js';
import { bankBadge, clockLeft } from './center.js';

export function seatName(v: TableView, seat: number, lang: Lang): string {
  const n = nameOf(v.names, seat, lang);
  return seat === v.viewer ? `${n} (${t(lang, 'you')})` : n;
}

function presenceText(app: AppState, v: TableView, seat: number): string {
  const p = v.presence[seat];
  const lang = app.lang;
  if (app.msg?.open?.[seat] === true || v.names[seat] === '') return t(lang, 'openSeat');
  if (p === 'away') {
    // counted from when the state arrived
    const since = Math.floor((Date.now() - app.msgAt) / 1000);
    const left = app.msg?.away_seconds?.[seat];
    if (typeof left === 'number') return t(lang, 'awayFor', { s: Math.max(0, left - since) });
    const gone = app.msg?.away_for?.[seat];
    if (typeof gone === 'number') return t(lang, 'awaySince', { s: gone + since });
    return t(lang, 'away');
  }
  if (p === 'bot') return t(lang, 'bot');
  return '';
}

/** Where each side's pile is drawn: at the viewer's seat for the viewer's
 * side, else at the side's first seat. */
export function pileSeat(v: TableView, side: number): number {
  const seats = seatsOfSide(v.eff, side);
  if (v.viewer !== null && seats.includes(v.viewer)) return v.viewer;
  return seats[0] ?? 0;
}

export function pileEl(app: AppState, v: TableView, side: number): HTMLElement {
  const lang = app.lang;
  const pile = v.drawn?.piles[side] ?? [];
  const scope = v.drawn?.scope[side] ?? [];
  // a button: a tap shows the captures (pileview.ts): all of the
  // viewer's side's, another side's last one alone
  const look = t(lang, viewerSide(v) === side ? 'pileLookMine' : 'pileLookLast');
  const el = h('div', {
    class: 'pile',
    role: 'button',
    tabindex: 0,
    'data-action': 'pile',
    'data-side': side,
    title: look,
    'aria-label': `${sideLabel(v, side, lang)}: ${t(lang, 'pile', { n: pile.length })}, ${t(lang, 'scopaCount', { n: scope.length })}: ${look}`,
  });
  const stack = h('div', { class: 'stack' });
  if (pile.length) stack.append(backEl(`pile:${side}`));
  // each scopa: its card turned across, face up (seed 004)
  scope.forEach((c, i) => {
    const m = miniCard(c, lang);
    m.classList.add('across');
    m.style.setProperty('--i', String(i));
    stack.append(m);
  });
  el.append(stack, h('span', { class: 'count', text: t(lang, 'pile', { n: pile.length }) }));
  return el;
}

/** The reaction a seat sent, shown by its name for a few seconds. */
export function reactionEl(app: AppState, seat: number): HTMLElement | null {
  const r = app.reactions[seat];
  if (!r) return null;
  if (r.text)
    // a line of table talk, a moment by its seat
    return h('span', { class: 'reaction said', role: 'status', text: r.text });
  return fillReaction(
    h('span', { class: 'reaction', role: 'status', 'data-reaction': r.id }),
    app.lang,
    r.id,
  );
}

export function renderSeat(app: AppState, v: TableView, seat: number, box: HTMLElement): void {
  const lang = app.lang;
  const n = v.counts[seat] ?? 0;
  const turn = v.toPlay === seat && v.status === 'playing';
  box.className = `seat slot-${v.slots[seat]}${turn ? ' turn' : ''} p-${v.presence[seat] ?? 'here'}`;
  box.setAttribute(
    'aria-label',
    `${seatName(v, seat, lang)}: ${t(lang, 'handOf', { name: seatName(v, seat, lang), n })}`,
  );
  const backs = h('div', { class: 'backs', 'aria-hidden': 'true' });
  for (let i = 0; i < n; i++) backs.append(backEl(`back:${seat}:${i}`));
  const dealer = v.round?.dealer === seat;
  const bank = bankBadge(app, v, seat);
  const left = turn && !bank ? clockLeft(app) : null;
  const info = h(
    'div',
    { class: 'seatinfo' },
    // the whole name in a title: a narrow column may end it in an ellipsis
    h('span', { class: 'name', text: seatName(v, seat, lang), title: seatName(v, seat, lang) }),
    dealer ? h('span', { class: 'badge dealer', title: t(lang, 'dealer'), text: 'D' }) : null,
    bank,
    left !== null
      ? h('span', {
          class: `badge clock${left <= 10 ? ' low' : ''}`,
          title: t(lang, 'clockLeft', { s: left }),
          text: `${left}s`,
        })
      : null,
    reactionEl(app, seat),
    presenceText(app, v, seat)
      ? h('span', {
          class: `badge pres`,
          title: presenceText(app, v, seat),
          text: presenceText(app, v, seat),
        })
      : null,
  );
  const side = sideOf(v.eff, seat);
  box.replaceChildren(info, backs, pileSeat(v, side) === seat ? pileEl(app, v, side) : h('span'));
}
