/*
 * catalogue.ts -- the shape of the library's catalogue (scopa.h
 * scopa_rules_catalogue_json; `scopa rules`; GET /api/rules): every rules
 * option, the presets and the levels.  catalogue.gen.ts holds the
 * library's own, generated at build time (tools/catalogue.mjs).
 */
export type OptionGroup = 'game' | 'play' | 'aces' | 'score' | 'end';

export interface Labels {
  en: string;
  it: string;
}

export interface CatalogueOption {
  name: string;
  kind: 'bool' | 'int' | 'enum';
  group: OptionGroup;
  label: Labels;
  help: string;
  values?: readonly (string | number)[];
  min?: number;
  max?: number;
  default: string | number | boolean;
}

export interface CataloguePreset {
  name: string;
  label: Labels;
  rules: Record<string, string | number | boolean>;
}

export interface CatalogueLevel {
  name: string;
  english: string;
  bot: string;
  movetime_ms: number;
}

export interface Catalogue {
  options: readonly CatalogueOption[];
  presets: readonly CataloguePreset[];
  levels: readonly CatalogueLevel[];
  /** The ids of the quick reactions at a table (scopa serve's react). */
  reactions: readonly string[];
}
