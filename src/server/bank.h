/*
 * bank.h -- the time bank (docs/serve.md "The time bank"): each seat
 * starts with bank_s seconds, its turns are taken from it, and inc_s
 * seconds are added after each of its moves.  What a seat has left is
 * computed from what the store keeps of every move (when it was made,
 * how long its turn took), never kept as a running count: so a reload,
 * a restart or another node taking the table computes the same banks
 * from the same moves.
 *
 * The rules: a turn runs from the move before it (the game's first from
 * when the table began playing), the first turn of a round from
 * BANK_ROUND_GRACE_MS after the round's last move (its score is on
 * screen); a bank never goes below zero; a seat at zero has its move
 * made by the strongest bot at once (moves.c), then has its increment
 * for the next.
 */
#ifndef SCOPA_SERVER_BANK_H
#define SCOPA_SERVER_BANK_H

#include <stdint.h>

#define BANK_ROUND_GRACE_MS 10000

/* One move as the bank sees it: when it was made, how long its turn
 * took, its seat, whether it opened a round (0 of a new round's plays). */
typedef struct bank_move {
  int64_t at_ms;
  int took_ms;
  signed char seat;
  unsigned char first;
} bank_move;

/* How long the turn after moves[0, n) has run at now_ms (wall clock):
 * from the last move (or start_ms before any), BANK_ROUND_GRACE_MS later
 * when `round_start` (its round's first turn); 0 when its start is not
 * known (0) or lies ahead. */
int bank_turn_ms(const bank_move *moves, int n, int64_t start_ms,
                 int round_start, int64_t now_ms);

/* How long before that turn starts to run (its round's grace), ms: 0
 * once it runs or when its start is not known. */
int bank_wait_ms(const bank_move *moves, int n, int64_t start_ms,
                 int round_start, int64_t now_ms);

/* left_ms[seat] for seats < nseats: bank_s * 1000 less each of the seat's
 * n moves' took_ms (never below 0), plus inc_s * 1000 after each; then
 * for `to_play` (-1: nobody, the game over) less its turn so far
 * (bank_turn_ms). */
void bank_left(int bank_s, int inc_s, int nseats, const bank_move *moves, int n,
               int64_t start_ms, int to_play, int round_start, int64_t now_ms,
               int64_t *left_ms);

#endif
