/*
 * reviewer.ts -- the review on the result screen: one move at a time
 * with the table before it (the review's, review.ts), the server's
 * verdict on it (its mark, what it cost, the bot's move), and the list of
 * every move the server marked, each a button that goes there.
 *
 * What must stay true: the marks, costs and best moves shown are the
 * server's (review.ts verdicts), never the client's own judgement.
 */
import { type Lang, t } from './i18n.js';
import { type ReviewMsg, formatMove, parseMove } from './protocol.js';
import type { AppState } from './tableview.js';
import { type ReviewStep, type Verdict, markedSteps, reviewSteps, verdicts } from './review.js';
import { describeMove, h, miniCard, nameOf } from './dom.js';

/** The steps and verdicts of the last review drawn: stepping redraws
 * the reviewer on every key, the game does not change. */
let memo: {
  review: ReviewMsg;
  steps: ReviewStep[];
  each: (Verdict | null)[];
  complete: boolean;
} | null = null;

function stepsOf(review: ReviewMsg): NonNullable<typeof memo> {
  if (memo && memo.review === review) return memo;
  const steps = reviewSteps(review);
  memo = { review, steps, ...verdicts(review, steps) };
  return memo;
}

/** What a mark means, in words ("?" loses about 0.3 points or more on
 * average): the server marks a move only when its loss is that large
 * beyond the loss's own uncertainty. */
function meaning(lang: Lang, mark: string): string {
  return t(lang, mark === '??' ? 'blunder' : 'slip');
}

/** The server's mark, what the loss means with its doubt, and the better
 * move with what it does, in the server's words (the library's); the
 * notation stays in attributes and in the downloadable record. */
function verdictEl(lang: Lang, v: Verdict): HTMLElement[] {
  const best = parseMove(v.best);
  const bestSaid = v.bestWords ?? (best ? describeMove(lang, best) : null);
  return [
    h('span', {
      class: `mark m${v.mark.length}`,
      title: meaning(lang, v.mark),
      text: v.mark,
    }),
    h(
      'span',
      { class: 'loss', 'data-cost': v.cost.toFixed(2), 'data-best': v.best },
      v.lossWords ? h('span', { class: 'lossword', text: `${v.lossWords}.` }) : null,
      bestSaid
        ? h('span', {
            class: 'better',
            text: ` ${t(lang, 'reviewBest', { move: bestSaid })}.`,
          })
        : null,
    ),
  ];
}

/** The review on screen: the steps come with the server's review (the
 * table before each move is the library's); until it comes, a line that
 * says it is being made. */
export function reviewer(app: AppState): HTMLElement {
  const lang = app.lang;
  if (!app.review) return h('p', { class: 'help reviewing', text: t(lang, 'reviewing') });
  const { steps, each, complete } = stepsOf(app.review);
  const i = Math.max(0, Math.min(steps.length - 1, app.reviewStep));
  const st = steps[i];
  if (!st) return h('p', { class: 'help', text: '—' });
  const names = app.record?.seats ?? app.msg?.seats ?? [];
  const v = each[i];
  const costly = !!v && v.mark !== '';
  const table = h('div', { class: 'revtable', 'aria-label': t(lang, 'table') });
  for (const c of st.before ?? []) {
    const m = miniCard(c, lang);
    if (st.move.takes.includes(c)) m.classList.add('taken');
    table.append(m);
  }
  if (st.before && !st.before.length)
    table.append(h('span', { class: 'help', text: t(lang, 'emptyTable') }));
  if (!st.before) table.append(h('span', { class: 'help', text: t(lang, 'reviewNoTable') }));
  const who = (seat: number) => nameOf(names, seat, lang);
  const marked = markedSteps(each);
  const step = h(
    'div',
    { class: 'step', 'aria-live': 'polite' },
    h('h3', {
      text: t(lang, 'reviewStep', {
        r: st.round + 1,
        i: st.index + 1,
        n: st.of,
      }),
    }),
    h(
      'p',
      { class: `played${costly ? ' costly' : ''}` },
      h('b', { text: `${who(st.seat)}: ` }),
      miniCard(st.move.card, lang),
      h('span', { class: 'said', text: ` ${v?.words ?? describeMove(lang, st.move)}.` }),
      ...(costly ? verdictEl(lang, v) : []),
    ),
    table,
    h(
      'div',
      { class: 'row' },
      h('button', {
        'data-action': 'review-prev',
        disabled: i === 0,
        'aria-label': t(lang, 'prev'),
        text: '◀',
      }),
      h('span', { class: 'count', text: `${i + 1} / ${steps.length}` }),
      h('button', {
        'data-action': 'review-next',
        disabled: i === steps.length - 1,
        'aria-label': t(lang, 'next'),
        text: '▶',
      }),
    ),
  );
  const list = h(
    'nav',
    { class: 'marks', 'aria-label': t(lang, 'reviewMarked', { n: marked.length }) },
    h('h4', { text: t(lang, 'reviewMarked', { n: marked.length }) }),
    h('p', { class: 'help legend', text: `${meaning(lang, '?')}; ${meaning(lang, '??')}.` }),
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
              h(
                'button',
                {
                  'data-action': 'review-go',
                  'data-value': k,
                  'aria-current': k === i ? 'step' : null,
                },
                h('span', {
                  class: 'where',
                  text: t(lang, 'reviewAt', { r: s.round + 1, i: s.index + 1 }),
                }),
                h('span', { class: 'who', text: who(s.seat) }),
                h('span', { class: 'what', text: w.moveWords ?? describeMove(lang, s.move) }),
                h('span', { class: `mark m${w.mark.length}`, text: w.mark }),
                h('span', { class: 'cost', text: w.costWords ?? w.cost.toFixed(2) }),
              ),
            );
          }),
        )
      : null,
  );
  return h(
    'section',
    {
      class: 'reviewer',
      'data-step': i,
      'data-round': st.round,
      'data-index': st.index,
      'data-move': formatMove(st.move),
      'data-table': st.before ? st.before.join(' ') : null,
      'data-marks': complete ? 'server' : 'partial',
    },
    step,
    list,
  );
}
