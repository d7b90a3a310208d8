/*
 * overlay.ts -- the screens over the table: the itemised round score
 * (each category with the cards that decided it, primiera suit by suit,
 * the server's numbers always) and the result (the seed revealed, the
 * record to download, the review).  Rebuilt only when what it shows
 * changes, so the focus stays on its button.
 */
import { type Key, suitName, t } from './i18n.js';
import type { Side } from './protocol.js';
import { num, sideOf } from './rules.js';
import { type AppState, type TableView, itemise } from './tableview.js';
import { h, miniCard, nameOf, sideLabel } from './dom.js';
import { reviewer } from './reviewer.js';
import { LOCAL_CODE } from './local.js';

const CATS = [
  'carte',
  'denari',
  'settebello',
  'primiera',
  'scope',
  're_bello',
  'napola',
  'sevens',
  'all_sevens',
] as const;

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
  const it = itemise(ro.drawn, sides);
  const full = it !== null;
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col', text: t(lang, 'category') }),
    ...sides.map((_, i) => h('th', { scope: 'col', text: sideLabel(v, i, lang) })),
  );
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
          const cell = h(
            'td',
            { class: pts > 0 ? 'won' : '' },
            h('span', { class: 'pts', text: pts > 0 ? `+${pts}` : '0' }),
          );
          const detail = h('div', { class: 'why' });
          if (c === 'carte') detail.append(String(s.cards));
          if (c === 'denari') {
            detail.append(`${s.denari} `);
            if (full) for (const d of it.denari[i] ?? []) detail.append(miniCard(d, lang));
          }
          if (c === 'settebello' && s.settebello) detail.append(miniCard('7d', lang));
          if (c === 're_bello' && full && it.reBello === i) detail.append(miniCard('10d', lang));
          if (c === 'primiera') {
            if (full)
              (it.primiera[i] ?? []).forEach((best, k) => {
                const suit = ['d', 'c', 's', 'b'][k]!;
                detail.append(
                  best
                    ? h(
                        'span',
                        { class: 'prim', title: suitName(lang, suit) },
                        miniCard(best.card, lang),
                        h('small', { text: String(best.value) }),
                      )
                    : h('span', { class: 'prim none', title: suitName(lang, suit), text: '–' }),
                );
              });
            detail.append(h('b', { text: ` ${s.primiera}` }));
          }
          if (c === 'scope') {
            detail.append(`${s.scope} `);
            if (full) for (const sc of it.scope[i] ?? []) detail.append(miniCard(sc, lang));
          }
          if (c === 'sevens' || c === 'all_sevens') {
            detail.append(`${s.sevens} `);
            if (full) for (const sv of it.sevens[i] ?? []) detail.append(miniCard(sv, lang));
          }
          cell.append(detail);
          return cell;
        }),
      ),
    );
  }
  rows.push(
    h(
      'tr',
      { class: 'total round-total' },
      h('th', { scope: 'row', text: t(lang, 'roundTotal') }),
      ...sides.map((s) => h('td', { text: String(s.round_total) })),
    ),
  );
  rows.push(
    h(
      'tr',
      { class: 'total totals' },
      h('th', { scope: 'row', text: t(lang, 'totals') }),
      ...ro.msg.totals.map((x) => h('td', { text: String(x) })),
    ),
  );
  return h(
    'div',
    {
      class: 'dialog roundover',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'rs-title',
      'data-round': ro.msg.round ?? null,
    },
    h('h2', { id: 'rs-title', text: t(lang, 'roundScore') }),
    full ? null : h('p', { class: 'help', text: t(lang, 'partialRound') }),
    h(
      'div',
      { class: 'scroll' },
      h('table', { class: 'roundscore' }, h('thead', {}, head), h('tbody', {}, ...rows)),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', {
        class: 'primary',
        'data-action': 'continue',
        autofocus: true,
        text: t(lang, 'continue'),
      }),
    ),
  );
}

/** Play again: a button to ask; once someone asked, who said yes, and
 * for whoever has not, the question with yes and no.  Only for people
 * sitting at the table (a spectator follows them to the next table). */
function rematchPart(app: AppState, v: TableView): HTMLElement | null {
  const lang = app.lang;
  const me = v.viewer;
  if (me === null || app.msg?.next) return null;
  const yes = app.msg?.rematch ?? null;
  const box = h('div', { class: 'rematch', role: 'status' });
  if (!yes) {
    box.append(
      h('button', { class: 'primary', 'data-action': 'rematch', text: t(lang, 'playAgain') }),
    );
    return box;
  }
  const asked = yes.map((y, i) => (y && v.presence[i] !== 'bot' ? i : -1)).filter((i) => i >= 0);
  const names = asked.filter((i) => i !== me).map((i) => nameOf(v.names, i, lang));
  if (yes[me]) {
    const waiting = yes
      .map((y, i) => (y ? -1 : i))
      .filter((i) => i >= 0)
      .map((i) => nameOf(v.names, i, lang));
    box.append(h('p', { text: t(lang, 'rematchWaiting', { names: waiting.join(', ') }) }));
    return box;
  }
  box.append(
    h('p', { class: 'ask', text: t(lang, 'rematchAsked', { names: names.join(', ') }) }),
    h(
      'div',
      { class: 'row' },
      h('button', { class: 'primary', 'data-action': 'rematch', text: t(lang, 'rematchYes') }),
      h('button', { 'data-action': 'rematch-no', text: t(lang, 'rematchNo') }),
    ),
  );
  return box;
}

function result(app: AppState, v: TableView): HTMLElement {
  const lang = app.lang;
  const tid = app.msg?.tournament;
  // a finished table opened for its review (/t/CODE?review) had no
  // game_over: its last state's totals, and no winner said
  const go = app.gameOver ?? {
    type: 'game_over' as const,
    totals: app.msg?.scores ?? [],
    winner: undefined,
    seed: '',
  };
  // "Game over" above, the outcome as the title: "You win!", or the
  // winner's name with "you lose" said above it
  let title: string;
  let kicker = t(lang, 'gameOver');
  if (go.winner === undefined) title = t(lang, 'review');
  else if (go.winner === null) title = t(lang, 'noWinner');
  else if (v.viewer !== null && sideOf(v.eff, v.viewer) === go.winner) title = t(lang, 'youWin');
  else {
    title = t(lang, 'winnerIs', { name: sideLabel(v, go.winner, lang) });
    if (v.viewer !== null) kicker += ` · ${t(lang, 'youLose')}`;
  }
  const sides = go.totals.map((x, i) =>
    h(
      'tr',
      { class: go.winner === i ? 'mine' : '' },
      h('th', { scope: 'row', text: sideLabel(v, i, lang) }),
      h('td', { text: String(x) }),
    ),
  );
  const rev = app.reviewState;
  return h(
    'div',
    { class: 'dialog result', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'go-title' },
    h('p', { class: 'kicker', text: kicker }),
    h('h2', { id: 'go-title', text: title }),
    // without a game_over the state's totals are those before the last
    // round: not shown rather than shown wrong
    app.gameOver ? h('table', { class: 'scoretable' }, h('tbody', {}, ...sides)) : null,
    // the proof of a fair deal, folded: on a phone the two long numbers
    // took the screen (issue 34)
    go.seed || app.msg?.seed_sha256
      ? h(
          'details',
          { class: 'verify' },
          h('summary', { text: t(lang, 'verifyDeal') }),
          go.seed
            ? h(
                'p',
                { class: 'seed' },
                t(lang, 'seedRevealed', { seed: '' }),
                h('code', { text: go.seed }),
              )
            : null,
          app.msg?.seed_sha256
            ? h(
                'p',
                { class: 'sha help' },
                t(lang, 'seedCheck', { sha: '' }),
                h('code', { text: app.msg.seed_sha256 }),
              )
            : null,
        )
      : null,
    h(
      'div',
      { class: 'row' },
      v.code === LOCAL_CODE
        ? h('button', { 'data-action': 'download-local', text: t(lang, 'download') })
        : h('a', {
            class: 'button',
            href: `/api/tables/${encodeURIComponent(v.code)}/record`,
            download: `scopa-${v.code}.json`,
            'data-action': 'download',
            text: t(lang, 'download'),
          }),
      h('button', { 'data-action': 'review', disabled: rev === 'asking', text: t(lang, 'review') }),
      tid
        ? h('a', {
            class: 'button primary',
            href: `/tournament/${tid}`,
            'data-action': 'go',
            text: t(lang, 'tourneyBack'),
          })
        : h('button', {
            class: v.viewer === null ? 'primary' : '',
            'data-action': 'new-game',
            text: t(lang, 'newGame'),
          }),
    ),
    // a tournament's table has no rematch: the director pairs the next game
    v.code === LOCAL_CODE || tid ? null : rematchPart(app, v), // "New game" plays again here
    app.review || rev === 'asking' ? reviewer(app) : null,
    rev === 'unavailable' ? h('p', { class: 'help', text: t(lang, 'reviewUnavailable') }) : null,
  );
}

export function renderOverlay(box: HTMLElement, app: AppState, v: TableView): void {
  const reviewing = app.msg?.status === 'finished' && app.reviewState !== 'idle';
  const which = app.roundOver ? 'round' : app.gameOver || reviewing ? 'game' : '';
  const playAgain = JSON.stringify([app.msg?.rematch ?? null, app.msg?.next ?? null]);
  const key = `${which}:${app.reviewState}:${app.lang}:${app.review ? app.reviewStep : -1}:${playAgain}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!which) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  // the dialog is drawn afresh (a step of the review, say): the focus goes
  // back to the button that had it, else to the dialog's main button
  const had =
    document.activeElement instanceof HTMLElement && box.contains(document.activeElement)
      ? document.activeElement
      : null;
  const action = had?.dataset.action;
  const value = had?.dataset.value;
  box.replaceChildren(which === 'round' ? roundScore(app, v) : result(app, v));
  const again = action
    ? box.querySelector<HTMLButtonElement>(
        `[data-action="${action}"]${value !== undefined ? `[data-value="${value}"]` : ''}:not([disabled])`,
      )
    : null;
  const focus = again ?? box.querySelector<HTMLElement>('[autofocus], button.primary');
  focus?.focus();
}
