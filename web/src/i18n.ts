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
  notYourTurn: 'Wait for your turn to play a card.',
  hand: 'Your hand',
  handOf: "{name}'s hand: {n} cards",
  pile: 'Captured: {n}',
  scopaCount: 'Scope: {n}',
  scores: 'Score',
  target: 'to {n}',
  lastMove: 'Last move',
  lastMoveText: '{name}: {move}',
  lastMovePlayed: '{name} {move}',
  lays: '{card} laid on the table',
  takes: '{card} takes {cards}',
  noMoveYet: 'No move yet',
  play: 'Play',
  cancel: 'Cancel',
  optionOf: 'choice {i} of {n}: click the card again for the next',
  onlyMove: 'Click the card again, or Play, to play it',
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
  verifyDeal: 'Verify this deal',
  seedCheck: 'Its SHA-256 was announced at the start: {sha}',
  download: 'Download the game record',
  review: 'Review the game',
  reviewUnavailable: 'The review did not come: try again later.',
  reviewing: 'The bot is reviewing the game…',
  reviewNoTable: 'This server does not say the table at each move.',
  reviewBest: 'Better: {move}',
  reviewStep: 'Round {r}, move {i} of {n}',
  reviewMarked: 'Moves the bot marked: {n}',
  reviewAt: 'round {r}, move {i}',
  // as the marks are given (scopa.h scopa_loss_words): the cost less its
  // margin, so "?" on a large but uncertain cost is no mistake of the legend
  slip: '"?" very likely cost 0.3 points or more',
  blunder: '"??" almost surely cost a point or more',
  prev: 'Previous move',
  next: 'Next move',
  newGame: 'New game',
  playAgain: 'Play again',
  r_bella: 'Bella!',
  r_scopa: 'Scopa!',
  r_ben_giocata: 'Well played',
  r_peccato: 'Too bad',
  r_grazie: 'Thanks',
  r_applause: 'Applause',
  r_laugh: 'Laughing',
  r_wow: 'Wow',
  r_think: 'Thinking',
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
  listPublic: 'List it in the lobby for strangers',
  listPublicHelp:
    'Anyone can then see the table on this page and take a free seat; without it only those with the link can.',
  playNow: 'Play now, with a stranger',
  playNowHelp:
    'You are paired with someone who wants the same game and clock, as close to your rating as can be found.',
  seekGo: 'Find a game',
  seekingOne: 'Looking for an opponent: {game}, {clock}…',
  seekingMany: 'Looking for {n} players: {game}, {clock}…',
  seekWaitHelp: 'Keep this page open: the table opens by itself as soon as someone is found.',
  seekCancel: 'Stop looking',
  seekOffer: 'Nobody has come yet. Play a bot of about your level instead?',
  seekOfferGo: 'Play {level} instead',
  lobbyTitle: 'Tables waiting for players',
  lobbyEmpty:
    'No public table is waiting right now. Create one below and tick “List it in the lobby”.',
  lobbyNone: 'The list of tables could not be read from the server.',
  lobbyTarget: 'to {n}',
  lobbyFree: 'a free seat',
  lobbyClock: '{s} s a move',
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
  signInRated: 'Sign in to play rated',
  signOut: 'Sign out',
  accountOf: 'Your account: {name}',
  signInTitle: 'Sign in',
  signUpTitle: 'Create an account',
  guestNote:
    'No account is needed to play: quick games and a friend’s link work as a guest. An account keeps your rating, your games and your statistics.',
  accName: 'Name',
  accNameHelp: '3 to 20 letters, digits, _ or -',
  password: 'Password',
  passwordHelp: 'At least 8 characters',
  repeatPassword: 'Repeat the password',
  signInButton: 'Sign in',
  signUpButton: 'Create the account',
  toSignUp: 'No account yet? Create one',
  toSignIn: 'Already have an account? Sign in',
  backHome: 'Play as a guest',
  wait: 'Please wait…',
  e_bad_login: 'Wrong name or password.',
  e_name_taken: 'This name is taken: choose another one.',
  e_bad_name: 'A name has 3 to 20 characters: letters, digits, _ or -.',
  e_bad_password: 'A password needs at least 8 characters.',
  e_too_many: 'Too many tries: wait {wait} and try again.',
  e_mismatch: 'The two passwords are not the same.',
  e_network: 'The server did not answer: try again.',
  e_not_signed_in: 'You are not signed in.',
  e_unavailable: 'This server has no accounts: play as a guest.',
  e_other: 'The server refused: {msg}',
  waitSeconds: '{n} seconds',
  waitMinutes: '{n} minutes',
  done_logoutAll: 'You are signed out on every device.',
  done_delete: 'Your account is deleted. Your games stay, with your name made anonymous.',
  done_password: 'Password changed. Your other sessions have ended.',
  accountTitle: 'Your account',
  memberSince: 'Playing since {date}',
  ratings: 'Ratings',
  provisional: 'provisional',
  provisionalCol: 'Provisional',
  provisionalHelp: 'Provisional: too few games yet for a settled rating.',
  noRating: 'no rated game yet',
  ratingGames: '{n} games',
  ratingGames1: '1 game',
  chartHelp: 'The line: the rating after each rated game; the band: give or take its deviation.',
  openTable: 'Go to the table',
  ratingHistory: 'Rating over time',
  noHistory: 'No rated game yet in this pool.',
  chartLabel: '{pool}: rating from {from} to {to}, {n} games',
  chartPoint: '{date}: {rating} ± {rd}',
  stats: 'Statistics',
  st_games: 'Games',
  st_won: 'Won',
  st_scope: 'Scope',
  st_settebello: 'Settebelli',
  st_primiera: 'Primiera won',
  st_ppg: 'Points per game',
  gamesTitle: 'Your games',
  noGames: 'No games yet: play one from the home page.',
  g_date: 'Date',
  g_game: 'Game',
  g_opponents: 'Opponents',
  g_result: 'Result',
  g_points: 'Points',
  won: 'Won',
  lost: 'Lost',
  drawn: 'No winner',
  unfinished: 'Not finished',
  ratedMark: 'rated',
  reviewLink: 'Review',
  recordLink: 'Record',
  recordOf: 'Record of game {code}',
  reviewOf: 'Review of game {code}',
  exportGames: 'Download all my games',
  exportHelp: 'One JSON file with the full record of every game you played.',
  changePassword: 'Change password',
  oldPassword: 'Current password',
  newPassword: 'New password',
  logoutAll: 'Log out everywhere',
  logoutAllHelp: 'Ends every session of this account, on every device (this one too).',
  deleteAccount: 'Delete my account',
  deleteHelp:
    'Your account, your password and your ratings are deleted. The games you played stay, for the other players, with your name made anonymous.',
  deleteConfirm: 'Delete my account for good',
  notAvailable: 'Not available on this server yet.',
  ratedGame: 'Rated',
  ratedHelp: 'Rated game: the result changes the players’ ratings.',
  unratedHelp: 'Not rated: this game changes no rating.',
  keyboardHelp:
    'Keys: 1–9 pick a card (again: next choice; a digit never plays), Enter plays, Esc cancels{hint}.',
  keyHint: ', H hint',
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
  notYourTurn: 'Aspetta il tuo turno per giocare una carta.',
  hand: 'Le tue carte',
  handOf: 'Carte di {name}: {n}',
  pile: 'Prese: {n}',
  scopaCount: 'Scope: {n}',
  scores: 'Punteggio',
  target: 'a {n}',
  lastMove: 'Ultima mossa',
  lastMoveText: '{name}: {move}',
  lastMovePlayed: '{name} {move}',
  lays: '{card} posato sul tavolo',
  takes: '{card} prende {cards}',
  noMoveYet: 'Nessuna mossa',
  play: 'Gioca',
  cancel: 'Annulla',
  optionOf: 'scelta {i} di {n}: tocca di nuovo la carta per la prossima',
  onlyMove: 'Tocca di nuovo la carta, o Gioca, per giocarla',
  hint: 'Consiglio',
  hintOff: 'Consigli spenti',
  hintOn: 'Consigli accesi',
  hintSays: 'Consiglio: {move}',
  hintUnavailable: 'Questo server non dà ancora consigli.',
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
  verifyDeal: 'Verifica questa partita',
  seedCheck: 'Il suo SHA-256 era stato annunciato all’inizio: {sha}',
  download: 'Scarica la registrazione della partita',
  review: 'Rivedi la partita',
  reviewUnavailable: 'La revisione non è arrivata: riprova più tardi.',
  reviewing: 'Il computer sta rivedendo la partita…',
  reviewNoTable: 'Questo server non indica il tavolo a ogni mossa.',
  reviewBest: 'Meglio: {move}',
  reviewStep: 'Mano {r}, mossa {i} di {n}',
  reviewMarked: 'Mosse segnate dal computer: {n}',
  reviewAt: 'mano {r}, mossa {i}',
  slip: '"?" molto probabilmente è costata 0,3 punti o più',
  blunder: '"??" quasi certamente è costata un punto o più',
  prev: 'Mossa precedente',
  next: 'Mossa seguente',
  newGame: 'Nuova partita',
  playAgain: 'Gioca ancora',
  r_bella: 'Bella!',
  r_scopa: 'Scopa!',
  r_ben_giocata: 'Ben giocata',
  r_peccato: 'Peccato',
  r_grazie: 'Grazie',
  r_applause: 'Applausi',
  r_laugh: 'Risata',
  r_wow: 'Caspita',
  r_think: 'Ci penso',
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
  listPublic: 'Mettilo nella sala, per chi non conosci',
  listPublicHelp:
    'Chiunque vedrà il tavolo in questa pagina e potrà sedersi a un posto libero; senza, solo chi ha il link.',
  playNow: 'Gioca subito, con uno sconosciuto',
  playNowHelp:
    'Ti mettiamo al tavolo con chi cerca la stessa partita e lo stesso tempo, di punteggio il più vicino possibile al tuo.',
  seekGo: 'Trova una partita',
  seekingOne: 'Cerco un avversario: {game}, {clock}…',
  seekingMany: 'Cerco {n} giocatori: {game}, {clock}…',
  seekWaitHelp: 'Tieni aperta questa pagina: il tavolo si apre da solo appena si trova qualcuno.',
  seekCancel: 'Smetti di cercare',
  seekOffer: 'Non è ancora arrivato nessuno. Vuoi giocare contro un bot del tuo livello?',
  seekOfferGo: 'Gioca con {level}',
  lobbyTitle: 'Tavoli che aspettano giocatori',
  lobbyEmpty:
    'Nessun tavolo pubblico aspetta ora. Creane uno qui sotto e spunta “Mettilo nella sala”.',
  lobbyNone: 'Non si è potuto leggere dal server l’elenco dei tavoli.',
  lobbyTarget: 'ai {n}',
  lobbyFree: 'un posto libero',
  lobbyClock: '{s} s a mossa',
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
  signInRated: 'Accedi per giocare le partite in classifica',
  signOut: 'Esci',
  accountOf: 'Il tuo account: {name}',
  signInTitle: 'Accedi',
  signUpTitle: 'Crea un account',
  guestNote:
    'Per giocare non serve un account: le partite veloci e il link di un amico funzionano da ospite. Un account tiene il tuo punteggio, le tue partite e le tue statistiche.',
  accName: 'Nome',
  accNameHelp: 'da 3 a 20 lettere, cifre, _ o -',
  password: 'Password',
  passwordHelp: 'Almeno 8 caratteri',
  repeatPassword: 'Ripeti la password',
  signInButton: 'Accedi',
  signUpButton: 'Crea l’account',
  toSignUp: 'Non hai un account? Creane uno',
  toSignIn: 'Hai già un account? Accedi',
  backHome: 'Gioca da ospite',
  wait: 'Un momento…',
  e_bad_login: 'Nome o password sbagliati.',
  e_name_taken: 'Questo nome è già preso: scegline un altro.',
  e_bad_name: 'Un nome ha da 3 a 20 caratteri: lettere, cifre, _ o -.',
  e_bad_password: 'Una password deve avere almeno 8 caratteri.',
  e_too_many: 'Troppi tentativi: aspetta {wait} e riprova.',
  e_mismatch: 'Le due password non sono uguali.',
  e_network: 'Il server non ha risposto: riprova.',
  e_not_signed_in: 'Non hai effettuato l’accesso.',
  e_unavailable: 'Questo server non ha account: gioca da ospite.',
  e_other: 'Il server ha rifiutato: {msg}',
  waitSeconds: '{n} secondi',
  waitMinutes: '{n} minuti',
  done_logoutAll: 'Sei uscito da tutti i dispositivi.',
  done_delete: 'Il tuo account è cancellato. Le tue partite restano, con il nome reso anonimo.',
  done_password: 'Password cambiata. Le altre sessioni sono state chiuse.',
  accountTitle: 'Il tuo account',
  memberSince: 'Gioca dal {date}',
  ratings: 'Punteggi',
  provisional: 'provvisorio',
  provisionalCol: 'Provvisorio',
  provisionalHelp: 'Provvisorio: ancora troppe poche partite per un punteggio stabile.',
  noRating: 'ancora nessuna partita in classifica',
  ratingGames: '{n} partite',
  ratingGames1: '1 partita',
  chartHelp:
    'La linea: il punteggio dopo ogni partita in classifica; la fascia: il margine della sua deviazione.',
  openTable: 'Vai al tavolo',
  ratingHistory: 'Il punteggio nel tempo',
  noHistory: 'Ancora nessuna partita in classifica con questo numero di giocatori.',
  chartLabel: '{pool}: punteggio da {from} a {to}, {n} partite',
  chartPoint: '{date}: {rating} ± {rd}',
  stats: 'Statistiche',
  st_games: 'Partite',
  st_won: 'Vinte',
  st_scope: 'Scope',
  st_settebello: 'Settebelli',
  st_primiera: 'Primiere vinte',
  st_ppg: 'Punti per partita',
  gamesTitle: 'Le tue partite',
  noGames: 'Ancora nessuna partita: giocane una dalla pagina iniziale.',
  g_date: 'Data',
  g_game: 'Gioco',
  g_opponents: 'Avversari',
  g_result: 'Risultato',
  g_points: 'Punti',
  won: 'Vinta',
  lost: 'Persa',
  drawn: 'Nessun vincitore',
  unfinished: 'Non finita',
  ratedMark: 'in classifica',
  reviewLink: 'Rivedi',
  recordLink: 'Registrazione',
  recordOf: 'Registrazione della partita {code}',
  reviewOf: 'Rivedi la partita {code}',
  exportGames: 'Scarica tutte le mie partite',
  exportHelp: 'Un file JSON con la registrazione completa di ogni partita che hai giocato.',
  changePassword: 'Cambia la password',
  oldPassword: 'Password attuale',
  newPassword: 'Nuova password',
  logoutAll: 'Esci da tutti i dispositivi',
  logoutAllHelp: 'Chiude ogni sessione di questo account, su ogni dispositivo (anche questo).',
  deleteAccount: 'Cancella il mio account',
  deleteHelp:
    'Il tuo account, la password e i punteggi vengono cancellati. Le partite che hai giocato restano, per gli altri giocatori, con il tuo nome reso anonimo.',
  deleteConfirm: 'Cancella il mio account per sempre',
  notAvailable: 'Non ancora disponibile su questo server.',
  ratedGame: 'In classifica',
  ratedHelp: 'Partita in classifica: il risultato cambia i punteggi dei giocatori.',
  unratedHelp: 'Fuori classifica: questa partita non cambia alcun punteggio.',
  keyboardHelp:
    'Tasti: 1–9 scegli una carta (di nuovo: scelta seguente; una cifra non gioca mai), Invio gioca, Esc annulla{hint}.',
  keyHint: ', H consiglio',
};

export const STRINGS: Record<Lang, Record<Key, string>> = { en, it };
export type { Key };

/** The reactions a person may send, by id: the library's catalogue (scopa
 * serve takes exactly these, tests/server serve-1.9); r_<id> labels each. */
export const REACTIONS: readonly string[] = CATALOGUE.reactions;

/** A reaction's words in the page's language (a picture's name, faces.ts). */
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
