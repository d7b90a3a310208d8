/*
 * fuzz_notation.c -- libFuzzer target for card and move notation and for
 * rules options given as text: nothing crashes, and whatever parses prints
 * back to the same text (notation is canonical).  In Italian the parser and
 * the check of a move on a dealt table give the same verdict as in
 * English, each with a message that is safe to print.
 */
#include "scopa.h"

#include "fuzz_check.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char text[256], msg[200];
  if (size >= sizeof text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  int card = scopa_card_parse(text);
  if (card >= 0) {
    char back[SCOPA_CARD_TEXT];
    assert(strcmp(scopa_card_str(card, back), text) == 0);
  }
  scopa_move m, m_it;
  char it[200];
  int rc = scopa_move_parse(text, NULL, &m, msg, sizeof msg);
  assert(scopa_move_parse(text, "it", &m_it, it, sizeof it) == rc);
  if (rc == SCOPA_OK) {
    char back[SCOPA_MOVE_TEXT];
    scopa_move again;
    scopa_move_str(m, back);
    assert(scopa_move_parse(back, NULL, &again, NULL, 0) == SCOPA_OK);
    assert(again == m && m_it == m);
    /* The move on the first table of a fixed deck (card i*7 mod 40 at
     * position i), in both languages. */
    scopa_rules r;
    scopa_rules_init(&r);
    if (scopa_rules_check(&r, NULL, NULL, 0) != SCOPA_OK)
      abort();
    uint8_t deck[40];
    for (int i = 0; i < 40; i++)
      deck[i] = (uint8_t)(i * 7 % 40);
    scopa_state s;
    if (scopa_state_deal(&s, &r, 1, deck, NULL, 0) == SCOPA_OK) {
      int legal = scopa_state_check(&s, m, NULL, msg, sizeof msg);
      assert(scopa_state_check(&s, m, "it", it, sizeof it) == legal);
      if (legal != SCOPA_OK) {
        assert(msg[0] && it[0] && strcmp(msg, it) != 0);
        fuzz_check_safe(msg, 0);
        fuzz_check_safe(it, 0);
      }
    }
  } else {
    assert(msg[0] && it[0]);
    fuzz_check_safe(msg, 0);
    fuzz_check_safe(it, 0);
  }
  char *eq = strchr(text, '=');
  if (eq) {
    scopa_rules r;
    scopa_rules_init(&r);
    *eq = 0;
    if (scopa_rules_set_text(&r, text, eq + 1, NULL, msg, sizeof msg) ==
        SCOPA_OK)
      scopa_rules_check(&r, NULL, msg, sizeof msg);
    else
      fuzz_check_safe(msg, 0);
  }
  return 0;
}
