/*
 * request.c -- parses one `scopa engine` request line into a checked
 * request (CONTRACTS.md "scopa engine"), and the JSON readers of rules and
 * views that the bindings share.
 *
 * Nothing here trusts the input: any bytes may arrive (not JSON, invalid
 * UTF-8, deep nesting, huge numbers, wrong types), and every one of them
 * ends as either a checked request or an error message, never a crash.
 * JSON values have exact types, as in records: 3 is not 3.0 nor "3", true
 * is not 1.  A view is only accepted if it can happen (scopa_view_build
 * replays it on a deck that agrees with everything the seat saw).  No I/O
 * and no global state: a pure function of the bytes.
 */
#include "engine.h"
#include "json_shapes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define FAIL(code, ...) (scopa__json_msg(msg, msgsize, __VA_ARGS__), (code))

/* ---- a request ------------------------------------------------------- */

static const char *const COMMANDS[] = {"hello", "legal", "go", "hint", "quit"};

static int read_command(json_t *obj, char *msg, size_t msgsize) {
  json_t *v = json_object_get(obj, "cmd");
  const char *s = json_string_value(v);
  if (!v)
    return FAIL(SCOPA_EINVAL, "the request needs a \"cmd\"");
  if (!s)
    return FAIL(SCOPA_EINVAL, "\"cmd\" must be a string");
  for (int i = 0; i < (int)(sizeof COMMANDS / sizeof *COMMANDS); i++)
    if (strlen(s) == json_string_length(v) && strcmp(s, COMMANDS[i]) == 0)
      return i;
  return FAIL(SCOPA_EINVAL,
              "unknown cmd \"%.40s\" (hello, legal, go, hint, "
              "quit)",
              s);
}

static int known_bot(const char *name) {
  for (const char *const *b = scopa_bot_names(); *b; b++)
    if (strcmp(*b, name) == 0)
      return 1;
  return 0;
}

/* bot, movetime_ms, seed, threads, nodes: all optional. */
static int read_limits(json_t *obj, engine_request *req, char *msg,
                       size_t msgsize) {
  json_t *bot = json_object_get(obj, "bot");
  long long v;
  int rc;
  snprintf(req->bot, sizeof req->bot, "best");
  if (bot) {
    const char *s = json_string_value(bot);
    if (!s || strlen(s) != json_string_length(bot))
      return FAIL(SCOPA_EINVAL, "\"bot\" must be a string");
    if (strlen(s) >= sizeof req->bot || !known_bot(s))
      return FAIL(SCOPA_EINVAL, "unknown bot \"%.40s\"", s);
    snprintf(req->bot, sizeof req->bot, "%s", s);
    req->bot_given = 1;
  }
  if (json_object_get(obj, "movetime_ms")) {
    if ((rc = scopa__json_read_int(obj, "movetime_ms", 0,
                                   ENGINE_MAX_MOVETIME_MS, &v, msg, msgsize)) !=
        SCOPA_OK)
      return SCOPA_EINVAL;
    req->limits.movetime_ms = (int)v;
  }
  if (json_object_get(obj, "seed")) {
    json_t *s = json_object_get(obj, "seed");
    if (!json_is_integer(s))
      return FAIL(SCOPA_EINVAL, "\"seed\" must be a whole number");
    req->limits.seed = (uint64_t)json_integer_value(s);
    req->seed_given = 1;
  }
  if (json_object_get(obj, "threads")) {
    if ((rc = scopa__json_read_int(obj, "threads", 1, 256, &v, msg, msgsize)) !=
        SCOPA_OK)
      return SCOPA_EINVAL;
    req->limits.threads = (int)v;
  }
  if (json_object_get(obj, "nodes")) {
    if ((rc = scopa__json_read_int(obj, "nodes", 0, ENGINE_MAX_NODES, &v, msg,
                                   msgsize)) != SCOPA_OK)
      return SCOPA_EINVAL;
    req->limits.nodes = (uint64_t)v;
  }
  return SCOPA_OK;
}

int scopa__engine_parse(const char *line, size_t len, engine_request *req,
                        char *msg, size_t msgsize) {
  json_error_t err;
  memset(req, 0, sizeof *req);
  req->limits.threads = 1;
  json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &err);
  if (!root) {
    /* A key given twice makes the request ambiguous, and a \u0000 in a
     * string could hide a name ("go\u0000x"): both are errors, but the
     * id can still be echoed when the text is otherwise JSON. */
    json_error_t again;
    json_t *lax = json_loadb(line, len, JSON_ALLOW_NUL, &again);
    if (json_is_object(lax))
      req->id = json_incref(json_object_get(lax, "id"));
    json_decref(lax);
    return FAIL(SCOPA_EJSON, "not valid JSON: %s (column %d)", err.text,
                err.column);
  }
  int rc = SCOPA_OK;
  if (!json_is_object(root)) {
    rc = FAIL(SCOPA_EJSON, "a request is one JSON object");
    goto done;
  }
  req->id = json_incref(json_object_get(root, "id"));
  if ((rc = read_command(root, msg, msgsize)) < 0)
    goto done;
  req->cmd = rc;
  rc = SCOPA_OK;
  if (req->cmd == ENGINE_HELLO || req->cmd == ENGINE_QUIT)
    goto done;
  if (req->cmd != ENGINE_LEGAL &&
      (rc = read_limits(root, req, msg, msgsize)) != SCOPA_OK)
    goto done;
  if ((rc = scopa__json_read_view(root, &req->view, msg, msgsize)) != SCOPA_OK)
    goto done;
  if (req->view.to_play == SCOPA_NO_SEAT)
    rc = FAIL(SCOPA_EOVER, "the round is over: nobody is to play");
  else if (req->view.to_play != req->view.seat)
    rc = FAIL(SCOPA_EVIEW, "seat %d is not to play: seat %d is", req->view.seat,
              req->view.to_play);
done:
  json_decref(root);
  return rc;
}

void scopa__engine_request_free(engine_request *req) {
  json_decref(req->id);
  req->id = NULL;
}
