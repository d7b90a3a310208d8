/*
 * clock.h -- when a search must stop (scopa.h, "Time"): the wall-clock
 * deadline of one bot call and the caller's cancel flag, checked by every
 * search loop of src/ai (the solver every CLOCK_CHECK_NODES nodes, the
 * playouts, the building and weighing of worlds).  Not API.
 *
 * What must stay true: once a check has seen the stop, the clock stays
 * stopped for the rest of the call and for every thread that shares it,
 * so no thread starts new work after another saw the stop.  A NULL clock
 * never stops (the solver's tests and benchmarks).
 */
#ifndef SCOPA_AI_CLOCK_H
#define SCOPA_AI_CLOCK_H

#include "scopa.h"

/* Solver nodes between two checks: at about 10,000 nodes per ms a check
 * every few microseconds; a clock read costs ~25 ns. */
#define CLOCK_CHECK_NODES 64

typedef struct ai_clock {
  int64_t deadline_ns; /* CLOCK_MONOTONIC; INT64_MAX: none             */
  const int *cancel;   /* the caller's flag, read atomically; or NULL  */
  int stopped;         /* 0/1, read and set atomically by any thread   */
} ai_clock;

/* Starts the clock of one call at now: the deadline is the earliest of
 * limits->deadline_ns and, unless limits->nodes is set, now plus
 * movetime_ms (default_ms when that is 0; no time limit when both are
 * 0). */
void ai_clock_start(ai_clock *clock, const scopa_bot_limits *limits,
                    int default_ms);

/* Reads the cancel flag and the clock: nonzero once the search must stop
 * (and from then on).  NULL never stops. */
int ai_clock_check(ai_clock *clock);

/* Nonzero once a check has seen the stop; reads neither flag nor clock. */
static inline int ai_clock_stopped(const ai_clock *clock) {
  return clock && __atomic_load_n(&clock->stopped, __ATOMIC_RELAXED);
}

#endif
