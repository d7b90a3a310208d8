/*
 * glicko.h -- Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013)
 * for finished games between people.  Pure arithmetic here; the server
 * reads and writes ratings through store.h.
 */
#ifndef SCOPA_SERVER_GLICKO_H
#define SCOPA_SERVER_GLICKO_H

#define RATING_START 1500.0
#define RATING_START_RD 350.0
#define RATING_START_VOL 0.06

typedef struct rating {
  double r, rd, vol; /* on the Glicko scale: 1500, 350, 0.06 to start */
} rating;

/* One rating period for `self` against n opponents with scores s[i]
 * (1 win, 0.5 draw, 0 loss).  n == 0 only widens the deviation.  tau is
 * the system constant (0.5 is usual). */
rating rating_update(rating self, const rating *opp, const double *s, int n,
                     double tau);

/* The pool a game is rated in: "2p" for two-player scopa, "4p" for the
 * four-player games, "3p" and "6p" for the others. */
const char *rating_pool(int players);

#endif
