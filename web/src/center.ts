/*
 * center.ts -- the middle of the table: whose turn it is (or the link to
 * share while seats are open), the table's cards (the set of the picked
 * card marked as taken), the stock, and the last move in words.
 */
import { cardName, t } from './i18n.js';
import { type AppState, type TableView, selectedMove } from './tableview.js';
import { backEl, describeMove, faceEl, h, nameOf } from './dom.js';
import { inviteHow, pageShareEnv } from './share.js';

/** The move clock's seconds left to the seat to play, counted from when
 * the state came; null when no clock runs. */
export function clockLeft(app: AppState): number | null {
  const left = app.msg?.clock_left;
  if (typeof left !== 'number' || app.msg?.status !== 'playing') return null;
  return Math.max(0, left - Math.floor((Date.now() - app.msgAt) / 1000));
}

/** A time bank table (docs/serve.md): seat's time left now, ms, the seat
 * to play's counted down since the state came (after the new round's
 * grace it waits); null on a table without a bank. */
export function bankLeftMs(app: AppState, seat: number): number | null {
  const m = app.msg;
  const left = m?.bank_ms?.[seat];
  if (!m || left === undefined) return null;
  if (m.status !== 'playing' || m.to_play !== seat) return left;
  const ran = Date.now() - app.msgAt - (m.bank_wait_ms ?? 0);
  return Math.max(0, left - Math.max(0, ran));
}

/** A bank in minutes and seconds, rounded up: "4:07", "0:09". */
export function bankText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The badge by a person's name with their bank: running on their turn,
 * red in its last 10 s; null for a bot, an open seat, or no bank. */
export function bankBadge(app: AppState, v: TableView, seat: number): HTMLElement | null {
  const ms = bankLeftMs(app, seat);
  if (ms === null || v.presence[seat] === 'bot' || app.msg?.open?.[seat]) return null;
  const running = v.status === 'playing' && v.toPlay === seat;
  const time = bankText(ms);
  return h('span', {
    class: `badge clock bank${running ? ' running' : ''}${running && ms <= 10000 ? ' low' : ''}`,
    title: t(app.lang, 'bankLeft', { name: nameOf(v.names, seat, app.lang), time }),
    text: time,
  });
}

export function renderCenter(app: AppState, v: TableView, felt: HTMLElement): void {
  const lang = app.lang;
  const status = felt.querySelector('.status')!;
  let s = '';
  if (v.status === 'waiting') s = t(lang, 'waitingPlayers', { code: v.code });
  else if (v.status === 'finished') s = t(lang, 'gameOver');
  else if (v.myTurn) s = t(lang, 'yourTurn');
  else if (v.toPlay !== null) s = t(lang, 'turnOf', { name: nameOf(v.names, v.toPlay, lang) });
  const left = clockLeft(app);
  const bank = v.toPlay !== null ? bankLeftMs(app, v.toPlay) : null;
  if (left !== null && bank !== null) s += ` · ${t(lang, 'timeLeft', { time: bankText(bank) })}`;
  else if (left !== null) s += ` · ${t(lang, 'clockLeft', { s: left })}`;
  status.textContent = s;
  status.classList.toggle('mine', v.myTurn);
  if (v.status === 'waiting') {
    const link = `${location.origin}/t/${v.code}`;
    status.append(
      h(
        'div',
        { class: 'share' },
        h('input', { readonly: true, value: link, 'aria-label': link, class: 'sharelink' }),
        h('button', {
          'data-action': 'copy',
          text: t(lang, inviteHow(pageShareEnv()) === 'share' ? 'share' : 'copy'),
        }),
      ),
    );
  }
  const move = selectedMove(v.choices, app.selection);
  const table = v.drawn?.table ?? [];
  const tc = felt.querySelector('.tablecards')!;
  const els = table.map((c) => {
    const el = faceEl(c, lang);
    el.classList.add('ontable');
    if (move?.takes.includes(c)) el.classList.add('taken');
    if (app.selection) {
      el.setAttribute('data-action', 'table-card');
      if (move?.takes.includes(c))
        el.setAttribute('aria-label', `${cardName(lang, c)} (${t(lang, 'taken')})`);
    }
    return el;
  });
  tc.replaceChildren(
    ...(els.length ? els : [h('p', { class: 'empty', text: t(lang, 'emptyTable') })]),
  );
  (tc as HTMLElement).dataset.n = String(Math.min(els.length, 12));
  const stock = felt.querySelector('.stock')!;
  stock.replaceChildren(
    ...(v.stock > 0
      ? [backEl('stock'), h('span', { class: 'count', text: t(lang, 'stock', { n: v.stock }) })]
      : []),
  );
  const lm = felt.querySelector('.lastmove')!;
  lm.replaceChildren();
  if (v.lastMove) {
    const m = v.lastMove;
    lm.append(
      h('span', { class: 'label', text: `${t(lang, 'lastMove')}: ` }),
      h('span', {
        // "Anna takes the 7 of coins with the 7 of cups": the server's
        // words (scopa_played_words), else the page's own short form
        text: t(lang, m.words ? 'lastMovePlayed' : 'lastMoveText', {
          name: nameOf(v.names, m.seat, lang),
          move: m.words ?? describeMove(lang, m.move),
        }),
      }),
    );
  }
}
