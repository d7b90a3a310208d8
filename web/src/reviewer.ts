/*
 * reviewer.ts -- the review on the result screen: one move at a time
 * with the table before it (from the record, review.ts), the server's
 * verdict on it (its mark, what it cost, the bot's move), and the list of
 * every move the server marked, each a button that goes there.
 */
import { t } from './i18n.js';
import { formatMove } from './protocol.js';
import type { AppState } from './state.js';
import { markedSteps, reviewSteps, verdicts } from './review.js';
import { describeMove, h, miniCard } from './dom.js';

/** The review: every move of the game, one at a time, with the table
 * before it (from the record), the server's verdict on it (its mark, what
 * it cost, the bot's move) and the list of the moves the server marked. */
export function reviewer(app: AppState): HTMLElement {
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
