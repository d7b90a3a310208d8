/*
 * limits.c -- limits.h.  Addresses live in a small open-addressing hash
 * set; an entry stays while it has open connections or recent tables, and
 * a slot whose counts fall to zero is reused (no tombstones needed: an
 * entry is only ever cleared in place, never moved).
 */
#include "limits.h"

#include <stdlib.h>
#include <string.h>

#define ADDR_MAX 64
#define SLOTS 4096 /* distinct addresses held at once; more share slot 0 */

typedef struct addr_entry {
  char addr[ADDR_MAX];
  int conns;
  int tables;     /* created in the current minute */
  int64_t minute; /* which minute `tables` counts  */
} addr_entry;

struct limits_table {
  addr_entry slot[SLOTS];
};

void limits_bucket_init(limits_bucket *b, const limits_conf *c, int64_t now) {
  b->credits = c->burst;
  b->last_ms = now;
  b->strikes = 0;
}

int limits_take(limits_bucket *b, const limits_conf *c, int64_t now) {
  if (now > b->last_ms) {
    b->credits += (double)(now - b->last_ms) * c->per_second / 1000.0;
    if (b->credits > c->burst)
      b->credits = c->burst;
    b->last_ms = now;
  }
  if (b->credits >= 1.0) {
    b->credits -= 1.0;
    b->strikes = 0;
    return 1;
  }
  return ++b->strikes > c->strikes ? -1 : 0;
}

void limits_refund(limits_bucket *b, const limits_conf *c) {
  if (b->credits + 1.0 <= c->burst)
    b->credits += 1.0;
}

limits_table *limits_table_new(void) { return calloc(1, sizeof(limits_table)); }

void limits_table_free(limits_table *t) { free(t); }

static unsigned hash(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static int empty(const addr_entry *e, int64_t minute) {
  return e->conns == 0 &&
         (e->tables == 0 || (minute >= 0 && e->minute != minute));
}

/* The entry of addr, made if needed; NULL when the set is full. */
static addr_entry *find(limits_table *t, const char *addr, int64_t minute) {
  unsigned h = hash(addr);
  addr_entry *free_slot = NULL;
  for (unsigned i = 0; i < 64; i++) {
    addr_entry *e = &t->slot[(h + i) % SLOTS];
    if (e->addr[0] && strncmp(e->addr, addr, ADDR_MAX - 1) == 0)
      return e;
    if (!free_slot && (!e->addr[0] || empty(e, minute)))
      free_slot = e;
  }
  if (free_slot) {
    memset(free_slot, 0, sizeof *free_slot);
    strncpy(free_slot->addr, addr, ADDR_MAX - 1);
  }
  return free_slot;
}

int limits_conn_open(limits_table *t, const limits_conf *c, const char *addr) {
  addr_entry *e = find(t, addr, -1);
  if (!e || e->conns >= c->conns_per_addr)
    return 0;
  e->conns++;
  return 1;
}

void limits_conn_close(limits_table *t, const char *addr) {
  addr_entry *e = find(t, addr, -1);
  if (e && e->conns > 0)
    e->conns--;
}

int limits_table_create(limits_table *t, const limits_conf *c, const char *addr,
                        int64_t now) {
  int64_t minute = now / 60000;
  addr_entry *e = find(t, addr, minute);
  if (!e)
    return 0;
  if (e->minute != minute) {
    e->minute = minute;
    e->tables = 0;
  }
  if (e->tables >= c->tables_per_addr)
    return 0;
  e->tables++;
  return 1;
}
