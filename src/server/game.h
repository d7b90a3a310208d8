/*
 * game.h -- a stored game (store.h) as the library's match: the match
 * dealt from the game's seed with its seats, and its stored moves played
 * again.  The tables load with it (table.c) and the accounts' thread
 * reads finished games with it (auth.c); neither keeps rules of its own.
 */
#ifndef SCOPA_SERVER_GAME_H
#define SCOPA_SERVER_GAME_H

#include <scopa.h>

#include "store.h"

/* A new match from the seed with these seats, dealt: 0 (*out set), or -1
 * with a message. */
int game_match(const scopa_rules *rules, const char *seed,
               const store_seat *seats, int nseats, scopa_match **out,
               char *msg, size_t msgsize);

/* Plays the moves on m, dealing where a round starts (and after the
 * last): 0, or -1 with a message naming the move that does not replay. */
int game_replay(scopa_match *m, const scopa_move *moves, int n, char *msg,
                size_t msgsize);

/* The whole stored game: its rules read, the match made and every move
 * played: 0, or -1 with a message. */
int game_load(const store_game *g, scopa_match **out, char *msg,
              size_t msgsize);

#endif
