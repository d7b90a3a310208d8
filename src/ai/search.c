/*
 * search.c -- the memory of the bots that search (scopa_bot_set_memory):
 * allocated in one go when the bot is made or its limit is set, never per
 * move.  It holds a buffer of worlds (pimc, infer) and one transposition
 * table, carved into one table per thread for the threads a call uses.
 *
 * What must stay true: the bot never holds more than its limit; the carving
 * changes only when a call asks for another thread count, and an entry
 * written under an earlier carving is never read as one of a later tree
 * (every solver of the block counts its trees on one shared counter, see
 * ai_solver_new_in).
 */
#include "bots.h"
#include "solver.h"

#include <stdlib.h>

#define MAX_THREADS 8
/* Worlds a searching bot can hold: infer lists up to 2,000 (pimc.c). */
#define MAX_WORLDS 2000
#define MIN_TABLE_BITS 12

typedef struct search_memory {
  size_t bytes; /* what the bot holds: worlds plus table        */
  ai_worlds worlds;
  void *table; /* 2^table_bits entries, zeroed at allocation  */
  int table_bits;
  uint32_t ids; /* the trees of every solver of the table        */
  int carved;   /* threads the table is carved for (0: none)    */
  ai_solver *solver[MAX_THREADS];
} search_memory;

static void uncarve(search_memory *m) {
  for (int t = 0; t < m->carved; t++)
    ai_solver_free(m->solver[t]);
  m->carved = 0;
}

static void memory_free(void *p) {
  search_memory *m = p;
  if (!m)
    return;
  uncarve(m);
  free(m->worlds.state);
  free(m->worlds.weight);
  free(m->worlds.rank);
  free(m->table);
  free(m);
}

static size_t world_bytes(void) {
  return sizeof(scopa_state) + sizeof(double) + sizeof(ai_ranked);
}

/* A block of at most `bytes` for a bot of this kind: worlds (at most half
 * of it) when it samples worlds, then the largest table that fits.  NULL
 * when out of memory. */
static search_memory *memory_new(const bot_kind *kind, size_t bytes) {
  search_memory *m = calloc(1, sizeof *m);
  if (!m)
    return NULL;
  size_t cap = kind->worlds ? bytes / 2 / world_bytes() : 0;
  m->worlds.cap = (int)(cap > MAX_WORLDS ? MAX_WORLDS : cap);
  size_t left = bytes - (size_t)m->worlds.cap * world_bytes();
  m->table_bits = MIN_TABLE_BITS;
  while (((size_t)AI_TT_ENTRY_BYTES << (m->table_bits + 1)) <= left)
    m->table_bits++;
  size_t n = (size_t)m->worlds.cap;
  if (n) {
    m->worlds.state = malloc(n * sizeof(scopa_state));
    m->worlds.weight = malloc(n * sizeof(double));
    m->worlds.rank = malloc(n * sizeof(ai_ranked));
  }
  m->table = calloc((size_t)1 << m->table_bits, AI_TT_ENTRY_BYTES);
  if (!m->table ||
      (n && (!m->worlds.state || !m->worlds.weight || !m->worlds.rank))) {
    memory_free(m);
    return NULL;
  }
  m->bytes = n * world_bytes() + ((size_t)AI_TT_ENTRY_BYTES << m->table_bits);
  return m;
}

/* Carves the table into `threads` tables of equal power-of-two size, one
 * per thread (never shared: threads write their tables unlocked).  The
 * smallest block (SCOPA_BOT_MEMORY_MIN) has a table of 2^12 entries, so
 * MAX_THREADS slices of 2^9 always fit. */
_Static_assert(SCOPA_BOT_MEMORY_MIN / 2 >= (AI_TT_ENTRY_BYTES << 12),
               "the smallest table is carved into MAX_THREADS slices");
static int carve(search_memory *m, int threads) {
  uncarve(m);
  int bits = m->table_bits;
  while ((1 << (m->table_bits - bits)) < threads)
    bits--;
  size_t step = (size_t)AI_TT_ENTRY_BYTES << bits;
  for (int t = 0; t < threads; t++) {
    m->solver[t] =
        ai_solver_new_in((char *)m->table + (size_t)t * step, bits, &m->ids);
    if (!m->solver[t]) {
      m->carved = t;
      uncarve(m);
      return -1;
    }
    m->carved = t + 1;
  }
  return 0;
}

int ai_bot_memory_init(scopa_bot *bot, size_t bytes) {
  if (!bot->kind->memory)
    return SCOPA_OK; /* a bot that does not search holds nothing */
  if (bytes == 0)
    bytes = bot->kind->memory;
  if (bytes < SCOPA_BOT_MEMORY_MIN)
    return SCOPA_EINVAL;
  search_memory *m = memory_new(bot->kind, bytes);
  if (!m)
    return SCOPA_ENOMEM;
  memory_free(bot->scratch);
  bot->scratch = m;
  bot->scratch_free = memory_free;
  return SCOPA_OK;
}

size_t scopa_bot_memory(const scopa_bot *bot) {
  const search_memory *m = bot->scratch;
  return m ? m->bytes : 0;
}

int scopa_bot_set_memory(scopa_bot *bot, size_t bytes) {
  return ai_bot_memory_init(bot, bytes);
}

ai_solver *ai_bot_solver(scopa_bot *bot, int thread, int threads) {
  search_memory *m = bot->scratch;
  if (!m || thread < 0 || thread >= MAX_THREADS || threads > MAX_THREADS)
    return NULL;
  if (threads <= 0)
    threads = m->carved > 0 ? m->carved : 1;
  if (thread >= threads)
    return NULL;
  if (m->carved != threads && carve(m, threads) != 0)
    return NULL;
  ai_solver_set_clock(m->solver[thread], &bot->clock);
  return m->solver[thread];
}

ai_worlds *ai_bot_worlds(scopa_bot *bot) {
  search_memory *m = bot->scratch;
  return m && m->worlds.cap > 0 ? &m->worlds : NULL;
}
