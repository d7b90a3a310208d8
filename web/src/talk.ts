/*
 * talk.ts -- table talk, the page's side (docs/serve.md "Table talk"):
 * the lines of the table as the server numbers them (a `talk` after
 * sitting, a `said` for each new one), a seat muted by the reader
 * (remembered per table in localStorage: scopa.mute.CODE, the seats as
 * "0,2"), and the verbs that say a line and report a person.  Pure: the
 * view is talkview.ts.
 */
import type { ReportedMsg, SaidMsg, TalkLine, TalkMsg } from './protocol.js';
import { type Model, type Step, step, store } from './model.js';

/** The longest line the server takes (characters, after its cleaning). */
export const TALK_CHARS = 200;
/** How long a new line stays by its seat (ms). */
export const SAID_MS = 5000;
/** The lines the page keeps (the server sends the newest 200). */
const KEEP = 300;

const sameTable = (m: Model, code: string): boolean =>
  m.code !== null && code.toUpperCase() === m.code.toUpperCase();

/** lines and more, by number, each once, in order. */
export function mergeLines(lines: readonly TalkLine[], more: readonly TalkLine[]): TalkLine[] {
  const by = new Map<number, TalkLine>();
  for (const l of [...lines, ...more]) by.set(l.n, { n: l.n, seat: l.seat, text: l.text });
  return [...by.values()].sort((a, b) => a.n - b.n).slice(-KEEP);
}

/** The seats this reader muted at table code. */
export function mutedSeats(
  stored: Readonly<Record<string, string>>,
  code: string | null,
): number[] {
  const v = code ? stored[`scopa.mute.${code.toUpperCase()}`] : undefined;
  return v ? v.split(',').map(Number).filter(Number.isInteger) : [];
}

/** The lines a reader sees: all but the muted seats'. */
export function shownLines(m: Pick<Model, 'talk' | 'stored' | 'code'>): TalkLine[] {
  const muted = mutedSeats(m.stored, m.code);
  return m.talk.filter((l) => !muted.includes(l.seat));
}

export function onTalk(m: Model, msg: TalkMsg): Step {
  return step(sameTable(m, msg.code) ? { ...m, talk: mergeLines(m.talk, msg.lines) } : m);
}

/** A new line: kept, and shown by its seat a moment as a reaction is
 * (unless the reader muted that seat). */
export function onSaid(m: Model, msg: SaidMsg, now: number): Step {
  if (!sameTable(m, msg.code)) return step(m);
  const talk = mergeLines(m.talk, [msg]);
  if (mutedSeats(m.stored, m.code).includes(msg.seat) || msg.seat === m.seat)
    return step({ ...m, talk });
  const reactions = [...m.reactions];
  reactions[msg.seat] = { id: 'said', at: now, text: msg.text };
  return step(
    { ...m, talk, reactions },
    { kind: 'timer', timer: { name: 'reaction' }, ms: SAID_MS },
  );
}

export function onReported(m: Model, msg: ReportedMsg): Model {
  if (!sameTable(m, msg.code)) return m;
  return m.reported.includes(msg.seat) ? m : { ...m, reported: [...m.reported, msg.seat] };
}

/** The verbs.  A line is trimmed and bounded here too (the server
 * cleans and checks it again, and says what is wrong). */
export function say(m: Model, text: string): Step {
  const line = text.trim();
  if (m.seat === null || line === '' || m.msg?.talk !== true) return step(m);
  return step(m, {
    kind: 'send',
    msg: { type: 'say', text: [...line].slice(0, TALK_CHARS).join('') },
  });
}

export function muteSeat(m: Model, seat: number): Step {
  if (m.code === null) return step(m);
  const muted = mutedSeats(m.stored, m.code);
  const next = muted.includes(seat) ? muted.filter((s) => s !== seat) : [...muted, seat];
  const reactions = m.reactions.map((r, i) => (i === seat && r?.text ? null : r));
  return store(
    { ...m, reactions },
    `scopa.mute.${m.code.toUpperCase()}`,
    next.length ? next.sort((a, b) => a - b).join(',') : null,
  );
}

export function report(m: Model, seat: number): Step {
  if (m.seat === null || seat === m.seat || m.reported.includes(seat)) return step(m);
  return step(m, { kind: 'send', msg: { type: 'report', seat } });
}
