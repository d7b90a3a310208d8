/*
 * solver.h -- the perfect-information solver of src/ai: alpha-beta with a
 * transposition table over a full scopa_state (every card known), on the
 * point difference.  Not API.
 *
 * Values are in "solver units" from the point of view of one side, the
 * root side: AI_UNIT * ((sides - 1) * root's points - the others' points),
 * counting only points still to come (scope made from here on, and the
 * categories of the end of the round).  With two sides that is simply
 * AI_UNIT times the point difference.  With three, the root side plays
 * against the other two together (a "paranoid" search).
 */
#ifndef SCOPA_AI_SOLVER_H
#define SCOPA_AI_SOLVER_H

#include "clock.h"
#include "scopa.h"

#define AI_UNIT 8
#define AI_INF 30000
/* A depth that means "to the end of the round". */
#define AI_DEPTH_END 100

typedef struct ai_solver ai_solver;

/* Bytes of one table entry. */
#define AI_TT_ENTRY_BYTES 32

/* A solver with a table of 2^bits entries; NULL when out of memory. */
ai_solver *ai_solver_new(int bits);

/* A solver over a table it does not own: the 2^bits entries
 * (AI_TT_ENTRY_BYTES each) at table, zeroed when first given out.  ids
 * counts the trees of every solver that ever used that memory (shared,
 * atomically), so an entry left by an earlier solver there is never taken
 * for one of this solver's trees.  NULL when out of memory. */
ai_solver *ai_solver_new_in(void *table, int bits, uint32_t *ids);

/* Frees the solver (and its table if it owns it); NULL is a no-op. */
void ai_solver_free(ai_solver *solver);

/* Starts a new search tree (a new world or a new root side): entries of
 * earlier trees are ignored from now on. */
void ai_solver_begin(ai_solver *solver, int root_side);

/* The clock that stops the solver's searches (clock.h), checked every
 * CLOCK_CHECK_NODES nodes and at the start of every ai_solver_root; NULL
 * (the default) never stops. */
void ai_solver_set_clock(ai_solver *solver, ai_clock *clock);

/* Nonzero when the last search was stopped by the clock: its value (and
 * its table entries, which it did not store) mean nothing. */
int ai_solver_stopped(const ai_solver *solver);

/* Nodes visited since the solver was made. */
uint64_t ai_solver_nodes(const ai_solver *solver);

/* The minimax value of the state within [alpha, beta] (fail-soft), for the
 * root side of ai_solver_begin, searching `depth` plies (AI_DEPTH_END: to
 * the end) and estimating the rest with ai_eval_state. */
int ai_solver_search(ai_solver *solver, const scopa_state *state, int alpha,
                     int beta, int depth);

/* The exact value (to that depth) by MTD(f) from a guess. */
int ai_solver_value(ai_solver *solver, const scopa_state *state, int guess,
                    int depth);

/* Values of each of the moves (legal in state) for the side to play, which
 * becomes the root side: values[i] is what moves[i] is worth, the scopa
 * it may make included.  Calls ai_solver_begin itself.  Returns 0, or -1
 * when the clock stopped it (then values are incomplete: drop them). */
int ai_solver_root(ai_solver *solver, const scopa_state *state,
                   const scopa_move *moves, int n, int depth, int *values);

/* The points a move scores at once (a scopa), in solver units for the
 * root side. */
int ai_move_gain(const scopa_state *state, scopa_move move, int root_side);

/* The exact value of a finished round's categories (scope left out). */
int ai_leaf_value(const scopa_state *state, int root_side);

/* An estimate of the points still to come in an unfinished round, from
 * the piles so far (for depth-limited search). */
int ai_eval_state(const scopa_state *state, int root_side);

/* rollout.c: the value of `move` in a world followed by a playout where
 * every seat plays the rules bot's move (sometimes a random one); adds the
 * plies played to *plies. */
int ai_rollout(const scopa_state *world, scopa_move move, int root_side,
               scopa_rng *rng, int *plies);

/* The playouts' policy: the rules bot's move for the seat to play in a
 * full state (counting what that seat could see), a uniformly random one
 * with probability epsilon_per_1024 / 1024. */
scopa_move ai_rollout_policy(const scopa_state *state, scopa_rng *rng,
                             int epsilon_per_1024);

#endif
