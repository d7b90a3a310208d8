/*
 * rng.c -- xoshiro256** seeded by splitmix64: fast, small, and the same
 * sequence for the same seed everywhere, so seeded games and tournaments
 * replay exactly.
 */
#include "internal.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void scopa_rng_seed(scopa_rng *rng, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t scopa_rng_next(scopa_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* The rare rejection of Lemire's method, out of line so that the usual
 * draw stays small enough to inline. */
__attribute__((noinline)) static uint32_t below_slow(scopa_rng *rng, uint64_t m,
                                                     uint32_t n) {
  uint32_t floor = (uint32_t)(-n) % n;
  while ((uint32_t)m < floor)
    m = (uint64_t)(uint32_t)(scopa_rng_next(rng) >> 32) * n;
  return (uint32_t)(m >> 32);
}

/* Lemire's multiply-shift with rejection: unbiased for every n. */
uint32_t scopa_rng_below(scopa_rng *rng, uint32_t n) {
  uint64_t m = (uint64_t)(uint32_t)(scopa_rng_next(rng) >> 32) * n;
  if (__builtin_expect((uint32_t)m < n, 0))
    return below_slow(rng, m, n);
  return (uint32_t)(m >> 32);
}

/* One draw below n from 32 given random bits, as scopa_rng_below. */
static inline uint32_t below_from(scopa_rng *rng, uint32_t bits, uint32_t n) {
  uint64_t m = (uint64_t)bits * n;
  if (__builtin_expect((uint32_t)m < n, 0))
    return below_slow(rng, m, n);
  return (uint32_t)(m >> 32);
}

static inline void swap_cards(uint8_t deck[40], int at, int j) {
  uint8_t t = deck[at];
  deck[at] = deck[j];
  deck[j] = t;
}

/* Fisher-Yates from the top of the deck down, two draws from each 64-bit
 * output (the high half first). */
void scopa_rng_deck(scopa_rng *rng, uint8_t deck[40]) {
  static const uint8_t ORDERED[40] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                      20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                      30, 31, 32, 33, 34, 35, 36, 37, 38, 39};
  memcpy(deck, ORDERED, 40);
  for (int i = 39; i > 1; i -= 2) {
    uint64_t r = scopa_rng_next(rng);
    swap_cards(deck, i, (int)below_from(rng, (uint32_t)(r >> 32), i + 1));
    swap_cards(deck, i - 1, (int)below_from(rng, (uint32_t)r, i));
  }
  /* i == 1: the last draw, from the high half. */
  uint64_t r = scopa_rng_next(rng);
  swap_cards(deck, 1, (int)below_from(rng, (uint32_t)(r >> 32), 2));
}
