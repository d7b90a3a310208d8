/*
 * fuzz_notation.c -- libFuzzer target for card and move notation and for
 * rules options given as text: nothing crashes, and whatever parses prints
 * back to the same text (notation is canonical).
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
  scopa_move m;
  if (scopa_move_parse(text, &m, msg, sizeof msg) == SCOPA_OK) {
    char back[SCOPA_MOVE_TEXT];
    scopa_move again;
    scopa_move_str(m, back);
    assert(scopa_move_parse(back, &again, NULL, 0) == SCOPA_OK);
    assert(again == m);
  } else {
    assert(msg[0]);
    fuzz_check_safe(msg, 0);
  }
  char *eq = strchr(text, '=');
  if (eq) {
    scopa_rules r;
    scopa_rules_init(&r);
    *eq = 0;
    if (scopa_rules_set_text(&r, text, eq + 1, msg, sizeof msg) == SCOPA_OK)
      scopa_rules_check(&r, msg, sizeof msg);
    else
      fuzz_check_safe(msg, 0);
  }
  return 0;
}
