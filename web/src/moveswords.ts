/*
 * moveswords.ts -- the round's moves as the page tells them, headless: who
 * played each move of the state's round.moves, the words of each ("Anna:
 * 7 of coins takes 3 of cups and 4 of swords — scopa!"), and what a tap
 * on a side's pile may show.  pileview.ts draws them, test/moveswords.test.ts
 * checks them.
 *
 * What must stay true:
 * - everything comes from the state the server sent: the moves from
 *   round.moves (so the list survives a reload: nothing is kept here),
 *   the cards each took from the move's own notation ("7dx3c+4s"), a scopa
 *   from drawn.scope (the library's: a card is played once a round, so the
 *   card that made a scopa names its move), the captured cards from
 *   drawn.piles; no rule is decided here;
 * - hidden information: of another side's pile only its last capture is
 *   shown (the card played and the cards it took, all face up when they
 *   were played); the viewer's own side's whole pile only to a seated
 *   viewer.  A spectator sees every side's last capture alone.
 */
import type { Card, Move } from './protocol.js';
import { parseMove } from './protocol.js';
import { num, sideOf } from './rules.js';
import { type Lang, t } from './i18n.js';
import type { TableView } from './tableview.js';
import { describeMove, nameOf } from './dom.js';

/** One move of the round, with its seat and side and whether it swept. */
export interface Played {
  index: number;
  seat: number;
  side: number;
  move: Move;
  scopa: boolean;
}

/** The seat that played move `k` of a round: seats are numbered in
 * order of play and the seat after the dealer leads (RULES.md "Seats,
 * sides, order"). */
export function seatOfMove(dealer: number, players: number, k: number): number {
  return (dealer + 1 + k) % players;
}

/** Every move of the round so far, oldest first. */
export function playedMoves(v: TableView): Played[] {
  const round = v.round;
  if (!round) return [];
  const players = num(v.eff, 'players');
  const scope = v.drawn?.scope ?? [];
  const out: Played[] = [];
  round.moves.forEach((text, index) => {
    const move = parseMove(text);
    if (!move) return;
    const seat = seatOfMove(round.dealer, players, index);
    const side = sideOf(v.eff, seat);
    out.push({ index, seat, side, move, scopa: scope[side]?.includes(move.card) ?? false });
  });
  return out;
}

/** A move in words, after its player's name, in the words the page uses
 * for the last move (dom.ts describeMove: the cards' names of the deck
 * in use). */
export function moveLine(lang: Lang, v: TableView, p: Played): string {
  const line = t(lang, 'lastMoveText', {
    name: nameOf(v.names, p.seat, lang),
    move: describeMove(lang, p.move),
  });
  return p.scopa ? `${line}${t(lang, 'scopaMark')}` : line;
}

/** The words of every move of the round, oldest first. */
export function movesWords(lang: Lang, v: TableView): string[] {
  return playedMoves(v).map((p) => moveLine(lang, v, p));
}

/** What a tap on a side's pile shows. */
export type PileShown =
  /** the viewer's own side: every card it captured this round, its scope */
  | { kind: 'all'; side: number; cards: Card[]; scope: Card[] }
  /** another side (or any side, to a spectator): its last capture alone,
   * null before it took anything this round */
  | { kind: 'last'; side: number; last: Played | null };

/** The viewer's side, or null for a spectator. */
export function viewerSide(v: TableView): number | null {
  return v.viewer === null ? null : sideOf(v.eff, v.viewer);
}

export function pileShown(v: TableView, side: number): PileShown {
  if (viewerSide(v) === side)
    return {
      kind: 'all',
      side,
      cards: [...(v.drawn?.piles[side] ?? [])],
      scope: [...(v.drawn?.scope[side] ?? [])],
    };
  const last = playedMoves(v)
    .filter((p) => p.side === side && p.move.takes.length > 0)
    .pop();
  return { kind: 'last', side, last: last ?? null };
}
