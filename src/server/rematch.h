/*
 * rematch.h -- play again with the same people and rules (rematch.c).
 */
#ifndef SCOPA_SERVER_REMATCH_H
#define SCOPA_SERVER_REMATCH_H

#include "table.h"

int rematch_answer(conn *c, const proto_msg *msg);

#endif
