/*
 * words.test.ts -- hints and the review in words (words.ts): the same
 * sentences as the library's (tests/ai/test_words.c checks these very
 * strings against src/ai/words.c), so the terminal and the browser say
 * the same thing; and no notation in any of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Move, parseMove } from '../src/protocol.js';
import {
  compareWords,
  lossWords,
  moveAndWhy,
  moveWords,
  pointsWords,
  whyOf,
  whyWords,
} from '../src/words.js';

const mv = (s: string): Move => {
  const m = parseMove(s);
  assert.ok(m, s);
  return m;
};
const NOTATION = /\b\d{1,2}[dcsb](x|\b)/;

test('words: moves as the library says them, in English and Italian', () => {
  assert.equal(moveWords('en', mv('7cx7d')), 'Take the 7 of coins with your 7 of cups');
  assert.equal(moveWords('it', mv('7cx7d')), 'Prendi il 7 di denari con il tuo 7 di coppe');
  assert.equal(
    moveWords('it', mv('4dx3c+1b')),
    "Prendi l'asso di bastoni e il 3 di coppe con il tuo 4 di denari",
  );
  assert.equal(moveWords('en', mv('5s')), 'Lay the 5 of swords on the table');
  assert.equal(moveWords('it', mv('10b')), 'Cala il re di bastoni');
});

test('words: the reasons of scopa_move_why, the good ones then a risk after "but"', () => {
  const w = whyOf({
    codes: ['settebello', 'opens', 'sevens'],
    cards: 2,
    coins: 1,
    sevens: 2,
    sum: 9,
    rank: 9,
  });
  assert.equal(
    whyWords('en', w, 1),
    'takes the settebello, but leaves 9 on the table: a horse would make a scopa',
  );
  assert.equal(
    whyWords('it', w, 9),
    'prende il settebello, prende un sette per la primiera, ma lascia 9 in tavola: un cavallo farebbe scopa',
  );
  assert.equal(
    moveAndWhy(
      'en',
      mv('10cx1b+2c+3s+4d'),
      whyOf({ codes: ['scopa', 'coins', 'cards'], cards: 5, coins: 1 }),
    ),
    'Take the ace of clubs, the 2 of cups, the 3 of swords and the 4 of coins with your king of cups: makes a scopa, takes a coin',
  );
  // another server's why: unknown codes and shapes are left out
  assert.equal(whyWords('en', whyOf({ codes: ['bogus'] })), '');
  assert.equal(whyOf('scopa'), null);
});

test('words: points and losses as a person says them, with their doubt', () => {
  const cases: [number, 'en' | 'it', string][] = [
    [0.75, 'en', 'about 3/4 of a point'],
    [0.74, 'it', 'circa 3/4 di punto'],
    [0.5, 'en', 'about half a point'],
    [0.27, 'it', 'circa un quarto di punto'],
    [1.02, 'en', 'about a point'],
    [1.5, 'en', 'about 1 and a half points'],
    [1.5, 'it', 'circa 1 punto e mezzo'],
    [2.6, 'en', 'about 2 and a half points'],
    [3.0, 'it', 'circa 3 punti'],
    [0.05, 'en', 'almost nothing'],
    [NaN, 'en', 'almost nothing'],
  ];
  for (const [p, lang, want] of cases) assert.equal(pointsWords(lang, p), want, String(p));
  assert.match(
    lossWords('en', 1.3, 0.2, '??'),
    /^A blunder \(\?\?\): it almost surely .* about 1 and a quarter points on average$/,
  );
  assert.match(lossWords('it', 0.6, 0.2, '?'), /svista.*circa mezzo punto/);
  assert.match(
    lossWords('en', 0.3, 0.25, ''),
    /^It may have cost about a quarter of a point, .*margin \(±0\.25\)$/,
  );
  assert.equal(lossWords('en', 0.02, 0.1, ''), 'As good as the best move');
  assert.equal(compareWords('en', [{}], 0.2), 'It is your only move.');
  assert.equal(
    compareWords(
      'en',
      [{ loss: 0 }, { loss: 0.8, loss_margin: 0.2 }, { loss: 0.6, loss_margin: 0.1 }],
      1,
    ),
    'Any other move costs about half a point on average.',
  );
  assert.match(
    compareWords('it', [{ loss: 0 }, { loss: 0.1, loss_margin: 0.3 }], 1),
    /scelta difficile/,
  );
  for (const s of [moveWords('en', mv('9bx9s')), lossWords('en', 0.75, 0.1, '?')])
    assert.doesNotMatch(s, NOTATION);
});
