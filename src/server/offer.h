/*
 * offer.h -- the rematch offer's state at a finished table (offer.c):
 * who asked, who said yes; a person whose last connection leaves says no.
 * Starting the next table is rematch.h.
 */
#ifndef SCOPA_SERVER_OFFER_H
#define SCOPA_SERVER_OFFER_H

#include "views.h"

/* Everybody's answer forgotten: the offer is closed. */
void offer_close(table *t);
/* A notice (code: "rematch_offered", "rematch_declined", ...) naming
 * seat, to everybody at t. */
void offer_notice(table *t, const char *code, int seat);
/* The last connection of seat left a finished table: a no to an open
 * offer.  Broadcasts the state. */
void offer_left(table *t, int seat);

#endif
