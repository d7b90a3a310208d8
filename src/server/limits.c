/*
 * limits.c -- limits.h.  Addresses live in libc's balanced search tree
 * (tsearch), keyed by the exact normalised address text: no hash a client
 * could aim at, no slot two addresses share, a lookup in O(log n) whatever
 * the keys.  Each entry is also on a list, so that the sweep can free the
 * idle ones without walking the tree.
 *
 * What stays true: an entry exists only while it counts something (an
 * open connection, or a bucket not yet full again) or until the next
 * sweep; at most max_addrs entries exist; an address never counted is
 * never refused.
 */
#include "limits.h"

#include <arpa/inet.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A bucket that refills evenly: what is left, and when it was last
 * filled up to. */
typedef struct fill {
  double left;
  int64_t ms;
} fill;

typedef struct addr_entry {
  char key[LIMITS_KEY_TEXT]; /* first: the tree compares entries by it */
  int conns;                 /* connections open now                  */
  fill tables;               /* creations left                        */
  fill misses;               /* unknown codes left                    */
  fill http;                 /* HTTP requests left                    */
  struct addr_entry *next, *prev;
} addr_entry;

struct limits_table {
  void *root; /* tsearch's tree of addr_entry */
  addr_entry *list;
  int n, max;
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

/* ------------------------------------------------------------------ */
/* Keys                                                                */
/* ------------------------------------------------------------------ */

int limits_exact_text(const char *addr, char out[LIMITS_KEY_TEXT]) {
  struct in_addr a4;
  struct in6_addr a6;
  if (inet_pton(AF_INET, addr, &a4) == 1) {
    inet_ntop(AF_INET, &a4, out, LIMITS_KEY_TEXT);
  } else if (inet_pton(AF_INET6, addr, &a6) == 1) {
    if (IN6_IS_ADDR_V4MAPPED(&a6)) {
      memcpy(&a4, &a6.s6_addr[12], 4);
      inet_ntop(AF_INET, &a4, out, LIMITS_KEY_TEXT);
    } else {
      inet_ntop(AF_INET6, &a6, out, LIMITS_KEY_TEXT);
    }
  } else {
    return -1;
  }
  return 0;
}

void limits_key_text(const char *addr, char out[LIMITS_KEY_TEXT]) {
  struct in6_addr a6;
  if (inet_pton(AF_INET6, addr, &a6) == 1 && !IN6_IS_ADDR_V4MAPPED(&a6)) {
    /* the /64 a subscriber holds, as one address */
    memset(&a6.s6_addr[8], 0, 8);
    char text[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, &a6, text, sizeof text);
    snprintf(out, LIMITS_KEY_TEXT, "%s/64", text);
  } else if (limits_exact_text(addr, out) != 0) {
    snprintf(out, LIMITS_KEY_TEXT, "%s", addr);
  }
}

int limits_forwarded(const char *xff, char out[LIMITS_KEY_TEXT]) {
  const char *comma = strrchr(xff, ',');
  const char *s = comma ? comma + 1 : xff;
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  char text[LIMITS_KEY_TEXT];
  if (n == 0 || n >= sizeof text)
    return -1;
  memcpy(text, s, n);
  text[n] = 0;
  return limits_exact_text(text, out);
}

/* ------------------------------------------------------------------ */
/* Entries                                                             */
/* ------------------------------------------------------------------ */

static int compare(const void *a, const void *b) {
  return strcmp(((const addr_entry *)a)->key, ((const addr_entry *)b)->key);
}

limits_table *limits_table_new(int max_addrs) {
  limits_table *t = calloc(1, sizeof *t);
  if (t)
    t->max = max_addrs;
  return t;
}

static void drop(limits_table *t, addr_entry *e) {
  tdelete(e, &t->root, compare);
  if (e->prev)
    e->prev->next = e->next;
  else
    t->list = e->next;
  if (e->next)
    e->next->prev = e->prev;
  t->n--;
  free(e);
}

void limits_table_free(limits_table *t) {
  if (!t)
    return;
  while (t->list)
    drop(t, t->list);
  free(t);
}

/* The entry of addr, or NULL: absent (create 0), or the table full or out
 * of memory (create 1). */
static addr_entry *find(limits_table *t, const limits_conf *c, const char *addr,
                        int create, int64_t now) {
  addr_entry probe;
  limits_key_text(addr, probe.key);
  addr_entry **found = tfind(&probe, &t->root, compare);
  if (found || !create || t->n >= t->max)
    return found ? *found : NULL;
  addr_entry *e = calloc(1, sizeof *e);
  if (!e)
    return NULL;
  memcpy(e->key, probe.key, sizeof e->key);
  e->tables = (fill){c->tables_per_addr, now};
  e->misses = (fill){c->misses_burst, now};
  e->http = (fill){c->http_burst, now};
  if (!tsearch(e, &t->root, compare)) {
    free(e);
    return NULL;
  }
  e->next = t->list;
  if (t->list)
    t->list->prev = e;
  t->list = e;
  t->n++;
  return e;
}

/* Each bucket's rate: n credits back every ms milliseconds (kept as two
 * integers, so that whole intervals give whole credits back). */
typedef struct rate {
  double n, ms;
} rate;

static rate tables_rate(const limits_conf *c) {
  return (rate){c->tables_per_addr, 60000};
}
static rate misses_rate(const limits_conf *c) {
  return (rate){1, c->miss_refill_ms};
}
static rate http_rate(const limits_conf *c) {
  return (rate){c->http_per_second, 1000};
}

static void fill_up(fill *f, double cap, rate r, int64_t now) {
  if (now <= f->ms || r.ms <= 0)
    return;
  f->left += (double)(now - f->ms) * r.n / r.ms;
  if (f->left > cap)
    f->left = cap;
  f->ms = now;
}

static void refill(addr_entry *e, const limits_conf *c, int64_t now) {
  fill_up(&e->tables, c->tables_per_addr, tables_rate(c), now);
  fill_up(&e->misses, c->misses_burst, misses_rate(c), now);
  fill_up(&e->http, c->http_burst, http_rate(c), now);
}

/* The milliseconds until f holds one credit again (at least 1). */
static int wait_ms(const fill *f, rate r) {
  double ms = r.n > 0 ? (1.0 - f->left) * r.ms / r.n : 60000.0;
  return ms < 1 ? 1 : (int)(ms + 0.999);
}

/* Frees e when it counts nothing; 1 when it did. */
static int drop_if_idle(limits_table *t, const limits_conf *c, addr_entry *e,
                        int64_t now) {
  refill(e, c, now);
  if (e->conns > 0 || e->tables.left < c->tables_per_addr ||
      e->misses.left < c->misses_burst || e->http.left < c->http_burst)
    return 0;
  drop(t, e);
  return 1;
}

int limits_conn_open(limits_table *t, const limits_conf *c, const char *addr,
                     int64_t now) {
  addr_entry *e = find(t, c, addr, 1, now);
  if (!e)
    return LIMITS_UNCOUNTED;
  if (e->conns >= c->conns_per_addr)
    return LIMITS_REFUSED;
  e->conns++;
  return LIMITS_COUNTED;
}

void limits_conn_close(limits_table *t, const limits_conf *c, const char *addr,
                       int64_t now) {
  addr_entry *e = find(t, c, addr, 0, now);
  if (!e)
    return;
  if (e->conns > 0)
    e->conns--;
  drop_if_idle(t, c, e, now);
}

int limits_table_create(limits_table *t, const limits_conf *c, const char *addr,
                        int64_t now) {
  addr_entry *e = find(t, c, addr, 1, now);
  if (!e)
    return LIMITS_UNCOUNTED;
  refill(e, c, now);
  if (e->tables.left < 1.0)
    return LIMITS_REFUSED;
  e->tables.left -= 1.0;
  return LIMITS_COUNTED;
}

int limits_code_check(limits_table *t, const limits_conf *c, const char *addr,
                      int64_t now, int *retry_ms) {
  addr_entry *e = find(t, c, addr, 0, now);
  if (!e)
    return 1;
  refill(e, c, now);
  if (e->misses.left >= 1.0)
    return 1;
  *retry_ms = wait_ms(&e->misses, misses_rate(c));
  return 0;
}

void limits_code_miss(limits_table *t, const limits_conf *c, const char *addr,
                      int64_t now) {
  addr_entry *e = find(t, c, addr, 1, now);
  if (!e)
    return; /* the table is full: uncounted, as everywhere */
  refill(e, c, now);
  if (e->misses.left >= 1.0)
    e->misses.left -= 1.0;
}

int limits_http_take(limits_table *t, const limits_conf *c, const char *addr,
                     int64_t now, int *retry_ms) {
  addr_entry *e = find(t, c, addr, 1, now);
  if (!e)
    return 1;
  refill(e, c, now);
  if (e->http.left < 1.0) {
    *retry_ms = wait_ms(&e->http, http_rate(c));
    return 0;
  }
  e->http.left -= 1.0;
  return 1;
}

int limits_sweep(limits_table *t, const limits_conf *c, int64_t now) {
  addr_entry *next;
  for (addr_entry *e = t->list; e; e = next) {
    next = e->next;
    drop_if_idle(t, c, e, now);
  }
  return t->n;
}
