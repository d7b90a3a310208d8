/*
 * bank.c -- the time bank's arithmetic (bank.h): pure, from the moves
 * alone.
 */
#include "bank.h"

/* When the turn after moves[0, n) starts to run; 0: not known. */
static int64_t turn_start(const bank_move *moves, int n, int64_t start_ms,
                          int round_start) {
  int64_t start = n == 0 ? start_ms : moves[n - 1].at_ms;
  if (start <= 0)
    return 0;
  return n > 0 && round_start ? start + BANK_ROUND_GRACE_MS : start;
}

static int clamp_ms(int64_t t) {
  return t <= 0 ? 0 : t > INT32_MAX ? INT32_MAX : (int)t;
}

int bank_turn_ms(const bank_move *moves, int n, int64_t start_ms,
                 int round_start, int64_t now_ms) {
  int64_t start = turn_start(moves, n, start_ms, round_start);
  return start ? clamp_ms(now_ms - start) : 0;
}

int bank_wait_ms(const bank_move *moves, int n, int64_t start_ms,
                 int round_start, int64_t now_ms) {
  int64_t start = turn_start(moves, n, start_ms, round_start);
  return start ? clamp_ms(start - now_ms) : 0;
}

static void spend(int64_t *left, int64_t ms) {
  *left = *left > ms ? *left - ms : 0;
}

void bank_left(int bank_s, int inc_s, int nseats, const bank_move *moves, int n,
               int64_t start_ms, int to_play, int round_start, int64_t now_ms,
               int64_t *left_ms) {
  for (int s = 0; s < nseats; s++)
    left_ms[s] = (int64_t)bank_s * 1000;
  for (int k = 0; k < n; k++) {
    const bank_move *m = &moves[k];
    if (m->seat < 0 || m->seat >= nseats)
      continue;
    spend(&left_ms[m->seat], m->took_ms > 0 ? m->took_ms : 0);
    left_ms[m->seat] += (int64_t)inc_s * 1000;
  }
  if (to_play >= 0 && to_play < nseats)
    spend(&left_ms[to_play],
          bank_turn_ms(moves, n, start_ms, round_start, now_ms));
}
