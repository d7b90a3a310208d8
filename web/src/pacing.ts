/*
 * pacing.ts -- when each server message is applied.  Answers that do not
 * change the table go straight through; the others wait in a queue and are
 * applied one at a time: two states that arrive together (a bot answering
 * at once) are shown PACE_MS apart so each move can be seen and animated,
 * and nothing after a round score is applied until the player closes it.
 *
 * What must stay true: messages are applied in the order they arrived;
 * with animations off (the switch, or the system's reduced motion) nothing
 * waits but the round score.
 */
import type { ServerMsg } from './protocol.js';
import { type Model, type Step, step, then } from './model.js';
import { apply } from './messages.js';

export const PACE_MS = 700; // between two moves arriving together

const THROUGH: ReadonlySet<ServerMsg['type']> = new Set([
  'hello',
  'pong',
  'notice',
  'hint',
  'review',
  'error',
  'seated',
  'reaction',
  'seeking',
  'paired',
  'unseeked',
  'said',
  'talk',
  'reported',
  'tournament',
]);

/** A message from the transport. */
export function receive(m: Model, msg: ServerMsg, now: number): Step {
  if (THROUGH.has(msg.type)) return apply(m, msg, now);
  return pump({ ...m, queue: [...m.queue, msg] }, now);
}

/** Apply what may be applied now. */
export function pump(m: Model, now: number): Step {
  let s = step(m);
  while (!s.model.pacing && s.model.queue.length && !s.model.roundOver) {
    const [msg, ...rest] = s.model.queue as [ServerMsg, ...ServerMsg[]];
    s = then(s, (x) => apply({ ...x, queue: rest }, msg, now));
    const another = rest.some((x) => x.type === 'state');
    if (msg.type === 'state' && another && !s.model.skipAnim && !s.model.reducedMotion)
      s = then(s, (x) =>
        step({ ...x, pacing: true }, { kind: 'timer', timer: { name: 'pace' }, ms: PACE_MS }),
      );
  }
  return s;
}

/** The pace timer fired: the next message's turn. */
export function paced(m: Model, now: number): Step {
  return pump({ ...m, pacing: false }, now);
}
