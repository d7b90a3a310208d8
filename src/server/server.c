/*
 * server.c -- what the service thread's rooms share of the server: the
 * clock, the store batch the turn's writes go into, the loop's longest
 * turn, the log line of a full per-address table.
 */
#include "server.h"

#include <time.h>

int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t loop_max_us(server *srv) {
  int64_t m = srv->turn_max_us;
  srv->turn_max_us = 0;
  return m;
}

void server_limits_full(server *srv, const char *addr) {
  int64_t now = now_ms();
  if (srv->addrs_full_logged_ms && now - srv->addrs_full_logged_ms < 60000)
    return;
  srv->addrs_full_logged_ms = now;
  lwsl_warn("scopa serve: %d addresses are counted already (--max-addrs): "
            "%s and other new ones are let in uncounted\n",
            srv->conf.max_addrs, addr);
}

uint64_t server_batch(server *srv) {
  if (!srv->batch)
    srv->batch = ++srv->last_batch;
  return srv->batch;
}
