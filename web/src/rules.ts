/*
 * rules.ts -- the rules options of docs/RULES.md as data: the library's one
 * table with each option's values and default, and its presets (both from
 * catalogue.gen.ts, generated from `scopa rules`), and the few derived
 * facts the table's seating needs (sides, partners); how many cards are
 * dealt or played is the server's (drawn, the review), never counted
 * here.  The home page
 * builds its form from OPTIONS; the table shows the options that differ
 * from the defaults.  Whether rules can be played is the library's check
 * alone: a create the server (or the local table, the library in
 * WebAssembly) refuses comes back to the form in the library's words.
 *
 * What must stay true: nothing here repeats the library's table.
 * A default that depends on the game (players, teams) is computed by
 * effective(), never written twice.
 */
import type { Rules } from './protocol.js';
import type { CatalogueOption, OptionGroup } from './catalogue.js';
import { CATALOGUE } from './catalogue.gen.js';

export type OptionKind = CatalogueOption['kind'];

export interface OptionSpec {
  name: string;
  kind: OptionKind;
  values?: readonly (string | number)[]; // enum (and int options with a closed set)
  min?: number; // int options with a range
  max?: number; // (the library's SCOPA_TARGET_MAX, SCOPA_ALL_SEVENS_MAX)
  def: string | number | boolean; // the default for game "scopa"
  group: OptionGroup;
}

/** The library's option table (catalogue.gen.ts), in RULES.md order. */
export const OPTIONS: readonly OptionSpec[] = CATALOGUE.options.map((o) => ({
  name: o.name,
  kind: o.kind,
  ...(o.values ? { values: o.values } : {}),
  ...(o.min !== undefined ? { min: o.min } : {}),
  ...(o.max !== undefined ? { max: o.max } : {}),
  def: o.default,
  group: o.group,
}));

/** The bots' levels for people, weakest first (the library's
 * scopa_level table, catalogue.gen.ts): sent as they are; scopa serve
 * maps each to a bot and its time budget (docs/serve.md), as `scopa play
 * --level` does.  i18n.ts names them (lv_<name>). */
export const LEVELS: readonly string[] = CATALOGUE.levels.map((l) => l.name);

/** RULES.md "Presets", as the library computes them. */
export const PRESETS: Readonly<Record<string, Rules>> = Object.fromEntries(
  CATALOGUE.presets.map((p) => [p.name, p.rules as Rules]),
);

export type Effective = Record<string, string | number | boolean>;

export function effective(rules: Rules): Effective {
  const out: Effective = {};
  for (const o of OPTIONS) out[o.name] = o.def;
  const scopone = rules.game === 'scopone' || rules.game === 'scopone_scientifico';
  if (scopone) {
    out.players = 4;
    out.teams = true;
  }
  for (const [k, v] of Object.entries(rules)) out[k] = v;
  return out;
}

export const num = (r: Effective, k: string): number => Number(r[k]);

/** Number of sides: players / team_size with teams, else one per seat. */
export function sideCount(r: Effective): number {
  const p = num(r, 'players');
  return r.teams === true ? p / num(r, 'team_size') : p;
}

/** RULES.md "Seats": seat i belongs to side i mod S. */
export function sideOf(r: Effective, seat: number): number {
  return seat % sideCount(r);
}

/** The seats of a side, in seat order. */
export function seatsOfSide(r: Effective, side: number): number[] {
  const p = num(r, 'players');
  const out: number[] = [];
  for (let s = 0; s < p; s++) if (sideOf(r, s) === side) out.push(s);
  return out;
}

/** The options that differ from their (game-dependent) defaults, for the
 * "rules of this table" box. */
export function differences(rules: Rules): [string, string | number | boolean][] {
  const base = effective({ game: rules.game ?? 'scopa' });
  const eff = effective(rules);
  return OPTIONS.filter((o) => o.name !== 'game' && eff[o.name] !== base[o.name]).map((o) => [
    o.name,
    eff[o.name] as string | number | boolean,
  ]);
}

/** The preset a rules object starts from: the one with the most options
 * that the rules all keep ("scopa", the defaults, when none). */
export function presetOf(rules: Rules): string {
  let best = 'scopa';
  let most = -1;
  for (const [name, p] of Object.entries(PRESETS)) {
    const keys = Object.keys(p);
    if (keys.every((k) => rules[k] === p[k]) && keys.length > most) {
      best = name;
      most = keys.length;
    }
  }
  return best;
}
