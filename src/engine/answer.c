/*
 * answer.c -- `scopa engine` answers (CONTRACTS.md "scopa engine"): one
 * request line in, one JSON object text out.
 *
 * What must stay true: every line gets exactly one answer except "quit";
 * a wrong request gets {"error": "..."} and never ends the engine; the
 * request's "id" is echoed in every answer, errors included; a "go" move is
 * always one of the "legal" moves of the same request; "hint" lists every
 * legal move once, best first.  The engine keeps nothing between requests
 * but its bots' memory, so answers depend on the request alone (and, by
 * the clock, on the machine: see below).
 *
 * Time: the bots keep movetime_ms themselves, in process (scopa.h
 * "Time"); on top of that every go and hint gets a deadline, so that no
 * request can hang the engine even with a node budget: movetime + half +
 * 250 ms (the bot's default movetime without one), or with "nodes" twice
 * the time the budget takes on the reference machine plus 10 s (generous:
 * the deadline must not make a node budget's answer depend on the
 * machine; best solves every listed world whatever the budget).  Stopped,
 * a bot still answers its best legal move so far.
 */
#include "engine.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BOTS 16

struct scopa_engine {
  scopa_bot *bots[MAX_BOTS];
  char names[MAX_BOTS][ENGINE_BOT_NAME];
  int nbots;
};

int scopa_engine_new(scopa_engine **out) {
  *out = calloc(1, sizeof **out);
  return *out ? SCOPA_OK : SCOPA_ENOMEM;
}

void scopa_engine_free(scopa_engine *e) {
  if (!e)
    return;
  for (int i = 0; i < e->nbots; i++)
    scopa_bot_free(e->bots[i]);
  free(e);
}

/* The engine's bot of that name, created on first use. */
static scopa_bot *bot_named(scopa_engine *e, const char *name) {
  for (int i = 0; i < e->nbots; i++)
    if (strcmp(e->names[i], name) == 0)
      return e->bots[i];
  scopa_bot *bot;
  if (scopa_bot_new(name, &bot) != SCOPA_OK)
    return NULL;
  if (e->nbots == MAX_BOTS) { /* more names than expected: start over */
    for (int i = 0; i < e->nbots; i++)
      scopa_bot_free(e->bots[i]);
    e->nbots = 0;
  }
  e->bots[e->nbots] = bot;
  snprintf(e->names[e->nbots], ENGINE_BOT_NAME, "%s", name);
  e->nbots++;
  return bot;
}

/* Every legal move of the request's view, malloc'd; *n their count. */
static scopa_move *legal_moves(const scopa_view *v, int *n) {
  int cap = 256;
  scopa_move *moves = malloc(sizeof *moves * (size_t)cap);
  if (!moves)
    return NULL;
  *n = scopa_view_legal(v, moves, cap);
  if (*n > cap) {
    scopa_move *more = realloc(moves, sizeof *moves * (size_t)*n);
    if (!more) {
      free(moves);
      return NULL;
    }
    moves = more;
    scopa_view_legal(v, moves, *n);
  }
  return moves;
}

static json_t *move_json(scopa_move m) {
  char text[SCOPA_MOVE_TEXT];
  return json_string(scopa_move_str(m, text));
}

static json_t *error_json(const char *message) {
  return json_pack("{s:s}", "error", message);
}

static json_t *hello_json(void) {
  json_t *bots = json_array();
  for (const char *const *b = scopa_bot_names(); *b; b++)
    json_array_append_new(bots, json_string(*b));
  return json_pack("{s:s, s:s, s:o}", "name", "scopa", "version", SCOPA_VERSION,
                   "bots", bots);
}

static json_t *legal_json(const scopa_move *moves, int n) {
  json_t *arr = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(arr, move_json(moves[i]));
  return json_pack("{s:o}", "moves", arr);
}

static int is_legal(scopa_move m, const scopa_move *moves, int n) {
  for (int i = 0; i < n; i++)
    if (moves[i] == m)
      return 1;
  return 0;
}

/* The request's limits with the engine's deadline (see the top), counted
 * from now. */
static scopa_bot_limits limits_of(const engine_request *req,
                                  const scopa_bot *bot) {
  scopa_bot_limits l = req->limits;
  int64_t ms = l.movetime_ms > 0 ? l.movetime_ms : scopa_bot_movetime(bot);
  ms = l.nodes ? 2 * (int64_t)(l.nodes / SCOPA_BOT_NODES_PER_MS) + 10000
               : ms + ms / 2 + 250;
  l.deadline_ns = scopa_clock_ns() + ms * 1000000;
  return l;
}

static json_t *go_json(scopa_engine *e, const engine_request *req,
                       const scopa_move *moves, int n) {
  scopa_bot *bot = bot_named(e, req->bot);
  scopa_move m = 0;
  if (!bot)
    return error_json("cannot create the bot");
  if (n == 1) /* nothing to think about */
    return json_pack("{s:o}", "move", move_json(moves[0]));
  scopa_bot_limits limits = limits_of(req, bot);
  if (scopa_bot_choose(bot, &req->view, &limits, &m) != SCOPA_OK ||
      !is_legal(m, moves, n)) {
    /* A bot bug must not become an illegal move on the wire. */
    char text[SCOPA_MOVE_TEXT];
    fprintf(stderr, "scopa engine: bot %s chose %s, not a legal move\n",
            req->bot, m ? scopa_move_str(m, text) : "nothing");
    m = moves[0];
  }
  return json_pack("{s:o}", "move", move_json(m));
}

static int cmp_move(const void *a, const void *b) {
  scopa_move x = *(const scopa_move *)a, y = *(const scopa_move *)b;
  return x < y ? -1 : x > y;
}

/* Position of m in sorted[0..n-1], or -1. */
static long find_move(const scopa_move *sorted, int n, scopa_move m) {
  const scopa_move *at = bsearch(&m, sorted, (size_t)n, sizeof m, cmp_move);
  return at ? at - sorted : -1;
}

/* A number, or null where there is none (NAN). */
static json_t *number_json(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* One listed move: "value" always a number (0 where there is no
 * estimate, as the contract has it); the hint's other numbers when it is
 * the library's hint. */
static json_t *hint_entry(const scopa_hint *h, double value, int full) {
  json_t *o =
      json_pack("{s:o, s:f}", "move", move_json(h->move), "value", value);
  if (o && full) {
    json_object_set_new(o, "margin", number_json(h->margin));
    json_object_set_new(o, "loss", number_json(h->loss));
    json_object_set_new(o, "loss_margin", number_json(h->loss_margin));
    json_object_set_new(o, "mark", json_string(scopa_hint_mark_text(h->mark)));
  }
  return o;
}

/* The hint of the request: the library's (scopa_bot_hint) for "best",
 * the bot's default, with the request's seed or else the position's;
 * another bot named gives its own values (scopa_bot_evaluate), to
 * compare bots.  Returns the count of ranked[] as scopa_bot_hint. */
static int rank_moves(scopa_engine *e, const engine_request *req, int n,
                      scopa_hint *ranked, int *full, scopa_hint_info *info) {
  scopa_bot *bot = bot_named(e, req->bot);
  if (!bot)
    return -1;
  *full = !req->bot_given || strcmp(req->bot, "best") == 0;
  if (*full) {
    /* The hint's work is always counted in nodes (its deadline then
     * generous, see the top), its seed the request's or the position's. */
    engine_request r = *req;
    if (!r.limits.nodes)
      r.limits.nodes =
          (uint64_t)(r.limits.movetime_ms > 0 ? r.limits.movetime_ms
                                              : SCOPA_HINT_MS) *
          SCOPA_BOT_NODES_PER_MS;
    if (!r.seed_given)
      r.limits.seed = scopa_hint_seed(NULL, 0, &r.view);
    scopa_bot_limits limits = limits_of(&r, bot);
    return scopa_bot_hint(bot, &r.view, &limits, ranked, n, info);
  }
  scopa_bot_limits limits = limits_of(req, bot);
  scopa_move *moves = malloc(sizeof *moves * (size_t)n);
  double *values = malloc(sizeof *values * (size_t)n);
  int got = moves && values
                ? scopa_bot_evaluate(bot, &req->view, &limits, moves, values, n)
                : -1;
  for (int i = 0; i < got && i < n; i++)
    ranked[i] = (scopa_hint){moves[i], values[i], NAN, NAN, NAN, 0};
  free(moves);
  free(values);
  return got;
}

/* Values from the hint, then any legal move it left out at the lowest
 * value, each legal move once (moves it got wrong are dropped).
 * "estimated": false when there were no values (NAN): the values are
 * then 0 and only the order means something. */
static json_t *hint_json(scopa_engine *e, const engine_request *req,
                         const scopa_move *moves, int n) {
  scopa_hint *ranked = malloc(sizeof *ranked * (size_t)n);
  scopa_move *sorted = malloc(sizeof *sorted * (size_t)n);
  uint8_t *listed = calloc((size_t)n, 1);
  json_t *arr = json_array(), *out = NULL;
  scopa_hint_info info = {0, 0, 0};
  int full = 0;
  if (!ranked || !sorted || !listed || !arr)
    goto done;
  memcpy(sorted, moves, sizeof *sorted * (size_t)n);
  qsort(sorted, (size_t)n, sizeof *sorted, cmp_move);
  int got = rank_moves(e, req, n, ranked, &full, &info);
  if (got < 0 && !full) {
    out = error_json("cannot create the bot");
    goto done;
  }
  got = got < 0 ? 0 : got > n ? n : got;
  double worst = 0;
  int k = 0, estimated = 1;
  for (int i = 0; i < got; i++) {
    long at = find_move(sorted, n, ranked[i].move);
    if (at < 0 || listed[at])
      continue;
    estimated &= isfinite(ranked[i].value) != 0;
    double v = isfinite(ranked[i].value) ? ranked[i].value : 0;
    worst = k++ == 0 || v < worst ? v : worst;
    listed[at] = 1;
    json_array_append_new(arr, hint_entry(&ranked[i], v, full));
  }
  for (int i = 0; i < n; i++) {
    long at = find_move(sorted, n, moves[i]);
    if (!listed[at]) {
      listed[at] = 1;
      scopa_hint left = {moves[i], worst, NAN, NAN, NAN, 0};
      json_array_append_new(arr, hint_entry(&left, worst, full));
    }
  }
  out =
      json_pack("{s:O, s:b}", "moves", arr, "estimated", estimated && got > 0);
  if (out && full) {
    json_object_set_new(out, "worlds", json_integer(info.worlds));
    json_object_set_new(out, "exact", json_boolean(info.exact));
  }
done:
  json_decref(arr);
  free(ranked);
  free(sorted);
  free(listed);
  return out ? out : error_json("out of memory");
}

static json_t *answer_json(scopa_engine *e, const engine_request *req) {
  int n = 0;
  if (req->cmd == ENGINE_HELLO)
    return hello_json();
  scopa_move *moves = legal_moves(&req->view, &n);
  json_t *out;
  if (!moves)
    return error_json("out of memory");
  if (n <= 0)
    out = error_json("no legal move");
  else if (req->cmd == ENGINE_LEGAL)
    out = legal_json(moves, n);
  else if (req->cmd == ENGINE_GO)
    out = go_json(e, req, moves, n);
  else
    out = hint_json(e, req, moves, n);
  free(moves);
  return out;
}

char *scopa_engine_answer(scopa_engine *e, const char *line, size_t len,
                          int *quit) {
  engine_request req;
  char msg[300];
  json_t *out;
  *quit = 0;
  if (scopa__engine_parse(line, len, &req, msg, sizeof msg) != SCOPA_OK)
    out = error_json(msg);
  else if (req.cmd == ENGINE_QUIT) {
    *quit = 1;
    scopa__engine_request_free(&req);
    return NULL;
  } else
    out = answer_json(e, &req);
  if (!out)
    out = error_json("out of memory");
  if (out && req.id)
    json_object_set(out, "id", req.id);
  char *text = out ? json_dumps(out, JSON_COMPACT | JSON_ENSURE_ASCII |
                                         JSON_PRESERVE_ORDER)
                   : NULL;
  json_decref(out);
  scopa__engine_request_free(&req);
  if (!text) /* out of memory, or an id jansson cannot print */
    text = strdup("{\"error\": \"out of memory\"}");
  return text;
}
