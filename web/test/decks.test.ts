/*
 * decks.test.ts -- the three deck styles (decks/*.ts): each draws the 40
 * faces, all different, and a back; its sprite holds the four suit
 * symbols and the back's pattern that the faces use; the corner index
 * of a two-character rank is squeezed to fit (the "10" spilled over the
 * card's edge); the French deck says A, J, Q, K.  cards.ts: a stored
 * style read back, an unknown one the Neapolitan deck.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deck as napoletane } from '../src/decks/napoletane.js';
import { deck as piacentine } from '../src/decks/piacentine.js';
import { deck as francesi } from '../src/decks/francesi.js';
import { DECKS, deckStyle } from '../src/cards.js';
import type { Card } from '../src/protocol.js';

const ALL: Card[] = [];
for (const s of ['d', 'c', 's', 'b']) for (let r = 1; r <= 10; r++) ALL.push(`${r}${s}` as Card);

const STYLES = { napoletane, piacentine, francesi };

test('every style draws 40 different faces and a back, from its own sprite', () => {
  assert.deepEqual(Object.keys(STYLES).sort(), [...DECKS].sort());
  for (const [name, d] of Object.entries(STYLES)) {
    assert.equal(d.style, name);
    const faces = ALL.map((c) => d.face(c));
    assert.equal(new Set(faces).size, 40, `${name}: 40 different faces`);
    for (const f of faces) {
      assert.match(f, /^<svg viewBox="0 0 100 160"/);
      assert.equal((f.match(/<svg/g) ?? []).length, 1);
    }
    for (const s of ['d', 'c', 's', 'b']) assert.ok(d.sprite.includes(`id="scopa-pip-${s}"`));
    assert.ok(d.sprite.includes('id="scopa-back"'));
    assert.ok(d.back().includes('url(#scopa-back)'));
    // every symbol a face uses is in the sprite
    for (const f of faces)
      for (const [, id] of f.matchAll(/href="#([\w-]+)"/g))
        assert.ok(d.sprite.includes(`id="${id}"`), `${name}: #${id} in the sprite`);
  }
});

test('a two-character index is squeezed inside the card; one character is not', () => {
  for (const d of [napoletane, piacentine]) {
    assert.match(d.face('10d'), />10<\/text>/);
    assert.match(d.face('10d'), /textLength="17"[^>]*>10</);
    assert.doesNotMatch(d.face('7d'), /textLength/);
  }
});

test('the French deck: A, J, Q, K for 1, 8, 9, 10; hearts red for coppe, spades black', () => {
  const label = (c: Card): string => /font-size="22"[^>]*>([^<]+)</.exec(francesi.face(c))![1]!;
  assert.deepEqual(
    ['1c', '7c', '8c', '9c', '10c'].map((c) => label(c as Card)),
    ['A', '7', 'J', 'Q', 'K'],
  );
  assert.match(francesi.face('5c'), /fill="#c8102e">5</);
  assert.match(francesi.face('5s'), /fill="#1a1a1a">5</);
});

test('deckStyle: a stored style read back, anything else the Neapolitan deck', () => {
  for (const s of DECKS) assert.equal(deckStyle(s), s);
  assert.equal(deckStyle(undefined), 'napoletane');
  assert.equal(deckStyle('tarocchi'), 'napoletane');
});
