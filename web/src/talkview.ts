/*
 * talkview.ts -- table talk on screen (talk.ts holds the lines): the
 * lines said at the table, newest at the bottom, each with its person's
 * name; a box to write one; for each other person a small menu to mute
 * them (their lines hidden on this page) or report them.  Only for a
 * person seated with another person: spectators never see talk.  The
 * form is made once with the table (talkSkeleton) and never redrawn, so
 * what is being typed survives every state.
 */
import { t } from './i18n.js';
import { h } from './dom.js';
import { seatName } from './seats.js';
import { TALK_CHARS, mutedSeats, shownLines } from './talk.js';
import type { AppState, TableView } from './tableview.js';

/** The part of the sidebar talk lives in, drawn once per table. */
export function talkSkeleton(app: AppState): HTMLElement {
  const lang = app.lang;
  return h(
    'section',
    { class: 'talk', 'aria-labelledby': 'talk-title', hidden: true },
    h('h2', { id: 'talk-title', text: t(lang, 'talkTitle') }),
    h('p', { class: 'help talk-note' }),
    h('ol', { class: 'talk-lines', role: 'log', 'aria-live': 'polite' }),
    h(
      'form',
      { class: 'talk-form', 'data-form': 'talk', autocomplete: 'off' },
      h('input', {
        type: 'text',
        name: 'talk-text',
        maxlength: String(TALK_CHARS),
        'aria-label': t(lang, 'talkPlaceholder'),
        placeholder: t(lang, 'talkPlaceholder'),
      }),
      h('button', { type: 'submit', text: t(lang, 'talkSend') }),
    ),
    h('div', { class: 'talk-people' }),
  );
}

/** The other people at the table (not bots, not open seats). */
function others(app: AppState, v: TableView): number[] {
  const open = app.msg?.open ?? [];
  const out: number[] = [];
  v.presence.forEach((p, i) => {
    if (i !== v.viewer && p !== 'bot' && open[i] !== true) out.push(i);
  });
  return out;
}

export function renderTalk(app: AppState, v: TableView, box: HTMLElement): void {
  const lang = app.lang;
  const people = others(app, v);
  box.hidden = v.viewer === null || people.length === 0;
  if (box.hidden) return;
  const on = app.msg?.talk === true;
  const note = box.querySelector('.talk-note')!;
  const list = box.querySelector<HTMLElement>('.talk-lines')!;
  const form = box.querySelector<HTMLFormElement>('.talk-form')!;
  const lines = shownLines(app);
  note.textContent = !on ? t(lang, 'talkOff') : lines.length ? '' : t(lang, 'talkEmpty');
  form.hidden = !on;
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.hidden = lines.length === 0;
  list.replaceChildren(
    ...lines.map((l) =>
      h(
        'li',
        { class: l.seat === v.viewer ? 'mine' : '' },
        h('strong', { text: `${seatName(v, l.seat, lang)}: ` }),
        h('span', { text: l.text }),
      ),
    ),
  );
  if (atEnd) list.scrollTop = list.scrollHeight;
  const muted = mutedSeats(app.stored, app.code);
  const peopleBox = box.querySelector('.talk-people')!;
  // a person's menu stays open across redraws
  const open = new Set(
    [...peopleBox.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.dataset.seat),
  );
  peopleBox.replaceChildren(
    ...people.map((seat) => {
      const name = seatName(v, seat, lang);
      const isMuted = muted.includes(seat);
      const reported = app.reported.includes(seat);
      return h(
        'details',
        { class: 'talk-person', 'data-seat': String(seat), open: open.has(String(seat)) },
        h('summary', { text: isMuted ? t(lang, 'talkMuted', { name }) : name }),
        h(
          'div',
          { class: 'row' },
          h('button', {
            'data-action': 'mute-seat',
            'data-value': String(seat),
            'aria-pressed': String(isMuted),
            text: t(lang, isMuted ? 'talkUnmute' : 'talkMute'),
          }),
          h('button', {
            'data-action': 'report-seat',
            'data-value': String(seat),
            disabled: reported,
            text: t(lang, reported ? 'talkReported' : 'talkReport'),
          }),
        ),
        h('p', { class: 'help', text: t(lang, 'talkReportHelp') }),
      );
    }),
  );
}
