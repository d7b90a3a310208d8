/*
 * talk.c -- table talk: a person seated sends {"type": "say", "text"}
 * and every person seated there (not the spectators) gets {"type":
 * "said", "code", "seat", "n", "text"}, the line stored first (the
 * barrier, server.h) and kept with the game, so that what was said can
 * be reported: {"type": "report", "seat", "reason"} records who
 * reported whom, why, and how many lines had been said by then
 * (`scopa serve --reports` lists them).  Talk is on at a private table
 * and off at a public one unless the create says (its "talk"); the
 * preset reactions (react.c) stay either way.  A seat says at most
 * TALK_BURST lines at once and one more every TALK_REFILL_MS after,
 * however many connections it has (they are all on the table's owner),
 * and a table keeps at most TALK_LINES lines.  Muting is the reader's:
 * the page hides a seat's lines (docs/web.md).
 */
#include "talk.h"
#include "views.h"

#include <stdlib.h>
#include <string.h>

#define TALK_BURST 5
#define TALK_REFILL_MS 3000
#define TALK_LINES 1000
#define TALK_LOG 200 /* the newest lines a person seated is sent */

int talk_default(const proto_msg *create) {
  return create->talk >= 0 ? create->talk : !create->listed;
}

/* One more line for seat si now, or 0 when its bucket is empty. */
static int take_token(seat_info *si, int64_t now) {
  if (si->talk_ms == 0) {
    si->talk_tokens = TALK_BURST;
    si->talk_ms = now;
  }
  int64_t refill = (now - si->talk_ms) / TALK_REFILL_MS;
  if (refill > 0) {
    si->talk_tokens = si->talk_tokens + refill > TALK_BURST
                          ? TALK_BURST
                          : si->talk_tokens + (int)refill;
    si->talk_ms += refill * TALK_REFILL_MS;
  }
  if (si->talk_tokens == 0)
    return 0;
  si->talk_tokens--;
  return 1;
}

static json_t *line_json(const table *t, const store_talk *l) {
  return json_pack("{s:s, s:s, s:i, s:i, s:s}", "type", "said", "code", t->code,
                   "seat", l->seat, "n", l->n, "text", l->text);
}

int talk_say(conn *c, const proto_msg *msg) {
  table *t = c->table;
  server *srv = c->srv;
  if (!t || c->seat < 0)
    return conn_error(c, msg->id, "not_seated", "", "");
  if (!t->talk_on)
    return conn_error(c, msg->id, "talk_off",
                      " (the preset reactions still work)",
                      " (le reazioni restano)");
  if (t->ntalk >= TALK_LINES)
    return conn_error(c, msg->id, "limit", "this table has said enough",
                      "questo tavolo ha già parlato abbastanza");
  if (!take_token(&t->seat[c->seat], now_ms()))
    return conn_error(c, msg->id, "too_fast", "one line every 3 s",
                      "una riga ogni 3 s");
  if (t->ntalk == t->talk_cap) {
    int cap = t->talk_cap ? t->talk_cap * 2 : 16;
    store_talk *more = realloc(t->talk, (size_t)cap * sizeof *more);
    if (!more)
      return conn_error(c, msg->id, "server", "out of memory", "memoria");
    t->talk = more;
    t->talk_cap = cap;
  }
  store_talk *l = &t->talk[t->ntalk];
  *l = (store_talk){.n = t->ntalk, .seat = c->seat, .at_ms = wall_ms()};
  if (!(l->text = strdup(msg->text)))
    return conn_error(c, msg->id, "server", "out of memory", "memoria");
  t->ntalk++;
  t->last_batch = server_batch(srv);
  writer_add_talk(srv->w, t->id, t->code, l, srv->node, t->epoch);
  char *mine = proto_finish(line_json(t, l), msg->id);
  char *theirs = proto_finish(line_json(t, l), NULL);
  for (conn *o = t->conns; mine && theirs && o; o = o->tnext)
    if (o->seat >= 0)
      conn_send(o, o == c ? mine : theirs);
  free(mine);
  free(theirs);
  return 0;
}

int talk_report(conn *c, const proto_msg *msg) {
  table *t = c->table;
  server *srv = c->srv;
  if (!t || c->seat < 0)
    return conn_error(c, msg->id, "not_seated", "", "");
  if (msg->seat >= t->nseats || msg->seat == c->seat ||
      t->seat[msg->seat].s.kind != STORE_PERSON)
    return conn_error(c, msg->id, "bad_message",
                      "\"seat\" is another person's seat at this table",
                      "\"seat\" è il posto di un'altra persona al tavolo");
  seat_info *si = &t->seat[c->seat];
  unsigned bit = 1u << msg->seat;
  if (!(si->reported & bit)) { /* once is enough: the same answer again */
    store_report r = {.by = c->seat,
                      .seat = msg->seat,
                      .through = t->ntalk,
                      .account = c->account,
                      .at_ms = wall_ms()};
    snprintf(r.code, sizeof r.code, "%s", t->code);
    snprintf(r.reason, sizeof r.reason, "%s", msg->text);
    si->reported |= bit;
    t->last_batch = server_batch(srv);
    writer_add_report(srv->w, t->id, &r, srv->node, t->epoch);
  }
  char detail[PROTO_NAME_MAX + 1];
  snprintf(detail, sizeof detail, "%s", t->seat[msg->seat].s.name);
  proto_error err;
  proto_error_set(&err, "reported", detail, detail);
  json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s}", "type", "reported", "code",
                        t->code, "seat", msg->seat, "message", err.en,
                        "message_it", err.it);
  conn_send_owned(c, proto_finish(o, msg->id));
  return 0;
}

void talk_send_log(conn *c) {
  const table *t = c->table;
  if (!t || c->seat < 0 || t->ntalk == 0)
    return;
  json_t *lines = json_array();
  for (int i = t->ntalk > TALK_LOG ? t->ntalk - TALK_LOG : 0; i < t->ntalk; i++)
    json_array_append_new(lines, json_pack("{s:i, s:i, s:s}", "n", t->talk[i].n,
                                           "seat", t->talk[i].seat, "text",
                                           t->talk[i].text));
  conn_send_owned(c, proto_finish(json_pack("{s:s, s:s, s:o}", "type", "talk",
                                            "code", t->code, "lines", lines),
                                  NULL));
}
