/*
 * views.h -- what each connection of a table is shown, and who is there
 * (views.c).
 */
#ifndef SCOPA_SERVER_VIEWS_H
#define SCOPA_SERVER_VIEWS_H

#include "table.h"

/* The state message for one connection (its seat, or -1 watching), in
 * its words (proto_add_words). */
char *table_state_json(const table *t, const conn *c, const json_t *id);
/* The state to every connection of t, or only to `to` (answering id). */
void table_broadcast(table *t, conn *to, const json_t *id);
void table_send_all(table *t, const char *text);

#endif
