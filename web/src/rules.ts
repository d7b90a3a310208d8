/*
 * rules.ts -- the rules options of docs/RULES.md as data: one table with each
 * option's values and default, the presets, and the few derived facts the
 * table needs (sides, partners, cards dealt).  The home page builds its form
 * from OPTIONS; the table shows the options that differ from the defaults.
 *
 * What must stay true: names, values and defaults are exactly RULES.md's.
 * A default that depends on the game (players, teams) is computed by
 * effective(), never written twice.
 */
import type { Rules } from './protocol.js';

export type OptionKind = 'enum' | 'bool' | 'int';

export interface OptionSpec {
  name: string;
  kind: OptionKind;
  values?: readonly (string | number)[]; // enum (and int options with a closed set)
  min?: number; // int options with a range
  max?: number; // (the library's SCOPA_TARGET_MAX, SCOPA_ALL_SEVENS_MAX)
  def: string | number | boolean; // the default for game "scopa"
  group: 'game' | 'play' | 'aces' | 'score' | 'end';
}

export const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'game',
    kind: 'enum',
    values: ['scopa', 'scopone', 'scopone_scientifico'],
    def: 'scopa',
    group: 'game',
  },
  { name: 'players', kind: 'int', values: [2, 3, 4, 6], def: 2, group: 'game' },
  { name: 'teams', kind: 'bool', def: false, group: 'game' },
  { name: 'team_size', kind: 'int', values: [2, 3], def: 2, group: 'game' },
  { name: 'refill', kind: 'int', values: [3, 1], def: 3, group: 'game' },
  { name: 'kings_redeal', kind: 'bool', def: true, group: 'game' },
  { name: 'deal_bonus', kind: 'enum', values: ['off', 'fifteen'], def: 'off', group: 'game' },
  { name: 'capture', kind: 'enum', values: ['match', 'quindici'], def: 'match', group: 'play' },
  { name: 'single_match_first', kind: 'bool', def: true, group: 'play' },
  { name: 'fewest_cards', kind: 'bool', def: false, group: 'play' },
  { name: 'max_capture', kind: 'int', values: [0, 2], def: 0, group: 'play' },
  { name: 'mandatory_capture', kind: 'bool', def: true, group: 'play' },
  { name: 'last_card_scopa', kind: 'bool', def: false, group: 'play' },
  { name: 'ace_sweeps', kind: 'bool', def: false, group: 'aces' },
  { name: 'ace_sweep_scopa', kind: 'bool', def: true, group: 'aces' },
  {
    name: 'ace_sweep_with_ace',
    kind: 'enum',
    values: ['no', 'yes', 'choice'],
    def: 'no',
    group: 'aces',
  },
  {
    name: 'ace_first_play',
    kind: 'enum',
    values: ['sweeps', 'no_sweep', 'no_ace'],
    def: 'sweeps',
    group: 'aces',
  },
  { name: 'ace_empty_table', kind: 'enum', values: ['laid', 'taken'], def: 'laid', group: 'aces' },
  { name: 'ace_sweep_optional', kind: 'bool', def: false, group: 'aces' },
  {
    name: 'leftovers',
    kind: 'enum',
    values: ['last_capture', 'dealer', 'nobody'],
    def: 'last_capture',
    group: 'score',
  },
  {
    name: 'primiera',
    kind: 'enum',
    values: ['standard', 'faces_zero', 'sevens', 'sum', 'complete_only', 'off'],
    def: 'standard',
    group: 'score',
  },
  { name: 're_bello', kind: 'bool', def: false, group: 'score' },
  { name: 'napola', kind: 'bool', def: false, group: 'score' },
  { name: 'most_sevens', kind: 'bool', def: false, group: 'score' },
  { name: 'all_sevens', kind: 'int', min: 0, max: 100, def: 0, group: 'score' },
  { name: 'target', kind: 'int', min: 1, max: 1000, def: 11, group: 'end' },
  {
    name: 'tiebreak',
    kind: 'enum',
    values: ['extra_round', 'count_order', 'count_order_on_tie'],
    def: 'extra_round',
    group: 'end',
  },
  { name: 'win_by_two', kind: 'bool', def: false, group: 'end' },
  { name: 'cappotto', kind: 'int', min: 0, def: 0, group: 'end' },
  { name: 'all_coins_wins', kind: 'bool', def: false, group: 'end' },
  { name: 'lowest_wins', kind: 'bool', def: false, group: 'end' },
];

export const PRESETS: Readonly<Record<string, Rules>> = {
  scopa: {},
  scopone: { game: 'scopone' },
  scientifico: { game: 'scopone_scientifico' },
  assi: { ace_sweeps: true },
  quindici: { capture: 'quindici' },
  escoba: {
    capture: 'quindici',
    primiera: 'off',
    most_sevens: true,
    deal_bonus: 'fifteen',
    target: 21,
  },
  trentuno: {
    game: 'scopone_scientifico',
    ace_sweeps: true,
    ace_sweep_scopa: false,
    napola: true,
    target: 31,
    all_coins_wins: true,
  },
  perdere: { lowest_wins: true, target: 21 },
};

/** Every option with a value: the given ones, then the defaults (players and
 * teams default to 4 and true for the scopone games, RULES.md "Seats"). */
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
