/*
 * offer.c -- the rematch offer's state at a finished table (rematch.c
 * starts the next table): asked, who said yes, and the no of a person
 * whose last connection leaves (lobby.c's table_leave).
 */
#include "offer.h"

#include <stdlib.h>
#include <string.h>

/* Everybody's answer forgotten: the offer is closed. */
void offer_close(table *t) {
  t->rematch_asked = 0;
  memset(t->rematch_yes, 0, sizeof t->rematch_yes);
}

void offer_notice(table *t, const char *code, int seat) {
  char *note = proto_notice(code, seat, t->seat[seat].s.name);
  table_send_all(t, note);
  free(note);
}

void offer_left(table *t, int seat) {
  if (t->rematch_asked && !t->next_code[0]) {
    offer_close(t);
    offer_notice(t, "rematch_declined", seat);
  }
  table_broadcast(t, NULL, NULL);
}
