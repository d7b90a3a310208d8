/*
 * stats.c -- Welford's numerically stable running mean and variance; the
 * 95% interval is 1.96 standard errors (deal counts in the hundreds make
 * the normal approximation good).
 */
#include "stats.h"

#include <math.h>

void cli_stats_add(cli_stats *s, double x) {
  s->n++;
  double d = x - s->mean;
  s->mean += d / (double)s->n;
  s->m2 += d * (x - s->mean);
}

double cli_stats_sd(const cli_stats *s) {
  return s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : 0;
}

double cli_stats_ci95(const cli_stats *s) {
  return s->n > 1 ? 1.96 * cli_stats_sd(s) / sqrt((double)s->n) : 0;
}
