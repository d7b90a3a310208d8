/*
 * engine.h -- what the files of src/engine share: a parsed `scopa engine`
 * request (CONTRACTS.md "scopa engine") and the JSON readers behind it.
 * Not API: the API is scopa.h's section "The `scopa engine` protocol".
 *
 * Parsing is pure (bytes in, a request out, no I/O, no global state), so
 * fuzz/fuzz_engine.c can drive it directly.  A request that parses is
 * fully checked: its rules are valid, its view can happen, and for legal,
 * go and hint its seat is the one to play.
 */
#ifndef SCOPA_ENGINE_ENGINE_H
#define SCOPA_ENGINE_ENGINE_H

#include "../json/json_shapes.h" /* the readers: scopa__json_read_view */
#include "scopa.h"

#include <jansson.h>

enum { ENGINE_HELLO, ENGINE_LEGAL, ENGINE_GO, ENGINE_HINT, ENGINE_QUIT };

/* Longest bot name a request may give. */
#define ENGINE_BOT_NAME 32
/* Longest time budget a request may ask for (10 minutes). */
#define ENGINE_MAX_MOVETIME_MS 600000
/* Largest node budget a request may ask for (about 400 s of search on the
 * reference machine). */
#define ENGINE_MAX_NODES 1000000000

typedef struct engine_request {
  int cmd;                   /* ENGINE_*                                */
  json_t *id;                /* the request's "id" (a reference), or NULL */
  char bot[ENGINE_BOT_NAME]; /* go/hint: the bot ("best" by default)    */
  int bot_given;             /* "bot" was in the request                */
  int seed_given;            /* "seed" was in the request               */
  scopa_bot_limits limits;   /* go/hint: movetime_ms, seed, threads,
                                nodes                                    */
  scopa_view view;           /* legal/go/hint: the checked view         */
} engine_request;

/* Parses one request line.  Returns SCOPA_OK, or a negative code with a
 * message; either way req->id is set when the line was a JSON object with
 * an "id", and must be released with scopa__engine_request_free. */
int scopa__engine_parse(const char *line, size_t len, engine_request *req,
                        char *msg, size_t msgsize);
void scopa__engine_request_free(engine_request *req);

#endif
