/*
 * stats.h -- running mean and 95% confidence interval, for `scopa arena`
 * (and the arena's own tests).  Not API.
 */
#ifndef SCOPA_CLI_STATS_H
#define SCOPA_CLI_STATS_H

typedef struct cli_stats {
  long n;
  double mean, m2; /* Welford's running mean and sum of squares */
} cli_stats;

void cli_stats_add(cli_stats *s, double x);
/* Sample standard deviation (0 under two values). */
double cli_stats_sd(const cli_stats *s);
/* Half-width of the 95% confidence interval of the mean (normal). */
double cli_stats_ci95(const cli_stats *s);

#endif
