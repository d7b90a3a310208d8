/*
 * pairing.h -- who plays whom (pairing.c, pure): the seeks waiting for
 * the same game and clock grouped into tables, closest ratings first,
 * the range of ratings a seek accepts widening while it waits
 * (docs/serve.md "Play now").  No store, no clock of its own, no
 * threads: the pairer (pairer.h) and the unit tests call it.
 */
#ifndef SCOPA_SERVER_PAIRING_H
#define SCOPA_SERVER_PAIRING_H

#include <stdint.h>

/* A seek accepts a rating within PAIRING_RANGE + PAIRING_WIDEN per
 * second waited of its own, and both seeks of a pair must accept. */
#define PAIRING_RANGE 100.0
#define PAIRING_WIDEN 20.0

typedef struct pairing_seek {
  const char *key;   /* only equal keys play together                */
  int players;       /* the table's seats                            */
  double rating;     /* 1500 for a guest                             */
  int64_t since_ms;  /* when it began to wait                        */
  long long account; /* 0 a guest; one account never twice at a table */
} pairing_seek;

/* The ratings seek s accepts at now_ms: |rating - s's| at most this. */
double pairing_range(const pairing_seek *s, int64_t now_ms);

/* Groups s[0, n) into tables: table_of[i] is the number of i's table
 * (0, 1, ...) or -1 when it waits on; returns the number of tables.
 * The oldest seek is seated first, with the players - 1 others of its
 * key closest to its rating that it and they accept; a seek with no
 * such company waits, and the next oldest is tried. */
int pairing_group(const pairing_seek *s, int n, int64_t now_ms, int *table_of);

#endif
