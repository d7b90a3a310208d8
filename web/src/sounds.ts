/*
 * sounds.ts -- which sounds a change of the page makes, decided by the
 * reducer (reduce.ts calls sounds(before, after) after every event): a
 * card played, a capture, a scopa, the viewer's turn, the end of a round
 * (or of the game).  sound.ts plays them (Web Audio, synthesised).
 *
 * What must stay true: nothing is heard before the player's first gesture
 * (a verb: browsers refuse sound before one, and a page that beeps on
 * load is rude), nothing when muted (settings.ts), and a table seen for
 * the first time (a reload, a resume) makes no sound of its moves.
 */
import type { Effect, Model } from './model.js';
import { sideOf } from './rules.js';
import { muted } from './settings.js';
import type { TableView } from './tableview.js';

export type SoundName = 'play' | 'capture' | 'scopa' | 'turn' | 'round';

/** The sound of the move that made `v` (its last move). */
function moveSound(v: TableView): SoundName | null {
  const last = v.lastMove;
  if (!last) return null;
  if (!last.move.takes.length) return 'play';
  const side = sideOf(v.eff, last.seat);
  const swept =
    v.drawn && v.drawn.table.length === 0 && v.drawn.scope[side]?.at(-1) === last.move.card;
  return swept ? 'scopa' : 'capture';
}

const key = (v: TableView | null): string => (v ? `${v.round?.dealer}:${v.ply}` : '');

export function sounds(before: Model, after: Model): Effect[] {
  if (!after.gesture || muted(after.stored)) return [];
  const out: SoundName[] = [];
  const b = before.view;
  const a = after.view;
  if (b && a && a.code === b.code && key(a) !== key(b) && a.ply > 0) {
    const s = moveSound(a);
    if (s) out.push(s);
  }
  if (a?.myTurn && !(b?.myTurn && key(a) === key(b))) out.push('turn');
  if ((after.roundOver && !before.roundOver) || (after.gameOver && !before.gameOver))
    out.push('round');
  return out.map((name) => ({ kind: 'sound', name }));
}
