/*
 * names.test.ts -- the names the page says: the game a table's rules make
 * (the rules line: Escoba is not "scopa"), and a bot's level in the page's
 * language (the library's catalogue).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameName, levelName } from '../src/i18n.js';
import { effective } from '../src/rules.js';
import { CATALOGUE } from '../src/catalogue.gen.js';

test("gameName: each preset's rules are named after it, in both languages", () => {
  for (const p of CATALOGUE.presets) {
    const eff = effective(p.rules);
    assert.equal(gameName('en', eff), p.label.en, p.name);
    assert.equal(gameName('it', eff), p.label.it, p.name);
  }
  // the target aside: Escoba to 11 is still Escoba, not "scopa"
  const escoba = CATALOGUE.presets.find((p) => p.name === 'escoba')!;
  assert.equal(gameName('en', effective({ ...escoba.rules, target: 11 })), 'Escoba');
  assert.equal(gameName('it', effective({})), 'Scopa');
});

test("levelName: a bot's level in the page's language; other names as they are", () => {
  assert.equal(levelName('en', 'principiante'), 'Beginner');
  assert.equal(levelName('it', 'principiante'), 'Principiante');
  assert.equal(levelName('en', 'campione'), 'Champion');
  assert.equal(levelName('it', 'Anna'), 'Anna');
});
