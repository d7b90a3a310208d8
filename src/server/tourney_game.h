/*
 * tourney_game.h -- what a finished game of a tournament counts for
 * (tourney_game.c): its result between the two sides (tourney_rules.h's
 * TR_*) and, for duplicate, each deal's points per side, read from the
 * stored game through the library's match (game.h), never a rule of
 * our own.  A side that abandoned the game (store_finish's bits) lost
 * it, whatever the score; both: neither won (TR_BOTH_LOST).
 */
#ifndef SCOPA_SERVER_TOURNEY_GAME_H
#define SCOPA_SERVER_TOURNEY_GAME_H

#include "store.h"

#define TG_DEALS_MAX 64 /* deals of one game counted at most */

typedef struct tg_result {
  int result;                  /* TR_A_WON (side 0), TR_B_WON, ...     */
  int totals[2];               /* the game's final totals              */
  int ndeals;                  /* complete deals (at most TG_DEALS_MAX) */
  int points[TG_DEALS_MAX][2]; /* each deal's points, side by side    */
} tg_result;

/* g: a finished two-sided game (store_load's).  0, or -1 with a message
 * (not finished, not two sides, does not replay). */
int tg_read(const store_game *g, tg_result *out, char *msg, size_t msgsize);

#endif
