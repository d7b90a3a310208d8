/*
 * tourney.test.ts -- the tournaments through the reducer (tourney.ts,
 * routes.ts, messages.ts; docs/serve.md "Running a tournament"): the
 * answers read field by field (a wrong field is absent, never a crash),
 * a tournament's page connects and asks again while it runs, a guest's
 * join goes to sign-in and back, a signed-in join is one message with
 * the tournament's id, a create's answer opens the new tournament, a
 * refusal gives the buttons back, and the server's `seated` takes the
 * page to the table (Back returns to the tournament).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/protocol.js';
import { myStanding, tourneyLists, tourneyView } from '../src/tourney.js';
import { backTo } from '../src/account.js';
import { type Drive, drive, fresh, only, route, sent, server, verb } from './fixtures.js';

const VIEW = {
  id: 'S7KQ2M9XPA',
  name: 'Martedì',
  format: 'swiss',
  rules: { game: 'scopa', target: 11 },
  rounds: [{ round: 1, tables: [{ code: 'K7QX2M', seats: ['ada', 'bea'], result: null }] }],
  rounds_planned: 3,
  starts_at: 1000,
  status: 'running',
  round: 1,
  rated: true,
  players: 2,
  creator: 'ada',
  clock: { move_clock: 30, away_timeout: 60, bank: -1, increment: -1 },
  standings: [
    { rank: 1, name: 'ada', points: 0, games: 0, wins: 0, active: true, buchholz: 0 },
    { rank: 1, name: 'bea', points: 0, games: 0, wins: 0, active: true, buchholz: 0 },
  ],
};

/** A tournament's page, signed in as `who` (or a guest), connected. */
function page(who: string | null): Drive {
  return drive(
    fresh(who ? { 'scopa.account': who } : {}),
    route('/tournament/s7kq2m9xpa'),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
  );
}

test('tourney: a view is read field by field; the rounds planned and played both kept', () => {
  const v = tourneyView(VIEW)!;
  assert.equal(v.roundCount, 3);
  assert.equal(v.rounds.length, 1);
  assert.deepEqual(v.rounds[0]!.tables[0]!.seats, ['ada', 'bea']);
  assert.equal(v.preset, 'scopa');
  assert.equal(v.target, 11);
  assert.deepEqual(v.clock, { moveClock: 30, bank: null, increment: null });
  assert.equal(v.standings[1]!.sb, null, 'no Sonneborn-Berger given: absent');
  // wrong kinds are absent, never thrown
  const odd = tourneyView({ id: 'X', standings: [7, { name: 3 }], rounds: 'no', rated: 0 })!;
  assert.equal(odd.standings.length, 1);
  assert.equal(odd.standings[0]!.name, '');
  assert.deepEqual(odd.rounds, []);
  assert.equal(tourneyView({ name: 'no id' }), null);
  const lists = tourneyLists({ upcoming: [VIEW, { id: 7 }], running: 'x' })!;
  assert.equal(lists.upcoming.length, 1, 'a line without an id is left out');
  assert.deepEqual(lists.running, []);
  assert.equal(tourneyLists({ tables: [] }), null);
});

test('tourney: its page connects, asks for it, and again while it runs', () => {
  const d = page('ada');
  assert.equal(d.model.screen, 'tourney');
  assert.equal(d.model.tourney?.id, 'S7KQ2M9XPA', 'the id upper case');
  assert.ok(only(d.effects, 'connect').length === 1, 'the server connection opened');
  assert.deepEqual(only(d.effects, 'fetchTourney'), [{ kind: 'fetchTourney', id: 'S7KQ2M9XPA' }]);
  d.on({ kind: 'tourney', id: 'S7KQ2M9XPA', result: { ok: true, json: VIEW } });
  assert.equal(d.model.tourney?.state, 'ok');
  assert.ok(only(d.effects, 'timer').some((e) => e.timer.name === 'tourney'));
  // a finished one is not asked for again
  const done = page('ada').on({
    kind: 'tourney',
    id: 'S7KQ2M9XPA',
    result: { ok: true, json: { ...VIEW, status: 'finished' } },
  });
  assert.ok(!only(done.effects, 'timer').some((e) => e.timer.name === 'tourney'));
  // an unknown id
  const gone = page(null).on({
    kind: 'tourney',
    id: 'S7KQ2M9XPA',
    result: { ok: false, error: 'Error: 404' },
  });
  assert.equal(gone.model.tourney?.state, 'missing');
  // an answer for a page left since changes nothing
  const left = page('ada').on(route('/'), {
    kind: 'tourney',
    id: 'S7KQ2M9XPA',
    result: { ok: true, json: VIEW },
  });
  assert.equal(left.model.screen, 'home');
});

test('tourney: a guest is sent to sign in, and back here after', () => {
  const d = page(null).on(verb({ kind: 'tourneyJoin' }));
  assert.equal(d.model.screen, 'login');
  assert.equal(d.model.url.search, '?next=%2Ftournament%2FS7KQ2M9XPA');
  assert.deepEqual(sent(d.effects), [], 'nothing the server would refuse');
  assert.equal(backTo(d.model.url.search), '/tournament/S7KQ2M9XPA');
  assert.equal(backTo('?next=https://evil.example/'), '/', 'only a path of this site');
  assert.equal(backTo('?next=//evil.example/x'), '/');
  assert.equal(backTo(''), '/');
});

test('tourney: join is one message with the tournament id; the answer or a refusal frees it', () => {
  const d = page('bea').on({ kind: 'tourney', id: 'S7KQ2M9XPA', result: { ok: true, json: VIEW } });
  d.on(verb({ kind: 'tourneyJoin' }), verb({ kind: 'tourneyJoin' }));
  assert.deepEqual(sent(d.effects), [{ type: 'tournament_join', id: 'S7KQ2M9XPA' }], 'once');
  assert.equal(d.model.tourney?.busy, true);
  const answer = parse(JSON.stringify({ ...VIEW, type: 'tournament', players: 3 }))!;
  d.on(server(answer));
  assert.equal(d.model.tourney?.busy, false);
  assert.equal(d.model.tourney?.view?.players, 3);
  d.on(verb({ kind: 'tourneyLeave' }));
  d.on(server({ type: 'error', code: 'not_joined', message: 'not joined' }));
  assert.equal(d.model.tourney?.busy, false);
  assert.equal(d.model.error, 'not joined');
  assert.deepEqual(sent(d.effects).at(-1), { type: 'tournament_leave', id: 'S7KQ2M9XPA' });
});

test('tourney: a create answered opens the new tournament', () => {
  const d = drive(
    fresh({ 'scopa.account': 'ada' }),
    route('/tournaments'),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
    verb({
      kind: 'tourneyCreate',
      form: {
        name: ' Martedì ',
        format: 'arena',
        rules: {},
        length: 45,
        startsIn: 2,
        moveClock: 20,
        rated: false,
      },
    }),
  );
  const msg = sent(d.effects).at(-1)!;
  assert.deepEqual(msg, {
    type: 'tournament_create',
    format: 'arena',
    rules: {},
    minutes: 45,
    starts_in: 120,
    name: 'Martedì',
    move_clock: 20,
    away_timeout: 30,
    rated: false,
  });
  d.on(server(parse(JSON.stringify({ ...VIEW, type: 'tournament' }))!));
  assert.equal(d.model.screen, 'tourney');
  assert.equal(d.model.url.path, '/tournament/S7KQ2M9XPA');
  assert.ok(only(d.effects, 'history').some((e) => e.url === '/tournament/S7KQ2M9XPA'));
});

test('tourney: the seated of the next table takes the page there, pushed', () => {
  const d = page('ada').on(server({ type: 'seated', code: 'K7QX2M', seat: 0, token: 'tok' }));
  assert.equal(d.model.screen, 'table');
  assert.equal(d.model.code, 'K7QX2M');
  assert.equal(d.model.stored['scopa.token.K7QX2M'], 'tok');
  const h = only(d.effects, 'history').at(-1)!;
  assert.deepEqual([h.op, h.url], ['push', '/t/K7QX2M'], 'Back returns to the tournament');
  // at another table: it leaves that one for the new one
  d.on(server({ type: 'seated', code: 'ZZ99AA', seat: 1, token: 't2' }));
  assert.equal(d.model.code, 'ZZ99AA');
  assert.equal(d.model.seat, 1);
  assert.equal(d.model.msg, null, 'nothing of the last table is kept');
});

test('tourney: Scopone pairs: the join names the partner; a pair is mine by its members', () => {
  const pairs = {
    ...VIEW,
    pairs: true,
    standings: [{ rank: 1, name: 'ada & bea', points: 0, members: ['ada', 'bea'], active: true }],
    invites: [{ name: 'cal', partner: 'dan' }, { name: 7 }],
  };
  const v = tourneyView(pairs)!;
  assert.equal(v.pairs, true);
  assert.deepEqual(v.invites, [{ name: 'cal', partner: 'dan' }], 'a malformed one left out');
  assert.equal(
    myStanding({ account: { ...fresh().account, status: 'signed', name: 'bea' } }, v)?.name,
    'ada & bea',
  );
  const d = page('dan').on({
    kind: 'tourney',
    id: 'S7KQ2M9XPA',
    result: { ok: true, json: pairs },
  });
  d.on(verb({ kind: 'tourneyJoin', partner: ' cal ' }));
  assert.deepEqual(sent(d.effects).at(-1), {
    type: 'tournament_join',
    id: 'S7KQ2M9XPA',
    partner: 'cal',
  });
});
