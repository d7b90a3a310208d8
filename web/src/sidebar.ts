/*
 * sidebar.ts -- beside the table: the scores and the target (the round's
 * totals while its score is on screen: tableview.ts shownScores), the hint and
 * animation switches with the keys, and the table's rules (what differs
 * from the defaults, and the seed's commitment).
 */
import { REACTIONS, gameName, optionName, t, valueName } from './i18n.js';
import { fillReaction } from './faces.js';
import { differences, num, sideCount, sideOf } from './rules.js';
import { type AppState, type TableView, shownScores } from './tableview.js';
import { h, sideLabel } from './dom.js';
import { deckOf, muted, oneClick } from './settings.js';
import { DECKS } from './cards.js';

export function renderScores(app: AppState, v: TableView, box: Element): void {
  const lang = app.lang;
  const sides = sideCount(v.eff);
  const scores = shownScores(app);
  const rows = [];
  for (let s = 0; s < sides; s++) {
    const mine = v.viewer !== null && sideOf(v.eff, v.viewer) === s;
    rows.push(
      h(
        'tr',
        { class: mine ? 'mine' : '' },
        h('th', { scope: 'row', text: sideLabel(v, s, lang) }),
        h('td', { text: scores[s] ?? 0 }),
      ),
    );
  }
  box.replaceChildren(
    h('h2', { text: `${t(lang, 'scores')} (${t(lang, 'target', { n: num(v.eff, 'target') })})` }),
    h('table', { class: 'scoretable' }, h('tbody', {}, ...rows)),
    ...[ratedLine(app)].filter((x) => x !== null),
  );
}

/** Whether the game changes ratings, when the server says (accounts). */
function ratedLine(app: AppState): HTMLElement | null {
  const rated = app.msg?.rated;
  if (typeof rated !== 'boolean') return null;
  return h('p', {
    class: `rated-line ${rated ? 'rated' : 'unrated'}`,
    text: t(app.lang, rated ? 'ratedHelp' : 'unratedHelp'),
  });
}

export function renderRulesBox(app: AppState, v: TableView, sha: string, box: HTMLElement): void {
  const lang = app.lang;
  const diffs = differences(v.rules);
  const title = `${t(lang, 'tableRules')}: ${gameName(lang, v.eff)}, ${num(v.eff, 'players')}p, ${t(lang, 'target', { n: num(v.eff, 'target') })}`;
  const wasOpen = (box as HTMLDetailsElement).open;
  box.replaceChildren(
    h('summary', { text: title }),
    h(
      'div',
      {},
      diffs.length
        ? h(
            'ul',
            {},
            ...diffs.map(([k, val]) =>
              h('li', { text: `${optionName(lang, k)}: ${valueName(lang, val)}` }),
            ),
          )
        : h('p', { class: 'help', text: t(lang, 'defaults') }),
      sha ? h('p', { class: 'sha', text: t(lang, 'seedHash', { sha }) }) : null,
    ),
  );
  (box as HTMLDetailsElement).open = wasOpen || window.innerWidth > 900;
}

export function renderTools(app: AppState, v: TableView, box: Element): void {
  const lang = app.lang;
  const hints = v.viewer !== null && app.msg?.hints !== false; // none at a table of people
  const parts: (HTMLElement | null)[] = [
    h(
      'div',
      { class: 'row' },
      hints
        ? h('button', {
            'data-action': 'hint',
            disabled: !v.myTurn || !app.hintsOn,
            text: t(lang, 'hint'),
          })
        : null,
      hints
        ? h('button', {
            'data-action': 'hints-toggle',
            'aria-pressed': String(app.hintsOn),
            text: app.hintsOn ? t(lang, 'hintOn') : t(lang, 'hintOff'),
          })
        : null,
      h('button', {
        'data-action': 'skip-toggle',
        'aria-pressed': String(app.skipAnim),
        text: t(lang, 'skip'),
      }),
      v.viewer !== null
        ? h('button', {
            'data-action': 'oneclick-toggle',
            'aria-pressed': String(oneClick(app.stored)),
            title: t(lang, 'oneClickHelp'),
            text: t(lang, 'oneClick'),
          })
        : null,
    ),
    h(
      'div',
      { class: 'row' },
      h('button', {
        'data-action': 'mute-toggle',
        'aria-pressed': String(!muted(app.stored)),
        text: muted(app.stored) ? t(lang, 'soundOff') : t(lang, 'soundOn'),
      }),
      deckPicker(app),
    ),
    // the keys play cards: nothing to say to a spectator
    // and H only where a hint can be asked for
    v.viewer !== null
      ? h('p', {
          class: 'help keys',
          text: t(lang, 'keyboardHelp', { hint: hints && app.hintsOn ? t(lang, 'keyHint') : '' }),
        })
      : null,
    reactionsRow(app, v),
    watchingLine(app),
  ];
  box.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
}

/** Quick reactions, for a person seated with another person at the
 * table (none for spectators, none against bots only), and their mute. */
function reactionsRow(app: AppState, v: TableView): HTMLElement | null {
  const me = v.viewer;
  if (me === null || !v.presence.some((p, i) => i !== me && p !== 'bot')) return null;
  const lang = app.lang;
  return h(
    'div',
    { class: 'reactions', role: 'group', 'aria-label': t(lang, 'reactionsLabel') },
    ...REACTIONS.map((id) =>
      fillReaction(
        h('button', { class: 'react', 'data-action': 'react', 'data-value': id }),
        lang,
        id,
      ),
    ),
    h('button', {
      'data-action': 'reactions-toggle',
      'aria-pressed': String(app.reactionsOn),
      text: t(lang, app.reactionsOn ? 'reactionsOn' : 'reactionsOff'),
    }),
  );
}

/** Who is watching: a count, and the names they gave. */
function watchingLine(app: AppState): HTMLElement | null {
  const w = app.msg?.watching;
  if (!w || w.count === 0) return null;
  const names = w.names.length ? ` (${w.names.join(', ')})` : '';
  return h('p', {
    class: 'help watching',
    text: t(app.lang, 'watchingCount', { n: w.count }) + names,
  });
}

/** The cards' style, chosen here and remembered (settings.ts). */
function deckPicker(app: AppState): HTMLElement {
  const chosen = deckOf(app.stored);
  return h(
    'label',
    { class: 'deckpick' },
    `${t(app.lang, 'deck')} `,
    h(
      'select',
      { 'data-setting': 'deck' },
      ...DECKS.map((d) =>
        h('option', { value: d, selected: d === chosen, text: t(app.lang, `deck_${d}`) }),
      ),
    ),
  );
}
