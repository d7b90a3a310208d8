/*
 * verbs.ts -- what the player's verbs do (input.ts reads them from clicks,
 * taps, keys and forms): pick and play cards, ask for a hint or a review,
 * create, join or watch a table, switch the language, hints and
 * animations.  Pure: each returns the new model and its effects.
 *
 * What must stay true: a move is sent only from the server's legal list
 * (tableview.ts pickCard), with the ply of the state it was chosen on; rules
 * the form knows the server refuses are said before anything is sent; the
 * settings are remembered under scopa.hints, scopa.skip, scopa.lang,
 * scopa.level and scopa.name (and settings.ts's own); a card is played
 * on one click only when the player asked for it (settings.ts oneClick).
 */
import { formatMove, type Card, type Rules } from './protocol.js';
import { REACTIONS } from './i18n.js';
import { LEVELS, effective, num, presetOf } from './rules.js';
import { pickCard, pickTableCard, selectedMove } from './tableview.js';
import { type RecordDoc, reviewSteps } from './review.js';
import {
  type Bank,
  type Effect,
  type Fetched,
  type Model,
  type Step,
  type Verb,
  step,
  store,
  then,
} from './model.js';
import { dropSeek, ensureConnected } from './session.js';
import { muteSeat, report, say } from './talk.js';
import { LOCAL_CODE } from './local.js';
import { pump } from './pacing.js';
import { go, loadLeaderboard, resetTable } from './routes.js';
import { oneClick, setDeck, toggleMute, toggleOneClick } from './settings.js';
import { accountVerb } from './account.js';
import { tourneyVerb } from './tourney.js';

export { presetOf };

const levelSeat = (l: string): string => (LEVELS.includes(l) ? l : 'intermedio');

const HINT_WAIT_MS = 3000; // then "this server gives no hints"
const REVIEW_WAIT_MS = 15000; // the server values every move first: seconds on a busy machine

export function verb(m: Model, v: Verb): Step {
  switch (v.kind) {
    case 'pick':
      return pick(m, v.card, v.look === true);
    case 'pickTable':
      return pickTable(m, v.card);
    case 'confirm':
      return confirm(m);
    case 'cancel':
      return step({ ...m, selection: null, explain: null });
    case 'peek':
      return step({ ...m, peek: v.what });
    case 'hint':
      return hint(m);
    case 'toggleHints':
      return toggleHints(m);
    case 'toggleSkip':
      return toggleSkip(m);
    case 'toggleOneClick':
      return toggleOneClick(m);
    case 'deck':
      return sayWords(setDeck(m, v.style));
    case 'toggleMute':
      return toggleMute(m);
    case 'lang':
      return sayWords(store({ ...m, lang: v.lang }, 'scopa.lang', v.lang));
    case 'home':
    case 'newGame':
      return go(m, '/');
    case 'leaderboard':
      return go(m, '/?leaderboard');
    case 'pool':
      return loadLeaderboard(m, v.pool);
    case 'startBot':
      return then(store(m, 'scopa.level', v.level), (x) =>
        startTable(
          { ...x, createForm: 'bot' },
          v.rules,
          seatsFor(num(effective(v.rules), 'players'), v.level),
          v.name,
        ),
      );
    case 'create': {
      const seats = privateSeats(v.rules, v.seats);
      // a clock only where more than one person sits
      const people = seats.includes('open');
      const clock = people && !v.bank ? v.clock : undefined;
      const bank = people ? v.bank : undefined;
      // listed only where a stranger has a seat to take
      const listed = people && v.listed === true;
      const talk = people ? v.talk : undefined;
      return startTable(
        { ...m, createForm: 'priv' },
        v.rules,
        seats,
        v.name,
        clock,
        listed,
        bank,
        talk,
      );
    }
    case 'react':
      return m.seat === null || !REACTIONS.includes(v.reaction)
        ? step(m)
        : step(m, { kind: 'send', msg: { type: 'react', reaction: v.reaction } });
    case 'say':
      return say(m, v.text);
    case 'muteSeat':
      return muteSeat(m, v.seat);
    case 'report':
      return report(m, v.seat);
    case 'toggleReactions': {
      const on = !m.reactionsOn;
      return store({ ...m, reactionsOn: on, reactions: [] }, 'scopa.reactions', on ? 'on' : 'off');
    }
    case 'rematch':
      return m.seat === null || m.msg?.status !== 'finished'
        ? step(m)
        : step(m, { kind: 'send', msg: { type: 'rematch', accept: v.accept } });
    case 'join':
      return enter(m, v.code, '', v.name);
    case 'seek':
      return seek(m, v.rules, v.clock, v.name, v.bank);
    case 'unseek':
      return dropSeek(m);
    case 'seekBot':
      return seekBot(m, v.name);
    case 'watch':
      return enter(m, v.code, '?watch', null);
    case 'continue':
      return pump({ ...m, roundOver: null }, v.now);
    case 'review':
      return review(m);
    case 'continueLocal':
      return go(m, `/t/${LOCAL_CODE}`);
    case 'download':
      return m.code ? step(m, { kind: 'download', code: m.code }) : step(m);
    case 'stepReview':
      return gotoStep(m, m.reviewStep + v.delta);
    case 'gotoReview':
      return gotoStep(m, v.step);
    case 'tourneyJoin':
    case 'tourneyLeave':
    case 'tourneyStart':
    case 'tourneyCreate':
      // a guest is offered sign-in (the server would say sign_in)
      return tourneyVerb(m, v, (x) =>
        go(
          x,
          `/account/login?next=${encodeURIComponent(x.tourney ? `/tournament/${x.tourney.id}` : '/tournaments')}`,
        ),
      );
    default:
      return accountVerb(m, v);
  }
}

// ------------------------------------------------------------- moves --

/** A card of the hand picked.  A card with one move is picked first and
 * played by a second click on it (or Enter: confirm), unless the player
 * chose to play on one click; a digit key (`look`) never plays. */
function pick(m: Model, card: Card, look: boolean): Step {
  const v = m.view;
  if (!v || !v.myTurn || m.pending) return step({ ...m, explain: card });
  const r = pickCard(v.choices, m.selection, card);
  const picked = { ...m, explain: card };
  if (r.kind === 'play') {
    const again = m.selection?.card === card;
    if (!look && (again || oneClick(m.stored)))
      return sendMove({ ...picked, selection: null }, formatMove(r.move));
    return step({ ...picked, selection: { card, index: 0 } });
  }
  if (r.kind === 'select') return step({ ...picked, selection: r.selection });
  return step(picked);
}

function pickTable(m: Model, card: Card): Step {
  if (!m.view || !m.selection) return step(m);
  const s = pickTableCard(m.view.choices, m.selection, card);
  return step(s ? { ...m, selection: s } : m);
}

function confirm(m: Model): Step {
  if (!m.view?.myTurn) return step(m);
  const mv = selectedMove(m.view.choices, m.selection);
  return mv ? sendMove({ ...m, selection: null }, formatMove(mv)) : step(m);
}

function sendMove(m: Model, move: string): Step {
  const v = m.view;
  if (!v) return step(m);
  const round = v.round?.dealer ?? null;
  return step({ ...m, pending: move }, { kind: 'move', move, ply: v.ply, round });
}

function hint(m: Model): Step {
  if (!m.view?.myTurn || !m.hintsOn || m.msg?.hints === false) return step(m);
  return step(
    { ...m, hintState: 'asking' },
    { kind: 'send', msg: { type: 'hint' }, tag: 'hint' },
    { kind: 'timer', timer: { name: 'hint' }, ms: HINT_WAIT_MS },
  );
}

// ---------------------------------------------------------- settings --

function toggleHints(m: Model): Step {
  const on = !m.hintsOn;
  return store({ ...m, hintsOn: on, hint: on ? m.hint : null }, 'scopa.hints', on ? 'on' : 'off');
}

function toggleSkip(m: Model): Step {
  const on = !m.skipAnim;
  const s = store({ ...m, skipAnim: on }, 'scopa.skip', on ? '1' : '0');
  return then(s, (x) => step(x, { kind: 'skipAnim', on }));
}

// ------------------------------------------------------------ tables --

/** The bot form's seats: the player, then bots of one level. */
export function seatsFor(players: number, level: string): string[] {
  const seats = ['me'];
  for (let i = 1; i < players; i++) seats.push(levelSeat(level));
  return seats;
}

/** The private form's seats: the player, then each seat open or a bot. */
function privateSeats(rules: Rules, chosen: (string | undefined)[]): string[] {
  const seats = ['me'];
  const players = num(effective(rules), 'players');
  for (let i = 1; i < players; i++) {
    const v = chosen[i] ?? 'open';
    seats.push(v === 'open' ? 'open' : levelSeat(v));
  }
  return seats;
}

function rememberName(m: Model, name: string | null): Step {
  const n = name?.trim();
  return n ? store(m, 'scopa.name', n) : step(m);
}

function startTable(
  m: Model,
  rules: Rules,
  seats: string[],
  name: string,
  clock?: number,
  listed = false,
  bank?: Bank,
  talk?: boolean,
): Step {
  const named = then(rememberName(m, name), (x) => store(x, 'scopa.preset', presetOf(rules)));
  // a seek waiting for strangers is withdrawn first: one table at a time
  return then(then(named, dropSeek), (x) =>
    ensureConnected({
      ...resetTable(x),
      refused: null,
      intent: {
        kind: 'create',
        rules,
        seats,
        ...(clock !== undefined ? { clock } : {}),
        ...(bank ? { bank } : {}),
        ...(listed ? { listed } : {}),
        ...(talk !== undefined ? { talk } : {}),
      },
      screen: 'table',
    }),
  );
}

/** Play now: wait on the home page for strangers who seek the same game
 * and clock (the server pairs them and seats everybody, messages.ts);
 * a seek already waiting is replaced by this one. */
function seek(m: Model, rules: Rules, clock: number, name: string, bank?: Bank): Step {
  const players = num(effective(rules), 'players');
  const named = then(rememberName(m, name), (x) => store(x, 'scopa.preset', presetOf(rules)));
  return then(named, (x) =>
    ensureConnected({
      ...x,
      error: null,
      seek: { rules, clock, players, offer: null, ...(bank ? { bank } : {}) },
    }),
  );
}

/** Nobody came, and the server offered a bot of a level near the seek's
 * rating: play it at the seek's rules instead (the seek withdrawn). */
function seekBot(m: Model, name: string): Step {
  const s = m.seek;
  if (!s?.offer) return step(m);
  const level = s.offer;
  return then(store(m, 'scopa.level', level), (x) =>
    startTable({ ...x, createForm: 'bot' }, s.rules, seatsFor(s.players, level), name),
  );
}

/** Join or watch a table by its code (the address does the rest). */
function enter(m: Model, code: string, search: string, name: string | null): Step {
  const k = code.trim().toUpperCase();
  if (!k) return step(m);
  return then(rememberName(m, name), (x) => go(x, `/t/${encodeURIComponent(k)}${search}`));
}

// ------------------------------------------------------------ review --

export function review(m: Model): Step {
  if (!m.code) return step(m);
  return step(
    { ...m, reviewState: 'asking', reviewStep: 0 },
    { kind: 'fetchRecord', code: m.code },
    { kind: 'send', msg: { type: 'review', code: m.code }, tag: 'review' },
    { kind: 'timer', timer: { name: 'review' }, ms: REVIEW_WAIT_MS },
  );
}

function gotoStep(m: Model, to: number): Step {
  const n = reviewSteps(m.review).length;
  return step({ ...m, reviewStep: Math.max(0, Math.min(n - 1, to)) });
}

/** The finished game's record (GET /api/tables/CODE/record) came. */
export function recordFetched(m: Model, code: string, r: Fetched): Step {
  if (code !== m.code) return step(m); // a table left since
  if (!r.ok) return step({ ...m, error: r.error });
  const rec = r.json as RecordDoc | null;
  if (!rec || !Array.isArray(rec.rounds)) return step({ ...m, error: 'Error: not a record' });
  return step({ ...m, record: rec });
}

/** At a table, a new language or deck is said to it (a ping carries it,
 * effects.ts adds it to every message): the table answers with the state
 * again in it.  A hint or a review on screen is asked for again, so that
 * it too comes in the new words (the server keeps both: no new work). */
function sayWords(s: Step): Step {
  if (!s.model.code) return s;
  return then(s, (x) => {
    const again: Effect[] = [{ kind: 'send', msg: { type: 'ping' } }];
    if (x.hint && x.view?.myTurn) again.push({ kind: 'send', msg: { type: 'hint' }, tag: 'hint' });
    if (x.code && x.review && x.reviewState === 'open')
      again.push({ kind: 'send', msg: { type: 'review', code: x.code }, tag: 'review' });
    return step(x, ...again);
  });
}
