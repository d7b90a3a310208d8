/*
 * stats.h -- running mean and 95% confidence interval, for the arena and
 * the strength benchmarks.  Not API.
 */
#ifndef SCOPA_AI_STATS_H
#define SCOPA_AI_STATS_H

typedef struct ai_stats {
  long n;
  double mean, m2; /* Welford's running mean and sum of squares */
} ai_stats;

void ai_stats_add(ai_stats *s, double x);
/* Sample standard deviation (0 under two values). */
double ai_stats_sd(const ai_stats *s);
/* Half-width of the 95% confidence interval of the mean (normal). */
double ai_stats_ci95(const ai_stats *s);

#endif
