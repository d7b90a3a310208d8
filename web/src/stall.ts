/*
 * stall.ts -- a table the server stopped because it could not store a
 * change (the error `store_failed`: its database write failed; docs/serve.md
 * "The database").  The page says so in words, the move is not played
 * (CONTRACTS.md), and the page takes the table back by itself: a resume
 * with its token (a watch for a spectator) after a back-off that grows
 * while the table keeps failing, until the server can store again.
 *
 * What must stay true: a stalled table is never left dead; while it is
 * stalled the token is forgotten only for `bad_token` (a failing server
 * says nothing of the token); the back-off grows with each failure at the
 * same position and starts again once a move is stored past it.
 */
import type { ErrorMsg, StateMsg } from './protocol.js';
import { t } from './i18n.js';
import { type Model, type Step, step } from './model.js';
import { greet } from './session.js';
import { backoff } from './socket.js';

const FIRST_MS = 1000; // the first resume after a failure
const MAX_MS = 30000; // never longer between two tries
const BACK_MS = 6000; // "the table is back" stays this long

/** Where the table was when it failed (a move stored later moves on). */
function position(msg: StateMsg | null): string {
  if (!msg) return '';
  return `${msg.round?.dealer ?? ''}:${msg.round?.moves.length ?? 0}:${msg.scores.join(',')}`;
}

/** The server could not store the table's last change (or a resume of it
 * failed): the move is dropped and the next resume waits its turn. */
export function stalled(m: Model, now: number): Step {
  const at = position(m.msg);
  const fails = m.stallAt === at ? m.storeFails + 1 : 1;
  const wait = backoff(fails - 1, FIRST_MS, MAX_MS, 0);
  return step(
    {
      ...m,
      stalled: { retryAt: now + wait },
      storeFails: fails,
      stallAt: at,
      resuming: false,
      selection: null,
      pending: null,
    },
    { kind: 'timer', timer: { name: 'resume' }, ms: wait },
  );
}

/** The back-off is over: take the table back (resume, or watch). */
export function resumeDue(m: Model): Step {
  if (!m.stalled || m.stalled.retryAt === null || m.code === null) return step(m);
  return greet({ ...m, stalled: { retryAt: null } });
}

/** An error while a stalled table's resume is out: anything but a stale
 * token is the server's trouble, tried again later.  Null: not ours. */
export function stallError(m: Model, msg: ErrorMsg, now: number): Step | null {
  if (msg.code === 'store_failed') return stalled(m, now);
  if (!m.stalled || m.stalled.retryAt !== null || msg.code === 'bad_token') return null;
  return stalled(m, now);
}

/** A state of the table came: it is back.  A move stored past the failed
 * position starts the back-off again. */
export function backAgain(m: Model): Step {
  const moved = m.storeFails > 0 && position(m.msg) !== m.stallAt;
  const next = moved ? { ...m, storeFails: 0, stallAt: null } : m;
  if (!m.stalled) return step(next);
  const text = t(m.lang, 'tableBack');
  return step(
    { ...next, stalled: null, notice: text },
    { kind: 'cancel', name: 'resume' },
    { kind: 'timer', timer: { name: 'notice', text }, ms: BACK_MS },
  );
}
