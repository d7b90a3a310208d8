/*
 * session.ts -- the page's place at a table across connections: start the
 * transport once, and on every (re)opened connection say who we are (take
 * the seat back with its token, or create, join or watch as the page was
 * asked).  Pure: it returns the messages to send as effects.
 *
 * What must stay true: a page with a token for its table resumes before
 * anything else (so a reload or a dropped connection keeps the seat); the
 * name and player identity sent are the stored ones.  A Play now seek
 * lives on its connection (the server withdraws it when it closes): it is
 * sent again on every new one while the page still seeks, and withdrawn
 * (dropSeek) before the page goes anywhere else.
 */
import type { ClientMsg } from './protocol.js';
import { LOCAL_CODE } from './local.js';
import { type Model, type Step, step } from './model.js';

/** The stored name and player identity, for create and join. */
function who(m: Model): { name?: string; player?: string } {
  const name = m.stored['scopa.name'];
  const player = m.stored['scopa.player'];
  return { ...(name ? { name } : {}), ...(player ? { player } : {}) };
}

/** What to say on a (re)opened connection, if anything. */
function greeting(m: Model): ClientMsg | null {
  if (m.code && m.token) return { type: 'resume', code: m.code, token: m.token };
  if (m.intent?.kind === 'create') {
    const { rules, seats, clock, bank, listed, talk } = m.intent;
    return {
      type: 'create',
      rules,
      seats,
      ...who(m),
      ...(clock !== undefined ? { move_clock: clock } : {}),
      ...(bank ? { bank: bank.bank, increment: bank.increment } : {}),
      ...(listed ? { public: true } : {}),
      ...(talk !== undefined ? { talk } : {}),
    };
  }
  if (!m.code && m.seek) return seekMsg(m);
  if (m.code && m.intent?.kind === 'join') return { type: 'join', code: m.code, ...who(m) };
  if (m.code) {
    const name = m.stored['scopa.name'];
    return { type: 'watch', code: m.code, ...(name ? { name } : {}) };
  }
  return null;
}

/** The seek of Play now, as the page seeks it. */
function seekMsg(m: Model): ClientMsg | null {
  if (!m.seek) return null;
  const { rules, clock, bank } = m.seek;
  return {
    type: 'seek',
    rules,
    clock: bank ? { bank: bank.bank, increment: bank.increment } : { move_clock: clock },
    ...who(m),
  };
}

/** Leave Play now: the seek withdrawn on the connection it lives on (a
 * closed one took it along), the page no longer waiting. */
export function dropSeek(m: Model): Step {
  if (!m.seek) return step(m);
  const left = { ...m, seek: null };
  const open = m.connected === 'server' && m.conn.kind === 'open';
  return open ? step(left, { kind: 'send', msg: { type: 'unseek' } }) : step(left);
}

export function greet(m: Model): Step {
  const msg = greeting(m);
  const next = { ...m, resuming: msg?.type === 'resume' };
  return msg ? step(next, { kind: 'send', msg }) : step(next);
}

/** Whether the table the page wants is played by the page's own engine
 * (local.ts): the game saved in the browser, or a new game of the person
 * and bots while no server answers. */
export function wantsLocal(m: Model): boolean {
  if (m.code !== null) return m.code === LOCAL_CODE;
  return m.intent?.kind === 'create' && m.server === 'down' && !m.intent.seats.includes('open');
}

/** Start the transport the table needs (switching from the other one);
 * later, greet on the open one (a new table on the same connection). */
export function ensureConnected(m: Model): Step {
  const want = wantsLocal(m) ? 'local' : 'server';
  if (m.connected !== want)
    return step(
      { ...m, connected: want, conn: { kind: 'connecting' } },
      { kind: 'connect', local: want === 'local' },
    );
  return m.conn.kind === 'open' ? greet(m) : step(m);
}
