/*
 * lobby.h -- sitting down and getting up (lobby.c): create, join, resume
 * and watch, the handlers of the message table (proto.h); leaving a
 * table; and what the lobby lends rematch.c.
 */
#ifndef SCOPA_SERVER_LOBBY_H
#define SCOPA_SERVER_LOBBY_H

#include "table.h"

int lobby_create(conn *c, const proto_msg *msg);
int lobby_join(conn *c, const proto_msg *msg);
int lobby_resume(conn *c, const proto_msg *msg);
int lobby_watch(conn *c, const proto_msg *msg);
/* A join, resume or watch from an address whose unknown codes are used
 * up: answered `limit` (1), before the code is looked up anywhere, so
 * past the budget a hit and a miss look the same; else 0. */
int lobby_code_limited(conn *c, const proto_msg *msg);
/* A new table from c's address (create, or a rematch: rematch.c):
 * 1 when its bucket allows it (on every node together), else 0 with
 * `limit` sent to c (echoing id). */
int lobby_create_allowed(conn *c, const json_t *id);
/* c gets up from its table, if any: the others see its seat away (a
 * no to an open rematch offer when it was the seat's last connection:
 * offer.h) or one spectator fewer. */
void table_leave(conn *c);
/* What the lobby lends rematch.c: c joins t at seat (-1 watching), after
 * leaving its table; a fresh token (32 hex digits), its SHA-256 as hex,
 * and an unused table code.  The last three return 0, or -1. */
void lobby_attach(conn *c, table *t, int seat);
int lobby_token(char out[33]);
void lobby_sha256_hex(const char *text, char out[65]);
/* On a cluster the code the courier found for the create or rematch
 * being handled (relay_fresh_code), else one checked here. */
int lobby_new_code(server *srv, char code[PROTO_CODE_MAX + 1]);
/* A code of CODE_LEN random letters, unchecked: 0, or -1 (no random
 * bytes).  Any thread (the courier's, through relay_hooks). */
int lobby_random_code(char code[PROTO_CODE_MAX + 1]);

#endif
