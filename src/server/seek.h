/*
 * seek.h -- Play now on the loop (seek.c): a connection's `seek` handed
 * to the pairer (pairer.h), withdrawn by `unseek` or its close, and,
 * once paired, the person seated at the new table by a join of its code
 * made on their behalf (through the same path as a join they sent, so
 * a table another node serves is reached through the relay).  A seek
 * that waits --seek-offer seconds (20) is offered a bot of a level near
 * its rating.
 * docs/serve.md "Play now".
 */
#ifndef SCOPA_SERVER_SEEK_H
#define SCOPA_SERVER_SEEK_H

#include "conn.h"

#define SEEK_MAX 10000 /* seeks waiting on one node at most        */

int seek_start(conn *c, const proto_msg *msg);
int seek_stop(conn *c, const proto_msg *msg);
/* c closed: its seek, if any, is withdrawn. */
void seek_conn_closed(conn *c);
/* The pairer's news (wake-ups and the sweep). */
void seek_take(server *srv);
/* From the sweep: the bot offers due. */
void seek_tick(server *srv, int64_t now);
/* The level offered to a seek of this rating. */
const char *seek_offer_level(double rating);

#endif
