/*
 * anim.ts -- the one animation path.  Every change of the table goes
 * through it: before a redraw, snapshot() notes where each card element is;
 * after it, play() slides every card that moved from its old place to its
 * new one (laying, taking, dealing: FLIP), brings new cards in from where
 * they come from (a seat, the stock), and flies the cards that left (taken,
 * swept) to the pile that took them.  Short (about 300 ms), and skippable:
 * skip() ends them at once, and reduced motion turns them off.
 *
 * What must stay true: animations only move copies or transforms; the DOM
 * after play() is exactly what render made, whether or not they ran.
 */

export interface Snapshot {
  rects: Map<string, DOMRect>;
}

export const DURATION = 300;

let skipping = false;
let running: Animation[] = [];

export function setSkip(on: boolean): void {
  skipping = on;
  if (on) skip();
}

export function isSkipping(): boolean {
  return (
    skipping ||
    (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches)
  );
}

/** Finish every running animation now. */
export function skip(): void {
  for (const a of running) a.finish();
  running = [];
}

export function busy(): boolean {
  return running.some((a) => a.playState === 'running');
}

export function snapshot(cards: Map<string, HTMLElement>): Snapshot {
  const rects = new Map<string, DOMRect>();
  // nothing will move: no reading of the layout (each read can force one)
  if (isSkipping()) return { rects };
  for (const [k, el] of cards) if (el.isConnected) rects.set(k, el.getBoundingClientRect());
  return { rects };
}

function track(a: Animation): void {
  running.push(a);
  a.finished.then(
    () => (running = running.filter((x) => x !== a)),
    () => (running = running.filter((x) => x !== a)),
  );
}

/**
 * After a redraw: slide each card of `cards` from its rect in `before` (or,
 * for a card that was not on screen, from `origin(key)`), and fly `leaving`
 * (copies of removed cards, with their old rects) to `target(key)`.
 */
export function play(
  before: Snapshot,
  cards: Map<string, HTMLElement>,
  origin: (key: string) => DOMRect | null,
  leaving: { el: HTMLElement; from: DOMRect; to: DOMRect | null }[],
  delay = 0,
): void {
  if (isSkipping()) {
    for (const l of leaving) l.el.remove();
    return;
  }
  for (const [k, el] of cards) {
    if (!el.isConnected) continue;
    const now = el.getBoundingClientRect();
    const from = before.rects.get(k) ?? origin(k);
    if (!from || now.width === 0) continue;
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    const s = before.rects.has(k) ? from.width / now.width : Math.min(1, from.width / now.width);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(s - 1) < 0.01) continue;
    track(
      el.animate(
        [
          { transform: `translate(${dx}px, ${dy}px) scale(${s})`, transformOrigin: '0 0' },
          { transform: 'none', transformOrigin: '0 0' },
        ],
        {
          duration: DURATION,
          easing: 'cubic-bezier(.2,.7,.3,1)',
          delay: before.rects.has(k) ? 0 : delay,
        },
      ),
    );
  }
  for (const l of leaving) {
    const to = l.to;
    Object.assign(l.el.style, {
      position: 'fixed',
      left: `${l.from.left}px`,
      top: `${l.from.top}px`,
      width: `${l.from.width}px`,
      height: `${l.from.height}px`,
      margin: '0',
      zIndex: '35', // under the Scopa! banner (38) and every dialog (40): style.css
      pointerEvents: 'none',
    });
    document.body.appendChild(l.el);
    const dx = to ? to.left + to.width / 2 - (l.from.left + l.from.width / 2) : 0;
    const dy = to ? to.top + to.height / 2 - (l.from.top + l.from.height / 2) : 0;
    const a = l.el.animate(
      [
        { transform: 'none', opacity: 1 },
        { transform: 'none', opacity: 1, offset: 0.45 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.2 },
      ],
      { duration: DURATION * 2.2, easing: 'ease-in', delay },
    );
    track(a);
    a.finished.then(
      () => l.el.remove(),
      () => l.el.remove(),
    );
  }
}

/** A banner over the table's cards ("Scopa!"), above the cards and the
 * cards flying to a pile, under any dialog; gone by itself. */
export function flash(over: HTMLElement, text: string): void {
  const el = document.createElement('div');
  el.className = 'flash';
  el.textContent = text;
  el.setAttribute('aria-hidden', 'true');
  const r = over.getBoundingClientRect();
  el.style.left = `${r.left + r.width / 2}px`;
  el.style.top = `${r.top + r.height / 2}px`;
  document.body.appendChild(el);
  if (isSkipping()) {
    setTimeout(() => el.remove(), 1100);
    return;
  }
  const a = el.animate(
    [
      { opacity: 0, transform: 'translate(-50%, -50%) scale(.6)' },
      { opacity: 1, transform: 'translate(-50%, -50%) scale(1.1)', offset: 0.3 },
      { opacity: 0, transform: 'translate(-50%, -50%) scale(1)' },
    ],
    { duration: 1100, easing: 'ease-out' },
  );
  track(a);
  a.finished.then(
    () => el.remove(),
    () => el.remove(),
  );
}
