/*
 * moves.h -- moves at a table, whoever makes them (moves.c): people, bots,
 * away seats, the clock; hints and reviews.
 */
#ifndef SCOPA_SERVER_MOVES_H
#define SCOPA_SERVER_MOVES_H

#include "table.h"

/* 1 when the move was played, 0 when refused (with an error sent). */
int play_move(conn *c, const proto_msg *msg);
int play_hint(conn *c, const proto_msg *msg);
int play_review(conn *c, const proto_msg *msg);
/* Asks the pool for the move of the seat to play when a bot plays it. */
void play_kick(server *srv, table *t);
/* A bot's answer from the pool (bots_take). */
void table_bot_done(server *srv, const bot_job *job);
/* The sweep of the moves: a bot plays for a person away past the
 * table's timeout, or whose move clock ran out. */
void play_sweep(server *srv, int64_t now);

#endif
