/*
 * tourney_rules.h -- the tournaments' formats as pure functions
 * (tourney_rules.c; docs/serve.md "Tournaments"): who plays whom, and
 * the standings, from the entries and the finished games.  No store, no
 * clock, no I/O: the director (tourney.c) reads what the store holds,
 * asks these, and writes back what they say.  Deterministic: the same
 * input gives the same pairings, whichever node asks.
 *
 * An entry is a player (an account) or a team (Scopone pairs): one id.
 * Scores are kept in half points (int) so that a draw is exact.
 *
 * Swiss: every round, entries in order of score (then rating, then id)
 * are paired top down with the highest one of the same or nearest score
 * they have not met, backtracking so that nobody is left without a
 * partner when a pairing without repeats exists (repeats only if none
 * does); an odd count gives the bye to the lowest-ranked entry that has
 * not had one (1 point, FIDE C.04.1 c/d), or the next one up when that
 * would force a repeat.  Seats: the entry that has sat first (seat 0)
 * less often sits first.  Tie-breaks, in order:
 * Buchholz (the sum of the opponents' scores; a bye counts as an
 * opponent of score 0), then Sonneborn-Berger (the scores of opponents
 * beaten, plus half those of opponents drawn), then rating, then id.
 *
 * Arena: whoever is free is paired with the free entry nearest in arena
 * points, not the last opponent when another is free.  A win is 2
 * points, a draw 1, a loss 0; after two wins in a row each further win
 * is 4 (lichess's streak) until a game that is not won.
 *
 * Duplicate: every table of a round plays the same deals; a deal is
 * identified by (round, deal number), and the cards a seat holds by
 * (round, deal, seat).  An entry's score for a deal is its points minus
 * the mean points of the others who held the same cards (0 when nobody
 * else did); its tournament score the sum over every deal it played.
 */
#ifndef SCOPA_SERVER_TOURNEY_RULES_H
#define SCOPA_SERVER_TOURNEY_RULES_H

enum {
  TR_A_WON,     /* a won, b lost                                    */
  TR_B_WON,     /* b won, a lost                                    */
  TR_DRAW,      /* half a point each (Swiss), 1 each (arena)        */
  TR_BOTH_LOST, /* a double forfeit: neither gets anything          */
  TR_BYE,       /* a had the bye (b is 0): 1 point in Swiss          */
  TR_PENDING    /* not finished: ignored by the standings           */
};

typedef struct tr_entry {
  long long id; /* > 0                                                 */
  double rating;
  int active; /* 0: withdrawn: not paired any more, still in the standings */
} tr_entry;

/* A game of the tournament: round (from 1), the entry at seat 0 (a) and
 * at seat 1 (b; 0 for a bye), its result (TR_*).  In arena, `round` is
 * the order in which games finished (the streak follows it). */
typedef struct tr_game {
  int round;
  long long a, b;
  int result;
} tr_game;

typedef struct tr_pair {
  long long a, b; /* a sits first (seat 0); b = 0: a has the bye      */
} tr_pair;

typedef struct tr_standing {
  long long id;
  int points2;     /* Swiss: half points; arena: points x 2; dup: 0  */
  double dup;      /* duplicate: the sum of its deal scores          */
  int buchholz2;   /* Swiss: half points                              */
  int sb4;         /* Swiss: Sonneborn-Berger in quarter points       */
  int games, wins; /* games played (a bye is not one), games won      */
  int streak;      /* arena: wins in a row now                        */
  int rank;        /* 1 = first; equal tie-breaks share a rank        */
} tr_standing;

/* Swiss: the pairs of the next round for the active entries, given
 * every earlier game (ng of them, any order).  Writes at most cap pairs
 * (cap >= n/2 + 1 suffices) and returns how many, or -1 when cap is too
 * small (or without memory).  The pairs come in board order, the bye
 * last. */
int tr_swiss_pair(const tr_entry *e, int n, const tr_game *g, int ng,
                  tr_pair *out, int cap);

/* The standings of n entries (every one, active or not) after games g,
 * in rank order: Swiss (points, Buchholz, Sonneborn-Berger) or arena
 * (points with streaks, then wins, rating, id).  out has room for n.
 * Returns n (-1 without memory). */
int tr_swiss_standings(const tr_entry *e, int n, const tr_game *g, int ng,
                       tr_standing *out);
int tr_arena_standings(const tr_entry *e, int n, const tr_game *g, int ng,
                       tr_standing *out);

/* Arena: pairs among the nfree entries free now (ids in `free`), given
 * the games so far (for points and last opponents).  Returns the number
 * of pairs written (at most nfree / 2 and cap). */
int tr_arena_pair(const tr_entry *e, int n, const tr_game *g, int ng,
                  const long long *free, int nfree, tr_pair *out, int cap);

/* Duplicate: one entry's points in one deal, from the seat it held. */
typedef struct tr_deal {
  int round, deal, seat;
  long long id;
  int points;
  double score; /* tr_dup_score's: points minus the others' mean    */
} tr_deal;

/* Fills d[i].score for every deal line (the others: the lines with the
 * same round, deal and seat and another id) and returns 0; -1 without
 * memory. */
int tr_dup_score(tr_deal *d, int nd);

/* The duplicate standings: each entry's sum of scores (dup), games and
 * wins from g (wins break ties, then rating, then id).  The scores are
 * d's as tr_dup_score left them.  Returns n (-1 without memory). */
int tr_dup_standings(const tr_entry *e, int n, const tr_deal *d, int nd,
                     const tr_game *g, int ng, tr_standing *out);

#endif
