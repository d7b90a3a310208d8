/*
 * pileview.ts -- the small panel a tap on a pile opens (the viewer's own
 * side: every card it captured this round, its scope marked; another
 * side: its last capture alone), the round's moves in words (in the
 * sidebar on a wide screen; the "Moves" button's drawer on a phone).
 * What each shows is moveswords.ts's; this file only draws it.
 *
 * What must stay true: the panel is a dialog over the table in the
 * overlay's style, closed by Escape (input.ts), its close button and a
 * tap outside it; while it is open the keys play no card (input.ts
 * onTable); the focus goes to its close button when it opens and back
 * to what opened it when it closes.  The moves list scrolls inside its
 * box with the newest move at the bottom in view, without reading the
 * layout (a column-reverse scroller starts at its end).
 */
import type { Card } from './protocol.js';
import { type Lang, t } from './i18n.js';
import { seatsOfSide } from './rules.js';
import type { AppState, TableView } from './tableview.js';
import { h, miniCard, sideLabel } from './dom.js';
import { type PileShown, moveLine, pileShown, playedMoves } from './moveswords.js';

/** The round's moves, one line each, newest at the bottom. */
export function movesList(lang: Lang, v: TableView): HTMLElement {
  const played = playedMoves(v);
  return h(
    'div',
    { class: 'moveslist' },
    played.length
      ? h(
          'ol',
          { 'aria-label': t(lang, 'movesTitle') },
          ...played.map((p) =>
            h('li', { class: p.scopa ? 'scopa' : null, text: moveLine(lang, v, p) }),
          ),
        )
      : h('p', { class: 'empty', text: t(lang, 'noMoveYet') }),
  );
}

/** The sidebar's box of the round's moves, drawn again only when they change. */
export function renderMovesBox(app: AppState, v: TableView, box: HTMLElement): void {
  const key = `${app.lang}:${v.round?.dealer}:${v.round?.moves.join(',')}:${scopeKey(v)}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(h('h2', { text: t(app.lang, 'movesTitle') }), movesList(app.lang, v));
}

const scopeKey = (v: TableView): string => (v.drawn?.scope ?? []).map((s) => s.join('')).join('/');

function pileCards(lang: Lang, cards: readonly Card[], scope: readonly Card[]): HTMLElement {
  return h(
    'div',
    { class: 'peekcards' },
    ...cards.map((c) => {
      const m = marked(miniCard(c, lang), c);
      if (scope.includes(c)) {
        m.classList.add('scopa');
        m.setAttribute(
          'aria-label',
          `${m.getAttribute('aria-label') ?? ''} (${t(lang, 'r_scopa')})`,
        );
      }
      return m;
    }),
  );
}

function pileBody(lang: Lang, v: TableView, s: PileShown): (HTMLElement | null)[] {
  if (s.kind === 'all') {
    const team = seatsOfSide(v.eff, s.side).length > 1;
    return [
      h('h2', { id: 'peek-title', text: t(lang, team ? 'pileTeam' : 'pileMine') }),
      h('p', { class: 'help', text: t(lang, 'pile', { n: s.cards.length }) }),
      s.cards.length ? pileCards(lang, s.cards, s.scope) : null,
      s.scope.length
        ? h('p', { class: 'help', text: t(lang, 'pileScope', { n: s.scope.length }) })
        : null,
    ];
  }
  const title = h('h2', {
    id: 'peek-title',
    text: t(lang, 'pileLast', { name: sideLabel(v, s.side, lang) }),
  });
  if (!s.last) return [title, h('p', { class: 'help', text: t(lang, 'noCapture') })];
  const m = s.last.move;
  return [
    title,
    h('p', { class: 'peekline', text: moveLine(lang, v, s.last) }),
    h(
      'div',
      { class: 'peekcards last' },
      marked(taker(miniCard(m.card, lang)), m.card),
      h('span', { class: 'arrow', 'aria-hidden': 'true', text: '→' }),
      ...m.takes.map((c) => marked(miniCard(c, lang), c)),
    ),
  ];
}

/** A small card of the panel, named by its card (as the table's are). */
const marked = (el: HTMLElement, c: Card): HTMLElement => {
  el.dataset.card = c;
  return el;
};

const taker = (el: HTMLElement): HTMLElement => {
  el.classList.add('taker');
  return el;
};

/** What opened the panel, for the focus to go back to it. */
let opener: string | null = null;

/** The panel over the table, or nothing; hidden while a round score or
 * the result is open (they come first). */
export function renderPeek(box: HTMLElement, app: AppState, v: TableView): void {
  const what = app.roundOver || app.gameOver ? null : app.peek;
  const key =
    what === null
      ? ''
      : `${what}:${app.lang}:${v.round?.dealer}:${v.ply}:${scopeKey(v)}:${v.drawn?.piles.map((p) => p.length).join(',')}`;
  if (box.dataset.key === key) return;
  const wasOpen = !box.hidden;
  box.dataset.key = key;
  if (what === null) {
    box.hidden = true;
    box.replaceChildren();
    if (wasOpen && opener) document.querySelector<HTMLElement>(opener)?.focus();
    opener = null;
    return;
  }
  const lang = app.lang;
  const body =
    what === 'moves'
      ? [h('h2', { id: 'peek-title', text: t(lang, 'movesTitle') }), movesList(lang, v)]
      : pileBody(lang, v, pileShown(v, what));
  box.hidden = false;
  box.replaceChildren(
    h(
      'div',
      {
        class: `dialog peek peek-${what === 'moves' ? 'moves' : 'pile'}`,
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': 'peek-title',
        // a click inside stays inside: only the backdrop closes it
        'data-action': 'peek-stay',
        'data-side': what === 'moves' ? null : what,
      },
      ...body,
      h(
        'div',
        { class: 'row' },
        h('button', { class: 'primary', 'data-action': 'peek-close', text: t(lang, 'close') }),
      ),
    ),
  );
  if (!wasOpen) {
    opener = what === 'moves' ? '.movesbtn' : `.pile[data-side="${what}"]`;
    box.querySelector<HTMLElement>('[data-action="peek-close"]')?.focus();
  }
}
