/*
 * fuzz_engine.c -- libFuzzer target for the `scopa engine` request parser
 * (src/engine/request.c): any bytes must parse to a checked request or an
 * error message, never a crash, a leak or undefined behaviour.
 *
 * What it checks beyond not crashing: the message of an error is printable
 * ASCII (it goes back to the client inside JSON), both as parsed and as
 * the answer's decoded "error"; a parsed legal/go/hint
 * request has the view's seat to play with at least one legal move; and the
 * whole answer for "legal" and "hello" is one JSON object.  "go" and "hint"
 * run bots, which are too slow for fuzzing, so only their parsing is
 * exercised.  An input starting with byte 0x01 is appended to the start
 * of a valid request (up to its dealt cards), so the fuzzer reaches the
 * view checks without a corpus.
 */
#include "../src/engine/engine.h"
#include "fuzz_check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static scopa_engine *engine;

static const char PREFIX[] =
    "{\"cmd\":\"legal\",\"rules\":{},\"seat\":0,\"scores\":[0,0],"
    "\"round\":{\"dealer\":1,\"table\":[\"1c\",\"5c\",\"6s\",\"9d\"],"
    "\"dealt\":[";

static int one_input(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0 || data[0] != 1)
    return one_input(data, size);
  size_t n = sizeof PREFIX - 1;
  uint8_t *line = malloc(n + size - 1);
  if (!line)
    return 0;
  memcpy(line, PREFIX, n);
  memcpy(line + n, data + 1, size - 1);
  one_input(line, n + size - 1);
  free(line);
  return 0;
}

static int one_input(const uint8_t *data, size_t size) {
  engine_request req;
  char msg[300];
  if (!engine && scopa_engine_new(&engine) != SCOPA_OK)
    abort();
  int rc = scopa__engine_parse((const char *)data, size, &req, msg, sizeof msg);
  if (rc != SCOPA_OK) {
    fuzz_check_safe(msg, 1);
  } else if (req.cmd == ENGINE_LEGAL || req.cmd == ENGINE_GO ||
             req.cmd == ENGINE_HINT) {
    scopa_move moves[SCOPA_MAX_MOVES];
    if (req.view.to_play != req.view.seat ||
        scopa_view_legal(&req.view, moves, SCOPA_MAX_MOVES) <= 0)
      abort();
  }
  int cmd = rc == SCOPA_OK ? req.cmd : -1;
  scopa__engine_request_free(&req);
  if (cmd == ENGINE_GO || cmd == ENGINE_HINT)
    return 0;
  int quit = 0;
  char *answer = scopa_engine_answer(engine, (const char *)data, size, &quit);
  if (quit != (cmd == ENGINE_QUIT) || (!quit && !answer))
    abort();
  if (answer) {
    json_t *obj = json_loads(answer, 0, NULL);
    if (!json_is_object(obj))
      abort();
    /* The error as the client decodes it: no control character either
     * (issue 14 item 1: a DEL in a rules key came back raw). */
    const char *err = json_string_value(json_object_get(obj, "error"));
    if (err)
      fuzz_check_safe(err, 1);
    json_decref(obj);
  }
  scopa_free(answer);
  return 0;
}
