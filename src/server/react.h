/*
 * react.h -- reactions (react.c): a fixed phrase, by id, to the people
 * seated, rate-limited per seat.
 */
#ifndef SCOPA_SERVER_REACT_H
#define SCOPA_SERVER_REACT_H

#include "table.h"

int react_send(conn *c, const proto_msg *msg);

#endif
