/*
 * glicko.c -- the Glicko-2 update, step by step as in Glickman's paper
 * (steps 2 to 8); tests/server/test_rating.c checks it on the paper's
 * worked example.  Who is rated, and against whom, is rating.c's business.
 */
#include "glicko.h"

#include <math.h>

#define SCALE 173.7178
#define PI 3.14159265358979323846

static double g_of(double phi) {
  return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double e_of(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_vol(double phi, double vol, double v, double delta,
                      double tau) {
  double a = log(vol * vol), eps = 1e-6;
  double d2 = delta * delta, p2 = phi * phi;
#define F(x)                                                                   \
  (exp(x) * (d2 - p2 - v - exp(x)) /                                           \
       (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) -                         \
   ((x)-a) / (tau * tau))
  double A = a, B;
  if (d2 > p2 + v) {
    B = log(d2 - p2 - v);
  } else {
    int k = 1;
    while (F(a - k * tau) < 0 && k < 1000)
      k++;
    B = a - k * tau;
  }
  double fa = F(A), fb = F(B);
  for (int it = 0; fabs(B - A) > eps && it < 200; it++) {
    double C = A + (A - B) * fa / (fb - fa), fc = F(C);
    if (fc * fb <= 0) {
      A = B;
      fa = fb;
    } else {
      fa /= 2;
    }
    B = C;
    fb = fc;
  }
#undef F
  return exp(A / 2);
}

rating rating_update(rating self, const rating *opp, const double *s, int n,
                     double tau) {
  double mu = (self.r - 1500.0) / SCALE, phi = self.rd / SCALE;
  if (n == 0) {
    double phi2 = sqrt(phi * phi + self.vol * self.vol);
    self.rd = fmin(phi2 * SCALE, RATING_START_RD);
    return self;
  }
  double inv_v = 0, sum = 0;
  for (int j = 0; j < n; j++) {
    double mu_j = (opp[j].r - 1500.0) / SCALE, phi_j = opp[j].rd / SCALE;
    double g = g_of(phi_j), e = e_of(mu, mu_j, phi_j);
    inv_v += g * g * e * (1 - e);
    sum += g * (s[j] - e);
  }
  double v = 1.0 / inv_v, delta = v * sum;
  double vol = new_vol(phi, self.vol, v, delta, tau);
  double phi_star = sqrt(phi * phi + vol * vol);
  double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  double mu_new = mu + phi_new * phi_new * sum;
  rating out = {mu_new * SCALE + 1500.0, phi_new * SCALE, vol};
  return out;
}

const char *rating_pool(int players) {
  switch (players) {
  case 2:
    return "2p";
  case 3:
    return "3p";
  case 4:
    return "4p";
  default:
    return "6p";
  }
}
