/*
 * pwhash.c -- what one Argon2id hash costs here (libsodium's
 * crypto_pwhash_str, as the server's accounts use it: auth.c), at the
 * server's default and at the levels around it.
 *
 *     build/bench/bench_pwhash [runs]
 *
 * Prints one line per level: passes, memory, the median and the least
 * wall time of `runs` hashes (default 9), and the CPU time of one.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    unsigned long long ops;
    size_t mem;
  } LEVELS[] = {
      {"tests (--pwhash-ops 1 --pwhash-mib 8)", 1, 8u << 20},
      {"OWASP minimum (2, 19 MiB)", 2, 19u << 20},
      {"default: INTERACTIVE (2, 64 MiB)", crypto_pwhash_OPSLIMIT_INTERACTIVE,
       crypto_pwhash_MEMLIMIT_INTERACTIVE},
      {"MODERATE (3, 256 MiB)", crypto_pwhash_OPSLIMIT_MODERATE,
       crypto_pwhash_MEMLIMIT_MODERATE},
  };
  int runs = argc > 1 ? atoi(argv[1]) : 9;
  if (sodium_init() < 0 || runs < 1 || runs > 1000)
    return 1;
  char out[crypto_pwhash_STRBYTES];
  const char *pw = "correct horse battery";
  for (size_t l = 0; l < sizeof LEVELS / sizeof LEVELS[0]; l++) {
    double wall[1000], cpu0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < runs; i++) {
      double t0 = now_s(CLOCK_MONOTONIC);
      if (crypto_pwhash_str(out, pw, strlen(pw), LEVELS[l].ops,
                            LEVELS[l].mem) != 0)
        return 1;
      wall[i] = (now_s(CLOCK_MONOTONIC) - t0) * 1000;
    }
    double cpu = (now_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0) * 1000 / runs;
    qsort(wall, (size_t)runs, sizeof wall[0], by_value);
    printf("%-40s median %7.1f ms  least %7.1f ms  cpu %7.1f ms\n",
           LEVELS[l].name, wall[runs / 2], wall[0], cpu);
  }
  return 0;
}
