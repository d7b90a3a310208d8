/*
 * react.c -- quick reactions at a table: a person seated sends one of a
 * fixed set of phrases by its id ({"type": "react", "reaction":
 * "bella"}), and the people seated there get {"type": "reaction",
 * "code", "seat", "reaction"}; the clients say it in their language.
 * No free text, so nothing to moderate; spectators neither send nor get
 * them; one seat sends at most one every REACT_GAP_MS, however many
 * connections it has (issue 32: one seat on 100 connections sent 300 in
 * 5 s while the gap was per connection).  All of a seat's connections are
 * on its table's owner (remote ones stand in for other nodes'), so the gap
 * holds on a cluster too.
 */
#include "react.h"
#include "views.h"

#include <stdlib.h>
#include <string.h>

#define REACT_GAP_MS 2000

/* The ids a client may send (docs/serve.md). */
static const char *const REACTIONS[] = {
    "bella",    "scopa", "ben_giocata", "peccato", "grazie",
    "applause", "laugh", "wow",         "think",
};

static int known(const char *id) {
  for (size_t i = 0; i < sizeof REACTIONS / sizeof REACTIONS[0]; i++)
    if (strcmp(REACTIONS[i], id) == 0)
      return 1;
  return 0;
}

int react_send(conn *c, const proto_msg *msg) {
  table *t = c->table;
  if (!t || c->seat < 0)
    return conn_error(c, msg->id, "not_seated", "", "");
  if (!known(msg->reaction)) {
    char safe[4 * PROTO_REACTION_MAX + 1];
    scopa_text_safe(safe, sizeof safe, msg->reaction, strlen(msg->reaction),
                    SCOPA_SAFE_DROP);
    return conn_error(c, msg->id, "bad_reaction", safe, safe);
  }
  seat_info *si = &t->seat[c->seat];
  int64_t now = now_ms();
  if (si->react_ms && now - si->react_ms < REACT_GAP_MS)
    return conn_error(c, msg->id, "too_fast", "one reaction every 2 s",
                      "una reazione ogni 2 s");
  si->react_ms = now;
  char *text = proto_finish(json_pack("{s:s, s:s, s:i, s:s}", "type",
                                      "reaction", "code", t->code, "seat",
                                      c->seat, "reaction", msg->reaction),
                            NULL);
  for (conn *o = t->conns; text && o; o = o->tnext)
    if (o->seat >= 0)
      conn_send(o, text);
  free(text);
  return 0;
}
