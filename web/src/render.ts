/*
 * render.ts -- draws the AppState into the page.  redraw() is coalesced: any
 * number of calls in one frame cost one render.  Card elements are kept in
 * one map keyed by card ("7d") or back ("back:SEAT:I") and moved between
 * containers, never rebuilt, so anim.ts can slide them (FLIP).  The home
 * page's form is built once per visit (it holds what the player typed).
 *
 * What must stay true: render reads the state, never changes it; every
 * interactive element carries data-action (and data-card / data-value) for
 * input.ts, and a label a screen reader can say.
 */
import { backSvg, cardSvg } from './cards.js';
import { type Card, type Move, type Side, formatMove, rankOf } from './protocol.js';
import { type Lang, type Key, cardName, optionName, presetName, suitName, t, valueName } from './i18n.js';
import { OPTIONS, PRESETS, differences, effective, num, seatsOfSide, sideCount, sideOf } from './rules.js';
import {
  type AppState,
  type Slot,
  type TableView,
  agrees,
  itemise,
  primieraValue,
  replay,
  selectedMove,
  shownScores,
} from './state.js';
import { markedSteps, reviewSteps, verdicts } from './review.js';
import * as anim from './anim.js';

// ------------------------------------------------------------ helpers ----

type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h(tag: string, attrs: Attrs = {}, ...children: (Node | string | null | false | undefined)[]): HTMLElement {
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

const cardEls = new Map<string, HTMLElement>();

/** The one element of a card face (created once, reused forever). */
function faceEl(card: Card, lang: Lang): HTMLElement {
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

function backEl(key: string): HTMLElement {
  let el = cardEls.get(key);
  if (!el) {
    el = h('div', { class: 'card back', 'aria-hidden': 'true' });
    el.innerHTML = backSvg();
    cardEls.set(key, el);
  }
  return el;
}

function miniCard(card: Card, lang: Lang): HTMLElement {
  const el = h('span', { class: 'mini', role: 'img', 'aria-label': cardName(lang, card) });
  el.innerHTML = cardSvg(card);
  return el;
}

function describeMove(lang: Lang, m: Move): string {
  if (!m.takes.length) return t(lang, 'lays', { card: cardName(lang, m.card) });
  return t(lang, 'takes', { card: cardName(lang, m.card), cards: m.takes.map((c) => cardName(lang, c)).join(', ') });
}

export function sideLabel(v: { names: string[]; eff: ReturnType<typeof effective> }, side: number, lang: Lang): string {
  const seats = seatsOfSide(v.eff, side);
  if (seats.length === 1) return v.names[seats[0]!] ?? `${side}`;
  return t(lang, 'team', { names: seats.map((s) => v.names[s] ?? s).join(' + ') });
}

// ------------------------------------------------------ coalesced redraw --

let scheduled = false;
let current: { root: HTMLElement; app: AppState } | null = null;

export function redraw(root: HTMLElement, app: AppState): void {
  current = { root, app };
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    if (current) render(current.root, current.app);
  });
}

/** Draw now (tests and the first paint). */
export function render(root: HTMLElement, app: AppState): void {
  document.documentElement.lang = app.lang;
  if (app.screen === 'home') return renderHome(root, app);
  if (app.screen === 'leaderboard') return renderLeaderboard(root, app);
  renderTable(root, app);
}

// --------------------------------------------------------------- home ----

let homeLang: Lang | null = null;

function topBar(app: AppState, extra: (Node | null)[] = []): HTMLElement {
  const other: Lang = app.lang === 'it' ? 'en' : 'it';
  return h(
    'header',
    { class: 'topbar' },
    h('a', { class: 'brand', href: '/', 'data-action': 'home', text: t(app.lang, 'title') }),
    ...extra,
    h('span', { class: 'grow' }),
    h('button', {
      class: 'lang',
      'data-action': 'lang',
      'data-value': other,
      'aria-label': `${t(app.lang, 'language')}: ${other === 'it' ? 'Italiano' : 'English'}`,
      text: other.toUpperCase(),
    }),
  );
}

function select(name: string, label: string, options: [string, string][], value: string): HTMLElement {
  const s = h('select', { name, id: `f-${name}` });
  for (const [v, text] of options) s.append(h('option', { value: v, selected: v === value, text }));
  return h('label', { class: 'field', for: `f-${name}` }, h('span', { text: label }), s);
}

function optionField(lang: Lang, o: (typeof OPTIONS)[number], prefix: string): HTMLElement {
  const id = `${prefix}-${o.name}`;
  let input: HTMLElement;
  if (o.kind === 'bool') {
    input = h('input', { type: 'checkbox', id, name: o.name, 'data-opt': o.name, checked: o.def === true });
  } else if (o.values) {
    input = h('select', { id, name: o.name, 'data-opt': o.name });
    for (const v of o.values) input.append(h('option', { value: String(v), selected: v === o.def, text: valueName(lang, v) }));
  } else {
    input = h('input', { type: 'number', id, name: o.name, 'data-opt': o.name, min: o.min ?? 0, value: String(o.def), inputmode: 'numeric' });
  }
  return h('label', { class: `field opt opt-${o.kind}`, for: id }, h('span', { text: optionName(lang, o.name) }), input);
}

/** The rules part of a form: a preset, the player count, every option. */
function rulesFieldset(lang: Lang, prefix: string): HTMLElement {
  const presets = Object.keys(PRESETS).map((p): [string, string] => [p, presetName(lang, p)]);
  const groups = ['game', 'play', 'aces', 'score', 'end'] as const;
  const details = h('details', { class: 'options' }, h('summary', { text: t(lang, 'allOptions') }));
  for (const g of groups) {
    const fs = h('div', { class: `optgroup g-${g}` });
    for (const o of OPTIONS.filter((x) => x.group === g)) fs.append(optionField(lang, o, prefix));
    details.append(fs);
  }
  return h(
    'fieldset',
    { class: 'rules', 'data-prefix': prefix },
    h('legend', { text: t(lang, 'rules') }),
    select(`${prefix}-preset`, t(lang, 'preset'), presets, 'scopa'),
    details,
  );
}

function renderHome(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const existing = root.querySelector('.home');
  if (existing && homeLang === lang) {
    const err = root.querySelector('.home .error');
    if (err) err.textContent = app.error ?? '';
    setConn(root, app);
    return;
  }
  homeLang = lang;
  const levels = ['principiante', 'intermedio', 'esperto', 'campione'].map((l): [string, string] => [
    l,
    t(lang, `lv_${l}` as Key),
  ]);
  const name = h('input', { id: 'f-name', name: 'name', autocomplete: 'nickname', maxlength: 24, value: localStorage.getItem('scopa.name') ?? '' });
  const seatRows = h('div', { class: 'seats', id: 'private-seats' });
  const bot = h(
    'form',
    { class: 'card-panel', 'data-form': 'bot' },
    h('h2', { text: t(lang, 'playBot') }),
    select('level', t(lang, 'level'), levels, localStorage.getItem('scopa.level') ?? 'intermedio'),
    rulesFieldset(lang, 'bot'),
    h('button', { class: 'primary', type: 'submit', 'data-action': 'start-bot', text: t(lang, 'start') }),
  );
  const priv = h(
    'form',
    { class: 'card-panel', 'data-form': 'private' },
    h('h2', { text: t(lang, 'privateTable') }),
    h('p', { class: 'help', text: t(lang, 'privateHelp') }),
    rulesFieldset(lang, 'priv'),
    h('div', { class: 'field' }, h('span', { text: t(lang, 'seats') }), seatRows),
    h('button', { class: 'primary', type: 'submit', 'data-action': 'create', text: t(lang, 'create') }),
  );
  const join = h(
    'form',
    { class: 'card-panel', 'data-form': 'join' },
    h('h2', { text: t(lang, 'joinByCode') }),
    h(
      'label',
      { class: 'field', for: 'f-code' },
      h('span', { text: t(lang, 'code') }),
      h('input', { id: 'f-code', name: 'code', autocapitalize: 'characters', autocomplete: 'off', spellcheck: 'false', maxlength: 16 }),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { class: 'primary', type: 'submit', 'data-action': 'join', text: t(lang, 'join') }),
      h('button', { type: 'button', 'data-action': 'watch', text: t(lang, 'watch') }),
    ),
    h('p', {}, h('a', { href: '/?leaderboard', 'data-action': 'leaderboard', text: t(lang, 'leaderboard') })),
  );
  root.replaceChildren(
    topBar(app),
    h(
      'main',
      { class: 'home' },
      h('p', { class: 'tagline', text: t(lang, 'tagline') }),
      h('label', { class: 'field name', for: 'f-name' }, h('span', { text: t(lang, 'yourName') }), name),
      h('p', { class: 'error', role: 'alert', text: app.error ?? '' }),
      h('div', { class: 'panels' }, bot, priv, join),
    ),
    connBanner(app),
  );
  fillSeats(root, lang);
}

/** The private table's seat choices: seat 0 is the creator, the others a
 * friend or a bot; as many rows as the rules' players. */
export function fillSeats(root: HTMLElement, lang: Lang): void {
  const box = root.querySelector('#private-seats');
  const form = root.querySelector('form[data-form="private"]');
  if (!box || !form) return;
  const players = num(effective(readRules(form as HTMLElement, 'priv')), 'players');
  const old = [...box.querySelectorAll('select')].map((s) => (s as HTMLSelectElement).value);
  box.replaceChildren(h('div', { class: 'seat-row', text: `1. ${t(lang, 'seatMe')}` }));
  for (let i = 1; i < players; i++) {
    const opts: [string, string][] = [['open', t(lang, 'seatOpen')]];
    for (const l of ['principiante', 'intermedio', 'esperto', 'campione']) opts.push([l, `${t(lang, 'bot')}: ${t(lang, `lv_${l}` as Key)}`]);
    const s = h('select', { 'data-seat': i, 'aria-label': `${t(lang, 'seats')} ${i + 1}` });
    for (const [v, text] of opts) s.append(h('option', { value: v, selected: v === (old[i - 1] ?? 'open'), text }));
    box.append(h('div', { class: 'seat-row' }, `${i + 1}. `, s));
  }
}

/** The rules object a form describes: the preset, then every option that
 * the player changed from what the preset gives. */
export function readRules(form: HTMLElement, prefix: string): Record<string, string | number | boolean> {
  const preset = (form.querySelector(`[name="${prefix}-preset"]`) as HTMLSelectElement | null)?.value ?? 'scopa';
  const rules: Record<string, string | number | boolean> = { ...(PRESETS[preset] ?? {}) };
  const eff = effective(rules);
  for (const o of OPTIONS) {
    const el = form.querySelector(`[data-opt="${o.name}"]`) as HTMLInputElement | HTMLSelectElement | null;
    if (!el || el.dataset.touched !== '1') continue;
    let v: string | number | boolean;
    if (o.kind === 'bool') v = (el as HTMLInputElement).checked;
    else if (o.kind === 'int') v = Number(el.value);
    else v = el.value;
    if (v !== eff[o.name]) rules[o.name] = v;
  }
  return rules;
}

/** Show a preset's values in the option fields (untouched ones). */
export function syncOptions(form: HTMLElement, prefix: string): void {
  const preset = (form.querySelector(`[name="${prefix}-preset"]`) as HTMLSelectElement | null)?.value ?? 'scopa';
  const eff = effective(PRESETS[preset] ?? {});
  for (const o of OPTIONS) {
    const el = form.querySelector(`[data-opt="${o.name}"]`) as HTMLInputElement | HTMLSelectElement | null;
    if (!el) continue;
    el.dataset.touched = '';
    if (o.kind === 'bool') (el as HTMLInputElement).checked = eff[o.name] === true;
    else el.value = String(eff[o.name]);
  }
}

// -------------------------------------------------------- leaderboard ----

function renderLeaderboard(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const lb = app.leaderboard;
  let body: HTMLElement;
  if (lb.state === 'loading') body = h('p', { text: t(lang, 'connecting') });
  else if (lb.state === 'unavailable') body = h('p', { class: 'help', text: t(lang, 'noLeaderboard') });
  else if (!lb.rows.length) body = h('p', { class: 'help', text: t(lang, 'noRatedGames') });
  else {
    // every scalar field the server keeps is a column; the known ones named
    const known: Record<string, Key> = { name: 'player', rating: 'rating', games: 'games', rd: 'deviation' };
    const cols = Object.keys(lb.rows[0]!).filter((k) => typeof lb.rows[0]![k] !== 'object');
    body = h(
      'table',
      { class: 'leaders' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t(lang, 'rank') }), ...cols.map((c) => h('th', { scope: 'col', text: known[c] ? t(lang, known[c]!) : c })))),
      h('tbody', {}, ...lb.rows.map((r, i) => h('tr', {}, h('td', { text: i + 1 }), ...cols.map((c) => h('td', { text: String(r[c] ?? '') }))))),
    );
  }
  const pools = h(
    'nav',
    { class: 'row pools', 'aria-label': t(lang, 'pools') },
    ...['2p', '3p', '4p', '6p'].map((p) =>
      h('button', { 'data-action': 'pool', 'data-value': p, 'aria-pressed': String(lb.pool === p), class: lb.pool === p ? 'primary' : '', text: t(lang, 'pool', { n: p[0]! }) }),
    ),
  );
  root.replaceChildren(topBar(app), h('main', { class: 'page' }, h('h1', { text: t(lang, 'leaderboard') }), pools, body));
  homeLang = null;
}

// -------------------------------------------------------------- table ----

function connBanner(app: AppState): HTMLElement {
  const el = h('div', { class: 'conn', role: 'status', 'aria-live': 'assertive' });
  fillConn(el, app);
  return el;
}

function fillConn(el: Element, app: AppState): void {
  const c = app.conn;
  let text = '';
  if (c.kind === 'down') text = t(app.lang, 'offline', { s: Math.max(0, Math.ceil((c.retryAt - Date.now()) / 1000)) });
  el.textContent = text;
  el.classList.toggle('shown', text !== '');
}

function setConn(root: HTMLElement, app: AppState): void {
  const el = root.querySelector('.conn');
  if (el) fillConn(el, app);
}

/** The skeleton of the table screen, built once and filled on each render. */
function tableSkeleton(root: HTMLElement, app: AppState): HTMLElement {
  let felt = root.querySelector('.felt') as HTMLElement | null;
  if (felt && root.dataset.lang === app.lang) return felt;
  root.dataset.lang = app.lang;
  const slots: Slot[] = ['top-left', 'top', 'top-right', 'left', 'right', 'bottom-left', 'bottom-right'];
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
    topBar(app, [h('span', { class: 'tcode' })]),
    h(
      'div',
      { class: 'layout' },
      felt,
      h('aside', { class: 'side' }, h('div', { class: 'scores' }), h('div', { class: 'tools' }), h('details', { class: 'rulesbox' })),
    ),
    h('div', { class: 'overlay', hidden: true }),
    h('div', { class: 'toast', role: 'status', 'aria-live': 'polite' }),
    connBanner(app),
  );
  homeLang = null;
  return felt;
}

function seatName(v: TableView, seat: number, lang: Lang): string {
  const n = v.names[seat] || `${t(lang, 'openSeat')} ${seat + 1}`;
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
function pileSeat(v: TableView, side: number): number {
  const seats = seatsOfSide(v.eff, side);
  if (v.viewer !== null && seats.includes(v.viewer)) return v.viewer;
  return seats[0] ?? 0;
}

function pileEl(app: AppState, v: TableView, side: number): HTMLElement {
  const lang = app.lang;
  const pile = v.rep?.piles[side] ?? [];
  const scope = v.rep?.scope[side] ?? [];
  const el = h('div', { class: 'pile', role: 'img', 'data-side': side, 'aria-label': `${t(lang, 'pile', { n: pile.length })}, ${t(lang, 'scopaCount', { n: scope.length })}` });
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

function renderSeat(app: AppState, v: TableView, seat: number, box: HTMLElement): void {
  const lang = app.lang;
  const n = v.counts[seat] ?? 0;
  const turn = v.toPlay === seat && v.status === 'playing';
  box.className = `seat slot-${v.slots[seat]}${turn ? ' turn' : ''} p-${v.presence[seat] ?? 'here'}`;
  box.setAttribute('aria-label', `${seatName(v, seat, lang)}: ${t(lang, 'handOf', { name: seatName(v, seat, lang), n })}`);
  const backs = h('div', { class: 'backs', 'aria-hidden': 'true' });
  for (let i = 0; i < n; i++) backs.append(backEl(`back:${seat}:${i}`));
  const dealer = v.round?.dealer === seat;
  const info = h(
    'div',
    { class: 'seatinfo' },
    h('span', { class: 'name', text: seatName(v, seat, lang) }),
    dealer ? h('span', { class: 'badge dealer', title: t(lang, 'dealer'), text: 'D' }) : null,
    presenceText(app, v, seat) ? h('span', { class: `badge pres`, title: presenceText(app, v, seat), text: presenceText(app, v, seat) }) : null,
  );
  const side = sideOf(v.eff, seat);
  box.replaceChildren(info, backs, pileSeat(v, side) === seat ? pileEl(app, v, side) : h('span'));
}

function renderHand(app: AppState, v: TableView, box: HTMLElement, choiceBox: HTMLElement, infoBox: HTMLElement): void {
  const lang = app.lang;
  const me = v.viewer;
  if (me === null) {
    // a spectator: seat 0 sits at the bottom, its cards face down
    const side = sideOf(v.eff, 0);
    infoBox.replaceChildren(
      h('span', { class: 'who' }, h('span', { class: 'name', text: seatName(v, 0, lang) }), h('span', { class: 'badge', text: t(lang, 'spectator') })),
      pileSeat(v, side) === 0 ? pileEl(app, v, side) : h('span'),
    );
    const backs = [];
    for (let i = 0; i < (v.counts[0] ?? 0); i++) backs.push(backEl(`back:0:${i}`));
    box.replaceChildren(...backs);
    box.dataset.n = String(backs.length);
    box.parentElement!.classList.toggle('turn', v.toPlay === 0 && v.status === 'playing');
    choiceBox.replaceChildren();
    return;
  }
  const side = sideOf(v.eff, me);
  const turn = v.toPlay === me && v.status === 'playing';
  box.parentElement!.classList.toggle('turn', turn);
  infoBox.replaceChildren(
    h(
      'span',
      { class: 'who' },
      h('span', { class: 'name', text: seatName(v, me, lang) }),
      v.round?.dealer === me ? h('span', { class: 'badge dealer', title: t(lang, 'dealer'), text: 'D' }) : null,
    ),
    pileEl(app, v, side),
  );
  const sel = app.selection;
  const move = selectedMove(v.choices, sel);
  const cards = v.hand.map((c, i) => {
    const el = faceEl(c, lang);
    const ch = v.choices.find((x) => x.card === c);
    const playable = v.myTurn && !app.pending && !!ch && ch.options.length > 0;
    el.classList.add('inhand');
    el.setAttribute('role', 'button');
    el.setAttribute('tabindex', '0');
    el.setAttribute('data-action', 'card');
    el.setAttribute('aria-keyshortcuts', String(i + 1));
    if (!playable) el.setAttribute('aria-disabled', 'true');
    else el.classList.add('playable');
    if (sel?.card === c) {
      el.classList.add('selected');
      el.setAttribute('aria-pressed', 'true');
    }
    if (app.hint && v.myTurn && app.hint.move.split('x')[0] === c) el.classList.add('hinted');
    return el;
  });
  box.replaceChildren(...cards);
  box.dataset.n = String(cards.length);
  // the words under the hand: the chosen move, or why a card plays as it does
  const parts: (HTMLElement | null)[] = [];
  if (move && sel) {
    const ch = v.choices.find((x) => x.card === sel.card)!;
    parts.push(
      h('p', { class: 'movetext', text: describeMove(lang, move) }),
      h('p', { class: 'help', text: t(lang, 'optionOf', { i: sel.index + 1, n: ch.options.length }) }),
      h(
        'div',
        { class: 'row' },
        h('button', { class: 'primary', 'data-action': 'confirm', text: `${t(lang, 'play')} ${formatMove(move)}` }),
        h('button', { 'data-action': 'cancel', text: t(lang, 'cancel') }),
      ),
    );
  }
  if (app.explain) {
    const ch = v.choices.find((x) => x.card === app.explain);
    if (ch && ch.reason !== 'choice') parts.push(h('p', { class: 'reason', text: t(lang, `r_${ch.reason}` as Key, { card: cardName(lang, ch.card) }) }));
  }
  if (app.hint && v.myTurn && app.hintsOn) {
    const hm = app.hint;
    parts.push(h('p', { class: 'hinttext', text: t(lang, 'hintSays', { move: hm.move, value: hm.value.toFixed(2) }) }));
  } else if (app.hintState === 'unavailable' && app.hintsOn) parts.push(h('p', { class: 'help', text: t(lang, 'hintUnavailable') }));
  choiceBox.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
}

function renderCenter(app: AppState, v: TableView, felt: HTMLElement): void {
  const lang = app.lang;
  const status = felt.querySelector('.status')!;
  let s = '';
  if (v.status === 'waiting') s = t(lang, 'waitingPlayers', { code: v.code });
  else if (v.status === 'finished') s = t(lang, 'gameOver');
  else if (v.myTurn) s = t(lang, 'yourTurn');
  else if (v.toPlay !== null) s = t(lang, 'turnOf', { name: v.names[v.toPlay] ?? '' });
  status.textContent = s;
  status.classList.toggle('mine', v.myTurn);
  if (v.status === 'waiting') {
    const link = `${location.origin}/t/${v.code}`;
    status.append(
      h('div', { class: 'share' }, h('input', { readonly: true, value: link, 'aria-label': link, class: 'sharelink' }), h('button', { 'data-action': 'copy', text: t(lang, 'copy') })),
    );
  }
  const move = selectedMove(v.choices, app.selection);
  const table = v.rep?.table ?? [];
  const tc = felt.querySelector('.tablecards')!;
  const els = table.map((c) => {
    const el = faceEl(c, lang);
    el.classList.add('ontable');
    if (move?.takes.includes(c)) el.classList.add('taken');
    if (app.selection) {
      el.setAttribute('data-action', 'table-card');
      if (move?.takes.includes(c)) el.setAttribute('aria-label', `${cardName(lang, c)} (${t(lang, 'taken')})`);
    }
    return el;
  });
  tc.replaceChildren(...(els.length ? els : [h('p', { class: 'empty', text: t(lang, 'emptyTable') })]));
  (tc as HTMLElement).dataset.n = String(Math.min(els.length, 12));
  const stock = felt.querySelector('.stock')!;
  stock.replaceChildren(
    ...(v.stock > 0 ? [backEl('stock'), h('span', { class: 'count', text: t(lang, 'stock', { n: v.stock }) })] : []),
  );
  const lm = felt.querySelector('.lastmove')!;
  lm.replaceChildren();
  if (v.lastMove) {
    const m = v.lastMove;
    lm.append(
      h('span', { class: 'label', text: `${t(lang, 'lastMove')}: ` }),
      h('span', { text: t(lang, 'lastMoveText', { name: v.names[m.seat] ?? '', move: describeMove(lang, m.move) }) }),
    );
  }
}

function renderScores(app: AppState, v: TableView, box: Element): void {
  const lang = app.lang;
  const sides = sideCount(v.eff);
  const scores = shownScores(app);
  const rows = [];
  for (let s = 0; s < sides; s++) {
    const mine = v.viewer !== null && sideOf(v.eff, v.viewer) === s;
    rows.push(h('tr', { class: mine ? 'mine' : '' }, h('th', { scope: 'row', text: sideLabel(v, s, lang) }), h('td', { text: scores[s] ?? 0 })));
  }
  box.replaceChildren(
    h('h2', { text: `${t(lang, 'scores')} (${t(lang, 'target', { n: num(v.eff, 'target') })})` }),
    h('table', { class: 'scoretable' }, h('tbody', {}, ...rows)),
  );
}

function renderRulesBox(app: AppState, v: TableView, sha: string, box: HTMLElement): void {
  const lang = app.lang;
  const diffs = differences(v.rules);
  const game = String(v.eff.game);
  const title = `${t(lang, 'tableRules')}: ${valueName(lang, game)}, ${num(v.eff, 'players')}p, ${t(lang, 'target', { n: num(v.eff, 'target') })}`;
  const wasOpen = (box as HTMLDetailsElement).open;
  box.replaceChildren(
    h('summary', { text: title }),
    h('div', {}, diffs.length
      ? h('ul', {}, ...diffs.map(([k, val]) => h('li', { text: `${optionName(lang, k)}: ${valueName(lang, val)}` })))
      : h('p', { class: 'help', text: t(lang, 'defaults') }),
    sha ? h('p', { class: 'sha', text: t(lang, 'seedHash', { sha }) }) : null),
  );
  (box as HTMLDetailsElement).open = wasOpen || window.innerWidth > 900;
}

function renderTools(app: AppState, v: TableView, box: Element): void {
  const lang = app.lang;
  box.replaceChildren(
    h(
      'div',
      { class: 'row' },
      v.viewer !== null
        ? h('button', { 'data-action': 'hint', disabled: !v.myTurn || !app.hintsOn, text: t(lang, 'hint') })
        : null,
      v.viewer !== null
        ? h('button', { 'data-action': 'hints-toggle', 'aria-pressed': String(app.hintsOn), text: app.hintsOn ? t(lang, 'hintOn') : t(lang, 'hintOff') })
        : null,
      h('button', { 'data-action': 'skip-toggle', 'aria-pressed': String(app.skipAnim), text: t(lang, 'skip') }),
    ),
    h('p', { class: 'help keys', text: t(lang, 'keyboardHelp') }),
  );
}

let lastTableKey = '';

function renderTable(root: HTMLElement, app: AppState): void {
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
    let text = app.code ? t(app.lang, 'code_label', { code: app.code }) : '';
    if (v) {
      const sides = sideCount(v.eff);
      const scores = shownScores(app);
      const sc: string[] = [];
      for (let i = 0; i < sides; i++) sc.push(`${sideLabel(v, i, app.lang)} ${scores[i] ?? 0}`);
      text += ` · ${sc.join(' – ')} (${t(app.lang, 'target', { n: num(v.eff, 'target') })})`;
    }
    code.textContent = text;
  }
  if (!v) {
    felt.querySelector('.status')!.textContent = t(app.lang, 'connecting');
    return;
  }
  const before = anim.snapshot(cardEls);
  const beforeTable = new Set(v.rep ? [...root.querySelectorAll('.tablecards .card')].map((e) => (e as HTMLElement).dataset.card) : []);
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
  renderHand(app, v, me.querySelector('.hand')!, me.querySelector('.choice')!, me.querySelector('.seatinfo')!);
  renderCenter(app, v, felt);
  renderScores(app, v, root.querySelector('.scores')!);
  renderTools(app, v, root.querySelector('.tools')!);
  renderRulesBox(app, v, app.msg?.seed_sha256 ?? '', root.querySelector('.rulesbox')!);
  renderOverlay(root.querySelector('.overlay') as HTMLElement, app, v);

  // animation: cards that left the table fly to the pile that took them
  const key = `${v.round?.dealer}:${v.ply}`;
  if (lastTableKey === '') lastTableKey = key; // the first picture is not animated
  if (key !== lastTableKey) {
    const nowTable = new Set(v.rep?.table ?? []);
    const leaving: { el: HTMLElement; from: DOMRect; to: DOMRect | null }[] = [];
    const last = v.lastMove;
    const takerSide = last ? sideOf(v.eff, last.seat) : 0;
    const pile = root.querySelector(`.pile[data-side="${takerSide}"]`);
    const to = pile ? pile.getBoundingClientRect() : null;
    if (last && last.move.takes.length) {
      for (const c of [...last.move.takes, last.move.card]) {
        const from = oldRects.get(c) ?? (c === last.move.card ? seatRect(root, v, last.seat) : null);
        if (!from || nowTable.has(c)) continue;
        if (c !== last.move.card && !beforeTable.has(c)) continue;
        const ghost = h('div', { class: 'card ghost', 'aria-hidden': 'true' });
        ghost.innerHTML = cardSvg(c);
        leaving.push({ el: ghost, from: c === last.move.card ? (landingRect(root, from) ?? from) : from, to });
      }
      if (v.rep && v.rep.table.length === 0 && last.move.takes.length && (v.rep.scope[takerSide]?.at(-1) === last.move.card))
        anim.flash(felt.querySelector('.center') as HTMLElement, 'Scopa!');
    }
    const stockRect = (felt.querySelector('.stock .card') ?? felt.querySelector('.stock'))?.getBoundingClientRect() ?? null;
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
    lastTableKey = key;
  }
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
  return new DOMRect(tc.left + tc.width / 2 - from.width / 2, tc.top + tc.height / 2 - from.height / 2, from.width, from.height);
}

// ------------------------------------------------ round score, result ----

const CATS = ['carte', 'denari', 'settebello', 'primiera', 'scope', 're_bello', 'napola', 'sevens', 'all_sevens'] as const;

function catOn(v: TableView, c: (typeof CATS)[number]): boolean {
  const e = v.eff;
  if (c === 're_bello') return e.re_bello === true;
  if (c === 'napola') return e.napola === true;
  if (c === 'sevens') return e.most_sevens === true;
  if (c === 'all_sevens') return num(e, 'all_sevens') > 0;
  if (c === 'primiera') return e.primiera !== 'off';
  return true;
}

function roundScore(app: AppState, v: TableView): HTMLElement {
  const lang = app.lang;
  const ro = app.roundOver!;
  const sides: Side[] = ro.msg.sides;
  const rep = ro.round ? replay(ro.round, ro.rules) : null;
  const it = rep && rep.complete ? itemise(rep, ro.rules) : null;
  const full = it !== null && agrees(it, sides);
  const facesZero = v.eff.primiera === 'faces_zero';
  const head = h('tr', {}, h('th', { scope: 'col', text: t(lang, 'category') }), ...sides.map((_, i) => h('th', { scope: 'col', text: sideLabel(v, i, lang) })));
  const rows: HTMLElement[] = [];
  for (const c of CATS) {
    if (!catOn(v, c)) continue;
    const key = c === 'sevens' ? 'c_sevens' : (`c_${c}` as Key);
    rows.push(
      h(
        'tr',
        { class: `cat-${c}`, 'data-cat': c },
        h('th', { scope: 'row', text: t(lang, key) }),
        ...sides.map((s, i) => {
          const pts = s.points[c] ?? 0;
          const cell = h('td', { class: pts > 0 ? 'won' : '' }, h('span', { class: 'pts', text: pts > 0 ? `+${pts}` : '0' }));
          const detail = h('div', { class: 'why' });
          if (c === 'carte') detail.append(String(s.cards));
          if (c === 'denari') {
            detail.append(`${s.denari} `);
            if (full) for (const d of it!.denari[i] ?? []) detail.append(miniCard(d, lang));
          }
          if (c === 'settebello' && s.settebello) detail.append(miniCard('7d', lang));
          if (c === 're_bello' && full && it!.reBello === i) detail.append(miniCard('10d', lang));
          if (c === 'primiera') {
            if (full)
              (it!.primiera[i] ?? []).forEach((card, k) => {
                const suit = ['d', 'c', 's', 'b'][k]!;
                detail.append(
                  card
                    ? h('span', { class: 'prim', title: suitName(lang, suit) }, miniCard(card, lang), h('small', { text: String(primieraValue(card, facesZero)) }))
                    : h('span', { class: 'prim none', title: suitName(lang, suit), text: '–' }),
                );
              });
            detail.append(h('b', { text: ` ${s.primiera}` }));
          }
          if (c === 'scope') {
            detail.append(`${s.scope} `);
            if (full) for (const sc of it!.scope[i] ?? []) detail.append(miniCard(sc, lang));
          }
          if (c === 'sevens' || c === 'all_sevens') {
            detail.append(`${s.sevens} `);
            if (full) for (const sv of it!.sevens[i] ?? []) detail.append(miniCard(sv, lang));
          }
          cell.append(detail);
          return cell;
        }),
      ),
    );
  }
  rows.push(h('tr', { class: 'total round-total' }, h('th', { scope: 'row', text: t(lang, 'roundTotal') }), ...sides.map((s) => h('td', { text: String(s.round_total) }))));
  rows.push(h('tr', { class: 'total totals' }, h('th', { scope: 'row', text: t(lang, 'totals') }), ...ro.msg.totals.map((x) => h('td', { text: String(x) }))));
  return h(
    'div',
    { class: 'dialog roundover', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'rs-title', 'data-round': ro.msg.round ?? null },
    h('h2', { id: 'rs-title', text: t(lang, 'roundScore') }),
    full ? null : h('p', { class: 'help', text: t(lang, 'partialRound') }),
    h('div', { class: 'scroll' }, h('table', { class: 'roundscore' }, h('thead', {}, head), h('tbody', {}, ...rows))),
    h('div', { class: 'row' }, h('button', { class: 'primary', 'data-action': 'continue', autofocus: true, text: t(lang, 'continue') })),
  );
}

function result(app: AppState, v: TableView): HTMLElement {
  const lang = app.lang;
  const go = app.gameOver!;
  let title: string;
  if (go.winner === null) title = t(lang, 'noWinner');
  else if (v.viewer !== null && sideOf(v.eff, v.viewer) === go.winner) title = t(lang, 'youWin');
  else if (v.viewer !== null) title = `${t(lang, 'youLose')}: ${t(lang, 'winnerIs', { name: sideLabel(v, go.winner, lang) })}`;
  else title = t(lang, 'winnerIs', { name: sideLabel(v, go.winner, lang) });
  const sides = go.totals.map((x, i) => h('tr', { class: go.winner === i ? 'mine' : '' }, h('th', { scope: 'row', text: sideLabel(v, i, lang) }), h('td', { text: String(x) })));
  const rev = app.reviewState;
  return h(
    'div',
    { class: 'dialog result', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'go-title' },
    h('h2', { id: 'go-title', text: `${t(lang, 'gameOver')}: ${title}` }),
    h('table', { class: 'scoretable' }, h('tbody', {}, ...sides)),
    go.seed ? h('p', { class: 'seed' }, t(lang, 'seedRevealed', { seed: '' }), h('code', { text: go.seed })) : null,
    app.msg?.seed_sha256 ? h('p', { class: 'sha help' }, t(lang, 'seedCheck', { sha: '' }), h('code', { text: app.msg.seed_sha256 })) : null,
    h(
      'div',
      { class: 'row' },
      h('a', { class: 'button', href: `/api/tables/${encodeURIComponent(v.code)}/record`, download: `scopa-${v.code}.json`, 'data-action': 'download', text: t(lang, 'download') }),
      h('button', { 'data-action': 'review', disabled: rev === 'asking', text: t(lang, 'review') }),
      h('button', { class: 'primary', 'data-action': 'new-game', text: t(lang, 'newGame') }),
    ),
    app.record ? reviewer(app) : null,
    rev === 'unavailable' ? h('p', { class: 'help', text: t(lang, 'reviewUnavailable') }) : null,
  );
}

/** The review: every move of the game, one at a time, with the table
 * before it (from the record), the server's verdict on it (its mark, what
 * it cost, the bot's move) and the list of the moves the server marked. */
function reviewer(app: AppState): HTMLElement {
  const lang = app.lang;
  const steps = reviewSteps(app.record!);
  const i = Math.max(0, Math.min(steps.length - 1, app.reviewStep));
  const st = steps[i];
  if (!st) return h('p', { class: 'help', text: '—' });
  const names = app.record!.seats ?? app.msg?.seats ?? [];
  const { each, complete } = verdicts(app.review, steps);
  const v = each[i];
  const costly = !!v && v.mark !== '';
  const table = h('div', { class: 'revtable', 'aria-label': t(lang, 'table') });
  for (const c of st.before) {
    const m = miniCard(c, lang);
    if (st.move.takes.includes(c)) m.classList.add('taken');
    table.append(m);
  }
  if (!st.before.length) table.append(h('span', { class: 'help', text: t(lang, 'emptyTable') }));
  const who = (seat: number) => names[seat] || `${t(lang, 'openSeat')} ${seat + 1}`;
  const marked = markedSteps(each);
  return h(
    'section',
    {
      class: 'reviewer',
      'aria-live': 'polite',
      'data-step': i,
      'data-round': st.round,
      'data-index': st.index,
      'data-move': formatMove(st.move),
      'data-marks': complete ? 'server' : app.review ? 'partial' : 'none',
    },
    h('h3', { text: t(lang, 'reviewStep', { r: st.round + 1, i: st.index + 1, n: app.record!.rounds[st.round]?.moves.length ?? 0 }) }),
    h(
      'p',
      { class: costly ? 'costly' : '' },
      h('b', { text: `${who(st.seat)}: ` }),
      miniCard(st.move.card, lang),
      ` ${describeMove(lang, st.move)}`,
      costly ? h('span', { class: 'mark', title: t(lang, v.mark === '??' ? 'blunder' : 'slip'), text: v.mark }) : null,
      costly
        ? h('span', {
            class: 'loss',
            'data-cost': v.cost.toFixed(2),
            'data-best': v.best,
            text: ` — ${t(lang, 'reviewCost', { n: v.cost.toFixed(2) })}, ${t(lang, 'reviewBest', { move: v.best })}`,
          })
        : null,
    ),
    table,
    h(
      'div',
      { class: 'row' },
      h('button', { 'data-action': 'review-prev', disabled: i === 0, 'aria-label': t(lang, 'prev'), text: '◀' }),
      h('span', { class: 'count', text: `${i + 1} / ${steps.length}` }),
      h('button', { 'data-action': 'review-next', disabled: i === steps.length - 1, 'aria-label': t(lang, 'next'), text: '▶' }),
    ),
    app.review
      ? h(
          'div',
          { class: 'marks' },
          h('h4', { text: t(lang, 'reviewMarked', { n: marked.length }) }),
          marked.length
            ? h(
                'ol',
                {},
                ...marked.map((k) => {
                  const s = steps[k]!;
                  const w = each[k]!;
                  return h(
                    'li',
                    { class: k === i ? 'here' : '' },
                    h('button', {
                      'data-action': 'review-go',
                      'data-value': k,
                      'aria-current': k === i ? 'step' : null,
                      text: `${t(lang, 'reviewAt', { r: s.round + 1, i: s.index + 1 })} · ${who(s.seat)} ${formatMove(s.move)} ${w.mark} ${w.cost.toFixed(2)}`,
                    }),
                  );
                }),
              )
            : null,
        )
      : null,
  );
}

function renderOverlay(box: HTMLElement, app: AppState, v: TableView): void {
  const which = app.roundOver ? 'round' : app.gameOver ? 'game' : '';
  const key = `${which}:${app.reviewState}:${app.lang}:${app.record ? app.reviewStep : -1}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!which) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.replaceChildren(which === 'round' ? roundScore(app, v) : result(app, v));
  const focus = box.querySelector('[autofocus], button.primary') as HTMLElement | null;
  focus?.focus();
}

export function rankSort(a: Card, b: Card): number {
  return rankOf(a) - rankOf(b);
}
