/*
 * rating.c -- ratings at a table: which games are rated (people of
 * distinct accounts in every seat), what each side scored against each
 * other side (an abandoned side lost), and the job that moves the
 * ratings on the writer's thread at the end (writer.c; the arithmetic is
 * glicko.c).
 */
#include "rating.h"
#include "glicko.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Ratings (Glicko-2), for games between people only                   */
/* ------------------------------------------------------------------ */

/* Whether a side was abandoned: a bot was playing for one of its
 * people at the end. */
static int abandoned(const table *t, int side) {
  int sides = scopa_rules_sides(&t->rules), gone = 0;
  for (int i = side; i < t->nseats; i += sides)
    gone |= t->seat[i].taken_over || t->seat[i].nconns == 0;
  return gone;
}

static double result_of(const table *t, int i, int j, int winner) {
  int a = abandoned(t, i), b = abandoned(t, j);
  if (a != b) /* abandoned past the timeout: lost */
    return a ? 0.0 : 1.0;
  if (winner == i)
    return 1.0;
  if (winner == j)
    return 0.0;
  return 0.5;
}

int table_abandoned(const table *t) {
  int sides = scopa_rules_sides(&t->rules), mask = 0;
  for (int i = 0; i < t->nseats; i++) /* people only: a bot never left */
    if (t->seat[i].s.kind == STORE_PERSON &&
        (t->seat[i].taken_over || t->seat[i].nconns == 0))
      mask |= 1 << (i % sides);
  return mask;
}

int table_rated(const table *t) {
  if (t->unrated)
    return 0; /* an unrated tournament's */
  for (int i = 0; i < t->nseats; i++) {
    const store_seat *s = &t->seat[i].s;
    if (s->kind != STORE_PERSON || s->account <= 0)
      return 0; /* a bot or a guest at the table: unrated */
    for (int k = 0; k < i; k++)
      if (t->seat[k].s.account == s->account)
        return 0; /* one account in two seats */
  }
  return 1;
}

/* The ratings move on the writer's thread, read and written in one
 * transaction (writer.c), for a game of accounts only, each in one seat
 * (CONTRACTS.md "Accounts, sessions and origins"). */
void rating_game_over(server *srv, table *t, int winner) {
  if (t->rated)
    return;
  t->rated = 1; /* once, whether it was rated or not */
  if (!table_rated(t))
    return;
  rate_job job;
  memset(&job, 0, sizeof job);
  snprintf(job.pool, sizeof job.pool, "%s", rating_pool(t->nseats));
  snprintf(job.code, sizeof job.code, "%s", t->code);
  job.sides = scopa_rules_sides(&t->rules);
  job.nseats = t->nseats;
  for (int i = 0; i < t->nseats; i++) {
    job.account[i] = t->seat[i].s.account;
    snprintf(job.name[i], sizeof job.name[i], "%s", t->seat[i].s.name);
  }
  for (int s = 0; s < job.sides; s++) {
    job.abandoned[s] = abandoned(t, s);
    for (int o = 0; o < job.sides; o++)
      job.score[s][o] = result_of(t, s, o, winner);
  }
  writer_rate(srv->w, t->id, &job, srv->node, t->epoch);
}
