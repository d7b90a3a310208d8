/*
 * talk.test.ts -- table talk in the page (docs/serve.md "Table talk"):
 * the lines kept once each and in order, a muted seat's lines hidden
 * (remembered per table), a line said only where the table talks, a
 * person reported once, and the create's choice sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeLines, mutedSeats, shownLines } from '../src/talk.js';
import { parse } from '../src/protocol.js';
import { CODE, drive, fresh, only, seated, sent, server, state, verb } from './fixtures.js';

const talking = () =>
  seated({
    msg: { ...state(), seats: ['Anna', 'Bruno'], presence: ['here', 'here'], talk: true },
  });

test('lines are kept once each, by their number, in order', () => {
  const a = { n: 0, seat: 0, text: 'ciao' };
  const b = { n: 1, seat: 1, text: 'buona partita' };
  const c = { n: 2, seat: 0, text: 'grazie' };
  assert.deepEqual(mergeLines([b], [c, a, b]), [a, b, c]);
  assert.deepEqual(mergeLines([], []), []);
});

test("the server's talk messages are read defensively", () => {
  const said = parse(JSON.stringify({ type: 'said', code: CODE, seat: 1, n: 0, text: 'ciao' }));
  assert.ok(said && said.type === 'said');
  assert.equal(
    parse(JSON.stringify({ type: 'said', code: CODE, seat: 1, n: 'x', text: 'a' })),
    null,
  );
  assert.equal(parse(JSON.stringify({ type: 'talk', code: CODE, lines: [{ n: 0 }] })), null);
  const st = parse(JSON.stringify({ ...state(), talk: 'yes' }));
  assert.ok(st && st.type === 'state');
  assert.equal(st.talk, undefined);
});

test("a line said is kept and shown by its seat; a muted seat's is kept but hidden", () => {
  const d = drive(talking());
  d.on(server({ type: 'said', code: CODE, seat: 1, n: 0, text: 'ciao' }, 2000));
  assert.deepEqual(d.model.talk, [{ n: 0, seat: 1, text: 'ciao' }]);
  assert.equal(d.model.reactions[1]?.text, 'ciao');
  d.on(verb({ kind: 'muteSeat', seat: 1 }));
  assert.deepEqual(mutedSeats(d.model.stored, CODE), [1]);
  assert.equal(d.model.reactions[1], null); // its bubble goes at once
  assert.equal(only(d.effects, 'store').at(-1)?.key, `scopa.mute.${CODE}`);
  d.on(server({ type: 'said', code: CODE, seat: 1, n: 1, text: 'scarso' }, 3000));
  assert.equal(d.model.talk.length, 2); // kept (a report is about it)
  assert.deepEqual(shownLines(d.model), []);
  assert.equal(d.model.reactions[1], null);
  d.on(verb({ kind: 'muteSeat', seat: 1 }));
  assert.deepEqual(mutedSeats(d.model.stored, CODE), []);
  assert.equal(shownLines(d.model).length, 2);
});

test('a line of another table is not ours; the log after sitting merges', () => {
  const d = drive(talking());
  d.on(server({ type: 'said', code: 'OTHER', seat: 1, n: 0, text: 'x' }));
  assert.equal(d.model.talk.length, 0);
  d.on(
    server({
      type: 'talk',
      code: CODE.toLowerCase(),
      lines: [
        { n: 1, seat: 1, text: 'b' },
        { n: 0, seat: 0, text: 'a' },
      ],
    }),
  );
  assert.deepEqual(
    d.model.talk.map((l) => l.text),
    ['a', 'b'],
  );
});

test('say: trimmed and bounded, only where the table talks and the page is seated', () => {
  const d = drive(talking(), verb({ kind: 'say', text: '  ' + 'è'.repeat(250) + ' ' }));
  assert.deepEqual(sent(d.effects), [{ type: 'say', text: 'è'.repeat(200) }]);
  const quiet = drive(
    seated({ msg: { ...state(), talk: false } }),
    verb({ kind: 'say', text: 'ciao' }),
  );
  assert.deepEqual(sent(quiet.effects), []);
  const empty = drive(talking(), verb({ kind: 'say', text: ' \n ' }));
  assert.deepEqual(sent(empty.effects), []);
});

test('a person is reported once; oneself never', () => {
  const d = drive(talking(), verb({ kind: 'report', seat: 1 }), verb({ kind: 'report', seat: 0 }));
  assert.deepEqual(sent(d.effects), [{ type: 'report', seat: 1 }]);
  d.on(
    server({
      type: 'reported',
      code: CODE,
      seat: 1,
      message: 'Bruno was reported; thank you.',
      message_it: 'Bruno è stato segnalato; grazie.',
    }),
  );
  assert.deepEqual(d.model.reported, [1]);
  assert.equal(d.model.notice, 'Bruno was reported; thank you.');
  d.on(verb({ kind: 'report', seat: 1 }));
  assert.equal(sent(d.effects).length, 1);
});

test('create sends the talk choice where people sit; none against bots', () => {
  const open = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'open'], name: '', talk: false }),
  );
  open.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(open.effects), [
    { type: 'create', rules: {}, seats: ['me', 'open'], talk: false },
  ]);
  const bots = drive(
    fresh(),
    verb({ kind: 'create', rules: {}, seats: [undefined, 'esperto'], name: '', talk: true }),
  );
  bots.on({ kind: 'status', conn: { kind: 'open' } }, { kind: 'opened' });
  assert.deepEqual(sent(bots.effects), [{ type: 'create', rules: {}, seats: ['me', 'esperto'] }]);
});
