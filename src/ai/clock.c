/*
 * clock.c -- the deadline and cancel flag of a bot call (clock.h), and
 * scopa_clock_ns, the clock they are measured on.
 */
#include "clock.h"

#include <time.h>

int64_t scopa_clock_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void ai_clock_start(ai_clock *c, const scopa_bot_limits *l, int default_ms) {
  c->deadline_ns = l->deadline_ns > 0 ? l->deadline_ns : INT64_MAX;
  c->cancel = l->cancel;
  c->stopped = 0;
  int ms = l->movetime_ms > 0 ? l->movetime_ms : default_ms;
  if (!l->nodes && ms > 0) {
    int64_t end = scopa_clock_ns() + (int64_t)ms * 1000000;
    if (end < c->deadline_ns)
      c->deadline_ns = end;
  }
}

int ai_clock_check(ai_clock *c) {
  if (!c)
    return 0;
  if (__atomic_load_n(&c->stopped, __ATOMIC_RELAXED))
    return 1;
  int cancelled = c->cancel && __atomic_load_n(c->cancel, __ATOMIC_RELAXED);
  if (cancelled ||
      (c->deadline_ns != INT64_MAX && scopa_clock_ns() >= c->deadline_ns)) {
    __atomic_store_n(&c->stopped, 1, __ATOMIC_RELAXED);
    return 1;
  }
  return 0;
}
