/*
 * loop.h -- the service loop of `scopa serve` (loop.c).
 */
#ifndef SCOPA_SERVER_LOOP_H
#define SCOPA_SERVER_LOOP_H

#include "server.h"

/* Runs until srv->stop: 0, or 1 when a write could not be recorded. */
int loop_run(server *srv);

#endif
