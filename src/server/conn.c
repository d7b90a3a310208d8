/*
 * conn.c -- one WebSocket connection.
 *
 * In: fragments are gathered into one message of at most MSG_MAX bytes
 * (lws does not cap messages); a longer one is refused with an error and
 * dropped to its end without being kept.  Every message costs a credit
 * (limits.c); a client that keeps sending without credit is closed.
 *
 * Out: a FIFO of whole messages, written one per WRITEABLE callback (lws's
 * rule: one lws_write per writeable).  A message waits for the store batch
 * it was queued under, or its table's last batch with writes (server.h,
 * "the barrier"), and is dropped if that batch fails.  The queue has a hard
 * limit (past it the connection is closed at once, never grown) and a
 * soft limit (past it for conf.soft_s seconds, closed): a client that
 * cannot keep up costs a bounded amount of memory.
 *
 * A connection is freed only from the graveyard, after the service call
 * that closed it, never inside its own callback.
 */
#include "conn.h"
#include "request.h"

#include <stdlib.h>
#include <string.h>

static void link_all(conn *c) {
  server *srv = c->srv;
  c->anext = srv->all;
  if (srv->all)
    srv->all->aprev = c;
  srv->all = c;
  srv->nconns++;
}

/* A connection that can still be sent to: its socket, or its relay. */
static int live(const conn *c) { return c->remote ? !c->gone : c->wsi != NULL; }

/* A cluster counts an address's connections on every node (the opened
 * hook); refused there, the node's own count is given back.  Without an
 * answer from the database the node's own count stands.  (An address the
 * node let in uncounted, its table full, is not counted there either:
 * past --max-addrs the limits degrade to "allow" on every store.) */
static void count_in_cluster(conn *c, int *ok) {
  int in = c->srv->hooks->opened(c, *ok == LIMITS_COUNTED);
  if (*ok != LIMITS_COUNTED)
    return;
  if (in == LIMITS_COUNTED)
    c->ccounted = 1;
  if (in != LIMITS_REFUSED)
    return;
  limits_conn_close(c->srv->addrs, &c->srv->conf.limits, c->addr,
                    c->last_rx_ms);
  *ok = LIMITS_REFUSED;
}

conn *conn_new(server *srv, struct lws *wsi) {
  conn *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->wsi = wsi;
  c->srv = srv;
  c->seat = -1;
  c->serial = ++srv->next_conn_serial;
  c->last_rx_ms = now_ms();
  limits_bucket_init(&c->bucket, &srv->conf.limits, c->last_rx_ms);
  /* http_upgrade refused a trusted proxy's request without one already. */
  int ok = request_client_addr(wsi, srv, c->addr, sizeof c->addr) != 0
               ? LIMITS_REFUSED
               : limits_conn_open(srv->addrs, &srv->conf.limits, c->addr,
                                  c->last_rx_ms);
  if (ok != LIMITS_REFUSED) /* and on every node together (cluster) */
    count_in_cluster(c, &ok);
  c->counted = ok == LIMITS_COUNTED;
  c->refused = ok == LIMITS_REFUSED;
  if (ok == LIMITS_UNCOUNTED)
    server_limits_full(srv, c->addr);
  link_all(c);
  return c;
}

conn *conn_new_remote(server *srv, const char *peer, uint64_t rserial,
                      const char *addr) {
  conn *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->srv = srv;
  c->remote = 1;
  c->seat = -1;
  c->serial = ++srv->next_conn_serial;
  c->rserial = rserial;
  snprintf(c->peer, sizeof c->peer, "%s", peer);
  /* "ADDR" for a guest, "ADDR\tID\tNAME" for an account (conn_identity):
   * the client's node proved the session; nodes trust each other. */
  const char *tab = strchr(addr, '\t');
  snprintf(c->addr, sizeof c->addr, "%.*s",
           (int)(tab ? (size_t)(tab - addr) : strlen(addr)), addr);
  char name[PROTO_NAME_MAX + 1];
  if (tab && sscanf(tab + 1, "%lld\t%64s", &c->account, name) == 2)
    snprintf(c->account_name, sizeof c->account_name, "%s", name);
  else
    c->account = 0;
  c->last_rx_ms = now_ms();
  /* Counted and charged on its client's node, not here. */
  limits_bucket_init(&c->bucket, &srv->conf.limits, c->last_rx_ms);
  link_all(c);
  return c;
}

void conn_identity(const conn *c, char *out, size_t cap) {
  if (c->account)
    snprintf(out, cap, "%s\t%lld\t%s", c->addr, c->account, c->account_name);
  else
    snprintf(out, cap, "%s", c->addr);
}

static void unlink_wake(conn *c) {
  if (!c->in_wake)
    return;
  for (conn **p = &c->srv->wake; *p; p = &(*p)->wnext)
    if (*p == c) {
      *p = c->wnext;
      break;
    }
  c->in_wake = 0;
}

void conn_closed(conn *c) {
  server *srv = c->srv;
  srv->hooks->closed(c);
  unlink_wake(c);
  if (c->aprev)
    c->aprev->anext = c->anext;
  else
    srv->all = c->anext;
  if (c->anext)
    c->anext->aprev = c->aprev;
  if (c->counted)
    limits_conn_close(srv->addrs, &srv->conf.limits, c->addr, now_ms());
  srv->nconns--;
  c->wsi = NULL;
  c->gnext = srv->graveyard;
  srv->graveyard = c;
}

void conn_free_graveyard(server *srv) {
  while (srv->graveyard) {
    conn *c = srv->graveyard;
    srv->graveyard = c->gnext;
    while (c->head) {
      out_msg *m = c->head;
      c->head = m->next;
      free(m);
    }
    free(c->rx);
    free(c->parked);
    free(c->entry);
    free(c);
  }
}

/* closing 1: once what is queued has gone out (an error saying why);
 * closing 2: at once (the queue is what went wrong). */
static void close_with(conn *c, int how) {
  if (live(c) && c->closing < how) {
    c->closing = how;
    if (c->remote)
      c->srv->hooks->flush(c);
    else
      lws_callback_on_writable(c->wsi);
  }
}

void conn_close_soon(conn *c) { close_with(c, 1); }

/* Asks for a writeable callback, or, while the head waits for a batch,
 * for a wake-up at the commit. */
static void hold(conn *c) {
  if (!c->in_wake) {
    c->in_wake = 1;
    c->wnext = c->srv->wake;
    c->srv->wake = c;
  }
}

static void want_write(conn *c) {
  if (c->remote) { /* what may go out goes to the relay now */
    c->srv->hooks->flush(c);
    if (c->head && !c->gone)
      hold(c);
    return;
  }
  if (!c->wsi)
    return;
  if (!c->head) {
    if (c->closing) /* drained: the writeable callback closes it */
      lws_callback_on_writable(c->wsi);
    return;
  }
  if (c->head->after > c->srv->committed) {
    hold(c);
    return;
  }
  lws_callback_on_writable(c->wsi);
}

void conn_release(server *srv) {
  conn *c = srv->wake;
  srv->wake = NULL;
  while (c) {
    conn *next = c->wnext;
    c->in_wake = 0;
    c->wnext = NULL;
    want_write(c);
    c = next;
  }
}

int conn_drop_held(conn *c, uint64_t table_id) {
  int n = 0;
  out_msg *prev = NULL, *next;
  for (out_msg *m = c->head; m; m = next) {
    next = m->next;
    if (m->table != table_id || m->after <= c->srv->committed) {
      prev = m;
      continue;
    }
    if (prev)
      prev->next = next;
    else
      c->head = next;
    if (c->tail == m)
      c->tail = prev;
    c->out_bytes -= m->len;
    free(m);
    n++;
  }
  if (c->out_bytes <= c->srv->conf.soft_bytes)
    c->soft_since_ms = 0;
  if (n)
    want_write(c);
  return n;
}

void conn_send(conn *c, const char *text) {
  if (!live(c) || c->closing == 2 || !text)
    return;
  size_t len = strlen(text);
  server *srv = c->srv;
  if (c->out_bytes + len > srv->conf.hard_bytes) {
    lwsl_user("closing %s: out-queue over the hard limit\n", c->addr);
    close_with(c, 2);
    return;
  }
  out_msg *m = malloc(sizeof *m + LWS_PRE + len);
  if (!m) {
    close_with(c, 2);
    return;
  }
  uint64_t last = 0;
  m->next = NULL;
  m->table = srv->hooks->table_of(c, &last);
  m->after = last > srv->batch ? last : srv->batch;
  m->len = len;
  memcpy(m->buf + LWS_PRE, text, len);
  if (c->tail)
    c->tail->next = m;
  else
    c->head = m;
  c->tail = m;
  c->out_bytes += len;
  if (c->out_bytes > srv->conf.soft_bytes && !c->soft_since_ms)
    c->soft_since_ms = now_ms();
  srv->messages_out++;
  want_write(c);
}

void conn_send_owned(conn *c, char *text) {
  conn_send(c, text);
  free(text);
}

int conn_error(conn *c, const json_t *id, const char *code, const char *detail,
               const char *detail_it) {
  proto_error e;
  proto_error_set(&e, code, detail, detail_it);
  conn_send_owned(c, proto_error_json(id, &e));
  return 0;
}

int conn_ping(conn *c, const proto_msg *msg) {
  conn_send_owned(c, proto_finish(json_pack("{s:s}", "type", "pong"), msg->id));
  return 0;
}

int conn_writeable(conn *c) {
  out_msg *m = c->head;
  if (c->closing == 2 || (c->closing && !m)) {
    lws_close_reason(c->wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, NULL, 0);
    return -1;
  }
  if (c->want_ping) { /* one write per callback: the rest at the next */
    unsigned char ping[LWS_PRE + 4] = {0};
    c->want_ping = 0; /* a payload: lws reports no empty pong */
    memcpy(ping + LWS_PRE, "scpa", 4);
    if (lws_write(c->wsi, ping + LWS_PRE, 4, LWS_WRITE_PING) < 4)
      return -1;
    want_write(c);
    return 0;
  }
  if (!m || m->after > c->srv->committed) {
    want_write(c);
    return 0;
  }
  int n = lws_write(c->wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT);
  if (n < (int)m->len)
    return -1;
  c->head = m->next;
  if (!c->head)
    c->tail = NULL;
  c->out_bytes -= m->len;
  if (c->out_bytes <= c->srv->conf.soft_bytes)
    c->soft_since_ms = 0;
  free(m);
  want_write(c);
  return 0;
}

void conn_deliver(conn *c, const char *text, size_t len, int charged) {
  c->srv->messages_in++;
  c->srv->hooks->message(c, text, len, charged);
}

static int grow_rx(conn *c, size_t need) {
  if (need <= c->rx_cap)
    return 0;
  size_t cap = c->rx_cap ? c->rx_cap : 1024;
  while (cap < need)
    cap *= 2;
  char *more = realloc(c->rx, cap);
  if (!more)
    return -1;
  c->rx = more;
  c->rx_cap = cap;
  return 0;
}

int conn_receive(conn *c, const void *in, size_t len) {
  c->last_rx_ms = now_ms();
  if (c->closing)
    return 0;
  if (lws_frame_is_binary(c->wsi)) {
    if (lws_is_final_fragment(c->wsi))
      conn_error(c, NULL, "bad_message", "messages are JSON text frames",
                 "i messaggi sono testo JSON");
    return 0;
  }
  if (!c->rx_skip && c->rx_len + len > MSG_MAX) {
    c->rx_skip = 1;
    conn_error(c, NULL, "too_big", "the limit is 65536 bytes",
               "il limite è 65536 byte");
    limits_take(&c->bucket, &c->srv->conf.limits, now_ms());
  }
  if (!c->rx_skip) {
    if (grow_rx(c, c->rx_len + len + 1))
      return -1;
    memcpy(c->rx + c->rx_len, in, len);
    c->rx_len += len;
  }
  if (!lws_is_final_fragment(c->wsi) || lws_remaining_packet_payload(c->wsi))
    return 0;
  if (!c->rx_skip)
    conn_deliver(c, c->rx, c->rx_len, 1);
  c->rx_len = 0;
  c->rx_skip = 0;
  if (c->rx_cap > 4 * 1024) { /* do not keep a big buffer for a quiet client */
    free(c->rx);
    c->rx = NULL;
    c->rx_cap = 0;
  }
  return 0;
}

/* Closes what is over the soft limit for too long, and connections that
 * never sat down and stay silent; pings a connection silent for --ping
 * seconds (again every --ping) and cuts one silent for 2.5 times as
 * long, a dead peer (pongs and messages count as life). */
void conn_sweep(server *srv, int64_t now) {
  const int64_t ping_ms = (int64_t)srv->conf.ping_s * 1000,
                hangup_ms = ping_ms * 5 / 2;
  for (conn *c = srv->all; c; c = c->anext) {
    if (c->wsi && !c->hung && now - c->last_rx_ms > hangup_ms) {
      c->hung = 1; /* lws closes it (CLOSED follows) */
      lws_set_timeout(c->wsi, PENDING_TIMEOUT_AWAITING_PING, LWS_TO_KILL_ASYNC);
      continue;
    }
    if (c->wsi && !c->closing && now - c->last_rx_ms > ping_ms &&
        now - c->ping_ms > ping_ms) {
      c->ping_ms = now;
      c->want_ping = 1;
      lws_callback_on_writable(c->wsi);
    }
    if (c->soft_since_ms &&
        now - c->soft_since_ms > (int64_t)srv->conf.soft_s * 1000) {
      lwsl_user("closing %s: out-queue over the soft limit\n", c->addr);
      close_with(c, 2);
    } else if (!c->table && !c->parked && (c->remote || !c->peer[0]) &&
               now - c->last_rx_ms > 120 * 1000) {
      conn_close_soon(c);
    }
  }
}
