/*
 * search.c -- the scratch memory of the search bots: one solver per
 * thread, made on first use and freed with the bot.
 */
#include "bots.h"
#include "solver.h"

#include <stdlib.h>

#define MAX_THREADS 8

typedef struct search_scratch {
  ai_solver *solver[MAX_THREADS];
  int bits[MAX_THREADS];
} search_scratch;

static void scratch_free(void *p) {
  search_scratch *s = p;
  if (!s)
    return;
  for (int i = 0; i < MAX_THREADS; i++)
    ai_solver_free(s->solver[i]);
  free(s);
}

ai_solver *ai_bot_solver(scopa_bot *bot, int thread, int bits) {
  if (thread < 0 || thread >= MAX_THREADS)
    return NULL;
  if (!bot->scratch) {
    bot->scratch = calloc(1, sizeof(search_scratch));
    if (!bot->scratch)
      return NULL;
    bot->scratch_free = scratch_free;
  }
  search_scratch *s = bot->scratch;
  if (s->solver[thread] && s->bits[thread] < bits) {
    ai_solver_free(s->solver[thread]);
    s->solver[thread] = NULL;
  }
  if (!s->solver[thread]) {
    s->solver[thread] = ai_solver_new(bits);
    s->bits[thread] = bits;
  }
  if (s->solver[thread])
    ai_solver_set_clock(s->solver[thread], &bot->clock);
  return s->solver[thread];
}
