/*
 * tourney_rules.c -- the tournaments' formats (tourney_rules.h;
 * docs/serve.md "Tournaments: the formats' rules"): Swiss pairing and
 * standings, arena pairing and standings, duplicate scores.
 *
 * What must stay true:
 *  - Pure and deterministic: the answer depends on the entries and the
 *    games as a set, not on the order the store returned them in (games
 *    are tallied with sums, the arena's are sorted before the streaks
 *    are followed, sums of doubles are taken in a sorted order), so two
 *    nodes asking about the same tournament agree.
 *  - Bad input is never undefined behaviour: a game naming an id that is
 *    not an entry counts for the side that is one, the stranger as an
 *    opponent of score 0.
 *  - Fast at the sizes a tournament has (hundreds of entries, tens of
 *    rounds, thousands of deal lines): sorting, binary search by id, and
 *    a Swiss search with a bounded number of steps.
 *
 * Units: Swiss points in halves (a win 2), Buchholz in halves,
 * Sonneborn-Berger in quarters; arena points x 2 (a win 4, a streak's
 * win 8), as tr_standing says.
 */
#include "tourney_rules.h"

#include <stdlib.h>
#include <string.h>

/* ---- entries by id ------------------------------------------------- */

typedef struct slot {
  long long id;
  int i; /* index in the caller's entries */
} slot;

static int slot_cmp(const void *x, const void *y) {
  const slot *a = x, *b = y;
  if (a->id != b->id)
    return (a->id > b->id) - (a->id < b->id);
  return (a->i > b->i) - (a->i < b->i);
}

/* The entries sorted by id (then index), for index_find; NULL without
 * memory. */
static slot *index_new(const tr_entry *e, int n) {
  slot *ix = malloc(sizeof *ix * (size_t)(n > 0 ? n : 1));
  if (!ix)
    return NULL;
  for (int i = 0; i < n; i++)
    ix[i] = (slot){e[i].id, i};
  qsort(ix, (size_t)n, sizeof *ix, slot_cmp);
  return ix;
}

/* The index of the entry with this id (the first given, should the
 * caller repeat one), or -1 when none has it. */
static int index_find(const slot *ix, int n, long long id) {
  int lo = 0, hi = n;
  if (id <= 0)
    return -1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (ix[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ix[lo].id == id ? ix[lo].i : -1;
}

/* A bye is a game without an opponent, whatever result it carries. */
static int is_bye(const tr_game *g) { return g->b == 0 || g->result == TR_BYE; }

static int is_won(const tr_game *g, int seat) {
  return g->result == (seat == 0 ? TR_A_WON : TR_B_WON);
}

/* ---- standings: the rows, their order and shared ranks --------------- */

typedef struct row {
  tr_standing s;
  double rating;
} row;

static int cmp_int_desc(int a, int b) { return (a < b) - (a > b); }
static int cmp_double_desc(double a, double b) { return (a < b) - (a > b); }
static int cmp_id_asc(long long a, long long b) { return (a > b) - (a < b); }

/* The tie-breaks after the format's own: rating desc, then id asc, so
 * that the order is total. */
static int cmp_rating_id(const row *a, const row *b) {
  int c = cmp_double_desc(a->rating, b->rating);
  return c ? c : cmp_id_asc(a->s.id, b->s.id);
}

static int swiss_tied(const row *a, const row *b) {
  return a->s.points2 == b->s.points2 && a->s.buchholz2 == b->s.buchholz2 &&
         a->s.sb4 == b->s.sb4;
}

static int swiss_cmp(const void *x, const void *y) {
  const row *a = x, *b = y;
  int c = cmp_int_desc(a->s.points2, b->s.points2);
  if (!c)
    c = cmp_int_desc(a->s.buchholz2, b->s.buchholz2);
  if (!c)
    c = cmp_int_desc(a->s.sb4, b->s.sb4);
  return c ? c : cmp_rating_id(a, b);
}

static int arena_tied(const row *a, const row *b) {
  return a->s.points2 == b->s.points2 && a->s.wins == b->s.wins;
}

static int arena_cmp(const void *x, const void *y) {
  const row *a = x, *b = y;
  int c = cmp_int_desc(a->s.points2, b->s.points2);
  if (!c)
    c = cmp_int_desc(a->s.wins, b->s.wins);
  return c ? c : cmp_rating_id(a, b);
}

/* Duplicate sums are doubles built from means: two sums that should be
 * equal may differ in the last bits, hence the tolerance. */
#define DUP_EPS 1e-9

static int dup_equal(double a, double b) {
  double d = a - b;
  return d <= DUP_EPS && d >= -DUP_EPS;
}

static int dup_tied(const row *a, const row *b) {
  return dup_equal(a->s.dup, b->s.dup) && a->s.wins == b->s.wins;
}

static int dup_cmp(const void *x, const void *y) {
  const row *a = x, *b = y;
  int c =
      dup_equal(a->s.dup, b->s.dup) ? 0 : cmp_double_desc(a->s.dup, b->s.dup);
  if (!c)
    c = cmp_int_desc(a->s.wins, b->s.wins);
  return c ? c : cmp_rating_id(a, b);
}

/* Sorts the rows, gives equal ones (by `tied`) the rank of the first of
 * them (1, 2, 2, 4), copies them out; returns n. */
static int rows_finish(row *r, int n, int (*cmp)(const void *, const void *),
                       int (*tied)(const row *, const row *),
                       tr_standing *out) {
  qsort(r, (size_t)n, sizeof *r, cmp);
  for (int i = 0; i < n; i++) {
    r[i].s.rank = i > 0 && tied(&r[i], &r[i - 1]) ? r[i - 1].s.rank : i + 1;
    out[i] = r[i].s;
  }
  return n;
}

static row *rows_new(const tr_entry *e, int n) {
  row *r = calloc((size_t)(n > 0 ? n : 1), sizeof *r);
  if (!r)
    return NULL;
  for (int i = 0; i < n; i++) {
    r[i].s.id = e[i].id;
    r[i].rating = e[i].rating;
  }
  return r;
}

/* ---- Swiss: the tallies ----------------------------------------------- */

/* What a Swiss game gives seat 0 and seat 1, in half points. */
static void swiss_half_points(int result, int *pa, int *pb) {
  *pa = result == TR_A_WON ? 2 : result == TR_DRAW ? 1 : 0;
  *pb = result == TR_B_WON ? 2 : result == TR_DRAW ? 1 : 0;
}

/* Points, games, wins; seats first and byes (pending games included:
 * they were paired, and a pairing must not repeat them). */
typedef struct swiss_tally {
  int points2, games, wins, seat0, byes;
} swiss_tally;

static void swiss_count(const slot *ix, int n, const tr_game *g, int ng,
                        swiss_tally *t) {
  for (int k = 0; k < ng; k++) {
    int a = index_find(ix, n, g[k].a);
    int b = is_bye(&g[k]) ? -1 : index_find(ix, n, g[k].b);
    int done = g[k].result != TR_PENDING;
    if (is_bye(&g[k])) {
      if (a >= 0) {
        t[a].byes++;
        t[a].points2 += done ? 2 : 0; /* FIDE C.04.1: a bye is a win's */
      }
      continue;
    }
    int pa, pb;
    swiss_half_points(g[k].result, &pa, &pb);
    if (a >= 0) {
      t[a].seat0++;
      if (done) {
        t[a].games++;
        t[a].points2 += pa;
        t[a].wins += is_won(&g[k], 0);
      }
    }
    if (b >= 0 && done) {
      t[b].games++;
      t[b].points2 += pb;
      t[b].wins += is_won(&g[k], 1);
    }
  }
}

int tr_swiss_standings(const tr_entry *e, int n, const tr_game *g, int ng,
                       tr_standing *out) {
  slot *ix = index_new(e, n);
  swiss_tally *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
  row *r = rows_new(e, n);
  int rc = -1;
  if (!ix || !t || !r)
    goto done;
  swiss_count(ix, n, g, ng, t);
  for (int i = 0; i < n; i++) {
    r[i].s.points2 = t[i].points2;
    r[i].s.games = t[i].games;
    r[i].s.wins = t[i].wins;
  }
  /* Buchholz and Sonneborn-Berger need every opponent's final score,
   * hence a second pass.  A bye adds nothing to either (an opponent of
   * score 0); SB in quarters: a beaten opponent's half points x 2, a
   * drawn one's x 1. */
  for (int k = 0; k < ng; k++) {
    if (is_bye(&g[k]) || g[k].result == TR_PENDING)
      continue;
    int a = index_find(ix, n, g[k].a), b = index_find(ix, n, g[k].b);
    int pa = a >= 0 ? t[a].points2 : 0, pb = b >= 0 ? t[b].points2 : 0;
    int res = g[k].result;
    if (a >= 0) {
      r[a].s.buchholz2 += pb;
      r[a].s.sb4 += res == TR_A_WON ? 2 * pb : res == TR_DRAW ? pb : 0;
    }
    if (b >= 0) {
      r[b].s.buchholz2 += pa;
      r[b].s.sb4 += res == TR_B_WON ? 2 * pa : res == TR_DRAW ? pa : 0;
    }
  }
  rc = rows_finish(r, n, swiss_cmp, swiss_tied, out);
done:
  free(ix);
  free(t);
  free(r);
  return rc;
}

/* ---- Swiss: the pairing ------------------------------------------------ */

/* Steps (partners looked at) one search may take before it gives up.
 * Measured (tests/server/test_tourney.c): a repeat-free round of 256
 * entries after up to 8 rounds takes 128 to 175 steps; a hopeless search
 * spends the whole budget in about 40 ms of a sanitizer build. */
#define SWISS_BUDGET 200000L

/* The entries to pair, in rank order, and the search's state.  The
 * unpaired positions are a doubly linked list (sentinel m) so that
 * taking a pair out and putting it back on backtracking is O(1). */
typedef struct plan {
  int m;
  const int *who;    /* entry index at each position                */
  const int *opp_at; /* entry i's opponents: opp[opp_at[i], [i+1])  */
  const int *opp;    /* ... as entry indices, repeats and all       */
  int *next, *prev;  /* the unpaired positions                      */
  int *mate;         /* the position each position is paired with   */
  long budget;       /* steps left                                  */
  int repeats;       /* pairs that may still be repeats             */
} plan;

static int met(const plan *p, int x, int y) {
  for (int k = p->opp_at[x]; k < p->opp_at[x + 1]; k++)
    if (p->opp[k] == y)
      return 1;
  return 0;
}

static void take(plan *p, int i) {
  p->next[p->prev[i]] = p->next[i];
  p->prev[p->next[i]] = p->prev[i];
}

static void put_back(plan *p, int i) {
  p->next[p->prev[i]] = i;
  p->prev[p->next[i]] = i;
}

static void plan_reset(plan *p, long budget, int repeats) {
  for (int i = 0; i <= p->m; i++) {
    p->next[i] = i == p->m ? 0 : i + 1;
    p->prev[i] = i == 0 ? p->m : i - 1;
  }
  p->budget = budget;
  p->repeats = repeats;
}

/* Pairs the highest unpaired position with the first unpaired one below
 * it that it has not met (the nearest score, then rating, then id: the
 * rank order), recursing and backtracking to the next candidate when the
 * rest cannot be paired.  Pairs already met are tried only after every
 * new one, and only while p->repeats allows.  1: paired (mate[] holds
 * it); 0: impossible, or the budget ran out. */
static int solve(plan *p) {
  int i = p->next[p->m];
  if (i == p->m)
    return 1;
  take(p, i);
  for (int pass = 0; pass < 2 && (pass == 0 || p->repeats > 0); pass++) {
    for (int j = p->next[p->m]; j != p->m; j = p->next[j]) {
      if (--p->budget < 0)
        goto fail;
      int rep = met(p, p->who[i], p->who[j]);
      if (rep != pass)
        continue;
      take(p, j);
      p->repeats -= rep;
      p->mate[i] = j;
      p->mate[j] = i;
      if (solve(p))
        return 1;
      p->repeats += rep;
      put_back(p, j);
      if (p->budget < 0)
        goto fail;
    }
  }
fail:
  put_back(p, i);
  return 0;
}

/* Positions who[0, m) with one (the bye) left out, into p->who. */
static void plan_without(plan *p, const int *order, int m, int bye, int *who) {
  int k = 0;
  for (int i = 0; i < m; i++)
    if (i != bye)
      who[k++] = order[i];
  p->who = who;
  p->m = k;
}

/* The allowances of repeats tried in turn once a repeat-free pairing has
 * failed: one by one while few are needed (the fewest found), then
 * doubling so that a hopeless case ends in a few searches; m / 2 always
 * succeeds at once (any pair may be a repeat). */
static int next_allowance(int k, int pairs) {
  int next = k < 4 ? k + 1 : 2 * k;
  return next < pairs ? next : pairs;
}

/* Opponents of every entry, CSR-style: games between two entries
 * (pending ones too: already paired). */
static int opponents(const slot *ix, int n, const tr_game *g, int ng,
                     int *opp_at, int **opp_out) {
  memset(opp_at, 0, sizeof *opp_at * (size_t)(n + 1));
  for (int k = 0; k < ng; k++) {
    int a = index_find(ix, n, g[k].a);
    int b = is_bye(&g[k]) ? -1 : index_find(ix, n, g[k].b);
    if (a >= 0 && b >= 0 && a != b) {
      opp_at[a + 1]++;
      opp_at[b + 1]++;
    }
  }
  for (int i = 0; i < n; i++)
    opp_at[i + 1] += opp_at[i];
  int *opp = malloc(sizeof *opp * (size_t)(opp_at[n] > 0 ? opp_at[n] : 1));
  int *fill = malloc(sizeof *fill * (size_t)(n > 0 ? n : 1));
  if (!opp || !fill) {
    free(opp);
    free(fill);
    return -1;
  }
  memcpy(fill, opp_at, sizeof *fill * (size_t)n);
  for (int k = 0; k < ng; k++) {
    int a = index_find(ix, n, g[k].a);
    int b = is_bye(&g[k]) ? -1 : index_find(ix, n, g[k].b);
    if (a >= 0 && b >= 0 && a != b) {
      opp[fill[a]++] = b;
      opp[fill[b]++] = a;
    }
  }
  free(fill);
  *opp_out = opp;
  return 0;
}

/* For qsort of the active entries into pairing order: score desc, then
 * rating desc, then id asc (the order the header promises). */
typedef struct ranked {
  int i, points2;
  double rating;
  long long id;
} ranked;

static int ranked_cmp(const void *x, const void *y) {
  const ranked *a = x, *b = y;
  int c = cmp_int_desc(a->points2, b->points2);
  if (!c)
    c = cmp_double_desc(a->rating, b->rating);
  return c ? c : cmp_id_asc(a->id, b->id);
}

/* Pairs p's entries with the fewest repeats it finds: none if it can,
 * then one more allowed at each try. */
static void solve_fewest(plan *p) {
  int pairs = p->m / 2;
  for (int k = 0;; k = next_allowance(k, pairs)) {
    plan_reset(p, SWISS_BUDGET, k);
    if (solve(p) || k >= pairs)
      return;
  }
}

/* The bye: the lowest-ranked entry without one whose absence leaves a
 * repeat-free pairing of the others (FIDE C.04.1: no repeats, no second
 * bye); failing that, the lowest-ranked without a bye (or the
 * lowest-ranked, when all have had one) and the others paired with the
 * fewest repeats found.  Returns the bye's position, -1 when m is even,
 * and leaves the others paired in p. */
static int swiss_search(plan *p, const int *order, int m, const swiss_tally *t,
                        int *who) {
  if (m % 2 == 0) {
    plan_without(p, order, m, -1, who);
    solve_fewest(p);
    return -1;
  }
  int any_without = 0, first = -1;
  for (int i = 0; i < m; i++)
    any_without |= t[order[i]].byes == 0;
  long left = 2 * SWISS_BUDGET; /* shared by all the candidates */
  for (int c = m - 1; c >= 0 && left > 0; c--) {
    if (any_without && t[order[c]].byes > 0)
      continue;
    if (first < 0)
      first = c;
    long given = left < SWISS_BUDGET ? left : SWISS_BUDGET;
    plan_without(p, order, m, c, who);
    plan_reset(p, given, 0);
    if (solve(p))
      return c;
    left -= given - (p->budget > 0 ? p->budget : 0);
  }
  plan_without(p, order, m, first, who);
  solve_fewest(p);
  return first;
}

/* Seats (FIDE C.04.1 gives the colour played fewer times): the entry
 * that has sat first less often sits first; between equals, the
 * higher-ranked in odd rounds and the lower-ranked in even ones, so
 * that the top boards' seats alternate as the rounds go by. */
static tr_pair seat_pair(const tr_entry *e, const swiss_tally *t, int hi,
                         int lo, int round) {
  int hi_first =
      t[hi].seat0 != t[lo].seat0 ? t[hi].seat0 < t[lo].seat0 : round % 2 == 1;
  return hi_first ? (tr_pair){e[hi].id, e[lo].id}
                  : (tr_pair){e[lo].id, e[hi].id};
}

int tr_swiss_pair(const tr_entry *e, int n, const tr_game *g, int ng,
                  tr_pair *out, int cap) {
  size_t sz = (size_t)(n > 0 ? n : 1);
  slot *ix = index_new(e, n);
  swiss_tally *t = calloc(sz, sizeof *t);
  ranked *rk = malloc(sz * sizeof *rk);
  int *order = malloc(sz * sizeof *order), *who = malloc(sz * sizeof *who);
  int *opp_at = malloc((sz + 1) * sizeof *opp_at), *opp = NULL;
  int *next = malloc((sz + 1) * sizeof *next);
  int *prev = malloc((sz + 1) * sizeof *prev);
  int *mate = malloc(sz * sizeof *mate);
  int rc = -1, m = 0, round = 1, bye;
  plan p = {0};
  if (!ix || !t || !rk || !order || !who || !opp_at || !next || !prev || !mate)
    goto done;
  swiss_count(ix, n, g, ng, t);
  if (opponents(ix, n, g, ng, opp_at, &opp) < 0)
    goto done;
  for (int k = 0; k < ng; k++)
    if (g[k].round >= round)
      round = g[k].round + 1;
  for (int i = 0; i < n; i++)
    if (e[i].active && index_find(ix, n, e[i].id) == i)
      rk[m++] = (ranked){i, t[i].points2, e[i].rating, e[i].id};
  if (cap < m / 2 + m % 2)
    goto done;
  qsort(rk, (size_t)m, sizeof *rk, ranked_cmp);
  for (int i = 0; i < m; i++)
    order[i] = rk[i].i;
  p = (plan){
      .opp_at = opp_at, .opp = opp, .next = next, .prev = prev, .mate = mate};
  bye = swiss_search(&p, order, m, t, who);
  rc = 0;
  for (int i = 0; i < p.m; i++)
    if (p.mate[i] > i)
      out[rc++] = seat_pair(e, t, p.who[i], p.who[p.mate[i]], round);
  if (bye >= 0)
    out[rc++] = (tr_pair){e[order[bye]].id, 0};
done:
  free(ix);
  free(t);
  free(rk);
  free(order);
  free(who);
  free(opp_at);
  free(opp);
  free(next);
  free(prev);
  free(mate);
  return rc;
}

/* ---- arena ------------------------------------------------------------ */

/* The arena's points follow the order games finished in: `round`, then
 * the seats and the result so that equal rounds sort the same whatever
 * order the store gave.  Sorted as copies: qsort has no context
 * argument, and a static one would not be thread-safe. */
static int arena_game_cmp(const void *x, const void *y) {
  const tr_game *a = x, *b = y;
  if (a->round != b->round)
    return (a->round > b->round) - (a->round < b->round);
  if (a->a != b->a)
    return cmp_id_asc(a->a, b->a);
  if (a->b != b->b)
    return cmp_id_asc(a->b, b->b);
  return (a->result > b->result) - (a->result < b->result);
}

typedef struct arena_tally {
  int points2, games, wins, streak, seat0;
  long long last; /* the last opponent's id, 0 before any game */
} arena_tally;

/* A win is 2 points, 4 after two wins in a row (lichess's streak); a
 * draw 1; a loss, a double forfeit, 0; anything but a win ends the
 * streak. */
static void arena_side(arena_tally *t, int won, int drew) {
  t->games++;
  if (won) {
    t->points2 += t->streak >= 2 ? 8 : 4;
    t->wins++;
    t->streak++;
  } else {
    t->points2 += drew ? 2 : 0;
    t->streak = 0;
  }
}

/* The tallies in finishing order.  Byes are not an arena's and count for
 * nothing; pending games count for seats and the last opponent only. */
static int arena_count(const slot *ix, int n, const tr_game *g, int ng,
                       arena_tally *t) {
  tr_game *by = malloc(sizeof *by * (size_t)(ng > 0 ? ng : 1));
  if (!by)
    return -1;
  if (ng > 0)
    memcpy(by, g, sizeof *by * (size_t)ng);
  qsort(by, (size_t)ng, sizeof *by, arena_game_cmp);
  for (int k = 0; k < ng; k++) {
    const tr_game *x = &by[k];
    if (is_bye(x))
      continue;
    int a = index_find(ix, n, x->a), b = index_find(ix, n, x->b);
    if (a >= 0) {
      t[a].seat0++;
      t[a].last = x->b;
    }
    if (b >= 0)
      t[b].last = x->a;
    if (x->result == TR_PENDING)
      continue;
    if (a >= 0)
      arena_side(&t[a], x->result == TR_A_WON, x->result == TR_DRAW);
    if (b >= 0)
      arena_side(&t[b], x->result == TR_B_WON, x->result == TR_DRAW);
  }
  free(by);
  return 0;
}

int tr_arena_standings(const tr_entry *e, int n, const tr_game *g, int ng,
                       tr_standing *out) {
  slot *ix = index_new(e, n);
  arena_tally *t = calloc((size_t)(n > 0 ? n : 1), sizeof *t);
  row *r = rows_new(e, n);
  int rc = -1;
  if (!ix || !t || !r || arena_count(ix, n, g, ng, t) < 0)
    goto done;
  for (int i = 0; i < n; i++) {
    r[i].s.points2 = t[i].points2;
    r[i].s.games = t[i].games;
    r[i].s.wins = t[i].wins;
    r[i].s.streak = t[i].streak;
  }
  rc = rows_finish(r, n, arena_cmp, arena_tied, out);
done:
  free(ix);
  free(t);
  free(r);
  return rc;
}

/* Whether x and y played each other last, from either side: pairing
 * them again at once is what the arena avoids. */
static int just_met(const tr_entry *e, const arena_tally *t, int x, int y) {
  return t[x].last == e[y].id || t[y].last == e[x].id;
}

int tr_arena_pair(const tr_entry *e, int n, const tr_game *g, int ng,
                  const long long *free_ids, int nfree, tr_pair *out, int cap) {
  size_t sz = (size_t)(n > 0 ? n : 1);
  slot *ix = index_new(e, n);
  arena_tally *t = calloc(sz, sizeof *t);
  ranked *rk = malloc(sz * sizeof *rk);
  char *seen = calloc(sz, 1), *used = calloc(sz, 1);
  int rc = 0, m = 0;
  if (!ix || !t || !rk || !seen || !used || arena_count(ix, n, g, ng, t) < 0)
    goto done;
  /* the free entries, each once, known and active */
  for (int k = 0; k < nfree; k++) {
    int i = index_find(ix, n, free_ids[k]);
    if (i < 0 || seen[i] || !e[i].active)
      continue;
    seen[i] = 1;
    rk[m++] = (ranked){i, t[i].points2, e[i].rating, e[i].id};
  }
  qsort(rk, (size_t)m, sizeof *rk, ranked_cmp);
  for (int x = 0; x < m && rc < cap; x++) {
    if (used[x])
      continue;
    /* the nearest below that it did not just play; the nearest at all
     * when every one left did */
    int y = -1, near = -1;
    for (int k = x + 1; k < m && y < 0; k++) {
      if (used[k])
        continue;
      if (near < 0)
        near = k;
      if (!just_met(e, t, rk[x].i, rk[k].i))
        y = k;
    }
    if (y < 0)
      y = near;
    if (y < 0)
      break;
    used[x] = used[y] = 1;
    int a = rk[x].i, b = rk[y].i;
    /* fewer first seats sits first; equals: the one higher in points */
    if (t[b].seat0 < t[a].seat0) {
      int s = a;
      a = b;
      b = s;
    }
    out[rc++] = (tr_pair){e[a].id, e[b].id};
  }
done:
  free(ix);
  free(t);
  free(rk);
  free(seen);
  free(used);
  return rc;
}

/* ---- duplicate --------------------------------------------------------- */

/* Deal lines by (round, deal, seat, id): a group of the same cards is a
 * run, one entry's lines within it a sub-run. */
static int deal_cmp(const void *x, const void *y) {
  const tr_deal *a = *(const tr_deal *const *)x,
                *b = *(const tr_deal *const *)y;
  if (a->round != b->round)
    return (a->round > b->round) - (a->round < b->round);
  if (a->deal != b->deal)
    return (a->deal > b->deal) - (a->deal < b->deal);
  if (a->seat != b->seat)
    return (a->seat > b->seat) - (a->seat < b->seat);
  return cmp_id_asc(a->id, b->id);
}

static int same_cards(const tr_deal *a, const tr_deal *b) {
  return a->round == b->round && a->deal == b->deal && a->seat == b->seat;
}

int tr_dup_score(tr_deal *d, int nd) {
  if (nd <= 0)
    return 0;
  tr_deal **by = malloc(sizeof *by * (size_t)nd);
  if (!by)
    return -1;
  for (int k = 0; k < nd; k++)
    by[k] = &d[k];
  qsort(by, (size_t)nd, sizeof *by, deal_cmp);
  /* Sums in integers: exact, so the means do not depend on the order of
   * the lines.  Others = the group less every line of the same id. */
  for (int lo = 0, hi; lo < nd; lo = hi) {
    long long sum = 0;
    for (hi = lo; hi < nd && same_cards(by[hi], by[lo]); hi++)
      sum += by[hi]->points;
    for (int s = lo, z; s < hi; s = z) {
      long long own = 0;
      for (z = s; z < hi && by[z]->id == by[s]->id; z++)
        own += by[z]->points;
      int others = (hi - lo) - (z - s);
      double mean = others > 0 ? (double)(sum - own) / others : 0.0;
      for (int k = s; k < z; k++)
        by[k]->score = others > 0 ? by[k]->points - mean : 0.0;
    }
  }
  free(by);
  return 0;
}

int tr_dup_standings(const tr_entry *e, int n, const tr_deal *d, int nd,
                     const tr_game *g, int ng, tr_standing *out) {
  slot *ix = index_new(e, n);
  row *r = rows_new(e, n);
  const tr_deal **by = malloc(sizeof *by * (size_t)(nd > 0 ? nd : 1));
  int rc = -1;
  if (!ix || !r || !by)
    goto done;
  /* each entry's scores summed in (round, deal, seat) order, so that
   * the double sum is the same however the lines came */
  for (int k = 0; k < nd; k++)
    by[k] = &d[k];
  qsort(by, (size_t)nd, sizeof *by, deal_cmp);
  for (int k = 0; k < nd; k++) {
    int i = index_find(ix, n, by[k]->id);
    if (i >= 0)
      r[i].s.dup += by[k]->score;
  }
  for (int k = 0; k < ng; k++) {
    if (is_bye(&g[k]) || g[k].result == TR_PENDING)
      continue;
    int a = index_find(ix, n, g[k].a), b = index_find(ix, n, g[k].b);
    if (a >= 0) {
      r[a].s.games++;
      r[a].s.wins += is_won(&g[k], 0);
    }
    if (b >= 0) {
      r[b].s.games++;
      r[b].s.wins += is_won(&g[k], 1);
    }
  }
  rc = rows_finish(r, n, dup_cmp, dup_tied, out);
done:
  free(ix);
  free(r);
  free(by);
  return rc;
}
