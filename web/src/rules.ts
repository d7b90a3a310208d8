/*
 * rules.ts -- the rules options of docs/RULES.md as data: the library's one
 * table with each option's values and default, and its presets (both from
 * catalogue.gen.ts, generated from `scopa rules`), and the few derived
 * facts the table needs (sides, partners, cards dealt).  The home page
 * builds its form from OPTIONS; the table shows the options that differ
 * from the defaults.
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

/** Table cards dealt at the start of a round (scientifico: none). */
export function tableCardsDealt(r: Effective): number {
  return r.game === 'scopone_scientifico' ? 0 : 4;
}

/** Cards in each hand at the first deal. */
export function handSize(r: Effective): number {
  return r.game === 'scopone' ? 9 : r.game === 'scopone_scientifico' ? 10 : 3;
}

/** Plays in a round: every card not dealt to the table is played once. */
export function playsPerRound(r: Effective): number {
  return 40 - tableCardsDealt(r);
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

/** A few checks of RULES.md "Rules that cannot be played", so the home form
 * can say what is wrong before the server does.  Returns the offending
 * option names (empty: playable as far as we can tell). */
export function conflicts(rules: Rules): string[] {
  const r = effective(rules);
  const bad: string[] = [];
  const p = num(r, 'players');
  for (const o of OPTIONS)
    if (
      o.kind === 'int' &&
      !o.values &&
      (num(r, o.name) < (o.min ?? 0) || (o.max !== undefined && num(r, o.name) > o.max))
    )
      bad.push(o.name);
  if (r.teams === true && p !== 4 && p !== 6) bad.push('teams');
  if (num(r, 'team_size') === 3 && !(r.teams === true && p === 6)) bad.push('team_size');
  if (p === 6 && r.game !== 'scopa') bad.push('players');
  if (r.game !== 'scopa' && (p !== 4 || r.teams !== true)) bad.push('game');
  if (num(r, 'refill') === 1 && r.game !== 'scopa') bad.push('refill');
  if (r.ace_sweeps !== true)
    for (const k of [
      'ace_sweep_with_ace',
      'ace_first_play',
      'ace_empty_table',
      'ace_sweep_optional',
    ]) {
      const o = OPTIONS.find((x) => x.name === k);
      if (o && r[k] !== o.def) bad.push(k);
    }
  if (r.single_match_first === false && r.capture === 'quindici') bad.push('single_match_first');
  if (r.deal_bonus === 'fifteen' && r.game === 'scopone_scientifico') bad.push('deal_bonus');
  if (r.win_by_two === true && r.tiebreak !== 'extra_round') bad.push('win_by_two');
  if (
    r.lowest_wins === true &&
    (r.win_by_two === true ||
      num(r, 'cappotto') > 0 ||
      r.all_coins_wins === true ||
      r.tiebreak !== 'extra_round')
  )
    bad.push('lowest_wins');
  return bad;
}
