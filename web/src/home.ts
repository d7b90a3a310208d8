/*
 * home.ts -- the home page: play a bot at once (level, preset, every
 * option), create a private table (its seats: friends or bots), join or
 * watch by code.  The form is built once per visit and language (it holds
 * what the player typed); readRules() turns it into the rules object the
 * server gets: the preset plus every option the player changed.
 */
import { type Key, type Lang, optionName, presetName, t, valueName } from './i18n.js';
import { LEVELS, OPTIONS, PRESETS, effective, num, presetOf } from './rules.js';
import type { Rules } from './protocol.js';
import type { Bank } from './model.js';
import type { AppState, LobbyTable, Seek } from './tableview.js';
import { h } from './dom.js';
import { connBanner, setConn, topBar } from './chrome.js';
import { LOCAL_CODE } from './local.js';
import { accountLine } from './accountview.js';
import { setTourneysPanel, tourneysPanel } from './tourneyview.js';

/** The language and account the home page was built for. */
let homeLang: string | null = null;

/** Another screen replaced the home page: build it afresh next time. */
export function forgetHome(): void {
  homeLang = null;
}

/** The move clock of a table of people: off, relaxed, normal, fast (the
 * seconds per move); normal unless the creator says otherwise. */
export const CLOCKS: [Key, number][] = [
  ['clockOff', 0],
  ['clockRelaxed', 120],
  ['clockNormal', 60],
  ['clockFast', 20],
];
export const CLOCK_DEFAULT = 60;

/** The time banks a table of people may play with instead (docs/serve.md
 * "The time bank"): seconds per seat for the whole game, seconds given
 * back after each move. */
export const BANKS: Bank[] = [
  { bank: 600, increment: 5 },
  { bank: 300, increment: 3 },
  { bank: 180, increment: 2 },
];

/** A bank as the clock select's value says it ("bank:300:3"), else null. */
export function bankValue(b: Bank): string {
  return `bank:${b.bank}:${b.increment}`;
}
export function parseBank(value: string): Bank | null {
  const m = /^bank:(\d+):(\d+)$/.exec(value);
  return m ? { bank: Number(m[1]), increment: Number(m[2]) } : null;
}

/** A bank in words: "5 min + 3 s a move". */
export function bankWords(lang: Lang, b: Bank): string {
  const time =
    b.bank % 60 === 0 ? t(lang, 'minutes', { n: b.bank / 60 }) : t(lang, 'seconds', { n: b.bank });
  return b.increment > 0 ? t(lang, 'bankPlus', { time, s: b.increment }) : time;
}

/** Play now's clocks: a stranger's table always has one (a game with no
 * clock waits as long as the slowest person wants). */
export const SEEK_CLOCKS = CLOCKS.filter(([, s]) => s > 0);

/** A move clock in words: its name where it has one. */
function clockWords(lang: Lang, s: number): string {
  const named = CLOCKS.find(([, x]) => x === s);
  return named ? t(lang, named[0]) : t(lang, 'lobbyClock', { s });
}

function select(
  name: string,
  label: string,
  options: [string, string][],
  value: string,
): HTMLElement {
  const s = h('select', { name, id: `f-${name}` });
  for (const [v, text] of options) s.append(h('option', { value: v, selected: v === value, text }));
  return h('label', { class: 'field', for: `f-${name}` }, h('span', { text: label }), s);
}

function optionField(lang: Lang, o: (typeof OPTIONS)[number], prefix: string): HTMLElement {
  const id = `${prefix}-${o.name}`;
  let input: HTMLElement;
  if (o.kind === 'bool') {
    input = h('input', {
      type: 'checkbox',
      id,
      name: o.name,
      'data-opt': o.name,
      checked: o.def === true,
    });
  } else if (o.values) {
    input = h('select', { id, name: o.name, 'data-opt': o.name });
    for (const v of o.values)
      input.append(
        h('option', { value: String(v), selected: v === o.def, text: valueName(lang, v) }),
      );
  } else {
    input = h('input', {
      type: 'number',
      id,
      name: o.name,
      'data-opt': o.name,
      min: o.min ?? 0,
      max: o.max,
      value: String(o.def),
      inputmode: 'numeric',
    });
  }
  return h(
    'label',
    { class: `field opt opt-${o.kind}`, for: id },
    h('span', { text: optionName(lang, o.name) }),
    input,
  );
}

function lastPreset(): string {
  const p = localStorage.getItem('scopa.preset') ?? 'scopa';
  return p in PRESETS ? p : 'scopa';
}

/** The rules part of a form: a preset, the player count, every option. */
export function rulesFieldset(lang: Lang, prefix: string): HTMLElement {
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
    // the variant last played stays chosen (scopa.preset, verbs.ts)
    select(`${prefix}-preset`, t(lang, 'preset'), presets, lastPreset()),
    details,
  );
}

export function renderHome(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const existing = root.querySelector('.home');
  const built = `${lang}:${app.account.status}:${app.account.name ?? ''}`;
  if (existing && homeLang === built) {
    const err = root.querySelector('.home .error');
    if (err) err.textContent = app.error ?? '';
    setConn(root, app);
    setServer(root, app);
    setLobby(root, app);
    setTourneysPanel(root, app);
    setSeek(root, app);
    return;
  }
  homeLang = built;
  // signed in, the seat takes the account's name: no name to type
  const signed = app.account.status === 'signed';
  const levels = LEVELS.map((l): [string, string] => [l, t(lang, `lv_${l}` as Key)]);
  const name = h('input', {
    id: 'f-name',
    name: 'name',
    autocomplete: 'nickname',
    maxlength: 24,
    value: localStorage.getItem('scopa.name') ?? '',
  });
  const seatRows = h('div', { class: 'seats', id: 'private-seats' });
  const bot = h(
    'form',
    { class: 'card-panel', 'data-form': 'bot' },
    h('h2', { text: t(lang, 'playBot') }),
    select('level', t(lang, 'level'), levels, localStorage.getItem('scopa.level') ?? 'intermedio'),
    rulesFieldset(lang, 'bot'),
    h('button', {
      class: 'primary',
      type: 'submit',
      'data-action': 'start-bot',
      text: t(lang, 'start'),
    }),
  );
  const priv = h(
    'form',
    { class: 'card-panel', 'data-form': 'private' },
    h('h2', { text: t(lang, 'privateTable') }),
    h('p', { class: 'help', text: t(lang, 'privateHelp') }),
    rulesFieldset(lang, 'priv'),
    h('div', { class: 'field' }, h('span', { text: t(lang, 'seats') }), seatRows),
    select(
      'clock',
      t(lang, 'clock'),
      [
        ...CLOCKS.map(([k, s]): [string, string] => [String(s), t(lang, k)]),
        ...BANKS.map((b): [string, string] => [
          bankValue(b),
          t(lang, 'bankOption', { bank: bankWords(lang, b) }),
        ]),
      ],
      String(CLOCK_DEFAULT),
    ),
    h('p', { class: 'help', text: t(lang, 'moveClockHelp') }),
    h('p', { class: 'help', text: t(lang, 'bankHelp') }),
    h(
      'label',
      { class: 'check', for: 'f-public' },
      h('input', { type: 'checkbox', id: 'f-public', name: 'public' }),
      h('span', { text: ` ${t(lang, 'listPublic')}` }),
    ),
    h('p', { class: 'help', text: t(lang, 'listPublicHelp') }),
    h(
      'label',
      { class: 'check', for: 'f-talk' },
      h('input', { type: 'checkbox', id: 'f-talk', name: 'talk', checked: true }),
      h('span', { text: ` ${t(lang, 'talkOption')}` }),
    ),
    h('p', { class: 'help', text: t(lang, 'talkOptionHelp') }),
    h('button', {
      class: 'primary',
      type: 'submit',
      'data-action': 'create',
      text: t(lang, 'create'),
    }),
  );
  const presets = Object.keys(PRESETS).map((p): [string, string] => [p, presetName(lang, p)]);
  const playNow = h(
    'section',
    { class: 'card-panel playnow', 'aria-labelledby': 'playnow-title' },
    h('h2', { id: 'playnow-title', text: t(lang, 'playNow') }),
    h(
      'form',
      { class: 'seek-form', 'data-form': 'seek' },
      h('p', { class: 'help', text: t(lang, 'playNowHelp') }),
      h(
        'div',
        { class: 'row' },
        select('seek-preset', t(lang, 'preset'), presets, lastPreset()),
        select(
          'seek-clock',
          t(lang, 'clock'),
          [
            ...SEEK_CLOCKS.map(([k, s]): [string, string] => [String(s), t(lang, k)]),
            ...BANKS.map((b): [string, string] => [
              bankValue(b),
              t(lang, 'bankOption', { bank: bankWords(lang, b) }),
            ]),
          ],
          String(CLOCK_DEFAULT),
        ),
      ),
      h('button', {
        class: 'primary',
        type: 'submit',
        'data-action': 'seek',
        text: t(lang, 'seekGo'),
      }),
    ),
    h('div', { class: 'seek-status', role: 'status', 'aria-live': 'polite' }),
  );
  const join = h(
    'form',
    { class: 'card-panel', 'data-form': 'join' },
    h('h2', { text: t(lang, 'joinByCode') }),
    h(
      'label',
      { class: 'field', for: 'f-code' },
      h('span', { text: t(lang, 'code') }),
      h('input', {
        id: 'f-code',
        name: 'code',
        autocapitalize: 'characters',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: 16,
      }),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', {
        class: 'primary',
        type: 'submit',
        'data-action': 'join',
        text: t(lang, 'join'),
      }),
      h('button', { type: 'button', 'data-action': 'watch', text: t(lang, 'watch') }),
    ),
    h(
      'p',
      {},
      h('a', { href: '/?leaderboard', 'data-action': 'leaderboard', text: t(lang, 'leaderboard') }),
    ),
  );
  root.replaceChildren(
    topBar(app, [], [accountLine(app)]),
    h(
      'main',
      { class: 'home' },
      h('p', { class: 'tagline', text: t(lang, 'tagline') }),
      signed
        ? null
        : h(
            'label',
            { class: 'field name', for: 'f-name' },
            h('span', { text: t(lang, 'yourName') }),
            name,
          ),
      h('p', { class: 'error', role: 'alert', text: app.error ?? '' }),
      h('p', { class: 'offline help', role: 'status', hidden: true, text: t(lang, 'noServer') }),
      savedGame(app),
      playNow,
      h(
        'section',
        { class: 'card-panel lobby', 'aria-labelledby': 'lobby-title' },
        h('h2', { id: 'lobby-title', text: t(lang, 'lobbyTitle') }),
        h('div', { class: 'lobby-list', 'aria-live': 'polite' }),
      ),
      tourneysPanel(lang),
      h('div', { class: 'panels' }, bot, priv, join),
    ),
    connBanner(app),
  );
  for (const prefix of ['bot', 'priv']) {
    const form = root.querySelector<HTMLElement>(`fieldset[data-prefix="${prefix}"]`);
    if (form) syncOptions(form, prefix); // the option fields show that variant
    if (form && app.refused?.form === prefix) showRules(form, app.refused.rules);
  }
  fillSeats(root, lang);
  setServer(root, app);
  setLobby(root, app);
  setTourneysPanel(root, app);
  setSeek(root, app);
}

/** Play now: the form, or while the page seeks, what it waits for, a way
 * to stop, and the bot the server offers once nobody came; drawn again
 * only when the seek changed. */
function setSeek(root: HTMLElement, app: AppState): void {
  const box = root.querySelector<HTMLElement>('.home .seek-status');
  const form = root.querySelector<HTMLElement>('.home form[data-form="seek"]');
  if (!box || !form) return;
  const key = JSON.stringify(app.seek);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  form.toggleAttribute('hidden', app.seek !== null);
  box.replaceChildren(...(app.seek ? seekStatus(app.lang, app.seek) : []));
}

function seekStatus(lang: Lang, s: Seek): HTMLElement[] {
  const game = presetName(lang, presetOf(s.rules));
  const clock = s.bank
    ? t(lang, 'bankOption', { bank: bankWords(lang, s.bank) })
    : clockWords(lang, s.clock);
  const looking =
    s.players > 2
      ? t(lang, 'seekingMany', { n: s.players - 1, game, clock })
      : t(lang, 'seekingOne', { game, clock });
  const out = [
    h('p', { class: 'seeking', text: looking }),
    h('p', { class: 'help', text: t(lang, 'seekWaitHelp') }),
  ];
  const offer = s.offer;
  const level = offer ? t(lang, `lv_${offer}` as Key) : '';
  out.push(
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', 'data-action': 'unseek', text: t(lang, 'seekCancel') }),
      offer
        ? h('button', {
            class: 'primary',
            type: 'button',
            'data-action': 'seek-bot',
            text: t(lang, 'seekOfferGo', { level }),
          })
        : null,
    ),
  );
  if (offer) out.splice(2, 0, h('p', { class: 'seek-offer', text: t(lang, 'seekOffer') }));
  return out;
}

/** The lobby's list, drawn again only when it changed (it is asked for
 * every few seconds: routes.ts LOBBY_REFRESH_MS). */
function setLobby(root: HTMLElement, app: AppState): void {
  const box = root.querySelector<HTMLElement>('.home .lobby-list');
  if (!box) return;
  const key = JSON.stringify(app.lobby);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const lang = app.lang;
  const { state, tables } = app.lobby;
  if (state !== 'ok' || !tables.length) {
    const words = state === 'loading' ? 'connecting' : state === 'ok' ? 'lobbyEmpty' : 'lobbyNone';
    box.replaceChildren(h('p', { class: 'help', text: t(lang, words) }));
    return;
  }
  box.replaceChildren(h('ul', { class: 'lobby-tables' }, ...tables.map((x) => lobbyRow(lang, x))));
}

/** One public table: its game, who sits, its clock, and a seat to take. */
function lobbyRow(lang: Lang, x: LobbyTable): HTMLElement {
  const game =
    presetName(lang, x.preset) +
    (x.target !== null ? ` · ${t(lang, 'lobbyTarget', { n: x.target })}` : '');
  const who = x.seats.map((s, i) => {
    if (s === 'open') return t(lang, 'lobbyFree');
    const p = x.people.find((q) => q.seat === i);
    if (!p) return s; // a bot, by its name
    return p.rating !== null ? `${p.name} (${p.rating})` : p.name;
  });
  const clock = x.bank
    ? bankWords(lang, x.bank)
    : x.moveClock === null
      ? ''
      : x.moveClock > 0
        ? t(lang, 'lobbyClock', { s: x.moveClock })
        : t(lang, 'clockOff');
  return h(
    'li',
    { 'data-code': x.code },
    h('span', { class: 'lobby-game', text: game }),
    h('span', { class: 'lobby-seats', text: who.join(', ') }),
    h('span', { class: 'lobby-clock help', text: clock }),
    h('button', {
      class: 'primary',
      type: 'button',
      'data-action': 'join-public',
      'data-value': x.code,
      'aria-label': `${t(lang, 'sitDown')}: ${game}, ${who.join(', ')}`,
      text: t(lang, 'sitDown'),
    }),
  );
}

/** The game saved in this browser (local.ts), if the page was given its
 * token: a way back to it after the tab was closed. */
function savedGame(app: AppState): HTMLElement | null {
  if (!app.stored[`scopa.token.${LOCAL_CODE}`]) return null;
  return h(
    'p',
    { class: 'saved-game' },
    h('span', { text: `${t(app.lang, 'savedGame')} ` }),
    h('a', {
      class: 'button primary',
      href: `/t/${LOCAL_CODE}`,
      'data-action': 'continue-local',
      text: t(app.lang, 'continueGame'),
    }),
  );
}

/** Without a server only the bots' form is offered: the others need it. */
function setServer(root: HTMLElement, app: AppState): void {
  const down = app.server === 'down';
  const needs = [
    'form[data-form="private"]',
    'form[data-form="join"]',
    '.home .lobby',
    '.home .tourneys-panel',
  ];
  for (const sel of [...needs, '.home .playnow'])
    root.querySelector<HTMLElement>(sel)?.toggleAttribute('hidden', down);
  root.querySelector<HTMLElement>('.home .offline')?.toggleAttribute('hidden', !down);
  // no server, no account: the sign-in offer goes with the forms
  root.querySelector<HTMLElement>('.topbar .acct')?.toggleAttribute('hidden', down);
}

/** The private table's seat choices: seat 0 is the creator, the others a
 * friend or a bot; as many rows as the rules' players. */
export function fillSeats(root: HTMLElement, lang: Lang): void {
  const box = root.querySelector('#private-seats');
  const form = root.querySelector('form[data-form="private"]');
  if (!box || !form) return;
  const players = num(effective(readRules(form as HTMLElement, 'priv')), 'players');
  const old = [...box.querySelectorAll('select')].map((s) => s.value);
  box.replaceChildren(h('div', { class: 'seat-row', text: `1. ${t(lang, 'seatMe')}` }));
  for (let i = 1; i < players; i++) {
    const opts: [string, string][] = [['open', t(lang, 'seatOpen')]];
    for (const l of LEVELS) opts.push([l, `${t(lang, 'bot')}: ${t(lang, `lv_${l}` as Key)}`]);
    const s = h('select', { 'data-seat': i, 'aria-label': `${t(lang, 'seats')} ${i + 1}` });
    for (const [v, text] of opts)
      s.append(h('option', { value: v, selected: v === (old[i - 1] ?? 'open'), text }));
    box.append(h('div', { class: 'seat-row' }, `${i + 1}. `, s));
  }
}

/** The rules object a form describes: the preset, then every option that
 * the player changed from what the preset gives. */
export function readRules(
  form: HTMLElement,
  prefix: string,
): Record<string, string | number | boolean> {
  const preset =
    form.querySelector<HTMLSelectElement>(`[name="${prefix}-preset"]`)?.value ?? 'scopa';
  const rules: Record<string, string | number | boolean> = { ...(PRESETS[preset] ?? {}) };
  const eff = effective(rules);
  for (const o of OPTIONS) {
    const el = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-opt="${o.name}"]`);
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
  const preset =
    form.querySelector<HTMLSelectElement>(`[name="${prefix}-preset"]`)?.value ?? 'scopa';
  const eff = effective(PRESETS[preset] ?? {});
  for (const o of OPTIONS) {
    const el = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-opt="${o.name}"]`);
    if (!el) continue;
    el.dataset.touched = '';
    if (o.kind === 'bool') (el as HTMLInputElement).checked = eff[o.name] === true;
    else el.value = String(eff[o.name]);
  }
}

/** The rules of a refused create in the option fields, as the player
 * had set them (the preset select already shows theirs, scopa.preset),
 * the options open, so the library's words above can be acted on. */
function showRules(form: HTMLElement, rules: Rules): void {
  for (const o of OPTIONS) {
    const el = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-opt="${o.name}"]`);
    const v = rules[o.name];
    if (!el || v === undefined) continue;
    el.dataset.touched = '1';
    if (o.kind === 'bool') (el as HTMLInputElement).checked = v === true;
    else el.value = String(v);
  }
  const details = form.querySelector('details');
  if (details) details.open = true;
}

/** A friend's link (/t/CODE) with no name stored: the name first, then
 * the seat (input.ts sends a join with it); or just watch. */
export function renderName(root: HTMLElement, app: AppState): void {
  const lang = app.lang;
  const code = app.code ?? '';
  root.replaceChildren(
    topBar(app),
    h(
      'main',
      { class: 'home' },
      h(
        'form',
        { class: 'card-panel askname', 'data-form': 'name' },
        h('h2', { text: t(lang, 'askName', { code }) }),
        h(
          'label',
          { class: 'field', for: 'f-name' },
          h('span', { text: t(lang, 'yourName') }),
          h('input', {
            id: 'f-name',
            name: 'name',
            autocomplete: 'nickname',
            maxlength: 24,
            required: true,
            autofocus: true,
          }),
        ),
        h(
          'div',
          { class: 'row' },
          h('button', { class: 'primary', type: 'submit', text: t(lang, 'sitDown') }),
          h('button', {
            type: 'button',
            'data-action': 'watch-only',
            text: t(lang, 'justWatch'),
          }),
        ),
      ),
    ),
    connBanner(app),
  );
  root.querySelector<HTMLInputElement>('#f-name')?.focus();
}
