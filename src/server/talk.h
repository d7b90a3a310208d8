/*
 * talk.h -- table talk (talk.c): short lines between the people seated
 * at a table, and reports of them (docs/serve.md "Table talk").
 */
#ifndef SCOPA_SERVER_TALK_H
#define SCOPA_SERVER_TALK_H

#include "table.h"

/* The message table's SAY and REPORT. */
int talk_say(conn *c, const proto_msg *msg);
int talk_report(conn *c, const proto_msg *msg);

/* Whether a create's table talks: "talk" when given, else on at a
 * private table and off at a public one. */
int talk_default(const proto_msg *create);

/* What was said so far, to a person just seated by c: {"type": "talk",
 * "code", "lines": [{"n", "seat", "text"}]} (nothing to a spectator, and
 * nothing at a table that never talked). */
void talk_send_log(conn *c);

#endif
