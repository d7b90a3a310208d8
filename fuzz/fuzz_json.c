/*
 * fuzz_json.c -- libFuzzer target for the JSON readers the Python package
 * calls directly (scopa_rules_from_json, scopa_view_from_json: the engine
 * readers without a request around them) and for the text guards every
 * front end uses (scopa_text_safe, scopa_parse_int, scopa_parse_real).
 *
 * The first byte picks what the rest goes to:
 *   0  rules: an error's message is printable ASCII (in Italian: safe
 *      text), both languages give one verdict; rules read back from
 *      their own JSON are the same rules;
 *   1  a view: an error's message is printable ASCII; a view that reads
 *      has legal moves only when its seat is to play, and features;
 *   2  text: scopa_text_safe's output is safe (fuzz_check.h), a fixed
 *      point, the length it returns, and cut only at a character;
 *   3  numbers: whatever parses prints back to the same digits.
 */
#include "scopa.h"

#include "fuzz_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void rules(const char *text, size_t len) {
  scopa_rules r, again;
  char msg[300], it[300];
  int rc = scopa_rules_from_json(&r, text, len, NULL, msg, sizeof msg);
  /* The Italian reader gives the same verdict, with a safe message. */
  if (scopa_rules_from_json(&again, text, len, "it", it, sizeof it) != rc)
    abort();
  if (rc != SCOPA_OK) {
    if (!msg[0] || !it[0])
      abort();
    fuzz_check_safe(msg, 1);
    fuzz_check_safe(it, 0);
    return;
  }
  if (memcmp(&r, &again, sizeof r) != 0)
    abort();
  char *json = scopa_rules_to_json(&r);
  if (!json ||
      scopa_rules_from_json(&again, json, strlen(json), NULL, msg,
                            sizeof msg) != SCOPA_OK ||
      memcmp(&r, &again, sizeof r) != 0)
    abort();
  scopa_free(json);
}

static void view(const char *text, size_t len) {
  scopa_view v;
  char msg[300];
  if (scopa_view_from_json(&v, text, len, msg, sizeof msg) != SCOPA_OK) {
    if (!msg[0])
      abort();
    fuzz_check_safe(msg, 1);
    return;
  }
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(&v, moves, SCOPA_MAX_MOVES);
  if ((n > 0) != (v.to_play == v.seat))
    abort();
  float features[SCOPA_FEATURES];
  if (scopa_view_features(&v, features, SCOPA_FEATURES) != SCOPA_FEATURES)
    abort();
}

static void text_guard(const char *text, size_t len, unsigned flags) {
  char out[4096], again[4096], small[17];
  size_t n = scopa_text_safe(out, sizeof out, text, len, flags);
  if (n >= sizeof out)
    return; /* the input is at most 1024 bytes: never */
  if (strlen(out) != n)
    abort();
  fuzz_check_safe(out, (int)(flags & SCOPA_SAFE_ASCII));
  if (scopa_text_safe(again, sizeof again, out, n, flags) != n ||
      strcmp(out, again) != 0)
    abort();
  /* Cut short: a prefix of the whole, still safe. */
  scopa_text_safe(small, sizeof small, text, len, flags);
  if (strncmp(small, out, strlen(small)) != 0)
    abort();
  fuzz_check_safe(small, (int)(flags & SCOPA_SAFE_ASCII));
}

static void numbers(const char *text) {
  long long v;
  double d;
  char msg[300], back[64];
  if (scopa_parse_int("--n", text, -1000000, 1000000, &v, msg, sizeof msg) ==
      SCOPA_OK) {
    snprintf(back, sizeof back, "%lld", v);
    /* Only leading zeros and "-0" may differ from the canonical form. */
    if (strlen(text) < strlen(back) || v < -1000000 || v > 1000000)
      abort();
  } else {
    fuzz_check_safe(msg, 0);
  }
  if (scopa_parse_real("--x", text, -1e6, 1e6, &d, msg, sizeof msg) != SCOPA_OK)
    fuzz_check_safe(msg, 0);
  else if (!(d >= -1e6 && d <= 1e6))
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 1025)
    return 0;
  char buf[1025];
  size_t len = size - 1;
  memcpy(buf, data + 1, len);
  buf[len] = 0;
  switch (data[0] % 4) {
  case 0:
    rules(buf, len);
    break;
  case 1:
    view(buf, len);
    break;
  case 2:
    text_guard(buf, len, data[0] & 4 ? SCOPA_SAFE_ASCII : 0);
    break;
  default:
    numbers(buf);
  }
  return 0;
}
