/*
 * table.ts -- the table screen: its skeleton (built once per language, then
 * filled on each render), the seats, the hand, the middle, the sidebar and
 * the overlay drawn into it, and the one animation of each new move: cards
 * that moved slide from where they were (anim.ts), cards taken fly to the
 * pile that took them, a sweep flashes "Scopa!".
 */
import { t } from './i18n.js';
import { num, sideCount, sideOf } from './rules.js';
import { type AppState, type Slot, type TableView, shownScores } from './tableview.js';
import { cardSvg } from './cards.js';
import { LOCAL_CODE } from './local.js';
import { cardEls, h, sideLabel } from './dom.js';
import { connBanner, setConn, topBar } from './chrome.js';
import { forgetHome } from './home.js';
import { reactionEl, renderSeat } from './seats.js';
import { renderHand } from './hand.js';
import { renderCenter } from './center.js';
import { renderRulesBox, renderScores, renderTools } from './sidebar.js';
import { renderTalk, talkSkeleton } from './talkview.js';
import { renderOverlay } from './overlay.js';
import { renderMovesBox, renderPeek } from './pileview.js';
import * as anim from './anim.js';

/** The skeleton of the table screen, built once and filled on each render. */
function tableSkeleton(root: HTMLElement, app: AppState): HTMLElement {
  let felt = root.querySelector<HTMLElement>('.felt');
  if (felt && root.dataset.lang === app.lang) return felt;
  root.dataset.lang = app.lang;
  const slots: Slot[] = [
    'top-left',
    'top',
    'top-right',
    'left',
    'right',
    'bottom-left',
    'bottom-right',
  ];
  felt = h(
    'main',
    { class: 'felt', 'aria-label': t(app.lang, 'table') },
    ...slots.map((s) => h('section', { class: `seat slot-${s}`, 'data-slot': s })),
    h(
      'section',
      { class: 'center' },
      h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
      h(
        'div',
        { class: 'tablerow' },
        h('div', { class: 'stock' }),
        h('div', { class: 'tablecards', role: 'group', 'aria-label': t(app.lang, 'table') }),
      ),
      h('div', { class: 'lastmove', 'aria-live': 'polite' }),
      // a phone's way to the round's moves (a wide screen has them beside)
      h('button', {
        class: 'movesbtn',
        'data-action': 'peek-moves',
        'aria-haspopup': 'dialog',
        text: t(app.lang, 'movesButton'),
      }),
    ),
    h(
      'section',
      { class: 'me slot-bottom', 'data-slot': 'bottom' },
      h('div', { class: 'seatinfo' }),
      h('div', { class: 'choice', 'aria-live': 'polite' }),
      h('div', { class: 'hand', role: 'group', 'aria-label': t(app.lang, 'hand') }),
    ),
  );
  root.replaceChildren(
    topBar(app, [
      h('span', { class: 'tcode' }),
      h('a', { class: 'tlink', 'data-action': 'go', href: '/tournaments', hidden: true }),
    ]),
    h(
      'div',
      { class: 'layout' },
      felt,
      h(
        'aside',
        { class: 'side' },
        h('div', { class: 'scores' }),
        h('section', { class: 'movesbox' }),
        talkSkeleton(app),
        h('div', { class: 'tools' }),
        h('details', { class: 'rulesbox' }),
      ),
    ),
    h('div', { class: 'overlay', hidden: true }),
    h('div', { class: 'overlay peekbox', 'data-action': 'peek-close', hidden: true }),
    h('div', { class: 'toast', role: 'status', 'aria-live': 'polite' }),
    connBanner(app),
  );
  forgetHome();
  return felt;
}

let lastTableKey = '';
/** The round last drawn and how many scope it had: a frame may draw
 * several states at once (a bot's answer arriving with our sweep), so a
 * scopa is seen by the count growing, not by the last move alone. */
let lastScope = { round: '', n: 0 };

export function renderTable(root: HTMLElement, app: AppState): void {
  const felt = tableSkeleton(root, app);
  const v = app.view;
  setConn(root, app);
  const toast = root.querySelector('.toast');
  if (toast) {
    const text = app.error ? t(app.lang, 'error', { msg: app.error }) : (app.notice ?? '');
    toast.textContent = text;
    toast.classList.toggle('shown', text !== '');
    toast.classList.toggle('bad', !!app.error);
  }
  const code = root.querySelector('.tcode');
  if (code) {
    // the game in the browser has no code to share: say where it is played
    let text =
      app.code === LOCAL_CODE
        ? t(app.lang, 'localTable')
        : app.code
          ? t(app.lang, 'code_label', { code: app.code })
          : '';
    if (v) {
      const sides = sideCount(v.eff);
      const scores = shownScores(app);
      const sc: string[] = [];
      for (let i = 0; i < sides; i++) sc.push(`${sideLabel(v, i, app.lang)}: ${scores[i] ?? 0}`);
      text += ` · ${sc.join(' – ')} (${t(app.lang, 'target', { n: num(v.eff, 'target') })})`;
      // a rated game says so where the phone sees it too (the sidebar says why)
      if (app.msg?.rated === true) text += ` · ${t(app.lang, 'ratedGame')}`;
    }
    code.textContent = text;
  }
  // a tournament's game: the way back to its page
  const tlink = root.querySelector<HTMLAnchorElement>('.tlink');
  const tid = app.msg?.tournament;
  if (tlink) {
    tlink.hidden = !tid;
    if (tid) {
      tlink.href = `/tournament/${tid}`;
      tlink.textContent = t(app.lang, 'tourneyTableOf');
    }
  }
  if (!v) {
    felt.querySelector('.status')!.textContent = t(app.lang, 'connecting');
    return;
  }
  const before = anim.snapshot(cardEls);
  const beforeTable = new Set(
    v.drawn
      ? [...root.querySelectorAll('.tablecards .card')].map((e) => (e as HTMLElement).dataset.card)
      : [],
  );
  const oldRects = new Map<string, DOMRect>(before.rects);
  // seats other than the viewer's
  const boxes = new Map<string, HTMLElement>();
  felt.querySelectorAll<HTMLElement>('.seat').forEach((b) => boxes.set(b.dataset.slot!, b));
  for (const b of boxes.values()) {
    b.replaceChildren();
    b.className = `seat slot-${b.dataset.slot} empty`;
  }
  v.slots.forEach((slot, seat) => {
    if (slot === 'bottom') return; // the viewer, or seat 0 for a spectator: renderHand
    const box = boxes.get(slot);
    if (box) renderSeat(app, v, seat, box);
  });
  felt.dataset.players = String(v.slots.length);
  felt.classList.toggle('spectating', v.viewer === null);
  const me = felt.querySelector('.me') as HTMLElement;
  renderHand(
    app,
    v,
    me.querySelector('.hand')!,
    me.querySelector('.choice')!,
    me.querySelector('.seatinfo')!,
  );
  if (v.viewer !== null) {
    const mine = reactionEl(app, v.viewer);
    if (mine) me.querySelector('.seatinfo')!.append(mine);
  }
  renderCenter(app, v, felt);
  renderScores(app, v, root.querySelector('.scores')!);
  renderTools(app, v, root.querySelector('.tools')!);
  renderTalk(app, v, root.querySelector<HTMLElement>('.talk')!);
  renderRulesBox(app, v, app.msg?.seed_sha256 ?? '', root.querySelector('.rulesbox')!);
  renderMovesBox(app, v, root.querySelector('.movesbox')!);
  renderPeek(root.querySelector('.peekbox')!, app, v);
  renderOverlay(root.querySelector('.overlay') as HTMLElement, app, v);

  // animation: cards that left the table fly to the pile that took them
  const key = `${v.round?.dealer}:${v.ply}`;
  if (lastTableKey === '') lastTableKey = key; // the first picture is not animated
  const scopa = newScopa(v);
  // (no animations: no layout read but the banner's, so a frame lays out once)
  if (key !== lastTableKey && anim.isSkipping()) {
    if (scopa) scopaBanner(felt);
  } else if (key !== lastTableKey) {
    const nowTable = new Set(v.drawn?.table ?? []);
    const leaving: { el: HTMLElement; from: DOMRect; to: DOMRect | null }[] = [];
    const last = v.lastMove;
    const takerSide = last ? sideOf(v.eff, last.seat) : 0;
    const pile = root.querySelector(`.pile[data-side="${takerSide}"]`);
    const to = pile ? pile.getBoundingClientRect() : null;
    if (last && last.move.takes.length) {
      for (const c of [...last.move.takes, last.move.card]) {
        const from =
          oldRects.get(c) ?? (c === last.move.card ? seatRect(root, v, last.seat) : null);
        if (!from || nowTable.has(c)) continue;
        if (c !== last.move.card && !beforeTable.has(c)) continue;
        const ghost = h('div', { class: 'card ghost', 'aria-hidden': 'true' });
        ghost.innerHTML = cardSvg(c);
        leaving.push({
          el: ghost,
          from: c === last.move.card ? (landingRect(root, from) ?? from) : from,
          to,
        });
      }
    }
    if (scopa) scopaBanner(felt);
    const stockRect =
      (
        felt.querySelector('.stock .card') ?? felt.querySelector('.stock')
      )?.getBoundingClientRect() ?? null;
    anim.play(
      before,
      cardEls,
      (k) => {
        if (k.startsWith('back:')) return stockRect;
        if (last && k === last.move.card) return seatRect(root, v, last.seat);
        return stockRect; // dealt cards come from the stock
      },
      leaving,
    );
  }
  lastTableKey = key;
}

/** A scopa was made since the last frame of this round (none on the
 * first picture of a round, which shows what was already there). */
function newScopa(v: TableView): boolean {
  const round = v.round ? `${v.round.dealer}:${v.round.table.join(',')}` : '';
  const n = v.drawn ? v.drawn.scope.reduce((a, s) => a + s.length, 0) : 0;
  const grew = round !== '' && round === lastScope.round && n > lastScope.n;
  lastScope = { round, n };
  return grew;
}

function scopaBanner(felt: HTMLElement): void {
  anim.flash(
    (felt.querySelector('.tablecards') ?? felt.querySelector('.center')) as HTMLElement,
    'Scopa!',
  );
}

function seatRect(root: HTMLElement, v: TableView, seat: number): DOMRect | null {
  const slot = v.slots[seat];
  const sel = seat === v.viewer ? '.me .hand' : `.seat.slot-${slot}`;
  return root.querySelector(sel)?.getBoundingClientRect() ?? null;
}

/** A capture's played card first lands in the middle of the table. */
function landingRect(root: HTMLElement, from: DOMRect): DOMRect | null {
  const tc = root.querySelector('.tablecards')?.getBoundingClientRect();
  if (!tc) return null;
  return new DOMRect(
    tc.left + tc.width / 2 - from.width / 2,
    tc.top + tc.height / 2 - from.height / 2,
    from.width,
    from.height,
  );
}
