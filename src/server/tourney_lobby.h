/*
 * tourney_lobby.h -- tournaments on the loop (tourney_lobby.c): the
 * handlers of tournament_create, _join, _leave and _start, which hand
 * their requests to the tournaments' thread (tourneys.h), only for a
 * signed-in account; and that thread's news: each answer to the
 * connection that asked, and each table in play seated on every
 * connection of this node of its accounts, by a join made on their
 * behalf (as seek.c seats the paired: through the relay when another
 * node serves the table).  docs/serve.md "Tournaments".
 */
#ifndef SCOPA_SERVER_TOURNEY_LOBBY_H
#define SCOPA_SERVER_TOURNEY_LOBBY_H

#include "conn.h"

int tourney_create(conn *c, const proto_msg *msg);
int tourney_join(conn *c, const proto_msg *msg);
int tourney_leave(conn *c, const proto_msg *msg);
int tourney_start(conn *c, const proto_msg *msg);
/* c's account is known (its hello): it is seated at its tables in play
 * (their news went out while it was away). */
void tourney_where(conn *c);
/* The thread's news (wake-ups and the sweep). */
void tourney_take(server *srv);

#endif
