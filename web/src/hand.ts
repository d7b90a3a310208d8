/*
 * hand.ts -- the viewer's seat at the bottom: the hand (buttons for the
 * cards the server's legal list allows, nothing else), the picked card,
 * the words under the hand (the set shown and Play, why a card plays as
 * it does, the hint), and the viewer's pile.  A spectator sees seat 0
 * there, its cards face down.
 */
import { t } from './i18n.js';
import { parseMove } from './protocol.js';
import { sideOf } from './rules.js';
import { type AppState, type TableView, moveKey, selectedMove } from './tableview.js';
import { backEl, describeMove, faceEl, h } from './dom.js';
import { pileEl, pileSeat, seatName } from './seats.js';
import { bankBadge } from './center.js';

export function renderHand(
  app: AppState,
  v: TableView,
  box: HTMLElement,
  choiceBox: HTMLElement,
  infoBox: HTMLElement,
): void {
  const lang = app.lang;
  const me = v.viewer;
  if (me === null) {
    // a spectator: seat 0 sits at the bottom, its cards face down; that
    // the page watches is said under the hand, not as a badge by seat 0's
    // name (it read as if that player were the one watching)
    const side = sideOf(v.eff, 0);
    infoBox.replaceChildren(
      h(
        'span',
        { class: 'who' },
        h('span', { class: 'name', text: seatName(v, 0, lang) }),
        bankBadge(app, v, 0),
      ),
      pileSeat(v, side) === 0 ? pileEl(app, v, side) : h('span'),
    );
    const backs = [];
    for (let i = 0; i < (v.counts[0] ?? 0); i++) backs.push(backEl(`back:0:${i}`));
    box.replaceChildren(...backs);
    box.dataset.n = String(backs.length);
    box.parentElement!.classList.toggle('turn', v.toPlay === 0 && v.status === 'playing');
    choiceBox.replaceChildren(h('p', { class: 'help watching', text: t(lang, 'spectator') }));
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
      v.round?.dealer === me
        ? h('span', { class: 'badge dealer', title: t(lang, 'dealer'), text: 'D' })
        : null,
      bankBadge(app, v, me),
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
      // what a click on Play will do, as the hints say it ("Lay the 2 of
      // coins on the table"), not as if already done ("laid on the table")
      h('p', {
        class: 'movetext',
        text: v.legalWords.get(moveKey(move)) ?? describeMove(lang, move),
      }),
      h('p', {
        class: 'help',
        // one move: a second click plays it (verbs.ts pick), no "next"
        text:
          ch.options.length > 1
            ? t(lang, 'optionOf', { i: sel.index + 1, n: ch.options.length })
            : t(lang, 'onlyMove'),
      }),
      h(
        'div',
        { class: 'row' },
        h('button', {
          class: 'primary',
          'data-action': 'confirm',
          text: t(lang, 'play'),
        }),
        h('button', { 'data-action': 'cancel', text: t(lang, 'cancel') }),
      ),
    );
  }
  if (app.explain) {
    // why the card plays so: the server's words (the library's), shown as
    // they come; a choice is already said by "option i of n" above
    // (sent with the legal moves: out of turn the page only says so)
    const ch = v.choices.find((x) => x.card === app.explain);
    if (!v.myTurn) parts.push(h('p', { class: 'reason', text: t(lang, 'notYourTurn') }));
    else if (ch?.words && ch.reason !== 'choice')
      parts.push(h('p', { class: 'reason', 'data-reason': ch.reason, text: ch.words }));
  }
  if (app.hint && v.myTurn && app.hintsOn) {
    const hm = app.hint;
    const move = parseMove(hm.move);
    const said =
      typeof hm.words === 'string' && hm.words ? hm.words : move ? describeMove(lang, move) : '';
    const others = typeof hm.others_words === 'string' ? ` ${hm.others_words}` : '';
    parts.push(
      h('p', { class: 'hinttext', text: `${t(lang, 'hintSays', { move: said })}.${others}` }),
    );
  } else if (app.hintState === 'unavailable' && app.hintsOn)
    parts.push(h('p', { class: 'help', text: t(lang, 'hintUnavailable') }));
  choiceBox.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
}
