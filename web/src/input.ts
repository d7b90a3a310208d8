/*
 * input.ts -- clicks, taps and keys, turned into the verbs of verbs.ts
 * (model.ts Verb), with what they need read from the page here (the forms'
 * rules, seats, name and code).  What touches the page alone is done here:
 * copying the table's link, a form following its preset and players, a
 * click ending the animations.  One delegated listener per kind of event
 * on the app's root: an element says what it does with data-action (and
 * data-card, data-value).
 *
 * Keyboard alone: Tab reaches every card and button; on the table, the
 * digits 1-9 and 0 pick the cards of the hand (again: the next set it can
 * take; a digit never plays), the arrows move between them, Space on a card picks it (again:
 * the next set), Enter plays the chosen move, Esc
 * cancels, H asks for a hint.  Illegal plays cannot be made: the controller
 * only plays moves from the server's legal list (tableview.ts pickCard).
 */
import type { Card } from './protocol.js';
import { type Lang, t } from './i18n.js';
import { invite, pageShareEnv } from './share.js';
import type { Verb } from './model.js';
import type { AppState } from './tableview.js';
import { CLOCK_DEFAULT, fillSeats, parseBank, readRules, syncOptions } from './home.js';
import { PRESETS } from './rules.js';
import * as anim from './anim.js';
import { readTourneyForm, syncTourneyForm } from './tourneyview.js';

/** Where the verbs go, and the state they are read against. */
export interface Controller {
  verb(v: Verb): void;
  app(): AppState;
}

/** The page's keys play only on a table with nothing over it. */
const onTable = (a: AppState): boolean =>
  a.screen === 'table' && !a.roundOver && !a.gameOver && a.peek === null;

const field = (root: HTMLElement, sel: string): string =>
  root.querySelector<HTMLInputElement | HTMLSelectElement>(sel)?.value ?? '';

/** The bot form: rules, level and name. */
function startBot(root: HTMLElement, form: HTMLFormElement): Verb {
  const level = field(form, '[name="level"]');
  return { kind: 'startBot', rules: readRules(form, 'bot'), level, name: field(root, '#f-name') };
}

/** The private table form: rules, each seat's choice, name. */
function create(root: HTMLElement, form: HTMLFormElement): Verb {
  const seats: (string | undefined)[] = [];
  for (const el of form.querySelectorAll<HTMLSelectElement>('select[data-seat]'))
    seats[Number(el.dataset.seat)] = el.value;
  const choice = form.querySelector<HTMLSelectElement>('[name="clock"]')?.value ?? '';
  const bank = parseBank(choice);
  const clock = Number(choice);
  const talkBox = form.querySelector<HTMLInputElement>('[name="talk"]');
  return {
    kind: 'create',
    rules: readRules(form, 'priv'),
    seats,
    name: field(root, '#f-name'),
    ...(bank ? { bank } : Number.isInteger(clock) ? { clock } : {}),
    ...(form.querySelector<HTMLInputElement>('[name="public"]')?.checked ? { listed: true } : {}),
    ...(talkBox ? { talk: talkBox.checked } : {}),
  };
}

/** Play now's form: the game (a preset's rules) and the move clock. */
function seek(root: HTMLElement, form: HTMLFormElement): Verb {
  const preset = field(form, '[name="seek-preset"]');
  const choice = field(form, '[name="seek-clock"]');
  const bank = parseBank(choice);
  const clock = Number(choice);
  return {
    kind: 'seek',
    rules: { ...(PRESETS[preset] ?? {}) },
    clock: Number.isInteger(clock) && clock > 0 ? clock : CLOCK_DEFAULT,
    ...(bank ? { bank } : {}),
    name: field(root, '#f-name'),
  };
}

/** The table's link shared (a phone's share sheet) or copied to the
 * clipboard (and selected, where that fails): share.ts. */
function copyLink(root: HTMLElement, a: AppState): void {
  const link = `${location.origin}/t/${a.code ?? ''}`;
  root.querySelector<HTMLInputElement>('.sharelink')?.select();
  void invite(pageShareEnv(), link, t(a.lang, 'inviteText'));
}

function actionTarget(e: Event): HTMLElement | null {
  const t = e.target as HTMLElement | null;
  return t?.closest?.('[data-action]') ?? null;
}

/** The account's forms (accountview.ts): their fields into a verb; the
 * password fields are marked, so that they are emptied once answered. */
function accountForm(
  form: HTMLFormElement,
  kind: 'login' | 'signup' | 'password' | 'delete',
  c: Controller,
): void {
  const f = (name: string): string => field(form, `[name="${name}"]`);
  for (const p of form.querySelectorAll<HTMLInputElement>('input[type="password"]'))
    p.dataset.sent = '1';
  if (kind === 'login')
    return c.verb({ kind: 'login', name: f('acct-name'), password: f('acct-password') });
  if (kind === 'signup')
    return c.verb({
      kind: 'signup',
      name: f('acct-name'),
      password: f('acct-password'),
      repeat: f('acct-repeat'),
    });
  if (kind === 'password')
    return c.verb({
      kind: 'password',
      old: f('acct-old'),
      new: f('acct-new'),
      repeat: f('acct-new2'),
    });
  c.verb({ kind: 'deleteAccount', password: f('acct-delete') });
}

export function bindInput(root: HTMLElement, c: Controller): void {
  root.addEventListener('click', (e) => {
    const el = actionTarget(e);
    anim.skip(); // any click ends the running animations
    if (!el) return;
    const a = el.dataset.action;
    const card = (el.dataset.card ?? '') as Card;
    switch (a) {
      case 'card':
        return c.verb({ kind: 'pick', card });
      case 'table-card':
        return c.verb({ kind: 'pickTable', card });
      case 'confirm':
        return c.verb({ kind: 'confirm' });
      case 'cancel':
        return c.verb({ kind: 'cancel' });
      case 'pile': // a side's pile: what may be seen of it (pileview.ts)
        return c.verb({ kind: 'peek', what: Number(el.dataset.side ?? 0) });
      case 'peek-moves':
        return c.verb({ kind: 'peek', what: 'moves' });
      case 'peek-close': // its button, or a tap outside the panel
        return c.verb({ kind: 'peek', what: null });
      case 'hint':
        return c.verb({ kind: 'hint' });
      case 'hints-toggle':
        return c.verb({ kind: 'toggleHints' });
      case 'skip-toggle':
        return c.verb({ kind: 'toggleSkip' });
      case 'oneclick-toggle':
        return c.verb({ kind: 'toggleOneClick' });
      case 'mute-toggle':
        return c.verb({ kind: 'toggleMute' });
      case 'lang':
        return c.verb({ kind: 'lang', lang: (el.dataset.value as Lang) ?? 'en' });
      case 'home':
        e.preventDefault();
        return c.verb({ kind: 'home' });
      case 'leaderboard':
        e.preventDefault();
        return c.verb({ kind: 'leaderboard' });
      case 'pool':
        return c.verb({ kind: 'pool', pool: el.dataset.value ?? '2p' });
      case 'unseek':
        return c.verb({ kind: 'unseek' });
      case 'seek-bot': // the bot the server offered while nobody came
        return c.verb({ kind: 'seekBot', name: field(root, '#f-name') });
      case 'join-public': // a table of the lobby's list
        return c.verb({ kind: 'join', code: el.dataset.value ?? '', name: field(root, '#f-name') });
      case 'watch':
        return c.verb({ kind: 'watch', code: field(root, '#f-code') });
      case 'watch-only':
        return c.verb({ kind: 'watch', code: c.app().code ?? '' });
      case 'copy':
        return copyLink(root, c.app());
      case 'continue':
        return c.verb({ kind: 'continue', now: Date.now() });
      case 'new-game':
        return c.verb({ kind: 'newGame' });
      case 'react':
        return c.verb({ kind: 'react', reaction: el.dataset.value ?? '' });
      case 'reactions-toggle':
        return c.verb({ kind: 'toggleReactions' });
      case 'rematch':
        return c.verb({ kind: 'rematch', accept: true });
      case 'rematch-no':
        return c.verb({ kind: 'rematch', accept: false });
      case 'review':
        return c.verb({ kind: 'review' });
      case 'download-local': // the game in this browser: the worker's record
        return c.verb({ kind: 'download' });
      case 'continue-local':
        e.preventDefault();
        return c.verb({ kind: 'continueLocal' });
      case 'review-prev':
        return c.verb({ kind: 'stepReview', delta: -1 });
      case 'review-next':
        return c.verb({ kind: 'stepReview', delta: 1 });
      case 'review-go':
        return c.verb({ kind: 'gotoReview', step: Number(el.dataset.value ?? 0) });
      case 'signin':
        e.preventDefault();
        return c.verb({ kind: 'signin' });
      case 'account':
        e.preventDefault();
        return c.verb({ kind: 'account' });
      case 'go': // a link of this page's own (the account's games)
        e.preventDefault();
        return c.verb({ kind: 'go', path: el.getAttribute('href') ?? '/' });
      case 'logout':
        return c.verb({ kind: 'logout' });
      case 'logout-all':
        return c.verb({ kind: 'logoutAll' });
      case 'login-mode':
        return c.verb({
          kind: 'loginMode',
          mode: el.dataset.value === 'signup' ? 'signup' : 'login',
        });
      case 'chart-pool':
        return c.verb({ kind: 'chartPool', pool: el.dataset.value ?? '2p' });
      case 'mute-seat':
        return c.verb({ kind: 'muteSeat', seat: Number(el.dataset.value) });
      case 'report-seat':
        return c.verb({ kind: 'report', seat: Number(el.dataset.value) });
      case 'tourney-join':
        return c.verb({ kind: 'tourneyJoin' });
      case 'tourney-join-with': // a pair's partner who asked already
        return c.verb({ kind: 'tourneyJoin', partner: el.dataset.value ?? '' });
      case 'tourney-leave':
        return c.verb({ kind: 'tourneyLeave' });
      case 'tourney-start':
        return c.verb({ kind: 'tourneyStart' });
      default:
        return;
    }
  });

  root.addEventListener('submit', (e) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const kind = form.dataset.form;
    if (kind === 'bot') c.verb(startBot(root, form));
    else if (kind === 'private') c.verb(create(root, form));
    else if (kind === 'seek') c.verb(seek(root, form));
    else if (kind === 'tourney') c.verb({ kind: 'tourneyCreate', form: readTourneyForm(form) });
    else if (kind === 'tourney-join')
      c.verb({ kind: 'tourneyJoin', partner: field(form, '[name="t-partner"]') });
    else if (kind === 'talk') {
      const box = form.querySelector<HTMLInputElement>('[name="talk-text"]');
      if (box && box.value.trim()) c.verb({ kind: 'say', text: box.value });
      if (box) box.value = '';
    } else if (kind === 'name') {
      const name = field(form, '#f-name');
      if (name) c.verb({ kind: 'join', code: c.app().code ?? '', name });
    } else if (kind === 'join')
      c.verb({ kind: 'join', code: field(form, '#f-code'), name: field(root, '#f-name') });
    else if (kind === 'login' || kind === 'signup' || kind === 'password' || kind === 'delete')
      accountForm(form, kind, c);
  });

  root.addEventListener('change', (e) => {
    const el = e.target as HTMLInputElement | HTMLSelectElement;
    if (el.dataset.setting === 'deck') return c.verb({ kind: 'deck', style: el.value });
    const form = el.closest('form');
    if (!form) return;
    if (el.name === 't-format') return syncTourneyForm(form);
    // a public table is quiet unless its creator turns talk on
    if (el.name === 'talk') el.dataset.touched = '1';
    const talk = form.querySelector<HTMLInputElement>('[name="talk"]');
    if (el.name === 'public' && talk && !talk.dataset.touched)
      talk.checked = !(el as HTMLInputElement).checked;
    const fs = el.closest<HTMLElement>('fieldset.rules');
    const prefix = fs?.dataset.prefix ?? '';
    if (el.dataset.opt) el.dataset.touched = '1';
    if (!fs) return;
    // the form's own fields follow a preset and the number of players
    if (el.name === `${prefix}-preset`) syncOptions(form, prefix);
    if (prefix === 'priv') fillSeats(root, c.app().lang);
  });

  // on the document: keys count wherever the focus is (even on <body>)
  root.ownerDocument.addEventListener('keydown', (e) => {
    if (root.querySelector('.reviewer') && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      return c.verb({ kind: 'stepReview', delta: e.key === 'ArrowRight' ? 1 : -1 });
    }
    const target = e.target as HTMLElement;
    if (c.app().peek !== null && e.key === 'Escape') return c.verb({ kind: 'peek', what: null });
    if (
      (e.key === 'Enter' || e.key === ' ') &&
      target.dataset?.action === 'pile' &&
      onTable(c.app())
    ) {
      e.preventDefault(); // the pile is a button: Enter and Space open it
      return c.verb({ kind: 'peek', what: Number(target.dataset.side ?? 0) });
    }
    if (!onTable(c.app())) return;
    if (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
      return;
    const hand = [...root.querySelectorAll<HTMLElement>('.hand .card')];
    if (e.key >= '0' && e.key <= '9' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const i = e.key === '0' ? 9 : Number(e.key) - 1;
      const el = hand[i];
      if (el?.dataset.card) {
        e.preventDefault();
        el.focus();
        c.verb({ kind: 'pick', card: el.dataset.card as Card, look: true });
      }
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && target.dataset.action === 'card') {
      // Space picks and cycles; Enter picks, or plays the card already picked
      e.preventDefault();
      const card = target.dataset.card as Card;
      if (e.key === 'Enter' && c.app().selection?.card === card) c.verb({ kind: 'confirm' });
      else c.verb({ kind: 'pick', card });
      return;
    }
    if (e.key === 'Enter' && target.tagName !== 'BUTTON' && target.tagName !== 'A') {
      e.preventDefault();
      c.verb({ kind: 'confirm' });
      return;
    }
    if (e.key === 'Escape') return c.verb({ kind: 'cancel' });
    if (e.key === 'h' || e.key === 'H') return c.verb({ kind: 'hint' });
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && target.dataset.action === 'card') {
      const i = hand.indexOf(target);
      const next = hand[(i + (e.key === 'ArrowRight' ? 1 : hand.length - 1)) % hand.length];
      next?.focus();
      e.preventDefault();
    }
  });
}
