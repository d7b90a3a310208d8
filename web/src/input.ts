/*
 * input.ts -- clicks, taps and keys, turned into the controller's verbs.
 * One delegated listener per kind of event on the app's root: an element
 * says what it does with data-action (and data-card, data-value).
 *
 * Keyboard alone: Tab reaches every card and button; on the table, the
 * digits 1-9 and 0 pick the cards of the hand (again: the next set it can
 * take), the arrows move between them, Space on a card picks it (again:
 * the next set), Enter plays the chosen move, Esc
 * cancels, H asks for a hint.  Illegal plays cannot be made: the controller
 * only plays moves from the server's legal list (state.ts pickCard).
 */
import type { Card } from './protocol.js';
import type { Lang } from './i18n.js';

export interface Controller {
  onTable(): boolean;
  selected(): Card | null;
  pickCard(card: Card): void;
  pickTableCard(card: Card): void;
  confirm(): void;
  cancel(): void;
  hint(): void;
  toggleHints(): void;
  toggleSkip(): void;
  setLang(l: Lang): void;
  home(): void;
  leaderboard(): void;
  pool(p: string): void;
  startBot(form: HTMLFormElement): void;
  create(form: HTMLFormElement): void;
  join(code: string): void;
  watch(code: string): void;
  copyLink(): void;
  cont(): void;
  newGame(): void;
  review(): void;
  stepReview(delta: number): void;
  gotoReview(step: number): void;
  rulesChanged(form: HTMLFormElement, prefix: string, presetChanged: boolean): void;
  skipAnimations(): void;
}

function actionTarget(e: Event): HTMLElement | null {
  const t = e.target as HTMLElement | null;
  return t?.closest?.('[data-action]') ?? null;
}

export function bindInput(root: HTMLElement, c: Controller): void {
  root.addEventListener('click', (e) => {
    const el = actionTarget(e);
    c.skipAnimations();
    if (!el) return;
    const a = el.dataset.action;
    const card = (el.dataset.card ?? '') as Card;
    switch (a) {
      case 'card':
        return c.pickCard(card);
      case 'table-card':
        return c.pickTableCard(card);
      case 'confirm':
        return c.confirm();
      case 'cancel':
        return c.cancel();
      case 'hint':
        return c.hint();
      case 'hints-toggle':
        return c.toggleHints();
      case 'skip-toggle':
        return c.toggleSkip();
      case 'lang':
        return c.setLang((el.dataset.value as Lang) ?? 'en');
      case 'home':
        e.preventDefault();
        return c.home();
      case 'leaderboard':
        e.preventDefault();
        return c.leaderboard();
      case 'pool':
        return c.pool(el.dataset.value ?? '2p');
      case 'watch': {
        const code = root.querySelector<HTMLInputElement>('#f-code')?.value ?? '';
        return c.watch(code);
      }
      case 'copy':
        return c.copyLink();
      case 'continue':
        return c.cont();
      case 'new-game':
        return c.newGame();
      case 'review':
        return c.review();
      case 'review-prev':
        return c.stepReview(-1);
      case 'review-next':
        return c.stepReview(1);
      case 'review-go':
        return c.gotoReview(Number(el.dataset.value ?? 0));
      default:
        return;
    }
  });

  root.addEventListener('submit', (e) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const kind = form.dataset.form;
    if (kind === 'bot') c.startBot(form);
    else if (kind === 'private') c.create(form);
    else if (kind === 'join') c.join((form.querySelector('#f-code') as HTMLInputElement).value);
  });

  root.addEventListener('change', (e) => {
    const el = e.target as HTMLInputElement | HTMLSelectElement;
    const form = el.closest('form');
    if (!form) return;
    const fs = el.closest<HTMLElement>('fieldset.rules');
    const prefix = fs?.dataset.prefix ?? '';
    if (el.dataset.opt) el.dataset.touched = '1';
    if (fs) c.rulesChanged(form, prefix, el.name === `${prefix}-preset`);
  });

  // on the document: keys count wherever the focus is (even on <body>)
  root.ownerDocument.addEventListener('keydown', (e) => {
    if (root.querySelector('.reviewer') && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      return c.stepReview(e.key === 'ArrowRight' ? 1 : -1);
    }
    if (!c.onTable()) return;
    const target = e.target as HTMLElement;
    if (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')
      return;
    const hand = [...root.querySelectorAll<HTMLElement>('.hand .card')];
    if (e.key >= '0' && e.key <= '9' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const i = e.key === '0' ? 9 : Number(e.key) - 1;
      const el = hand[i];
      if (el?.dataset.card) {
        e.preventDefault();
        el.focus();
        c.pickCard(el.dataset.card as Card);
      }
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && target.dataset.action === 'card') {
      // Space picks and cycles; Enter picks, or plays the card already picked
      e.preventDefault();
      const card = target.dataset.card as Card;
      if (e.key === 'Enter' && c.selected() === card) c.confirm();
      else c.pickCard(card);
      return;
    }
    if (e.key === 'Enter' && target.tagName !== 'BUTTON' && target.tagName !== 'A') {
      e.preventDefault();
      c.confirm();
      return;
    }
    if (e.key === 'Escape') return c.cancel();
    if (e.key === 'h' || e.key === 'H') return c.hint();
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && target.dataset.action === 'card') {
      const i = hand.indexOf(target);
      const next = hand[(i + (e.key === 'ArrowRight' ? 1 : hand.length - 1)) % hand.length];
      next?.focus();
      e.preventDefault();
    }
  });
}
