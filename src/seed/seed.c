/*
 * seed.c -- one seed deals every deck of a game (scopa.h "Seeds").
 *
 * Round k's generator depends on the seed and k alone, so a game resumed
 * from its record deals exactly what the straight game would have, and
 * anyone can deal a finished game again from the seed it reveals.  The
 * derivation is written out in scopa.h and docs/play.md: change it and
 * every recorded seed deals other cards, so never change it.
 */
#include "scopa.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* splitmix64's output function. */
static uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

int scopa_seed_check(const char *text, char *msg, size_t msgsize) {
  size_t n = text ? strnlen(text, SCOPA_SEED_MAX + 1) : 0;
  int ok = n >= 1 && n <= SCOPA_SEED_MAX;
  for (size_t i = 0; ok && i < n; i++)
    ok = hex_value(text[i]) >= 0;
  if (ok)
    return SCOPA_OK;
  if (msg && msgsize)
    snprintf(msg, msgsize,
             "a seed is 1 to %d lowercase hexadecimal digits (0-9, a-f)",
             SCOPA_SEED_MAX);
  return SCOPA_EINVAL;
}

void scopa_seed_rng(const char *seed, int round, scopa_rng *rng) {
  uint64_t w[4] = {0, 0, 0, 0};
  size_t n = strnlen(seed, SCOPA_SEED_MAX);
  /* Digit i from the end goes to word 3 - i / 16, at bit 4 * (i % 16). */
  for (size_t i = 0; i < n; i++) {
    int v = hex_value(seed[n - 1 - i]);
    w[3 - i / 16] |= (uint64_t)(v < 0 ? 0 : v) << (4 * (i % 16));
  }
  uint64_t k = (uint64_t)(int64_t)round * 4;
  for (int i = 0; i < 4; i++)
    rng->s[i] = mix(w[i] ^ mix(k + (uint64_t)i + 1));
  if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]))
    rng->s[0] = 1; /* xoshiro's one forbidden state; never met in practice */
}

void scopa_seed_deck(const char *seed, int round, const scopa_rules *rules,
                     uint8_t deck[40]) {
  scopa_rng rng;
  scopa_state st;
  scopa_seed_rng(seed, round, &rng);
  scopa_state_deal_random(&st, rules, 0, &rng);
  memcpy(deck, st.deck, 40);
}

int scopa_seed_dealer(const char *seed, int players) {
  scopa_rng rng;
  scopa_seed_rng(seed, -1, &rng);
  return (int)scopa_rng_below(&rng, (uint32_t)players);
}

/* getentropy: the kernel's getrandom in glibc (retried on signals), the
 * browser's crypto.getRandomValues (node's crypto) under emscripten.
 * 64 digits, not 32: the first dealer is drawn from the generator's
 * words 0 and 1, which only digits past the 32nd reach (scopa_seed_rng),
 * so every 32-digit seed has the same first dealer. */
int scopa_seed_random(char seed[SCOPA_SEED_TEXT]) {
  unsigned char bytes[SCOPA_SEED_MAX / 2];
  if (getentropy(bytes, sizeof bytes) != 0)
    return SCOPA_EIO;
  for (size_t i = 0; i < sizeof bytes; i++)
    snprintf(seed + 2 * i, 3, "%02x", bytes[i]);
  return SCOPA_OK;
}
