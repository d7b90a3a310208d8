/*
 * i18n.ts -- every word the client shows, in Italian and English.  The
 * language comes from the browser (navigator.languages), can be switched on
 * screen, and is remembered in localStorage (verbs.ts).
 *
 * What must stay true: both languages have every key (a unit test checks);
 * placeholders are {name} and are filled by t().  Option, preset and level
 * names are the library's (catalogue.gen.ts).
 */
import { CATALOGUE } from './catalogue.gen.js';
import { deckInUse } from './cards.js';

export type Lang = 'it' | 'en';
export const LANGS: readonly Lang[] = ['it', 'en'];

const en = {
  title: 'Scopa',
  tagline: 'The Italian card game, at the table with a bot or with friends.',
  noServer:
    'No server answers: you play the bots in this browser, even offline. Games with friends and the leaderboard come back with the server.',
  savedGame: 'Your game in this browser',
  continueGame: 'Continue',
  playBot: 'Play a bot now',
  level: 'Level',
  lv_principiante: 'Beginner',
  lv_intermedio: 'Intermediate',
  lv_esperto: 'Expert',
  lv_campione: 'Champion',
  rules: 'Rules',
  preset: 'Game',
  allOptions: 'Every option',
  yourName: 'Your name',
  start: 'Start',
  privateTable: 'Private table',
  privateHelp: 'Create a table, then send its link or code to your friends.',
  seats: 'Seats',
  seatMe: 'You',
  seatOpen: 'A friend (open seat)',
  create: 'Create table',
  joinByCode: 'Join by code',
  code: 'Code',
  join: 'Join',
  watch: 'Watch',
  leaderboard: 'Leaderboard',
  home: 'Home',
  language: 'Language',
  connecting: 'Connecting…',
  offline: 'Connection lost: reconnecting in {s} s…',
  reconnecting: 'Reconnecting…',
  resent: 'Move sent again',
  stalled:
    'The server could not save the last move, so it was not played. Resuming the table in {s} s…',
  stalledNow: 'The server could not save the last move, so it was not played. Resuming the table…',
  tableBack: 'The table is back: it goes on from the last move saved.',
  waitingPlayers: 'Waiting for players. Share this link or the code {code}:',
  copy: 'Copy link',
  share: 'Share the link',
  inviteText: 'Come and play Scopa with me',
  copied: 'Copied',
  yourTurn: 'Your turn',
  turnOf: '{name} to play',
  you: 'you',
  stock: 'Stock: {n}',
  table: 'Table',
  emptyTable: 'The table is empty',
  hand: 'Your hand',
  handOf: "{name}'s hand: {n} cards",
  pile: 'Captured: {n}',
  scopaCount: 'Scope: {n}',
  scores: 'Score',
  target: 'to {n}',
  lastMove: 'Last move',
  lastMoveText: '{name}: {move}',
  lays: '{card} laid on the table',
  takes: '{card} takes {cards}',
  noMoveYet: 'No move yet',
  play: 'Play',
  cancel: 'Cancel',
  optionOf: 'choice {i} of {n}: click the card again for the next',
  onlyMove: 'Click the card again, or Play, to play it',
  r_lay: 'No capture: this card is laid on the table.',
  'r_must-capture': 'This card must take: a card that can capture may not be laid.',
  'r_match-first': 'A card of the same rank is on the table: the {card} must take it, not a sum.',
  r_sweep: 'An ace sweeps the whole table.',
  r_choice: 'This card can take different sets: click again to choose.',
  'r_not-playable': 'This card cannot be played now.',
  hint: 'Hint',
  hintOff: 'Hints off',
  hintOn: 'Hints on',
  hintSays: 'Hint: {move}',
  hintUnavailable: 'This server does not give hints yet.',
  away: 'away',
  awayFor: 'away: a bot plays in {s} s',
  awaySince: 'away for {s} s',
  openSeat: 'open seat',
  seatN: 'Seat {n}',
  taken: 'taken by the chosen move',
  bot: 'bot',
  here: 'here',
  spectator: 'You are watching this table: every hand is hidden.',
  roundScore: 'Round score',
  category: 'Category',
  c_carte: 'Cards',
  c_denari: 'Coins',
  c_settebello: 'Settebello',
  c_primiera: 'Primiera',
  c_scope: 'Scope',
  c_re_bello: 'Re bello',
  c_napola: 'Napola',
  c_sevens: 'Most sevens',
  c_all_sevens: 'All sevens',
  roundTotal: 'This round',
  totals: 'Total',
  side: 'Side',
  team: 'Team {names}',
  continue: 'Continue',
  partialRound: 'Only the numbers: this round was not fully seen here.',
  gameOver: 'Game over',
  winnerIs: '{name} wins',
  youWin: 'You win!',
  youLose: 'You lose',
  noWinner: 'No winner',
  seedRevealed: 'The seed, revealed: {seed}',
  seedCheck: 'Its SHA-256 was announced at the start: {sha}',
  download: 'Download the game record',
  review: 'Review the game',
  reviewUnavailable:
    'This server does not mark costly moves yet: the moves are shown without marks.',
  reviewBest: 'Better: {move}',
  reviewStep: 'Round {r}, move {i} of {n}',
  reviewMarked: 'Moves the bot marked: {n}',
  reviewAt: 'round {r}, move {i}',
  slip: '"?" loses about 0.3 points or more on average',
  blunder: '"??" loses a point or more on average',
  prev: 'Previous move',
  next: 'Next move',
  newGame: 'New game',
  playAgain: 'Play again',
  r_bella: 'Bella!',
  r_scopa: 'Scopa!',
  r_ben_giocata: 'Well played',
  r_peccato: 'Too bad',
  r_grazie: 'Thanks',
  r_applause: '👏',
  r_laugh: '😄',
  r_wow: '😮',
  r_think: '🤔',
  reactionsOn: 'Reactions: on',
  reactionsOff: 'Reactions: muted',
  reactionsLabel: 'Quick reactions',
  fullWatching: 'This table is full: you are watching.',
  askName: 'Table {code}: your name, and you sit down.',
  sitDown: 'Sit down',
  justWatch: 'Just watch',
  watchingCount: 'Watching: {n}',
  rematchAsked: '{names} would like to play again.',
  rematchWaiting: 'Waiting for {names} to say yes…',
  rematchYes: 'Play again',
  rematchNo: 'No, thanks',
  moveClock: 'Move clock',
  moveClockHelp:
    'At a table with friends: when the time for a move runs out, the strongest bot plays it.',
  clockOff: 'Off',
  clockRelaxed: 'Relaxed (2 minutes)',
  clockNormal: 'Normal (1 minute)',
  clockFast: 'Fast (20 seconds)',
  clockLeft: '{s} s left',
  rank: 'Rank',
  player: 'Player',
  rating: 'Rating',
  games: 'Games',
  noLeaderboard: 'The leaderboard is not available on this server yet.',
  noRatedGames: 'No rated games yet: games between people only count.',
  pools: 'Number of players',
  pool: '{n} players',
  deviation: 'Deviation',
  error: 'Error: {msg}',
  invalidRules: 'These options do not go together: {names}',
  skip: 'Skip animations',
  oneClick: 'Expert: play on one click',
  deck: 'Cards',
  soundOn: 'Sound on',
  soundOff: 'Sound off',
  deck_napoletane: 'Neapolitan',
  deck_piacentine: 'Piacentine',
  deck_francesi: 'French',
  oneClickHelp: 'A card with one move is played at the first click, without being picked first.',
  tableRules: 'Rules of this table',
  defaults: 'standard rules',
  dealer: 'dealer',
  seedHash: 'Deck commitment (SHA-256): {sha}',
  code_label: 'Table {code}',
  localTable: 'In this browser',
  yes: 'yes',
  no: 'no',
  keyboardHelp:
    'Keys: 1–9 pick a card (again: next choice; a digit never plays), Enter plays, Esc cancels, H hint.',
};

type Key = keyof typeof en;

const it: Record<Key, string> = {
  title: 'Scopa',
  tagline: 'Il gioco di carte italiano, al tavolo con il computer o con gli amici.',
  noServer:
    'Nessun server risponde: giochi con il computer in questo browser, anche senza rete. Le partite con gli amici e la classifica tornano con il server.',
  savedGame: 'La tua partita in questo browser',
  continueGame: 'Continua',
  playBot: 'Gioca subito contro il computer',
  level: 'Livello',
  lv_principiante: 'Principiante',
  lv_intermedio: 'Intermedio',
  lv_esperto: 'Esperto',
  lv_campione: 'Campione',
  rules: 'Regole',
  preset: 'Gioco',
  allOptions: 'Tutte le opzioni',
  yourName: 'Il tuo nome',
  start: 'Inizia',
  privateTable: 'Tavolo privato',
  privateHelp: 'Crea un tavolo, poi manda il link o il codice agli amici.',
  seats: 'Posti',
  seatMe: 'Tu',
  seatOpen: 'Un amico (posto libero)',
  create: 'Crea il tavolo',
  joinByCode: 'Entra con un codice',
  code: 'Codice',
  join: 'Entra',
  watch: 'Guarda',
  leaderboard: 'Classifica',
  home: 'Inizio',
  language: 'Lingua',
  connecting: 'Connessione…',
  offline: 'Connessione persa: riprovo tra {s} s…',
  reconnecting: 'Riconnessione…',
  resent: 'Mossa inviata di nuovo',
  stalled:
    "Il server non ha potuto salvare l'ultima mossa, che non è stata giocata. Riprendo il tavolo tra {s} s…",
  stalledNow:
    "Il server non ha potuto salvare l'ultima mossa, che non è stata giocata. Riprendo il tavolo…",
  tableBack: "Il tavolo è ripreso: si continua dall'ultima mossa salvata.",
  waitingPlayers: 'In attesa dei giocatori. Condividi questo link o il codice {code}:',
  copy: 'Copia il link',
  share: 'Condividi il link',
  inviteText: 'Vieni a giocare a Scopa con me',
  copied: 'Copiato',
  yourTurn: 'Tocca a te',
  turnOf: 'Tocca a {name}',
  you: 'tu',
  stock: 'Mazzo: {n}',
  table: 'Tavolo',
  emptyTable: 'Il tavolo è vuoto',
  hand: 'Le tue carte',
  handOf: 'Carte di {name}: {n}',
  pile: 'Prese: {n}',
  scopaCount: 'Scope: {n}',
  scores: 'Punteggio',
  target: 'a {n}',
  lastMove: 'Ultima mossa',
  lastMoveText: '{name}: {move}',
  lays: '{card} posato sul tavolo',
  takes: '{card} prende {cards}',
  noMoveYet: 'Nessuna mossa',
  play: 'Gioca',
  cancel: 'Annulla',
  optionOf: 'scelta {i} di {n}: tocca di nuovo la carta per la prossima',
  onlyMove: 'Tocca di nuovo la carta, o Gioca, per giocarla',
  r_lay: 'Nessuna presa: la carta va sul tavolo.',
  'r_must-capture': 'Questa carta deve prendere: chi può prendere non può posare.',
  'r_match-first':
    'Sul tavolo c’è una carta dello stesso valore: il {card} deve prendere quella, non una somma.',
  r_sweep: 'L’asso piglia tutto il tavolo.',
  r_choice: 'Questa carta può prendere gruppi diversi: tocca di nuovo per scegliere.',
  'r_not-playable': 'Questa carta non si può giocare adesso.',
  hint: 'Suggerimento',
  hintOff: 'Suggerimenti spenti',
  hintOn: 'Suggerimenti accesi',
  hintSays: 'Consiglio: {move}',
  hintUnavailable: 'Questo server non dà ancora suggerimenti.',
  away: 'assente',
  awayFor: 'assente: gioca il computer tra {s} s',
  awaySince: 'assente da {s} s',
  openSeat: 'posto libero',
  seatN: 'Posto {n}',
  taken: 'presa dalla mossa scelta',
  bot: 'computer',
  here: 'presente',
  spectator: 'Stai guardando questo tavolo: tutte le mani sono coperte.',
  roundScore: 'Punti della mano',
  category: 'Voce',
  c_carte: 'Carte',
  c_denari: 'Denari',
  c_settebello: 'Settebello',
  c_primiera: 'Primiera',
  c_scope: 'Scope',
  c_re_bello: 'Re bello',
  c_napola: 'Napola',
  c_sevens: 'Più settanta',
  c_all_sevens: 'Tutti i sette',
  roundTotal: 'Questa mano',
  totals: 'Totale',
  side: 'Squadra',
  team: 'Squadra {names}',
  continue: 'Continua',
  partialRound: 'Solo i numeri: questa mano non è stata vista per intero qui.',
  gameOver: 'Partita finita',
  winnerIs: 'Vince {name}',
  youWin: 'Hai vinto!',
  youLose: 'Hai perso',
  noWinner: 'Nessun vincitore',
  seedRevealed: 'Il seed del mazzo, rivelato: {seed}',
  seedCheck: 'Il suo SHA-256 era stato annunciato all’inizio: {sha}',
  download: 'Scarica la registrazione della partita',
  review: 'Rivedi la partita',
  reviewUnavailable:
    'Questo server non segna ancora le mosse costose: le mosse sono mostrate senza segni.',
  reviewBest: 'Meglio: {move}',
  reviewStep: 'Mano {r}, mossa {i} di {n}',
  reviewMarked: 'Mosse segnate dal computer: {n}',
  reviewAt: 'mano {r}, mossa {i}',
  slip: '"?" perde in media circa 0,3 punti o più',
  blunder: '"??" perde in media un punto o più',
  prev: 'Mossa precedente',
  next: 'Mossa seguente',
  newGame: 'Nuova partita',
  playAgain: 'Gioca ancora',
  r_bella: 'Bella!',
  r_scopa: 'Scopa!',
  r_ben_giocata: 'Ben giocata',
  r_peccato: 'Peccato',
  r_grazie: 'Grazie',
  r_applause: '👏',
  r_laugh: '😄',
  r_wow: '😮',
  r_think: '🤔',
  reactionsOn: 'Reazioni: sì',
  reactionsOff: 'Reazioni: silenziate',
  reactionsLabel: 'Reazioni rapide',
  fullWatching: 'Il tavolo è al completo: stai guardando.',
  askName: 'Tavolo {code}: il tuo nome, e ti siedi.',
  sitDown: 'Siediti',
  justWatch: 'Guarda soltanto',
  watchingCount: 'Spettatori: {n}',
  rematchAsked: '{names} vuole giocare ancora.',
  rematchWaiting: 'Si aspetta che {names} dica di sì…',
  rematchYes: 'Gioca ancora',
  rematchNo: 'No, grazie',
  moveClock: 'Tempo per mossa',
  moveClockHelp:
    'Al tavolo con gli amici: quando il tempo di una mossa finisce, la gioca il bot più forte.',
  clockOff: 'Nessuno',
  clockRelaxed: 'Tranquillo (2 minuti)',
  clockNormal: 'Normale (1 minuto)',
  clockFast: 'Veloce (20 secondi)',
  clockLeft: 'ancora {s} s',
  rank: 'Pos.',
  player: 'Giocatore',
  rating: 'Punteggio',
  games: 'Partite',
  noLeaderboard: 'La classifica non è ancora disponibile su questo server.',
  noRatedGames: 'Ancora nessuna partita in classifica: contano solo le partite tra persone.',
  pools: 'Numero di giocatori',
  pool: '{n} giocatori',
  deviation: 'Deviazione',
  error: 'Errore: {msg}',
  invalidRules: 'Queste opzioni non vanno insieme: {names}',
  skip: 'Salta le animazioni',
  oneClick: 'Esperto: gioca con un clic',
  deck: 'Carte',
  soundOn: 'Suoni accesi',
  soundOff: 'Suoni spenti',
  deck_napoletane: 'Napoletane',
  deck_piacentine: 'Piacentine',
  deck_francesi: 'Francesi',
  oneClickHelp: 'Una carta con una sola mossa si gioca al primo clic, senza sceglierla prima.',
  tableRules: 'Regole di questo tavolo',
  defaults: 'regole normali',
  dealer: 'mazziere',
  seedHash: 'Impegno sul mazzo (SHA-256): {sha}',
  code_label: 'Tavolo {code}',
  localTable: 'In questo browser',
  yes: 'sì',
  no: 'no',
  keyboardHelp:
    'Tasti: 1–9 scegli una carta (di nuovo: scelta seguente; una cifra non gioca mai), Invio gioca, Esc annulla, H suggerimento.',
};

export const STRINGS: Record<Lang, Record<Key, string>> = { en, it };
export type { Key };

/** The reactions a person may send, by id (scopa serve's list, react.c). */
export const REACTIONS: readonly string[] = [
  'bella',
  'scopa',
  'ben_giocata',
  'peccato',
  'grazie',
  'applause',
  'laugh',
  'wow',
  'think',
];

/** A reaction's words (or emoji) in the page's language. */
export function reactionText(lang: Lang, id: string): string {
  return REACTIONS.includes(id) ? t(lang, `r_${id}` as Key) : '';
}

/** The first of the browser's languages that we speak; English otherwise. */
export function pickLang(prefs: readonly string[]): Lang {
  for (const p of prefs) {
    const base = p.toLowerCase().split('-')[0];
    if (base === 'it' || base === 'en') return base;
  }
  return 'en';
}

export function t(lang: Lang, key: Key, args: Record<string, string | number> = {}): string {
  const s = STRINGS[lang][key] ?? STRINGS.en[key];
  return s.replace(/\{(\w+)\}/g, (_, k: string) => String(args[k] ?? `{${k}}`));
}

/** Card names for screen readers: "7 di denari" / "7 of coins"; with the
 * French deck drawn, its own suits and court cards ("7 of diamonds",
 * "donna di cuori"), as the library's scopa_card_words says them. */
export const SUIT_NAMES: Record<Lang, Record<string, string>> = {
  it: { d: 'denari', c: 'coppe', s: 'spade', b: 'bastoni' },
  en: { d: 'coins', c: 'cups', s: 'swords', b: 'clubs' },
};
const FRENCH_SUITS: Record<Lang, Record<string, string>> = {
  it: { d: 'quadri', c: 'cuori', s: 'picche', b: 'fiori' },
  en: { d: 'diamonds', c: 'hearts', s: 'spades', b: 'clubs' },
};
const RANK_NAMES: Record<Lang, string[]> = {
  it: ['', 'asso', '2', '3', '4', '5', '6', '7', 'fante', 'cavallo', 're'],
  en: ['', 'ace', '2', '3', '4', '5', '6', '7', 'knave', 'horse', 'king'],
};
const FRENCH_RANKS: Record<Lang, string[]> = {
  it: ['', 'asso', '2', '3', '4', '5', '6', '7', 'fante', 'donna', 're'],
  en: ['', 'ace', '2', '3', '4', '5', '6', '7', 'jack', 'queen', 'king'],
};

const french = (): boolean => deckInUse() === 'francesi';

/** A rank's name in the deck drawn: "king", "queen", "7". */
export function rankName(lang: Lang, rank: number): string {
  return (french() ? FRENCH_RANKS : RANK_NAMES)[lang][rank] ?? String(rank);
}

export function cardName(lang: Lang, card: string): string {
  const rank = Number(card.slice(0, -1));
  const of = lang === 'it' ? 'di' : 'of';
  return `${rankName(lang, rank)} ${of} ${suitName(lang, card.slice(-1))}`;
}

export function suitName(lang: Lang, suit: string): string {
  return (french() ? FRENCH_SUITS : SUIT_NAMES)[lang][suit] ?? suit;
}

/** The French deck is drawn: "la donna", "una donna". */
export const frenchDeck = french;

/** Option and preset names for the rules form and the rules box: the
 * library's labels (catalogue.gen.ts). */
export function optionName(lang: Lang, name: string): string {
  return CATALOGUE.options.find((o) => o.name === name)?.label[lang] ?? name;
}

export function presetName(lang: Lang, name: string): string {
  return CATALOGUE.presets.find((p) => p.name === name)?.label[lang] ?? name;
}

/** A bot's level name (its seat's name, as scopa serve sends it) in the
 * page's language, from the library's catalogue; any other name as it is. */
export function levelName(lang: Lang, name: string): string {
  const l = CATALOGUE.levels.find((x) => x.name === name);
  if (!l) return name;
  const n = lang === 'it' ? l.name : l.english;
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/** The name of the game a table's rules make: the library's preset that
 * the rules match with the most options set (the target aside: Escoba to
 * 11 is still Escoba), Scopa when none but the plain one does. */
export function gameName(lang: Lang, eff: Readonly<Record<string, unknown>>): string {
  let best: { n: number; label: string } | null = null;
  for (const p of CATALOGUE.presets) {
    const keys = Object.keys(p.rules).filter((k) => k !== 'target');
    const r = p.rules as Record<string, unknown>;
    if (!keys.every((k) => eff[k] === r[k])) continue;
    if (!best || keys.length > best.n) best = { n: keys.length, label: p.label[lang] };
  }
  return best?.label ?? 'Scopa';
}

export function valueName(lang: Lang, v: string | number | boolean): string {
  if (v === true) return t(lang, 'yes');
  if (v === false) return t(lang, 'no');
  return String(v).replace(/_/g, ' ');
}
