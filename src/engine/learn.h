/*
 * learn.h -- what vecenv.c needs of learn.c beyond scopa.h: environments
 * that share one scratch buffer (one per thread instead of one per
 * environment: SCOPA_ACTION_WORK moves are 128 KiB), and the step of the
 * single-agent face as the batch runs it.  Not API.
 */
#ifndef SCOPA_ENGINE_LEARN_H
#define SCOPA_ENGINE_LEARN_H

#include "scopa.h"

/* As scopa_env_new, with scratch of SCOPA_ACTION_WORK moves that the
 * caller owns and uses from one thread at a time (NULL: its own). */
int scopa__env_new(const scopa_rules *rules, const scopa_env_config *config,
                   scopa_move *work, scopa_env **out);

/* scopa_state_actions_page with scratch of cap moves, leaving the table's
 * entries outside the mask as they were (the step's speed: 10 KiB less
 * to write).  With a list (room for SCOPA_ACTIONS), the mask must be all
 * zero on entry (the caller clears the actions it listed last time: a
 * few bytes, not 1,280) and the actions set are listed, in no order. */
int scopa__actions_page(const scopa_state *state, int page, scopa_move *work,
                        int cap, scopa_move *table, uint8_t *mask,
                        uint16_t *list);

/* The features (out) or the compact features (small; either may be NULL)
 * of seat's view of a round, as scopa_view_features and _compact of
 * scopa_view_of's view give them, without building the view. */
void scopa__state_features(const scopa_state *state, int seat,
                           const int *scores, float *out, int8_t *small);

/* Points the environment at another scratch buffer of the same size
 * (the thread that steps it next owns it). */
void scopa__env_set_work(scopa_env *env, scopa_move *work);

/* The learner's seat (-1 for the multi-agent face). */
int scopa__env_learner(const scopa_env *env);

/* The seats the caller plays (config->external). */
uint32_t scopa__env_external(const scopa_env *env);

#endif
