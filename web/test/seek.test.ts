/*
 * seek.test.ts -- Play now through the reducer (verbs.ts, session.ts,
 * messages.ts; docs/serve.md "Play now"): the seek sent on the open
 * connection and again on a new one, the server's offer of a bot, the
 * pairing that takes the page to its table without a join of its own,
 * withdrawing it (a button, another table, another page), and a refusal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/protocol.js';
import { PRESETS } from '../src/rules.js';
import { type Drive, drive, fresh, only, route, sent, server, state, verb } from './fixtures.js';

const SCOPONE = PRESETS.scopone ?? {};

/** The home page, its name stored, connected to the server. */
function home(): Drive {
  return drive(
    fresh({ 'scopa.name': 'Anna' }),
    route('/'),
    verb({ kind: 'seek', rules: {}, clock: 60, name: 'Anna' }),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
  );
}

const seeking = (offer: string | null = null) =>
  server({
    type: 'seeking',
    rules: { game: 'scopa' },
    clock: { move_clock: 60, away_timeout: 60 },
    players: 2,
    waited: offer ? 20 : 0,
    offer,
  });

test('seek: the connection is opened and the seek sent on it, with the name; the page stays home', () => {
  const d = drive(
    fresh({ 'scopa.name': 'Anna' }),
    route('/'),
    verb({ kind: 'seek', rules: SCOPONE, clock: 20, name: 'Anna' }),
  );
  assert.deepEqual(only(d.effects, 'connect'), [{ kind: 'connect', local: false }]);
  assert.equal(d.model.screen, 'home');
  assert.deepEqual(d.model.seek, { rules: SCOPONE, clock: 20, players: 4, offer: null });
  assert.deepEqual(sent(d.effects), [], 'nothing before the connection opens');
  d.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(d.effects), [
    { type: 'seek', rules: SCOPONE, clock: { move_clock: 20 }, name: 'Anna' },
  ]);
});

test('seek with a time bank: the clock sent is the bank and its increment, no move clock', () => {
  const bank = { bank: 300, increment: 3 };
  const d = drive(
    fresh({ 'scopa.name': 'Anna' }),
    route('/'),
    verb({ kind: 'seek', rules: {}, clock: 60, bank, name: 'Anna' }),
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
  );
  assert.deepEqual(d.model.seek?.bank, bank);
  assert.deepEqual(sent(d.effects), [
    { type: 'seek', rules: {}, clock: { bank: 300, increment: 3 }, name: 'Anna' },
  ]);
});

test('seek: sent again on a new connection (the server withdrew it with the old one)', () => {
  const d = home().on(seeking());
  const before = sent(d.effects).length;
  d.on(
    { kind: 'status', conn: { kind: 'down', retryAt: 0, attempt: 1 } },
    { kind: 'status', conn: { kind: 'open' } },
    { kind: 'opened' },
  );
  const again = sent(d.effects).slice(before);
  assert.deepEqual(again, [{ type: 'seek', rules: {}, clock: { move_clock: 60 }, name: 'Anna' }]);
});

test('seeking with an offer: the bot is offered; taking it withdraws the seek and creates the table', () => {
  const d = home().on(seeking());
  assert.equal(d.model.seek?.offer, null);
  d.on(seeking('esperto'));
  assert.equal(d.model.seek?.offer, 'esperto');
  const before = sent(d.effects).length;
  d.on(verb({ kind: 'seekBot', name: 'Anna' }));
  assert.deepEqual(sent(d.effects).slice(before), [
    { type: 'unseek' },
    { type: 'create', rules: {}, seats: ['me', 'esperto'], name: 'Anna' },
  ]);
  assert.equal(d.model.seek, null);
  assert.equal(d.model.screen, 'table');
});

test('seeking: a level the page does not know is no offer', () => {
  const d = home().on(seeking('grandmaster'));
  assert.equal(d.model.seek?.offer, null);
  const before = d.effects.length;
  d.on(verb({ kind: 'seekBot', name: 'Anna' }));
  assert.deepEqual(sent(d.effects.slice(before)), []);
});

test('paired: the page goes to the table and waits for its seat; it sends no join of its own', () => {
  const d = home().on(seeking());
  const before = d.effects.length;
  d.on(server({ type: 'paired', code: 'K7QX2M' }));
  assert.equal(d.model.seek, null);
  assert.equal(d.model.code, 'K7QX2M');
  assert.equal(d.model.screen, 'table');
  assert.deepEqual(only(d.effects.slice(before), 'history'), [
    { kind: 'history', op: 'push', url: '/t/K7QX2M' },
  ]);
  assert.deepEqual(sent(d.effects.slice(before)), [], 'the server joins on our behalf');
  d.on(
    server({ type: 'seated', code: 'K7QX2M', seat: 1, token: 'tk' }),
    server(state({ seat: 1 })),
  );
  assert.equal(d.model.seat, 1);
  assert.equal(d.model.stored['scopa.token.K7QX2M'], 'tk');
  assert.equal(d.model.msg?.code, 'K7QX2M');
});

test('paired for a seek the page withdrew: ignored (the seated, if any, decides)', () => {
  const d = home().on(verb({ kind: 'unseek' }));
  assert.deepEqual(sent(d.effects).at(-1), { type: 'unseek' });
  d.on(server({ type: 'paired', code: 'K7QX2M' }));
  assert.equal(d.model.code, null);
  assert.equal(d.model.screen, 'home');
});

test('unseek: the button withdraws it; unseeked and a late seeking leave it withdrawn', () => {
  const d = home().on(seeking(), verb({ kind: 'unseek' }));
  assert.equal(d.model.seek, null);
  d.on(server({ type: 'unseeked' }), seeking('intermedio'));
  assert.equal(d.model.seek, null);
});

test('another table, or another page, withdraws the seek first', () => {
  const a = home().on(seeking());
  const n = sent(a.effects).length;
  a.on(verb({ kind: 'startBot', rules: {}, level: 'campione', name: 'Anna' }));
  assert.deepEqual(sent(a.effects).slice(n), [
    { type: 'unseek' },
    { type: 'create', rules: {}, seats: ['me', 'campione'], name: 'Anna' },
  ]);
  const b = home().on(seeking());
  const m = sent(b.effects).length;
  b.on(verb({ kind: 'leaderboard' }));
  assert.deepEqual(sent(b.effects).slice(m), [{ type: 'unseek' }]);
  assert.equal(b.model.seek, null);
  // home again keeps it
  const c = home().on(seeking(), verb({ kind: 'home' }));
  assert.notEqual(c.model.seek, null);
});

test('a refused seek: its words on the home page, no seek left', () => {
  const d = home().on(
    server({ type: 'error', code: 'bad_message', message: 'clock.move_clock: out of range' }),
  );
  assert.equal(d.model.seek, null);
  assert.equal(d.model.error, 'clock.move_clock: out of range');
  assert.equal(d.model.screen, 'home');
});

test('parse: seeking, paired, unseeked as docs/serve.md writes them; malformed ones refused', () => {
  const s = parse(
    '{"type":"seeking","rules":{"game":"scopa"},"clock":{"move_clock":30},"players":2,"waited":0,"offer_after":20,"offer":null}',
  );
  assert.equal(s?.type, 'seeking');
  assert.equal(parse('{"type":"seeking","rules":"scopa","players":2}'), null);
  assert.equal(parse('{"type":"seeking","rules":{},"players":"2"}'), null);
  const lax = parse('{"type":"seeking","rules":{},"players":2,"clock":7,"offer":5}');
  assert.deepEqual(lax && lax.type === 'seeking' && [lax.clock, lax.offer, lax.waited], [
    {},
    null,
    0,
  ]);
  assert.deepEqual(parse('{"type":"paired","code":"AB12"}'), { type: 'paired', code: 'AB12' });
  assert.equal(parse('{"type":"paired","code":""}'), null);
  assert.equal(parse('{"type":"paired"}'), null);
  assert.equal(parse('{"type":"unseeked"}')?.type, 'unseeked');
});
