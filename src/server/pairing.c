/*
 * pairing.c -- grouping the seeks into tables (pairing.h).  Quadratic in
 * the seeks waiting, which a pass reads at most PAIRER_READ of
 * (pairer.h): well under a millisecond at that size.
 */
#include "pairing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLAYERS 6

double pairing_range(const pairing_seek *s, int64_t now_ms) {
  double waited = (double)(now_ms - s->since_ms) / 1000.0;
  return PAIRING_RANGE + PAIRING_WIDEN * (waited > 0 ? waited : 0);
}

static int older(const pairing_seek *a, const pairing_seek *b) {
  return a->since_ms < b->since_ms;
}

/* Whether j may join the table of `seat[0, k)`: same key and size, both
 * ranges, and no account of the table's again. */
static int fits(const pairing_seek *s, const int *seat, int k, int j,
                int64_t now_ms) {
  const pairing_seek *a = &s[seat[0]], *b = &s[j];
  if (strcmp(a->key, b->key) != 0 || a->players != b->players)
    return 0;
  double gap = fabs(a->rating - b->rating);
  if (gap > pairing_range(a, now_ms) || gap > pairing_range(b, now_ms))
    return 0;
  for (int i = 0; i < k; i++)
    if (b->account && s[seat[i]].account == b->account)
      return 0;
  return 1;
}

int pairing_group(const pairing_seek *s, int n, int64_t now_ms, int *table_of) {
  int tables = 0;
  for (int i = 0; i < n; i++)
    table_of[i] = -1;
  /* the seeks by age, oldest first (n is small: a selection each time) */
  char *done = calloc((size_t)(n > 0 ? n : 1), 1);
  if (!done)
    return 0;
  for (;;) {
    int first = -1;
    for (int i = 0; i < n; i++)
      if (!done[i] && table_of[i] < 0 && (first < 0 || older(&s[i], &s[first])))
        first = i;
    if (first < 0)
      break;
    done[first] = 1;
    int players = s[first].players;
    if (players < 2 || players > MAX_PLAYERS)
      continue;
    int seat[MAX_PLAYERS] = {first};
    int k = 1;
    while (k < players) { /* the closest rating that fits, then the next */
      int best = -1;
      double gap = 0;
      for (int j = 0; j < n; j++) {
        if (j == first || table_of[j] >= 0 || !fits(s, seat, k, j, now_ms))
          continue;
        int taken = 0;
        for (int t = 1; t < k; t++)
          taken |= seat[t] == j;
        double g = fabs(s[j].rating - s[first].rating);
        if (!taken &&
            (best < 0 || g < gap || (g == gap && older(&s[j], &s[best])))) {
          best = j;
          gap = g;
        }
      }
      if (best < 0)
        break;
      seat[k++] = best;
    }
    if (k < players)
      continue; /* not enough company yet: it waits */
    for (int t = 0; t < k; t++)
      table_of[seat[t]] = tables;
    tables++;
  }
  free(done);
  return tables;
}
