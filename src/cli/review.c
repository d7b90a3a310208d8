/*
 * review.c -- `scopa review FILE`: the post-game review.  Every move of a
 * record is valued from its player's own view (what that seat knew then,
 * never the hidden cards) by the strongest bot's evaluation, next to the
 * best move there was; the points a choice cost are the best move's value
 * minus the value of the move played.  Costly moves are marked.
 *
 * The game is played again through the library's game object
 * (scopa_match), so the review sees each position exactly as it was.  The
 * bot works by a node budget (the work of --movetime ms), so a review of
 * the same record with the same options is the same on any machine.
 * `--json` is what the web client's review reads.
 */
#include "cli.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Marks: a move that cost at least this much is "?" (a slip), and at least
 * BLUNDER "??".  Values are expected points of the round for the mover's
 * side. */
#define SLIP 0.3
#define BLUNDER 1.0

typedef struct review_opts {
  const char *path;
  const char *bot;
  int movetime_ms;
  int seat; /* -1: every seat */
  int json, italian;
} review_opts;

typedef struct reviewed {
  int round, ply, seat, choices, exact;
  scopa_move played, best;
  double value, best_value, cost;
} reviewed;

/* Values as printed: no "-0.00". */
static double shown(double v) { return v > -0.005 && v < 0.005 ? 0 : v; }

static const char *mark_of(double cost) {
  return cost >= BLUNDER ? "??" : cost >= SLIP ? "?" : "";
}

/* In a 2-player round with the stock empty, the mover can count every
 * card: the evaluation then sees the one world there is. */
static int exact_view(const scopa_view *v) {
  return v->players == 2 && v->stock == 0;
}

static int value_move(scopa_bot *bot, const scopa_match *m,
                      const review_opts *o, scopa_move played, reviewed *r) {
  static scopa_move moves[SCOPA_MAX_MOVES];
  static double values[SCOPA_MAX_MOVES];
  scopa_view v;
  int seat = scopa_match_to_play(m);
  scopa_match_view(m, seat, &v);
  scopa_bot_limits lim = {.seed = scopa_match_bot_seed(m),
                          .nodes = (uint64_t)o->movetime_ms *
                                   SCOPA_BOT_NODES_PER_MS};
  int n = scopa_bot_evaluate(bot, &v, &lim, moves, values, SCOPA_MAX_MOVES);
  if (n <= 0)
    return -1;
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  memset(r, 0, sizeof *r);
  r->seat = seat;
  r->choices = n;
  r->played = played;
  r->best = moves[0];
  r->best_value = values[0];
  r->value = values[0];
  for (int i = 0; i < n; i++)
    if (moves[i] == played)
      r->value = values[i];
  r->cost = r->best_value - r->value;
  if (r->cost < 0)
    r->cost = 0;
  r->exact = exact_view(&v);
  return 0;
}

static json_t *reviewed_json(const reviewed *r) {
  char a[SCOPA_MOVE_TEXT], b[SCOPA_MOVE_TEXT];
  return json_pack("{s:i, s:i, s:s, s:f, s:s, s:f, s:f, s:s, s:i, s:b}",
                   "ply", r->ply, "seat", r->seat, "move",
                   scopa_move_str(r->played, a), "value", r->value, "best",
                   scopa_move_str(r->best, b), "best_value", r->best_value,
                   "cost", r->cost, "mark", mark_of(r->cost), "choices",
                   r->choices, "exact", r->exact);
}

static void print_reviewed(const reviewed *r, const review_opts *o,
                           const char *name) {
  char a[SCOPA_MOVE_TEXT], b[SCOPA_MOVE_TEXT];
  scopa_move_str(r->played, a);
  scopa_move_str(r->best, b);
  printf("  %2d. %-12.12s %-14s %+6.2f", r->ply + 1, name, a, shown(r->value));
  if (r->played != r->best && r->cost > 0.005)
    printf("   %s %s %+6.2f  %s %.2f %s", o->italian ? "meglio" : "best", b,
           shown(r->best_value), o->italian ? "costo" : "cost", r->cost,
           mark_of(r->cost));
  if (r->exact)
    printf("  (%s)", o->italian ? "esatto" : "exact");
  printf("\n");
}

/* A seat's name for the text: the record's, printable, or "seat N". */
static void seat_name(const scopa_match *m, int seat, char *buf, size_t n) {
  scopa_seat s;
  scopa_match_seat(m, seat, &s, NULL);
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)s.name; *p && k + 1 < n;
       p++)
    buf[k++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
  buf[k] = 0;
  if (!k)
    snprintf(buf, n, "seat %d", seat);
}

static int review(const scopa_match *record, scopa_bot *bot,
                  const review_opts *o) {
  scopa_match *m = NULL;
  int players = scopa_match_rules(record)->players, rc = 1;
  double cost[SCOPA_MAX_SEATS] = {0};
  int slips[SCOPA_MAX_SEATS] = {0}, rounds = scopa_match_rounds(record);
  json_t *out = json_array();
  if (scopa_match_new(scopa_match_rules(record), NULL, NULL, &m, NULL, 0))
    goto done;
  if (rounds)
    scopa_match_set_first_dealer(m, scopa_match_round(record, 0)->dealer);
  for (int r = 0; r < rounds; r++) {
    const scopa_replay_round *rr = scopa_match_round(record, r);
    json_t *moves = json_array();
    if (scopa_match_deal_deck(m, rr->deck, NULL, NULL, 0) != SCOPA_OK)
      goto done;
    if (!o->json)
      printf("%s %d\n", o->italian ? "Mano" : "Round", r + 1);
    for (int i = 0; i < rr->nmoves; i++) {
      int seat = scopa_match_to_play(m);
      reviewed one;
      if ((o->seat < 0 || o->seat == seat) &&
          value_move(bot, m, o, rr->moves[i], &one) == 0 && one.choices > 1) {
        char name[64];
        one.round = r;
        one.ply = i;
        cost[seat] += one.cost;
        slips[seat] += one.cost >= SLIP;
        seat_name(record, seat, name, sizeof name);
        if (o->json)
          json_array_append_new(moves, reviewed_json(&one));
        else
          print_reviewed(&one, o, name);
      }
      if (scopa_match_apply(m, rr->moves[i], NULL, NULL, 0) != SCOPA_OK)
        goto done;
    }
    json_array_append_new(out, json_pack("{s:i, s:o}", "round", r, "moves",
                                         moves));
  }
  if (o->json) {
    json_t *seats = json_array();
    for (int s = 0; s < players; s++)
      json_array_append_new(seats, json_pack("{s:i, s:f, s:i}", "seat", s,
                                             "cost", cost[s], "marked",
                                             slips[s]));
    json_t *doc = json_pack("{s:s, s:i, s:o, s:o}", "bot", scopa_bot_name(bot),
                            "movetime_ms", o->movetime_ms, "rounds", out,
                            "seats", seats);
    out = NULL;
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text)
      goto done;
    printf("%s\n", text);
    free(text);
  } else {
    printf("\n%s\n", o->italian ? "Punti persi per scelta, per posto:"
                                : "Points lost by choice, per seat:");
    for (int s = 0; s < players; s++) {
      char name[64];
      seat_name(record, s, name, sizeof name);
      printf("  %-12.12s %.2f (%d %s)\n", name, cost[s], slips[s],
             o->italian ? "segnate" : "marked");
    }
  }
  rc = 0;
done:
  json_decref(out);
  scopa_match_free(m);
  return rc;
}

static int usage(FILE *f) {
  fprintf(f,
          "usage: scopa review [--json] [--lang it|en] [--bot NAME]\n"
          "                    [--movetime MS] [--seat S] FILE\n"
          "Values every move of a game record from its player's view with\n"
          "the strongest bot (default best, the work of 100 ms a move), next\n"
          "to the best move; '?' marks a move that cost %.1f points or more,\n"
          "'?" "?' %.1f or more.\n",
          SLIP, BLUNDER);
  return f == stderr ? 2 : 0;
}

/* A numeric flag, read strictly (cli_int: the whole value, in range; a
 * one-line reason and exit status 2 otherwise). */
static int number(const char *flag, const char *text, int lo, int hi,
                  int *out) {
  long long v;
  int rc = cli_int("review", flag, text, lo, hi, &v);
  if (rc == 0)
    *out = (int)v;
  return rc;
}

int cli_review(int argc, char **argv) {
  review_opts o = {NULL, "best", 100, -1, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help"))
      return usage(stdout);
    if (!strcmp(a, "--json"))
      o.json = 1;
    else if (!strcmp(a, "--lang") && v && (!strcmp(v, "it") || !strcmp(v, "en")))
      o.italian = !strcmp(argv[++i], "it");
    else if (!strcmp(a, "--bot") && v)
      o.bot = argv[++i];
    else if (!strcmp(a, "--movetime") && v) {
      if (number(a, argv[++i], 1, 60000, &o.movetime_ms))
        return 2;
    } else if (!strcmp(a, "--seat") && v) {
      if (number(a, argv[++i], 0, SCOPA_MAX_SEATS - 1, &o.seat))
        return 2;
    } else if (a[0] == '-' && a[1]) {
      char shown[80];
      fprintf(stderr, "scopa review: unknown option or missing value: %s\n",
              cli_shown(a, shown, sizeof shown));
      return usage(stderr);
    } else if (!o.path)
      o.path = a;
    else
      return usage(stderr);
  }
  if (!o.path)
    return usage(stderr);
  size_t len;
  char *text, why[600];
  int read = scopa_record_read_file(o.path, &text, &len, why, sizeof why);
  if (read != SCOPA_OK) { /* too long is an invalid record, as in replay */
    fprintf(stderr, "scopa review: %s\n", why);
    return read == SCOPA_ERECORD ? 1 : 2;
  }
  scopa_match *record = NULL;
  scopa_fault f;
  int rc = scopa_match_from_record(text, len, &record, &f);
  scopa_free(text);
  if (rc != SCOPA_OK) {
    char shown[200];
    fprintf(stderr, "scopa review: %s is not a good record: %s\n",
            cli_shown(o.path, shown, sizeof shown), f.message);
    return 1;
  }
  if (o.seat >= scopa_match_rules(record)->players) {
    fprintf(stderr, "scopa review: the game has no seat %d\n", o.seat);
    scopa_match_free(record);
    return 2;
  }
  scopa_bot *bot = NULL;
  if (scopa_bot_new(o.bot, &bot) != SCOPA_OK) {
    char shown[80];
    fprintf(stderr, "scopa review: no bot named '%s'\n",
            cli_shown(o.bot, shown, sizeof shown));
    scopa_match_free(record);
    return 2;
  }
  rc = review(record, bot, &o);
  scopa_bot_free(bot);
  scopa_match_free(record);
  return rc;
}
