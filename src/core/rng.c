/*
 * rng.c -- xoshiro256** seeded by splitmix64: fast, small, and the same
 * sequence for the same seed everywhere, so seeded games and tournaments
 * replay exactly.
 */
#include "internal.h"

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

/* Lemire's multiply-shift with rejection: unbiased for every n. */
uint32_t scopa_rng_below(scopa_rng *rng, uint32_t n) {
  uint64_t m = (uint64_t)(uint32_t)(scopa_rng_next(rng) >> 32) * n;
  if ((uint32_t)m < n) {
    uint32_t floor = (uint32_t)(-n) % n;
    while ((uint32_t)m < floor)
      m = (uint64_t)(uint32_t)(scopa_rng_next(rng) >> 32) * n;
  }
  return (uint32_t)(m >> 32);
}

/* Fisher-Yates, two draws from each 64-bit output: each half goes through
 * the same unbiased multiply-shift as scopa_rng_below. */
static uint32_t below_from(scopa_rng *rng, uint32_t bits, uint32_t n) {
  uint64_t m = (uint64_t)bits * n;
  if ((uint32_t)m < n) {
    uint32_t floor = (uint32_t)(-n) % n;
    while ((uint32_t)m < floor)
      m = (uint64_t)(uint32_t)(scopa_rng_next(rng) >> 32) * n;
  }
  return (uint32_t)(m >> 32);
}

void scopa_rng_deck(scopa_rng *rng, uint8_t deck[40]) {
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  for (int i = 39; i > 0; i -= 2) {
    uint64_t r = scopa_rng_next(rng);
    for (int k = 0; k < 2 && i - k > 0; k++) {
      int at = i - k;
      int j =
          (int)below_from(rng, (uint32_t)(k ? r : r >> 32), (uint32_t)at + 1);
      uint8_t t = deck[at];
      deck[at] = deck[j];
      deck[j] = t;
    }
  }
}
