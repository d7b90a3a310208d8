/*
 * loop.c -- the lws context (one vhost per address --host names, from
 * listen.c), the one protocol callback (HTTP goes to http.c, the WebSocket
 * at /ws to conn.c and table.c), and the service loop.
 *
 * The loop (lws on a libev loop of ours, epoll), per turn: ev_run
 * handles whatever is ready (messages in, bot answers on
 * EVENT_WAIT_CANCELLED, writeable sockets, timers); then
 * the store batch opened during that turn is committed, and only then are
 * the messages queued behind it released (server.h, "the barrier"); then
 * connections closed during the turn are freed.  A WebSocket's data goes
 * out only in the WRITEABLE callback, one lws_write each (conn.c); an
 * HTTP answer is written whole in the callback that asked for it (http.c).
 */
#include "loop.h"
#include "account.h"
#include "auth.h"
#include "dispatch.h"
#include "http.h"
#include "moves.h"
#include "pairer.h"
#include "relay.h"
#include "seek.h"
#include "table.h"
#include "tourney_lobby.h"
#include "tourneys.h"

#include <ev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* A turn's work starts when epoll returns (a check watcher of the highest
 * priority, called before any other) and ends after the graveyard: the
 * time the loop answered nobody. */
static void turn_begins(struct ev_loop *loop, ev_check *w, int revents) {
  (void)loop;
  (void)revents;
  server *srv = w->data;
  srv->turn_start_us = now_us();
}

static void turn_ends(server *srv) {
  if (!srv->turn_start_us)
    return;
  int64_t d = now_us() - srv->turn_start_us;
  srv->turn_start_us = 0;
  if (d > srv->turn_max_us)
    srv->turn_max_us = d;
  if (d > 10000)
    srv->turns_over_10ms++;
}

/* Per connection: a WebSocket's conn (HTTP answers keep no state:
 * http.c). */
typedef struct pss {
  conn *c;
  account_req *req; /* an account route's request, answered later */
} pss;

/* ------------------------------------------------------------------ */
/* The callback                                                        */
/* ------------------------------------------------------------------ */

/* Ends the turn's batch: the writer commits it on its own thread. */
static void flush(server *srv) {
  if (srv->batch) {
    writer_flush(srv->w, srv->batch);
    srv->batch = 0;
  }
}

/* What the writer has settled may go out now, but first the tables whose
 * writes failed stop, and what is held for them is dropped (writer.h: the
 * settled batch is read before the failures).  Only a write that could
 * not even be recorded stops the server. */
static void take_commits(server *srv) {
  uint64_t done = writer_committed(srv->w);
  writer_failure failed[16];
  int n;
  while ((n = writer_take_failed(srv->w, failed, 16)) > 0)
    for (int i = 0; i < n; i++)
      table_store_failed(srv, &failed[i]);
  if (done > srv->committed) {
    srv->committed = done;
    conn_release(srv);
  }
  if (writer_failed(srv->w) && !srv->stop) {
    lwsl_err("scopa serve: out of memory recording a write; stopping\n");
    srv->stop = 1;
    srv->failed = 1;
  }
}

static void take_bot_answers(server *srv) {
  bot_job jobs[16];
  int n;
  do {
    n = bots_take(srv->bots, jobs, 16);
    for (int i = 0; i < n; i++)
      table_bot_done(srv, &jobs[i]);
  } while (n == 16);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len) {
  server *srv = lws_context_user(lws_get_context(wsi));
  pss *p = user;
  switch (reason) {
  case LWS_CALLBACK_HTTP:
    return p ? http_request(wsi, srv, in ? (const char *)in : "/", &p->req)
             : -1;
  case LWS_CALLBACK_HTTP_BODY:
    return p ? account_body(p->req, in, len) : -1;
  case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    return p ? account_body_done(wsi, &p->req) : -1;
  case LWS_CALLBACK_HTTP_WRITEABLE:
    if (p && p->req)
      return account_writeable(wsi, &p->req);
    break;
  case LWS_CALLBACK_CLOSED_HTTP:
    if (p) /* lws may have no state for it: none was ever kept */
      account_closed(&p->req);
    break;
  case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
    return http_upgrade(wsi, srv, in);
  case LWS_CALLBACK_RAW_ADOPT:
    return http_raw(wsi);
  case LWS_CALLBACK_ESTABLISHED:
    p->c = conn_new(srv, wsi);
    if (!p->c)
      return -1;
    account_of_ws(wsi, srv, p->c); /* and its hello, now or later */
    if (p->c->refused) {
      conn_error(p->c, NULL, "limit", "too many connections from one address",
                 "troppe connessioni da un solo indirizzo");
      conn_close_soon(p->c);
    }
    return 0;
  case LWS_CALLBACK_RECEIVE:
    return p->c ? conn_receive(p->c, in, len) : -1;
  case LWS_CALLBACK_RECEIVE_PONG: /* alive: conn_sweep's ping answered */
    if (p->c)
      p->c->last_rx_ms = now_ms();
    return 0;
  case LWS_CALLBACK_SERVER_WRITEABLE:
    return p->c ? conn_writeable(p->c) : -1;
  case LWS_CALLBACK_CLOSED:
    if (p->c)
      conn_closed(p->c);
    p->c = NULL;
    return 0;
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    take_commits(srv);
    take_bot_answers(srv);
    account_take(srv);
    seek_take(srv);
    tourney_take(srv);
    relay_poll(srv);
    return 0;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols PROTOCOLS[] = {
    {"scopa", callback, sizeof(pss), MSG_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* No idle policy of lws's: its validity timer, rescheduled at every
 * frame, is a sorted insert among every connection's timers (37 % of
 * the server's time at 10,000 tables, bench/serve_load.py); conn_sweep
 * pings after 30 s of silence and hangs up at 75 s instead. */
static const lws_retry_bo_t IDLE = {.secs_since_valid_ping = 0,
                                    .secs_since_valid_hangup = 0};

static void sweep(lws_sorted_usec_list_t *sul) {
  server *srv = lws_container_of(sul, server, sweep);
  int64_t now = now_ms();
  take_commits(srv); /* a wake-up lost to a busy turn is not lost */
  take_bot_answers(srv);
  dispatch_sweep(srv, now);
  conn_sweep(srv, now);
  relay_tick(srv, now);
  if (now - srv->addrs_swept_ms >= 5000) {
    limits_sweep(srv->addrs, &srv->conf.limits, now);
    srv->addrs_swept_ms = now;
  }
  lws_sul_schedule(srv->ctx, 0, &srv->sweep, sweep, 250 * LWS_US_PER_MS);
}

static void wake(void *arg) {
  server *srv = arg;
  lws_cancel_service(srv->ctx);
}

/* One vhost listening on one address (a numeric iface: see listen.c). */
static struct lws_vhost *listen_on(server *srv, const listen_addr *a) {
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = srv->conf.port;
  info.iface = a->ip; /* srv->listen outlives the context */
  info.vhost_name = a->ip;
  info.protocols = PROTOCOLS;
  info.retry_and_idle_policy = &IDLE;
  info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 |
                 LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
  if (a->family == AF_INET)
    info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
  else if (strcmp(a->ip, "::") != 0) /* "::" takes IPv4 too */
    info.options |= LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY |
                    LWS_SERVER_OPTION_IPV6_V6ONLY_VALUE;
  else
    info.options |= LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY;
  return lws_create_vhost(srv->ctx, &info);
}

static int listen_all(server *srv) {
  for (int i = 0; i < srv->listen.n; i++)
    if (!listen_on(srv, &srv->listen.addr[i]))
      return -1;
  return 0;
}

static void say_listening(server *srv) {
  for (int i = 0; i < srv->listen.n && !srv->conf.quiet; i++) {
    const listen_addr *a = &srv->listen.addr[i];
    struct lws_vhost *vh = lws_get_vhost_by_name(srv->ctx, a->ip);
    char url[128];
    listen_url(a, vh ? lws_get_vhost_listen_port(vh) : srv->conf.port, url,
               sizeof url);
    fprintf(stderr, "scopa serve: listening on %s\n", url);
  }
}

int loop_run(server *srv) {
  srv->hooks = &DISPATCH_HOOKS; /* what connections' events do (conn.h) */
  srv->relay_hooks = &DISPATCH_RELAY_HOOKS; /* the cluster's (relay.h) */
  /* lws on a libev loop of ours (epoll): a turn costs what is ready, not a
   * poll() over every connection, which is what holds at 1,000 tables
   * (docs/serve.md, "Load").  lws loads its libev glue as a plugin. */
  struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
  if (!loop) {
    fprintf(stderr, "scopa serve: no event loop\n");
    return 1;
  }
  void *foreign[1] = {loop};
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.user = srv;
  /* lws 4.1.6 reads VALIDATE_UTF8 from the context's options. */
  info.options = LWS_SERVER_OPTION_LIBEV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
                 LWS_SERVER_OPTION_VALIDATE_UTF8;
  info.foreign_loops = foreign;
  info.fd_limit_per_thread = 0;
  http_limits(&info);
  srv->ctx = lws_create_context(&info);
  if (!srv->ctx || listen_all(srv)) {
    fprintf(stderr, "scopa serve: cannot listen on %s port %d\n",
            srv->conf.host, srv->conf.port);
    if (srv->ctx)
      lws_context_destroy(srv->ctx);
    ev_loop_destroy(loop);
    return 1;
  }
  char msg[256];
  srv->bots = bots_new(srv->conf.bot_threads, srv->conf.slow_cap, wake, srv);
  srv->w = writer_new(srv->conf.db, wake, srv, msg, sizeof msg);
  if (srv->bots && srv->w)
    srv->auth =
        auth_new(srv->conf.db, &srv->conf.auth, wake, srv, msg, sizeof msg);
  if (!srv->bots || !srv->w || !srv->auth) {
    fprintf(stderr, "scopa serve: %s\n", srv->bots ? msg : "no bot threads");
    bots_free(srv->bots);
    writer_free(srv->w);
    auth_free(srv->auth);
    lws_context_destroy(srv->ctx);
    ev_loop_destroy(loop);
    return 1;
  }
  if (relay_start(srv, msg, sizeof msg)) {
    fprintf(stderr, "scopa serve: %s\n", msg);
    bots_free(srv->bots);
    writer_free(srv->w);
    auth_free(srv->auth);
    lws_context_destroy(srv->ctx);
    ev_loop_destroy(loop);
    return 1;
  }
  srv->pairer =
      pairer_new(srv->conf.db, srv->node, srv->relay_hooks->random_code, wake,
                 srv, msg, sizeof msg);
  if (srv->pairer)
    srv->tourneys = tourneys_new(srv->conf.db, srv->relay_hooks->random_code,
                                 wake, srv, msg, sizeof msg);
  if (!srv->pairer || !srv->tourneys) { /* after the cluster's start */
    fprintf(stderr, "scopa serve: %s\n", msg);
    pairer_free(srv->pairer);
    relay_stop(srv);
    bots_free(srv->bots);
    writer_free(srv->w);
    auth_free(srv->auth);
    lws_context_destroy(srv->ctx);
    ev_loop_destroy(loop);
    return 1;
  }
  lws_sul_schedule(srv->ctx, 0, &srv->sweep, sweep, 250 * LWS_US_PER_MS);
  say_listening(srv);
  ev_check turn;
  ev_check_init(&turn, turn_begins);
  ev_set_priority(&turn, EV_MAXPRI);
  turn.data = srv;
  ev_check_start(loop, &turn);
  while (!srv->stop) {
    ev_run(loop, EVRUN_ONCE); /* whatever is ready, at least one thing */
    relay_turn(srv);
    flush(srv);
    conn_free_graveyard(srv);
    turn_ends(srv);
  }
  ev_check_stop(loop, &turn);
  /* First the threads, so that no wake-up reaches a dead context; the
   * writer commits everything flushed before it stops. */
  bots_free(srv->bots);
  srv->bots = NULL;
  writer_free(srv->w);
  srv->w = NULL;
  auth_free(srv->auth);
  srv->auth = NULL;
  pairer_free(srv->pairer); /* this node's seeks leave the store */
  srv->pairer = NULL;
  tourneys_free(srv->tourneys);
  srv->tourneys = NULL;
  table_unrated_free(srv);
  relay_stop(srv); /* after the last commit: the leases go */
  lws_context_destroy(srv->ctx);
  conn_free_graveyard(srv);
  ev_loop_destroy(loop);
  return srv->failed;
}
