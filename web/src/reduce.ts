/*
 * reduce.ts -- the client's one reducer: reduce(model, event) returns the
 * new model and the effects to run (effects.ts runs them; main.ts wires
 * the transport, the page and the runner to it).  No DOM, no window, no
 * clock: test/reduce.test.ts drives it under node.
 *
 * Where each kind of event goes: server messages to pacing.ts (when) and
 * messages.ts (what), the player's verbs to verbs.ts, addresses and the
 * leaderboard to routes.ts, the connection's news to session.ts; then
 * the sounds the change makes (sounds.ts).
 */
import { t } from './i18n.js';
import { type Effect, type Event, type Model, type Step, type Timer, step } from './model.js';
import { reactionsDue, showNotice } from './messages.js';
import { paced, receive } from './pacing.js';
import { arrived, askLobby, leaderboardFetched, lobbyFetched } from './routes.js';
import { greet } from './session.js';
import { resumeDue } from './stall.js';
import { recordFetched, verb } from './verbs.js';
import { DECK_KEY } from './settings.js';
import { deckStyle } from './cards.js';
import { sounds } from './sounds.js';
import { ACCOUNT_KEY, accountAnswered, accountStored } from './account.js';
import { askTourney, askTourneys, tourneyFetched, tourneysFetched } from './tourney.js';

export function reduce(m: Model, e: Event): Step {
  const s = reduceEvent(m, e);
  const heard = sounds(m, s.model);
  return heard.length ? { model: s.model, effects: [...s.effects, ...heard] } : s;
}

function reduceEvent(m: Model, e: Event): Step {
  switch (e.kind) {
    case 'server':
      return receive(m, e.msg, e.now);
    case 'status':
      return step({ ...m, conn: e.conn });
    case 'opened':
      return greet(m);
    case 'resent':
      return showNotice(m, t(m.lang, 'resent'));
    case 'sent':
      return step(e.tag === 'hint' ? { ...m, hintId: e.id } : { ...m, reviewId: e.id });
    case 'verb':
      return verb(m.gesture ? m : { ...m, gesture: true }, e.verb);
    case 'timer':
      return fired(m, e.timer, e.now);
    case 'leaderboard':
      return leaderboardFetched(m, e.pool, e.result);
    case 'record':
      return recordFetched(m, e.code, e.result);
    case 'lobby':
      return lobbyFetched(m, e.result);
    case 'tourneys':
      return tourneysFetched(m, e.result);
    case 'tourney':
      return tourneyFetched(m, e.id, e.result);
    case 'http':
      return accountAnswered(m, e.op, e.result);
    case 'route':
      return arrived(m, e.url);
    case 'storage': {
      // another tab chose another deck: this one draws it too
      const deck: Effect[] =
        e.key === DECK_KEY ? [{ kind: 'deck', style: deckStyle(e.value ?? undefined) }] : [];
      const next = stored(m, e.key, e.value);
      return step(e.key === ACCOUNT_KEY ? accountStored(next, e.value) : next, ...deck);
    }
    case 'motion':
      return step({ ...m, reducedMotion: e.reduced });
    case 'probed':
      return step({ ...m, server: e.up ? 'up' : 'down' });
  }
}

/** A timer ran out: what it waited for did not come (or its time is up). */
function fired(m: Model, timer: Timer, now: number): Step {
  switch (timer.name) {
    case 'pace':
      return paced(m, now);
    case 'hint':
      return step(m.hintState === 'asking' ? { ...m, hintState: 'unavailable' } : m);
    case 'review':
      // no marks: the record still steps
      return step(m.reviewState === 'asking' ? { ...m, reviewState: 'unavailable' } : m);
    case 'notice':
      return step(m.notice === timer.text ? { ...m, notice: null } : m);
    case 'reaction':
      return reactionsDue(m, now);
    case 'resume':
      return resumeDue(m);
    case 'error':
      return step(m.error === timer.text ? { ...m, error: null } : m);
    case 'lobby':
      return askLobby(m);
    case 'tourneys':
      return askTourneys(m);
    case 'tourney':
      return askTourney(m);
  }
}

/** Another tab's change to a scopa.* key (a token it was given, say). */
function stored(m: Model, key: string, value: string | null): Model {
  if (!key.startsWith('scopa.')) return m;
  const copy = { ...m.stored };
  if (value === null) delete copy[key];
  else copy[key] = value;
  return { ...m, stored: copy };
}
