/*
 * match_internal.h -- the inside of scopa_match, shared by src/game (the
 * game loop) and src/record (its record, read and written).  Not API.
 *
 * Keeps true: rounds[0..nrounds) is the game as played, round by round;
 * the live round is rounds[nrounds-1] when phase is PLAY, and `state` is
 * it; game.totals add up every complete round; totals_before are the
 * totals when the last round was dealt.
 */
#ifndef SCOPA_GAME_MATCH_INTERNAL_H
#define SCOPA_GAME_MATCH_INTERNAL_H

#include "scopa.h"

typedef struct match_seat {
  int kind;        /* SCOPA_SEAT_*                                      */
  char *name;      /* malloc'd, may hold NULs; never NULL                */
  size_t name_len; /* bytes of name                                     */
  char *bot;       /* malloc'd bot name, NULL for a person              */
  char *level;     /* malloc'd level name, or NULL                      */
} match_seat;

struct scopa_match {
  scopa_rules rules;
  char seed[SCOPA_SEED_TEXT];      /* "" when the record had none        */
  char deal_seed[SCOPA_SEED_TEXT]; /* where new rounds come from         */
  match_seat seat[SCOPA_MAX_SEATS];
  scopa_tally game;
  int totals_before[SCOPA_MAX_SEATS];
  int dealt;         /* a round has been dealt (state is valid)   */
  scopa_state state; /* the live round, or the last one           */
  int nrounds, cap;
  scopa_replay_round *rounds;
  char *extra; /* unknown top-level fields of a restored record: the
                  JSON text of an object, or NULL                     */
};

/* Starts the game over with first_dealer (only before the first deal):
 * a record says who dealt first. */
void scopa__match_first_dealer(scopa_match *m, int first_dealer);

/* Sets the seat descriptions (strings copied; name of name_len bytes).
 * Returns SCOPA_OK or SCOPA_ENOMEM. */
int scopa__match_set_seat(scopa_match *m, int seat, int kind, const char *name,
                          size_t name_len, const char *bot, const char *level);

#endif
