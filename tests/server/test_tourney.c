/*
 * test_tourney.c -- the tournaments' formats (tourney_rules.c) on cases
 * worked by hand, and on random tournaments with the invariants checked
 * at every round (everyone paired once, no repeats, no second bye, the
 * seats' rule, points and Buchholz that add up, the same pairing
 * whatever the input's order, duplicate scores that sum to zero per
 * group of the same cards).  Names: tourney-swiss-N,
 * tourney-arena-N, tourney-dup-N, tourney-sim-N; the rules are
 * docs/serve.md "Tournaments: the formats' rules".
 */
#include "../../src/server/tourney_rules.h"
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RULES "docs/serve.md Tournaments: the formats' rules"

/* xorshift64*: the same tournaments on every run */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (unsigned)((rng_state * 2685821657736338717ull) >> 33) % n;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

typedef struct games {
  tr_game *g;
  int n, cap;
} games;

static void add(games *s, int round, long long a, long long b, int result) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->g = realloc(s->g, sizeof *s->g * (size_t)s->cap);
    if (!s->g)
      abort();
  }
  s->g[s->n++] = (tr_game){round, a, b, result};
}

static const tr_standing *find_st(const tr_standing *st, int n, long long id) {
  for (int i = 0; i < n; i++)
    if (st[i].id == id)
      return &st[i];
  return NULL;
}

/* Whether {x, y} is one of the pairs (either seat order). */
static int has_pair(const tr_pair *p, int np, long long x, long long y) {
  for (int i = 0; i < np; i++)
    if ((p[i].a == x && p[i].b == y) || (p[i].a == y && p[i].b == x))
      return 1;
  return 0;
}

/* ---- Swiss, by hand ------------------------------------------------ */

static void test_swiss_standings(void) {
  tr_entry e[4] = {{1, 1600, 1}, {2, 1550, 1}, {3, 1500, 1}, {4, 1450, 1}};
  tr_standing st[4];
  TEST("tourney-swiss-1", RULES ", Swiss tie-breaks");
  /* tourney-swiss-1: four entries, three rounds, all against all:
   *   R1  1 beat 2      3 drew 4
   *   R2  1 drew 3      2 beat 4
   *   R3  4 lost to 1 (1 at seat 1)   2 beat 3
   * Points: 1 = 2.5, 2 = 2, 3 = 1, 4 = 0.5 (half points 5, 4, 2, 1).
   * Buchholz (everyone met everyone: 6 points in all less one's own):
   *   1: 2 + 1 + 0.5 = 3.5   2: 2.5 + 0.5 + 1 = 4
   *   3: 0.5 + 2.5 + 2 = 5   4: 1 + 2 + 2.5 = 5.5   (halves 7, 8, 10, 11)
   * Sonneborn-Berger (beaten opponents' scores + half the drawn ones'):
   *   1: beat 2 (2) and 4 (0.5), drew 3 (1): 2 + 0.5 + 0.5 = 3
   *   2: beat 4 (0.5) and 3 (1): 1.5
   *   3: drew 4 (0.5) and 1 (2.5): 0.25 + 1.25 = 1.5
   *   4: drew 3 (1): 0.5                 (quarters 12, 6, 6, 2) */
  tr_game g[] = {{1, 1, 2, TR_A_WON},  {1, 3, 4, TR_DRAW},  {2, 1, 3, TR_DRAW},
                 {2, 2, 4, TR_A_WON},  {3, 4, 1, TR_B_WON}, {3, 2, 3, TR_A_WON},
                 {4, 1, 2, TR_PENDING}};
  CHECK_EQ_INT(tr_swiss_standings(e, 4, g, 7, st), 4);
  const int p2[4] = {5, 4, 2, 1}, bh2[4] = {7, 8, 10, 11};
  const int sb4[4] = {12, 6, 6, 2}, wins[4] = {2, 2, 0, 0};
  for (int i = 0; i < 4; i++) {
    CHECK_EQ_INT(st[i].id, i + 1);
    CHECK_EQ_INT(st[i].rank, i + 1);
    CHECK_EQ_INT(st[i].points2, p2[i]);
    CHECK_EQ_INT(st[i].buchholz2, bh2[i]);
    CHECK_EQ_INT(st[i].sb4, sb4[i]);
    CHECK_EQ_INT(st[i].games, 3); /* the pending game is not one */
    CHECK_EQ_INT(st[i].wins, wins[i]);
  }

  TEST("tourney-swiss-2", RULES ", Swiss tie-breaks: shared ranks");
  /* tourney-swiss-2: 1 beat 2, 3 drew 4, equal ratings.  3 and 4: 0.5
   * each, Buchholz 0.5 each (halves 1), SB half of 0.5 (quarters 1):
   * equal on all three, one rank: 1, 2, 2, 4; id orders them. */
  tr_entry eq[4] = {{1, 1500, 1}, {2, 1500, 1}, {3, 1500, 1}, {4, 1500, 1}};
  tr_game g2[] = {{1, 1, 2, TR_A_WON}, {1, 3, 4, TR_DRAW}};
  tr_standing s2[4];
  tr_swiss_standings(eq, 4, g2, 2, s2);
  CHECK(s2[0].id == 1 && s2[1].id == 3 && s2[2].id == 4 && s2[3].id == 2);
  CHECK(s2[0].rank == 1 && s2[1].rank == 2 && s2[2].rank == 2 &&
        s2[3].rank == 4);
  CHECK(s2[1].buchholz2 == 1 && s2[1].sb4 == 1 && s2[3].buchholz2 == 2);
  /* 1 beat 2, 3 beat 4: 1 and 3 equal (Buchholz 0, SB 0), 2 and 4 equal
   * (Buchholz 1 point: halves 2): 1, 1, 3, 3. */
  tr_game g3[] = {{1, 1, 2, TR_A_WON}, {1, 4, 3, TR_B_WON}};
  tr_swiss_standings(eq, 4, g3, 2, s2);
  CHECK(s2[0].id == 1 && s2[1].id == 3 && s2[2].id == 2 && s2[3].id == 4);
  CHECK(s2[0].rank == 1 && s2[1].rank == 1 && s2[2].rank == 3 &&
        s2[3].rank == 3);
  CHECK(s2[2].buchholz2 == 2 && s2[3].buchholz2 == 2);
  /* a double forfeit is a game lost by both; a bye is 1 point, no game,
   * and nothing for Buchholz; a withdrawn entry stays in the standings */
  tr_entry e3[3] = {{1, 1500, 1}, {2, 1500, 0}, {3, 1400, 1}};
  tr_game g4[] = {{1, 1, 2, TR_BOTH_LOST}, {1, 3, 0, TR_BYE}};
  tr_standing s3[3];
  CHECK_EQ_INT(tr_swiss_standings(e3, 3, g4, 2, s3), 3);
  CHECK(s3[0].id == 3 && s3[0].points2 == 2 && s3[0].games == 0 &&
        s3[0].wins == 0 && s3[0].buchholz2 == 0);
  CHECK(s3[1].id == 1 && s3[1].points2 == 0 && s3[1].games == 1);
  CHECK(s3[2].id == 2 && s3[2].games == 1 && s3[1].rank == 2 &&
        s3[2].rank == 2);
}

static void test_swiss_pairing(void) {
  tr_pair p[8];
  TEST("tourney-swiss-3", RULES ", Swiss pairing");
  /* tourney-swiss-3: round 1 of eight, ratings 2000, 1990, ...: 1-2,
   * 3-4, 5-6, 7-8 top down, the higher-ranked first (an odd round, and
   * nobody has sat first yet); a withdrawn entry is not paired. */
  tr_entry e[9];
  for (int i = 0; i < 9; i++)
    e[i] = (tr_entry){i + 1, 2000 - 10 * i, i < 8};
  CHECK_EQ_INT(tr_swiss_pair(e, 9, NULL, 0, p, 8), 4);
  for (int i = 0; i < 4; i++)
    CHECK(p[i].a == 2 * i + 1 && p[i].b == 2 * i + 2);
  CHECK_EQ_INT(tr_swiss_pair(e, 9, NULL, 0, p, 3), -1); /* cap too small */

  TEST("tourney-swiss-4", RULES ", Swiss pairing: backtracking");
  /* tourney-swiss-4: ratings 2000 - 10 x id, after two rounds
   *   R1  1 beat 2   3 beat 4   5 beat 6
   *   R2  1 beat 3   2 beat 5   4 drew 6
   * the order is 1 (2 points); 2, 3, 5 (1); 4, 6 (0.5).  Greedy: 1 has
   * met 2 and 3, takes 5; 2 has met 1 and 5, takes 3; left 4 and 6,
   * who met in R2.  Backtracking: 2 takes 4 instead, and 3-6 are new:
   * 1-5, 2-4, 3-6.  Seats in round 3 (odd): 5 sat first once, 1 twice:
   * 5 first; 2 and 4 once each: the higher-ranked 2; 6 never: 6. */
  tr_entry e6[6];
  for (int i = 0; i < 6; i++)
    e6[i] = (tr_entry){i + 1, 2000 - 10 * (i + 1), 1};
  tr_game g[] = {{1, 1, 2, TR_A_WON}, {1, 3, 4, TR_A_WON}, {1, 5, 6, TR_A_WON},
                 {2, 1, 3, TR_A_WON}, {2, 2, 5, TR_A_WON}, {2, 4, 6, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e6, 6, g, 6, p, 4), 3);
  CHECK(p[0].a == 5 && p[0].b == 1);
  CHECK(p[1].a == 2 && p[1].b == 4);
  CHECK(p[2].a == 6 && p[2].b == 3);

  TEST("tourney-swiss-5", RULES ", Swiss pairing: repeats when forced");
  /* tourney-swiss-5: four entries who have all met (a round robin done):
   * round 4 repeats two pairs, and everyone is still paired once.  If
   * only 1 has met all three others, one repeat suffices: 1-2, 3-4. */
  tr_entry e4[4];
  for (int i = 0; i < 4; i++)
    e4[i] = (tr_entry){i + 1, 2000 - 10 * i, 1};
  tr_game rr[] = {{1, 1, 2, TR_DRAW}, {1, 3, 4, TR_DRAW}, {2, 1, 3, TR_DRAW},
                  {2, 2, 4, TR_DRAW}, {3, 1, 4, TR_DRAW}, {3, 2, 3, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e4, 4, rr, 6, p, 3), 2);
  CHECK(has_pair(p, 2, 1, 2) && has_pair(p, 2, 3, 4));
  tr_game one[] = {{1, 1, 2, TR_DRAW}, {2, 1, 3, TR_DRAW}, {3, 1, 4, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e4, 4, one, 3, p, 3), 2);
  CHECK(has_pair(p, 2, 1, 2) && has_pair(p, 2, 3, 4));
  tr_game two[] = {{1, 1, 2, TR_DRAW}, {1, 3, 4, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e4, 4, two, 2, p, 3), 2);
  CHECK(has_pair(p, 2, 1, 3) && has_pair(p, 2, 2, 4));
  /* a pending game is a meeting all the same: no 3-4 while it runs */
  tr_game run[] = {{1, 1, 2, TR_DRAW}, {1, 3, 4, TR_PENDING}};
  CHECK_EQ_INT(tr_swiss_pair(e4, 4, run, 2, p, 3), 2);
  CHECK(!has_pair(p, 2, 3, 4) && !has_pair(p, 2, 1, 2));

  TEST("tourney-swiss-6", RULES ", Swiss pairing: seats");
  /* tourney-swiss-6: two entries can only replay: whoever sat first
   * less often sits first (2 in round 2), and equals in round 3 (odd)
   * give seat 0 to the higher-ranked, in round 4 (even) to the lower. */
  tr_entry e2[2] = {{1, 1600, 1}, {2, 1500, 1}};
  tr_game s1[] = {{1, 1, 2, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e2, 2, s1, 1, p, 2), 1);
  CHECK(p[0].a == 2 && p[0].b == 1);
  tr_game s2[] = {{1, 1, 2, TR_DRAW}, {2, 2, 1, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e2, 2, s2, 2, p, 2), 1);
  CHECK(p[0].a == 1 && p[0].b == 2);
  /* round 3 was two byes (made up, to reach an even round with equal
   * seats) */
  tr_game s3[] = {{1, 1, 2, TR_DRAW},
                  {2, 2, 1, TR_DRAW},
                  {3, 1, 0, TR_BYE},
                  {3, 2, 0, TR_BYE}};
  CHECK_EQ_INT(tr_swiss_pair(e2, 2, s3, 4, p, 2), 1); /* round 4 */
  CHECK(p[0].a == 2 && p[0].b == 1);
  /* a pending game counts for the seats (it was paired) */
  tr_game s4[] = {{1, 1, 2, TR_PENDING}};
  CHECK_EQ_INT(tr_swiss_pair(e2, 2, s4, 1, p, 2), 1);
  CHECK(p[0].a == 2 && p[0].b == 1);
}

static void test_swiss_byes(void) {
  tr_pair p[4];
  TEST("tourney-swiss-7", RULES ", Swiss byes (FIDE C.04.1)");
  /* tourney-swiss-7: three entries, three rounds: the bye goes to the
   * lowest-ranked without one, never twice: 3, then 2 (1 won R1, so the
   * order is 1, 3, 2), then 1; and the three play each other once. */
  tr_entry e[3] = {{1, 1600, 1}, {2, 1500, 1}, {3, 1400, 1}};
  CHECK_EQ_INT(tr_swiss_pair(e, 3, NULL, 0, p, 2), 2);
  CHECK(p[0].a == 1 && p[0].b == 2 && p[1].a == 3 && p[1].b == 0);
  CHECK_EQ_INT(tr_swiss_pair(e, 3, NULL, 0, p, 1), -1);
  tr_game g[] = {
      {1, 1, 2, TR_A_WON}, {1, 3, 0, TR_BYE}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  CHECK_EQ_INT(tr_swiss_pair(e, 3, g, 2, p, 2), 2);
  /* 3 has never sat first, 1 once: 3 first */
  CHECK(p[0].a == 3 && p[0].b == 1 && p[1].a == 2 && p[1].b == 0);
  g[2] = (tr_game){2, 3, 1, TR_DRAW};
  g[3] = (tr_game){2, 2, 0, TR_BYE};
  CHECK_EQ_INT(tr_swiss_pair(e, 3, g, 4, p, 2), 2);
  CHECK(has_pair(p, 1, 2, 3) && p[1].a == 1 && p[1].b == 0);

  TEST("tourney-swiss-8", RULES ", Swiss byes: not into a repeat");
  /* tourney-swiss-8: 1 and 3 drew; 2 came late (0 points).  The order
   * is 1, 3, 2: the bye for 2 would leave 1-3 again, so it moves up to
   * 3, and 1-2 is new. */
  tr_game late[] = {{1, 1, 3, TR_DRAW}};
  CHECK_EQ_INT(tr_swiss_pair(e, 3, late, 1, p, 2), 2);
  CHECK(has_pair(p, 1, 1, 2) && p[1].a == 3 && p[1].b == 0);
  /* all have had a bye: the lowest-ranked has the second */
  tr_game all[] = {{1, 1, 0, TR_BYE}, {2, 2, 0, TR_BYE}, {3, 3, 0, TR_BYE}};
  CHECK_EQ_INT(tr_swiss_pair(e, 3, all, 3, p, 2), 2);
  CHECK(p[1].a == 3 && p[1].b == 0);
  /* a lone entry has the bye */
  CHECK_EQ_INT(tr_swiss_pair(e, 1, NULL, 0, p, 1), 1);
  CHECK(p[0].a == 1 && p[0].b == 0);
  CHECK_EQ_INT(tr_swiss_pair(e, 0, NULL, 0, p, 0), 0);
}

/* ---- Swiss, at random ---------------------------------------------- */

/* The invariants of one round's pairing of e against the games so far
 * (ids are 1..n, so an id's index is id - 1). */
static void check_round(const tr_entry *e, int n, const games *s,
                        const tr_pair *p, int np, int *repeats) {
  int *seen = calloc((size_t)n, sizeof *seen),
      *seat0 = calloc((size_t)n, sizeof *seat0);
  int *byes = calloc((size_t)n, sizeof *byes), m = 0, any_without = 0;
  unsigned char *met = calloc((size_t)n * (size_t)n, 1);
  for (int k = 0; k < s->n; k++) {
    const tr_game *g = &s->g[k];
    if (g->b == 0) {
      byes[g->a - 1]++;
      continue;
    }
    seat0[g->a - 1]++;
    met[(g->a - 1) * n + (g->b - 1)] = met[(g->b - 1) * n + (g->a - 1)] = 1;
  }
  for (int i = 0; i < n; i++)
    if (e[i].active) {
      m++;
      any_without |= byes[i] == 0;
    }
  CHECK_EQ_INT(np, m / 2 + m % 2);
  for (int k = 0; k < np; k++) {
    long long a = p[k].a, b = p[k].b;
    CHECK(a >= 1 && a <= n && b >= 0 && b <= n && a != b);
    if (a < 1 || a > n || b < 0 || b > n || a == b)
      continue;
    CHECK(e[a - 1].active && (b == 0 || e[b - 1].active));
    seen[a - 1]++;
    if (b == 0) { /* the bye: last, odd counts only, never a second */
      CHECK(k == np - 1 && m % 2 == 1);
      CHECK(!any_without || byes[a - 1] == 0);
      continue;
    }
    seen[b - 1]++;
    *repeats += met[(a - 1) * n + (b - 1)];
    CHECK(seat0[a - 1] <= seat0[b - 1]); /* fewer first seats sits first */
  }
  for (int i = 0; i < n; i++)
    CHECK_EQ_INT(seen[i], e[i].active ? 1 : 0);
  free(seen);
  free(seat0);
  free(byes);
  free(met);
}

/* The standings' invariants: points and games add up, Buchholz sums to
 * the sum of each entry's points times its games, the order and the
 * shared ranks follow (points, Buchholz, SB). */
static void check_standings(const tr_entry *e, int n, const games *s) {
  tr_standing *st = malloc(sizeof *st * (size_t)n);
  CHECK_EQ_INT(tr_swiss_standings(e, n, s->g, s->n, st), n);
  long long p2 = 0, want_p2 = 0, gm = 0, want_gm = 0, bh = 0, want_bh = 0;
  for (int k = 0; k < s->n; k++) {
    int r = s->g[k].result;
    want_p2 += r == TR_BOTH_LOST ? 0 : 2;
    want_gm += s->g[k].b ? 2 : 0;
  }
  for (int i = 0; i < n; i++) {
    p2 += st[i].points2;
    gm += st[i].games;
    bh += st[i].buchholz2;
    want_bh += (long long)st[i].points2 * st[i].games;
    if (i == 0) {
      CHECK_EQ_INT(st[i].rank, 1);
      continue;
    }
    const tr_standing *x = &st[i - 1], *y = &st[i];
    int tied = x->points2 == y->points2 && x->buchholz2 == y->buchholz2 &&
               x->sb4 == y->sb4;
    CHECK(x->points2 > y->points2 ||
          (x->points2 == y->points2 &&
           (x->buchholz2 > y->buchholz2 ||
            (x->buchholz2 == y->buchholz2 && x->sb4 >= y->sb4))));
    CHECK_EQ_INT(y->rank, tied ? x->rank : i + 1);
  }
  CHECK_EQ_INT(p2, want_p2);
  CHECK_EQ_INT(gm, want_gm);
  CHECK_EQ_INT(bh, want_bh);
  (void)e;
  free(st);
}

static int random_result(void) {
  unsigned r = rnd(100);
  return r < 42   ? TR_A_WON
         : r < 84 ? TR_B_WON
         : r < 97 ? TR_DRAW
                  : TR_BOTH_LOST;
}

/* The same pairing from the entries and the games in another order (the
 * store promises none): reversed entries, shuffled games. */
static void check_order_free(const tr_entry *e, int n, const games *s,
                             const tr_pair *p, int np) {
  tr_entry *re = malloc(sizeof *re * (size_t)n);
  tr_game *sg = malloc(sizeof *sg * (size_t)(s->n > 0 ? s->n : 1));
  tr_pair *q = malloc(sizeof *q * (size_t)(n / 2 + 1));
  for (int i = 0; i < n; i++)
    re[i] = e[n - 1 - i];
  if (s->n > 0)
    memcpy(sg, s->g, sizeof *sg * (size_t)s->n);
  for (int i = s->n - 1; i > 0; i--) {
    int j = (int)rnd((unsigned)i + 1);
    tr_game t = sg[i];
    sg[i] = sg[j];
    sg[j] = t;
  }
  CHECK_EQ_INT(tr_swiss_pair(re, n, sg, s->n, q, n / 2 + 1), np);
  CHECK(memcmp(p, q, sizeof *p * (size_t)np) == 0);
  free(re);
  free(sg);
  free(q);
}

/* Plays `rounds` Swiss rounds of n entries with random results, one
 * entry withdrawing every `withdraw` rounds (0: none), checking every
 * round; returns the slowest pairing in ms, *repeats the repeats made,
 * and the games in *out. */
static double swiss_sim(int n, int rounds, int withdraw, int *repeats,
                        games *out) {
  tr_entry *e = malloc(sizeof *e * (size_t)n);
  tr_pair *p = malloc(sizeof *p * (size_t)(n / 2 + 1));
  double worst = 0;
  for (int i = 0; i < n; i++)
    e[i] = (tr_entry){i + 1, 1200 + rnd(1000), 1};
  *repeats = 0;
  for (int r = 1; r <= rounds; r++) {
    if (withdraw && r % withdraw == 0)
      e[rnd((unsigned)n)].active = 0;
    double t0 = now_ms();
    int np = tr_swiss_pair(e, n, out->g, out->n, p, n / 2 + 1);
    double ms = now_ms() - t0;
    worst = ms > worst ? ms : worst;
    check_round(e, n, out, p, np, repeats);
    check_order_free(e, n, out, p, np);
    for (int k = 0; k < np; k++)
      add(out, r, p[k].a, p[k].b, p[k].b ? random_result() : TR_BYE);
    check_standings(e, n, out);
  }
  free(e);
  free(p);
  return worst;
}

static void test_swiss_sim(void) {
  int repeats;
  games s = {0};
  TEST("tourney-sim-1", RULES ", Swiss: 64 entries, 15 rounds");
  /* tourney-sim-1: 64 entries, 15 rounds, one withdrawing every third
   * round (odd counts: byes): every invariant at every round, and no
   * repeat (64 entries have room for 15 rounds without one). */
  swiss_sim(64, 15, 3, &repeats, &s);
  CHECK_EQ_INT(repeats, 0);
  s.n = 0;
  TEST("tourney-sim-2", RULES ", Swiss: 7 entries, 7 rounds");
  /* tourney-sim-2: 7 entries, 7 rounds: each entry has one bye and
   * plays the 6 others; repeats only once a round robin is used up
   * (then the fewest the search finds). */
  swiss_sim(7, 7, 0, &repeats, &s);
  int byes[7] = {0};
  for (int k = 0; k < s.n; k++)
    if (s.g[k].b == 0)
      byes[s.g[k].a - 1]++;
  for (int i = 0; i < 7; i++)
    CHECK_EQ_INT(byes[i], 1);
  printf("tourney-sim-2: 7 entries x 7 rounds: %d repeats\n", repeats);
  s.n = 0;
  TEST("tourney-swiss-9", RULES ", Swiss: 256 entries, 9 rounds, timed");
  /* tourney-swiss-9: 256 entries, 9 rounds: no repeat in any round, and
   * each pairing well under the 50 ms budgeted (a sanitizer build). */
  double t0 = now_ms();
  double worst = swiss_sim(256, 9, 0, &repeats, &s);
  double all = now_ms() - t0;
  CHECK_EQ_INT(repeats, 0);
  CHECK(worst < 50);
  printf("tourney-swiss-9: 256 x 9 rounds: slowest pairing %.3f ms "
         "(%.1f ms with the checks)\n",
         worst, all);
  free(s.g);

  TEST("tourney-swiss-10", RULES ", Swiss: a hopeless search is cut short");
  /* tourney-swiss-10: 256 entries, the lowest-ranked has met all the
   * others: no repeat-free pairing exists, and the search for one only
   * finds out at the bottom of the board, every time.  The step budget
   * ends it; the next search allows one repeat and finds it at once. */
  enum { M = 256 };
  tr_entry e[M];
  tr_pair p[M / 2 + 1];
  games h = {0};
  for (int i = 0; i < M; i++)
    e[i] = (tr_entry){i + 1, 2000 - i, 1};
  for (int i = 0; i < M - 1; i++)
    add(&h, i + 1, i + 1, M, TR_A_WON); /* so it ranks last */
  t0 = now_ms();
  int np = tr_swiss_pair(e, M, h.g, h.n, p, M / 2 + 1);
  double ms = now_ms() - t0;
  repeats = 0;
  check_round(e, M, &h, p, np, &repeats);
  CHECK_EQ_INT(repeats, 1);
  CHECK(ms < 1000);
  printf("tourney-swiss-10: hopeless 256: %.1f ms, %d repeat\n", ms, repeats);
  free(h.g);
}

/* ---- arena ----------------------------------------------------------- */

static void test_arena(void) {
  tr_entry e[6];
  for (int i = 0; i < 6; i++)
    e[i] = (tr_entry){i + 1, 1500, 1};
  tr_standing st[6];
  TEST("tourney-arena-1", RULES ", arena: streaks");
  /* tourney-arena-1: 1 wins, wins, wins (the third after two in a row:
   * 4), loses, wins: 2 + 2 + 4 + 0 + 2 = 10 points, 20 in points2; its
   * streak now 1.  The array is out of order: `round` is what counts. */
  tr_game g[] = {{5, 1, 6, TR_A_WON}, {2, 3, 1, TR_B_WON},
                 {4, 5, 1, TR_A_WON}, {1, 1, 2, TR_A_WON},
                 {3, 1, 4, TR_A_WON}, {6, 2, 3, TR_PENDING}};
  CHECK_EQ_INT(tr_arena_standings(e, 6, g, 6, st), 6);
  const tr_standing *one = find_st(st, 6, 1), *five = find_st(st, 6, 5);
  CHECK(one && one->points2 == 20 && one->wins == 4 && one->games == 5 &&
        one->streak == 1 && one->rank == 1);
  CHECK(five && five->points2 == 4 && five->wins == 1 && five->streak == 1);
  /* five wins in a row: 2 + 2 + 4 + 4 + 4 = 16; a draw ends a streak
   * (1 point) and the next win is 2 again: W W W D W = 2+2+4+1+2 = 11 */
  tr_game w[] = {{1, 1, 2, TR_A_WON},
                 {2, 1, 3, TR_A_WON},
                 {3, 1, 4, TR_A_WON},
                 {4, 1, 5, TR_A_WON},
                 {5, 1, 6, TR_A_WON}};
  tr_arena_standings(e, 6, w, 5, st);
  CHECK(st[0].id == 1 && st[0].points2 == 32 && st[0].streak == 5);
  w[3].result = TR_DRAW;
  tr_arena_standings(e, 6, w, 5, st);
  CHECK(st[0].id == 1 && st[0].points2 == 22 && st[0].streak == 1);

  TEST("tourney-arena-2", RULES ", arena: order and shared ranks");
  /* tourney-arena-2: a double forfeit is a loss for both and ends both
   * streaks; order by points, then wins, then rating, then id:
   *   1: W (2)   2: L, W (2)   3: L, double forfeit (0)   4: D, D (2)
   *   5: double forfeit (0)   6: D, D (2)
   * 1 and 2 have 2 points and 1 win: rank 1, 1 (id orders them); 4 and 6
   * 2 points and no win: 3, 3; then 3 and 5: 5, 5. */
  e[5].rating = 1600; /* 6 above 4 on rating, still the same rank */
  tr_game g2[] = {{1, 1, 2, TR_A_WON},
                  {2, 2, 3, TR_A_WON},
                  {3, 4, 6, TR_DRAW},
                  {4, 6, 4, TR_DRAW},
                  {5, 5, 3, TR_BOTH_LOST}};
  tr_arena_standings(e, 6, g2, 5, st);
  const long long order[6] = {1, 2, 6, 4, 3, 5};
  const int rank[6] = {1, 1, 3, 3, 5, 5};
  for (int i = 0; i < 6; i++) {
    CHECK_EQ_INT(st[i].id, order[i]);
    CHECK_EQ_INT(st[i].rank, rank[i]);
  }
  CHECK(find_st(st, 6, 3)->games == 2 && find_st(st, 6, 5)->games == 1);
  e[5].rating = 1500;

  TEST("tourney-arena-3", RULES ", arena: pairing");
  /* tourney-arena-3: after 1 beat 2 (1 at seat 0) and 3 beat 4, the
   * free 1, 2, 3, 4, ordered by points: 1, 3 (4 points2 each; id), 2, 4.
   * 1-3 are adjacent and new: paired, 3 first (never sat first; 1 has).
   * Then 2-4.  If 1, 2 and 5 are free: 1's neighbour 2 is its last
   * opponent and 5 is free: 1-5, and 2 waits. */
  tr_game g3[] = {{1, 1, 2, TR_A_WON}, {2, 3, 4, TR_A_WON}};
  tr_pair p[4];
  long long f4[] = {4, 2, 3, 1};
  CHECK_EQ_INT(tr_arena_pair(e, 6, g3, 2, f4, 4, p, 4), 2);
  CHECK(p[0].a == 1 && p[0].b == 3); /* both sat first once: 1 higher */
  CHECK(p[1].a == 2 && p[1].b == 4); /* neither has: the higher, 2 */
  long long f3[] = {2, 5, 1};
  CHECK_EQ_INT(tr_arena_pair(e, 6, g3, 2, f3, 3, p, 4), 1);
  CHECK(p[0].a == 5 && p[0].b == 1); /* 5 never sat first */
  /* only the last opponent free: they play again */
  long long f2[] = {2, 1};
  CHECK_EQ_INT(tr_arena_pair(e, 6, g3, 2, f2, 2, p, 4), 1);
  CHECK(p[0].a == 2 && p[0].b == 1);
  /* cap, unknown, repeated and withdrawn ids */
  CHECK_EQ_INT(tr_arena_pair(e, 6, g3, 2, f4, 4, p, 1), 1);
  e[3].active = 0;
  long long odd[] = {1, 1, 99, 4, 2, 3};
  CHECK_EQ_INT(tr_arena_pair(e, 6, g3, 2, odd, 6, p, 4), 1);
  CHECK(has_pair(p, 1, 1, 3));
}

/* ---- duplicate ------------------------------------------------------- */

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

static void test_dup(void) {
  TEST("tourney-dup-1", RULES ", duplicate: a worked example");
  /* tourney-dup-1: three tables play deal 1 of round 1.  Seat 0 made 3,
   * 1, 2: the others' means are 1.5, 2.5, 2, so the scores 1.5, -1.5, 0
   * (they sum to 0).  Seat 1 made 0, 4 at two tables: -4, 4.  A deal
   * nobody else held scores 0. */
  tr_deal d[] = {
      {1, 1, 0, 11, 3, 9}, {1, 1, 1, 12, 0, 9}, {1, 1, 0, 21, 1, 9},
      {1, 1, 1, 22, 4, 9}, {1, 1, 0, 31, 2, 9}, {1, 2, 0, 11, 5, 9},
  };
  CHECK_EQ_INT(tr_dup_score(d, 6), 0);
  CHECK(near(d[0].score, 1.5) && near(d[2].score, -1.5) && near(d[4].score, 0));
  CHECK(near(d[1].score, -4) && near(d[3].score, 4));
  CHECK(near(d[5].score, 0));
  CHECK_EQ_INT(tr_dup_score(d, 0), 0);
  /* the same id twice in a group is not its own "other" */
  tr_deal twice[] = {
      {1, 1, 0, 7, 6, 0}, {1, 1, 0, 7, 2, 0}, {1, 1, 0, 8, 1, 0}};
  tr_dup_score(twice, 3);
  CHECK(near(twice[0].score, 5) && near(twice[1].score, 1) &&
        near(twice[2].score, -3)); /* 8: 1 - (6 + 2) / 2 */

  TEST("tourney-dup-2", RULES ", duplicate: standings");
  /* tourney-dup-2: the sums 0.1 + 0.2 and 0.3 differ in the last bits
   * as doubles but are one score; wins then decide, and equal wins share
   * the rank.  11: 0.3 (1 win), 31: 0.3 (1 win), 21: 0.3 (0 wins), 12:
   * -4. */
  tr_entry e[4] = {{11, 1500, 1}, {12, 1500, 1}, {21, 1500, 1}, {31, 1700, 1}};
  tr_deal s[] = {{1, 1, 0, 11, 0, 0.1},
                 {1, 2, 0, 11, 0, 0.2},
                 {1, 1, 0, 31, 0, 0.3},
                 {1, 1, 0, 21, 0, 0.3},
                 {1, 1, 1, 12, 0, -4}};
  tr_game g[] = {{1, 11, 12, TR_A_WON},
                 {1, 21, 31, TR_B_WON},
                 {2, 11, 0, TR_BYE},
                 {2, 12, 21, TR_PENDING}};
  tr_standing st[4];
  CHECK_EQ_INT(tr_dup_standings(e, 4, s, 5, g, 4, st), 4);
  CHECK(st[0].id == 31 && st[1].id == 11 && st[2].id == 21 &&
        st[3].id == 12); /* 31 above 11 on rating */
  CHECK(st[0].rank == 1 && st[1].rank == 1 && st[2].rank == 3 &&
        st[3].rank == 4);
  CHECK(near(st[1].dup, 0.3) && near(st[3].dup, -4));
  CHECK(st[1].dup != st[0].dup); /* the case is a real one */
  CHECK(st[1].games == 1 && st[1].wins == 1 && st[2].games == 1 &&
        st[2].wins == 0 && st[0].points2 == 0);
}

/* tourney-dup-3: a Swiss of 64 entries, 12 rounds, every table playing
 * the round's 20 deals (15,360 lines, shuffled): every score against
 * the mean worked out here, and each (round, deal, seat) group's scores
 * sum to zero (all have 32 members). */
static void test_dup_sim(void) {
  TEST("tourney-dup-3", RULES ", duplicate: 64 entries x 20 deals");
  enum { N = 64, ROUNDS = 12, DEALS = 20 };
  games s = {0};
  int repeats;
  swiss_sim(N, ROUNDS, 0, &repeats, &s);
  int nd = 0;
  tr_deal *d = malloc(sizeof *d * (size_t)(s.n * DEALS * 2));
  for (int k = 0; k < s.n; k++) {
    if (s.g[k].b == 0)
      continue;
    for (int deal = 1; deal <= DEALS; deal++) {
      d[nd++] = (tr_deal){s.g[k].round, deal, 0, s.g[k].a, (int)rnd(12), 0};
      d[nd++] = (tr_deal){s.g[k].round, deal, 1, s.g[k].b, (int)rnd(12), 0};
    }
  }
  /* shuffled: the function must not lean on the order */
  for (int i = nd - 1; i > 0; i--) {
    int j = (int)rnd((unsigned)i + 1);
    tr_deal t = d[i];
    d[i] = d[j];
    d[j] = t;
  }
  double t0 = now_ms();
  CHECK_EQ_INT(tr_dup_score(d, nd), 0);
  double ms = now_ms() - t0;
  /* each group (round, deal, seat) holds one line per table, each of
   * another entry: its sum and count by key, then every line's others */
  enum { KEYS = (ROUNDS + 1) * (DEALS + 1) * 2 };
  static long long sum[KEYS];
  static int cnt[KEYS];
  static double scores[KEYS];
  for (int i = 0; i < nd; i++) {
    int k = (d[i].round * (DEALS + 1) + d[i].deal) * 2 + d[i].seat;
    sum[k] += d[i].points;
    cnt[k]++;
    scores[k] += d[i].score;
  }
  int bad = 0, groups = 0;
  for (int i = 0; i < nd; i++) {
    int k = (d[i].round * (DEALS + 1) + d[i].deal) * 2 + d[i].seat;
    double want = d[i].points - (double)(sum[k] - d[i].points) / (cnt[k] - 1);
    bad += !near(d[i].score, want);
  }
  double worst_sum = 0;
  for (int k = 0; k < KEYS; k++) {
    if (!cnt[k])
      continue;
    groups++;
    CHECK(cnt[k] == N / 2);
    worst_sum = fabs(scores[k]) > worst_sum ? fabs(scores[k]) : worst_sum;
  }
  CHECK_EQ_INT(groups, ROUNDS * DEALS * 2);
  CHECK_EQ_INT(bad, 0);
  CHECK(worst_sum < 1e-9);
  tr_entry e[N];
  for (int i = 0; i < N; i++)
    e[i] = (tr_entry){i + 1, 1500, 1};
  tr_standing st[N];
  CHECK_EQ_INT(tr_dup_standings(e, N, d, nd, s.g, s.n, st), N);
  double total = 0;
  for (int i = 0; i < N; i++) {
    total += st[i].dup;
    if (i > 0)
      CHECK(st[i - 1].dup > st[i].dup - 1e-9);
  }
  CHECK(fabs(total) < 1e-6);
  printf("tourney-dup-3: %d deal lines scored in %.3f ms\n", nd, ms);
  free(d);
  free(s.g);
}

int main(void) {
  test_swiss_standings();
  test_swiss_pairing();
  test_swiss_byes();
  test_swiss_sim();
  test_arena();
  test_dup();
  test_dup_sim();
  return test_summary("test_tourney");
}
