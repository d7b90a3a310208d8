/*
 * stats.c -- Welford's numerically stable running mean and variance; the
 * 95% interval is 1.96 standard errors (deal counts in the hundreds make
 * the normal approximation good).
 */
#include "stats.h"

#include <math.h>

void ai_stats_add(ai_stats *s, double x) {
  s->n++;
  double d = x - s->mean;
  s->mean += d / (double)s->n;
  s->m2 += d * (x - s->mean);
}

double ai_stats_sd(const ai_stats *s) {
  return s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : 0;
}

double ai_stats_ci95(const ai_stats *s) {
  return s->n > 1 ? 1.96 * ai_stats_sd(s) / sqrt((double)s->n) : 0;
}
