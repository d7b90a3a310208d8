/*
 * fuzz_proto.c -- libFuzzer target for the `scopa serve` message parser
 * (src/proto/proto.c): any bytes parse to a message or an error, never a
 * crash, a leak or undefined behaviour.
 *
 * Beyond not crashing: an error has a code and both texts, which are
 * valid JSON strings once written (proto_error_json gives one object);
 * a parsed message's strings are NUL-terminated within their bounds, a
 * name has no control character and cleaning it again changes nothing,
 * a move's ply is in 0..40, and "lang" and "deck" are one of the values
 * the server knows.  The same bytes as a state, hint or review given its
 * sentences (proto_words) never crash either.
 */
#include "../src/proto/proto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  proto_msg m;
  proto_error e;
  char *copy = malloc(size + 1);
  if (copy) {
    memcpy(copy, data, size);
    copy[size] = 0;
    free(proto_words(copy, NULL, "it", SCOPA_DECK_FRENCH));
    free(copy);
  }
  if (proto_parse((const char *)data, size, &m, &e) != 0) {
    if (!e.code || !e.en[0] || !e.it[0])
      abort();
    char *text = proto_error_json(NULL, &e);
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    if (text && !json_is_object(o))
      abort();
    json_decref(o);
    free(text);
    proto_msg_free(&m); /* the id kept for the refusal */
    return 0;
  }
  if (strlen(m.code) > PROTO_CODE_MAX || strlen(m.name) > PROTO_NAME_MAX ||
      strlen(m.token) > PROTO_TOKEN_MAX || m.nseats > PROTO_MAX_SEATS)
    abort();
  for (const unsigned char *p = (const unsigned char *)m.name; *p; p++)
    if (*p < 0x20 || *p == 0x7f)
      abort();
  /* Cleaning is a fixed point: no control, bidi mark or edge space is
   * left for a second pass to take out. */
  char again[PROTO_NAME_MAX + 1];
  proto_clean_name(m.name, again);
  if (strcmp(again, m.name) != 0)
    abort();
  if (m.type == PROTO_MOVE && (m.ply < 0 || m.ply > 40))
    abort();
  if ((m.lang[0] && strcmp(m.lang, "en") && strcmp(m.lang, "it")) ||
      (m.deck[0] && strcmp(m.deck, SCOPA_DECK_FRENCH) &&
       strcmp(m.deck, "italiane")))
    abort();
  char *seated = proto_seated(m.id, "ABC234", 0, "t", "p");
  free(seated);
  proto_msg_free(&m);
  return 0;
}
