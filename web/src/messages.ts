/*
 * messages.ts -- what each server message does to the model: one case per
 * message type of protocol.ts, pure (the time comes with the message).
 * pacing.ts decides when a message is applied; this file how.
 *
 * What must stay true: a state of another table than the page's is
 * ignored (a late one of a table it left); a refused create goes back to
 * the form, a refused join watches instead (CONTRACTS.md /t/CODE), a
 * refused resume (a stale token) forgets it and joins; a table stopped by
 * the server (store_failed) is taken back by stall.ts; the answer to a
 * hint or a review request is told from other errors by its id; a seat's
 * token is stored per table code the moment it is given.
 */
import type {
  ErrorMsg,
  PairedMsg,
  ReactionMsg,
  RematchMsg,
  SeatedMsg,
  SeekingMsg,
  ServerMsg,
  StateMsg,
} from './protocol.js';
import { REACTIONS } from './i18n.js';
import { go, resetTable } from './routes.js';
import { t } from './i18n.js';
import { tableView } from './tableview.js';
import { type Model, type Step, step, store, then } from './model.js';
import { greet } from './session.js';
import { backAgain, stallError } from './stall.js';
import { helloAccount } from './account.js';
import { review } from './verbs.js';
import { LEVELS } from './rules.js';
import { SAID_MS, onReported, onSaid, onTalk } from './talk.js';
import { onTournament, tourneyRefused } from './tourney.js';

const SHOWN_MS = 6000; // a notice or an error stays this long

/** Apply one message now. */
export function apply(m: Model, msg: ServerMsg, now: number): Step {
  switch (msg.type) {
    case 'hello':
      return then(helloAccount(m, msg.account), (a) =>
        step(msg.protocol !== 1 ? { ...a, error: `protocol ${msg.protocol}` } : a),
      );
    case 'pong':
      return step(m);
    case 'notice':
      return showNotice(m, m.lang === 'it' && msg.message_it ? msg.message_it : msg.message);
    case 'seated':
      return onSeated(m, msg);
    case 'state':
      // a late state of a table this page has left: not ours any more
      if (m.code === null || msg.code.toUpperCase() !== m.code.toUpperCase()) return step(m);
      return then(
        then(step(onState({ ...m, resuming: false }, finalScores(msg), now)), backAgain),
        reviewDue,
      );
    case 'round_over':
      return step({
        ...m,
        roundOver: { msg, drawn: m.view?.drawn ?? null, rules: m.msg?.rules ?? {} },
        selection: null,
      });
    case 'game_over':
      return step(onGameOver(m, msg));
    case 'error':
      return onError(m, msg, now);
    case 'hint':
      return step({ ...m, hint: msg, hintState: 'idle' }, { kind: 'cancel', name: 'hint' });
    case 'review':
      return step({ ...m, review: msg, reviewState: 'open' }, { kind: 'cancel', name: 'review' });
    case 'rematch':
      return onRematch(m, msg);
    case 'reaction':
      return onReaction(m, msg, now);
    case 'seeking':
      return step(onSeeking(m, msg));
    case 'paired':
      return onPaired(m, msg);
    case 'unseeked':
      return step({ ...m, seek: null });
    case 'said':
      return onSaid(m, msg, now);
    case 'talk':
      return onTalk(m, msg);
    case 'reported':
      return showNotice(
        onReported(m, msg),
        m.lang === 'it' && msg.message_it ? msg.message_it : msg.message,
      );
    case 'tournament':
      return onTournament(m, msg);
    default:
      return exhaustive(m, msg);
  }
}

/** Every type has its case: a new one in protocol.ts fails to compile here. */
function exhaustive(m: Model, msg: never): Step {
  void msg;
  return step(m);
}

export function showNotice(m: Model, text: string): Step {
  return step(
    { ...m, notice: text },
    { kind: 'timer', timer: { name: 'notice', text }, ms: SHOWN_MS },
  );
}

function onSeated(m: Model, msg: SeatedMsg): Step {
  const here = `/t/${msg.code}`;
  // a tournament's next table (every connection of the account is seated
  // there, docs/serve.md): the page leaves the one it shows and goes
  if (m.code !== null && m.code.toUpperCase() !== msg.code.toUpperCase()) {
    const left = { ...resetTable(m), url: { path: here, search: '', hash: '' } };
    return then(step(left, { kind: 'history', op: 'push', url: here }), (x) => onSeated(x, msg));
  }
  let s = store(m, `scopa.token.${msg.code}`, msg.token);
  if (msg.player) s = then(s, (x) => store(x, 'scopa.player', msg.player ?? null));
  return then(s, (x) => {
    const seated: Model = {
      ...x,
      code: msg.code,
      seat: msg.seat,
      token: msg.token,
      intent: null,
      screen: 'table',
    };
    // the address becomes the table's, without a token fragment; from a
    // tournament's page, Back goes there again
    if (x.url.path === here && !x.url.hash) return step(seated);
    const op = m.screen === 'tourney' || m.screen === 'tourneys' ? 'push' : 'replace';
    return step(
      { ...seated, url: { path: here, search: '', hash: '' } },
      { kind: 'history', op, url: here },
    );
  });
}

/** The server's word on the page's seek: the game as it checked it, and
 * the bot it offers once nobody came.  A seek the page has withdrawn
 * since (an answer on its way) stays withdrawn. */
function onSeeking(m: Model, msg: SeekingMsg): Model {
  if (!m.seek) return m;
  const offer = msg.offer !== null && LEVELS.includes(msg.offer) ? msg.offer : null;
  return { ...m, seek: { ...m.seek, players: msg.players, offer } };
}

/** Play now found company: the page goes to the table, where the server
 * seats it on its behalf (the `seated` that follows; a new connection
 * before it joins as a friend's link would). */
function onPaired(m: Model, msg: PairedMsg): Step {
  if (!m.seek) return step(m);
  const here = `/t/${msg.code}`;
  return step(
    {
      ...resetTable(m),
      seek: null,
      code: msg.code,
      intent: { kind: 'join' },
      screen: 'table',
      url: { path: here, search: '', hash: '' },
    },
    { kind: 'history', op: 'push', url: here },
  );
}

/** How long a reaction stays by its seat. */
export const REACTION_MS = 3000;

/** A reaction of this table, shown by its seat unless muted. */
function onReaction(m: Model, msg: ReactionMsg, now: number): Step {
  if (!m.reactionsOn || !REACTIONS.includes(msg.reaction)) return step(m);
  if (m.code === null || msg.code.toUpperCase() !== m.code.toUpperCase()) return step(m);
  const reactions = [...m.reactions];
  reactions[msg.seat] = { id: msg.reaction, at: now };
  return step({ ...m, reactions }, { kind: 'timer', timer: { name: 'reaction' }, ms: REACTION_MS });
}

/** The reaction timer fired: those shown long enough leave; the timer
 * runs again for the others. */
export function reactionsDue(m: Model, now: number): Step {
  const life = (r: { text?: string }): number => (r.text ? SAID_MS : REACTION_MS);
  const reactions = m.reactions.map((r) => (r && now - r.at < life(r) ? r : null));
  const next = reactions.filter((r) => r !== null).map((r) => r.at + life(r) - now);
  const s = step({ ...m, reactions });
  return next.length
    ? { ...s, effects: [{ kind: 'timer', timer: { name: 'reaction' }, ms: Math.min(...next) }] }
    : s;
}

/** Everybody said yes: the page moves to the new table (a person's
 * `seated` may have come first: it went straight through, pacing.ts). */
function onRematch(m: Model, msg: RematchMsg): Step {
  const next = msg.next.toUpperCase();
  const already = m.code?.toUpperCase() === next;
  if (!already && m.code?.toUpperCase() !== msg.code.toUpperCase()) return step(m);
  const search = m.url.search === '?watch' ? '?watch' : '';
  const here = `/t/${msg.next}`;
  return step(
    {
      ...resetTable(m),
      queue: m.queue, // the new table's first state is behind this
      screen: 'table',
      intent: null,
      code: msg.next,
      token: already ? m.token : null,
      seat: already ? m.seat : null,
      url: { path: here, search, hash: '' },
    },
    { kind: 'history', op: 'replace', url: here + search },
  );
}

function onState(m: Model, msg: StateMsg, now: number): Model {
  const prev = m.msg;
  const samePly =
    prev?.round &&
    msg.round &&
    prev.round.dealer === msg.round.dealer &&
    prev.round.moves.length === msg.round.moves.length;
  const next: Model = {
    ...m,
    msg,
    msgAt: now,
    code: msg.code,
    seat: msg.seat,
    view: tableView(msg),
    screen: 'table',
    // presence: note when a seat went away, for its countdown
    awaySince: msg.presence.map((p, i) => (p === 'away' ? (m.awaySince[i] ?? now) : null)),
  };
  if (!samePly || msg.to_play !== msg.seat) next.pending = null;
  if (!samePly) Object.assign(next, { selection: null, explain: null, hint: null });
  // a new game at the same table (its first move not yet played)
  if (msg.status === 'playing' && m.gameOver && msg.round && msg.round.moves.length === 0)
    next.gameOver = null;
  return next;
}

/** /t/CODE?review: the review is asked once the table is seen finished
 * (a watched finished table gets a state, never a game_over). */
function reviewDue(m: Model): Step {
  if (!m.wantReview || m.msg?.status !== 'finished') return step(m);
  return review({ ...m, wantReview: false });
}

/** A finished table's state carries its final totals (scopa serve): its
 * `scores` are a `scopa engine` request's, from before the last round. */
function finalScores(
  msg: Extract<ServerMsg, { type: 'state' }>,
): Extract<ServerMsg, { type: 'state' }> {
  return msg.status === 'finished' && msg.totals ? { ...msg, scores: msg.totals } : msg;
}

function onGameOver(m: Model, msg: Extract<ServerMsg, { type: 'game_over' }>): Model {
  // no state follows the last round: the final totals come from here
  if (!m.msg || !m.view) return { ...m, gameOver: msg };
  const last = { ...m.msg, scores: msg.totals, to_play: null, status: 'finished' as const };
  return { ...m, gameOver: msg, msg: last, view: tableView(last) };
}

function onError(m: Model, msg: ErrorMsg, now: number): Step {
  const text = m.lang === 'it' && msg.message_it ? msg.message_it : msg.message;
  // the table stopped (nothing stored), or its resume failed: again later
  const stall = m.code ? stallError(m, msg, now) : null;
  if (stall) return stall;
  // a tournament's refusal (full, over, not its creator): said there
  if (m.screen === 'tourney' || m.screen === 'tourneys')
    return step(
      { ...tourneyRefused(m), error: text },
      { kind: 'timer', timer: { name: 'error', text }, ms: SHOWN_MS },
    );
  // a refused seek (rules, a clock, too many waiting): said on the home page
  if (m.seek && m.code === null)
    return step(
      { ...m, seek: null, error: text },
      { kind: 'timer', timer: { name: 'error', text }, ms: SHOWN_MS },
    );
  // a refused create (rules the server cannot play): back to the form
  if (m.intent?.kind === 'create' && m.code === null)
    return step({
      ...m,
      intent: null,
      screen: 'home',
      error: text,
      refused: { rules: m.intent.rules, form: m.createForm },
    });
  // no such table: the home page says so (a way back, not "Connecting…")
  if ((msg.code === 'no_table' || msg.code === 'table_damaged') && m.code && !m.msg) {
    const base = { ...m, intent: null, resuming: false, token: null, error: text };
    return then(store(base, `scopa.token.${m.code}`, null), (x) => go(x, '/'));
  }
  // a refused join (no open seat): watch instead (CONTRACTS.md /t/CODE),
  // and say so
  if (m.intent?.kind === 'join' && m.code && !m.token) {
    const name = m.stored['scopa.name'];
    return then(showNotice({ ...m, intent: { kind: 'watch' } }, t(m.lang, 'fullWatching')), (x) =>
      step(x, { kind: 'send', msg: { type: 'watch', code: x.code!, ...(name ? { name } : {}) } }),
    );
  }
  if (m.hintState === 'asking' && msg.id === m.hintId)
    return step({ ...m, hintState: 'unavailable' });
  if (m.reviewState === 'asking' && msg.id === m.reviewId)
    return step({ ...m, reviewState: 'unavailable' });
  if (m.resuming && m.code) {
    // a token the server no longer knows: forget it, join (or watch)
    const forgot = store(m, `scopa.token.${m.code}`, null);
    return then(forgot, (x) =>
      greet({ ...x, resuming: false, token: null, intent: { kind: 'join' } }),
    );
  }
  return step(
    { ...m, error: text, selection: null, pending: null },
    { kind: 'timer', timer: { name: 'error', text }, ms: SHOWN_MS },
  );
}
