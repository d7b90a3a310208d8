/*
 * rating.h -- ratings at a table (rating.c): which games are rated, and
 * the job that moves them at the end (on the writer's thread, writer.h;
 * the arithmetic is glicko.h).
 */
#ifndef SCOPA_SERVER_RATING_H
#define SCOPA_SERVER_RATING_H

#include "table.h"

/* 1 when the game changes ratings: people of distinct accounts in every
 * seat (no bot, no guest, no account in two seats). */
int table_rated(const table *t);
/* A bit for each side that abandoned the game: one of its people away or
 * played for by a bot now (at the end: that side lost).  A bot's seat is
 * never one. */
int table_abandoned(const table *t);
/* The game at t is over (winner: a side, or -1): its ratings move, once,
 * if it is rated. */
void rating_game_over(server *srv, table *t, int winner);

#endif
