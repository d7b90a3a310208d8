/*
 * bank.test.ts -- the time bank (docs/serve.md "The time bank") in the
 * client: the private form's choice sent with create, the lobby's words,
 * and each seat's time counted down between states.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BANKS, bankValue, bankWords, parseBank } from '../src/home.js';
import { bankLeftMs, bankText } from '../src/center.js';
import { parse } from '../src/protocol.js';
import { drive, fresh, seated, sent, state, verb } from './fixtures.js';

test('a bank choice reads back as it was written; anything else is no bank', () => {
  for (const b of BANKS) assert.deepEqual(parseBank(bankValue(b)), b);
  for (const x of ['60', '', 'bank:', 'bank:300', 'bank:3m:2', 'xbank:300:3', 'bank:300:3x'])
    assert.equal(parseBank(x), null, x);
});

test('a bank in words, in both languages', () => {
  assert.equal(bankWords('en', { bank: 300, increment: 3 }), '5 min + 3 s a move');
  assert.equal(bankWords('it', { bank: 300, increment: 3 }), '5 min + 3 s a mossa');
  assert.equal(bankWords('en', { bank: 90, increment: 0 }), '90 s');
});

test('create with a bank sends bank and increment, no move clock; bots only, neither', () => {
  const bank = { bank: 300, increment: 3 };
  const open = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'open'], name: '', clock: 60, bank }),
  );
  open.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(open.effects), [
    { type: 'create', rules: {}, seats: ['me', 'open'], bank: 300, increment: 3 },
  ]);
  const bots = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'esperto'], name: '', bank }),
  );
  bots.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(bots.effects), [{ type: 'create', rules: {}, seats: ['me', 'esperto'] }]);
});

test('a malformed bank_ms is as if absent; a missing bank_wait_ms is 0', () => {
  const base = { ...state(), bank: 300, increment: 3 };
  const bad = parse(JSON.stringify({ ...base, bank_ms: [1000, 'x'] }));
  assert.ok(bad && bad.type === 'state');
  assert.equal(bad.bank_ms, undefined);
  const good = parse(JSON.stringify({ ...base, bank_ms: [1000, 2000] }));
  assert.ok(good && good.type === 'state');
  assert.deepEqual(good.bank_ms, [1000, 2000]);
  assert.equal(good.bank_wait_ms, 0);
});

test('only the seat to play counts down, after the round grace, never below 0', () => {
  const msg = { ...state(), status: 'playing' as const, to_play: 1, bank: 300, increment: 3 };
  const now = Date.now();
  const m = seated({
    msg: { ...msg, bank_ms: [120000, 5000], bank_wait_ms: 0 },
    msgAt: now - 2000,
  });
  assert.equal(bankLeftMs(m, 0), 120000); // not its turn: stands
  const ran = bankLeftMs(m, 1)!;
  assert.ok(ran <= 3000 && ran >= 2500, String(ran));
  const waiting = seated({
    msg: { ...msg, bank_ms: [120000, 5000], bank_wait_ms: 10000 },
    msgAt: now - 2000,
  });
  assert.equal(bankLeftMs(waiting, 1), 5000); // the grace: not yet running
  const out = seated({
    msg: { ...msg, bank_ms: [120000, 1000], bank_wait_ms: 0 },
    msgAt: now - 9000,
  });
  assert.equal(bankLeftMs(out, 1), 0);
  assert.equal(bankLeftMs(seated({ msg }), 1), null); // no bank_ms: no bank
});

test('bankText: minutes and seconds, rounded up', () => {
  assert.equal(bankText(300000), '5:00');
  assert.equal(bankText(246001), '4:07');
  assert.equal(bankText(9000), '0:09');
  assert.equal(bankText(1), '0:01');
  assert.equal(bankText(0), '0:00');
});
