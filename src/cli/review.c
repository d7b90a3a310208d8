/*
 * review.c -- `scopa review FILE`: the post-game review in the terminal,
 * from the library's scopa_match_review_json (which says how moves are
 * valued).  Text in Italian or English shows the moves where there was a
 * choice, the best move when it was another and what the choice cost,
 * marked "?" or "??"; --json prints the library's document as it is (the
 * web client's review reads the same shape from the server).
 */
#include "cli.h"
#include "proto.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct review_opts {
  const char *path;
  const char *bot;
  int movetime_ms;
  int seat; /* -1: every seat */
  int json, italian;
  int threads;
} review_opts;

/* A seat's name for the text: the record's, printable, or "seat N". */
static void seat_name(const scopa_match *m, int seat, char *buf, size_t n) {
  scopa_seat s;
  size_t len;
  scopa_match_seat(m, seat, &s, &len);
  if (len)
    scopa_text_safe(buf, n, s.name, len, 0);
  else
    snprintf(buf, n, "seat %d", seat);
}

static double num(json_t *obj, const char *key) {
  return json_number_value(json_object_get(obj, key));
}

static const char *str(json_t *obj, const char *key) {
  const char *s = json_string_value(json_object_get(obj, key));
  return s ? s : "";
}

/* "Take the 7 of coins with your 7 of cups: takes the settebello". */
static void move_sentence(json_t *mv, const char *key, const char *why_key,
                          const char *lang, char *buf, size_t n) {
  scopa_move m;
  char move[300] = "", why[300] = "";
  if (scopa_move_parse(str(mv, key), NULL, &m, NULL, 0) == SCOPA_OK)
    scopa_move_words(m, lang, NULL, move, sizeof move);
  scopa_why w;
  proto_why_of(json_object_get(mv, why_key), &w);
  scopa_why_words(&w, 2, lang, NULL, why, sizeof why);
  snprintf(buf, n, "%s%s%s", move, *why ? ": " : "", why);
}

static void print_move(json_t *mv, const scopa_match *m, const review_opts *o) {
  const char *lang = o->italian ? "it" : "en";
  char name[64], said[700];
  seat_name(m, (int)json_integer_value(json_object_get(mv, "seat")), name,
            sizeof name);
  move_sentence(mv, "move", "why", lang, said, sizeof said);
  printf("  %2d. %-12.12s %s.\n",
         (int)json_integer_value(json_object_get(mv, "ply")) + 1, name, said);
  if (!json_is_number(json_object_get(mv, "value"))) { /* no estimate */
    printf("      %s\n", o->italian ? "(senza stima)" : "(no estimate)");
    return;
  }
  double cost = num(mv, "cost");
  const char *mark = str(mv, "mark");
  if (!strcmp(str(mv, "move"), str(mv, "best")) || (cost < 0.1 && !*mark))
    return;
  char loss[300];
  scopa_loss_words(cost, num(mv, "loss_margin"),
                   !strcmp(mark, "??")  ? SCOPA_MARK_BLUNDER
                   : !strcmp(mark, "?") ? SCOPA_MARK_SLIP
                                        : SCOPA_MARK_NONE,
                   lang, loss, sizeof loss);
  move_sentence(mv, "best", "best_why", lang, said, sizeof said);
  printf("      %-2s  %s%s.\n          %s %s.\n", mark, o->italian ? "È " : "",
         loss, o->italian ? "Meglio:" : "Better:", said);
}

static void print_text(json_t *doc, const scopa_match *m,
                       const review_opts *o) {
  size_t r, i;
  json_t *round, *mv, *seat;
  json_array_foreach(json_object_get(doc, "rounds"), r, round) {
    printf("%s %d\n", o->italian ? "Mano" : "Round", (int)r + 1);
    json_array_foreach(json_object_get(round, "moves"), i, mv) {
      if (json_integer_value(json_object_get(mv, "choices")) > 1)
        print_move(mv, m, o);
    }
  }
  printf("\n%s\n",
         o->italian
             ? "\"?\" perde in media circa 0,3 punti o più, \"??\" un punto "
               "o più (oltre l'incertezza della stima)."
             : "\"?\" loses about 0.3 points or more on average, \"??\" a "
               "point or more (beyond the estimate's uncertainty).");
  printf("\n%s\n", o->italian ? "Punti persi per scelta, per posto:"
                              : "Points lost by choice, per seat:");
  json_array_foreach(json_object_get(doc, "seats"), i, seat) {
    char name[64], amount[64];
    seat_name(m, (int)i, name, sizeof name);
    scopa_points_words(num(seat, "cost"), o->italian ? "it" : "en", amount,
                       sizeof amount);
    printf("  %-12.12s %s (%d %s)\n", name, amount,
           (int)json_integer_value(json_object_get(seat, "marked")),
           o->italian ? "segnate" : "marked");
  }
}

static int usage(FILE *f) {
  fprintf(f,
          "usage: scopa review [--json] [--lang it|en] [--bot NAME]\n"
          "                    [--movetime MS] [--seat S] [--threads T] FILE\n"
          "Values every move of a game record from its player's view with\n"
          "the library's hint (the work of 100 ms a move, seeded by the\n"
          "record: the same review on every run), next to the best move;\n"
          "'?' marks a move that loses about 0.3 points or more on average,\n"
          "'?"
          "?' a point or more, each beyond the estimate's uncertainty.\n"
          "--threads (default 2) only makes it faster: the review is the\n"
          "same with any number.\n");
  return f == stderr ? 2 : 0;
}

static int parse_args(int argc, char **argv, review_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long n;
    if (!strcmp(a, "--help"))
      return usage(stdout), 0;
    if (!strcmp(a, "--json"))
      o->json = 1;
    else if (!strcmp(a, "--lang") && v &&
             (!strcmp(v, "it") || !strcmp(v, "en")))
      o->italian = !strcmp(argv[++i], "it");
    else if (!strcmp(a, "--bot") && v)
      o->bot = argv[++i];
    else if (!strcmp(a, "--movetime") || !strcmp(a, "--seat") ||
             !strcmp(a, "--threads")) {
      int seat = !strcmp(a, "--seat"), threads = !strcmp(a, "--threads");
      if (cli_int("review", a, v, seat ? 0 : 1,
                  seat      ? SCOPA_MAX_SEATS - 1
                  : threads ? 8
                            : 60000,
                  &n))
        return 2;
      i++;
      *(seat ? &o->seat : threads ? &o->threads : &o->movetime_ms) = (int)n;
    } else if (a[0] == '-' && a[1]) {
      char shown[80];
      fprintf(stderr, "scopa review: unknown option or missing value: %s\n",
              cli_shown(a, shown, sizeof shown));
      return usage(stderr);
    } else if (!o->path)
      o->path = a;
    else
      return usage(stderr);
  }
  return o->path ? -1 : usage(stderr);
}

int cli_review(int argc, char **argv) {
  review_opts o = {NULL, "best", SCOPA_HINT_MS, -1, 0, 0, 2};
  int rc = parse_args(argc, argv, &o);
  if (rc >= 0)
    return rc;
  size_t len;
  char *text, why[600];
  rc = scopa_record_read_file(o.path, &text, &len, why, sizeof why);
  if (rc != SCOPA_OK) { /* too long is an invalid record, as in replay */
    fprintf(stderr, "scopa review: %s\n", why);
    return rc == SCOPA_ERECORD ? 1 : 2;
  }
  scopa_match *m = NULL;
  scopa_fault f;
  rc = scopa_match_from_record(text, len, &m, &f);
  scopa_free(text);
  if (rc != SCOPA_OK) {
    char shown[200];
    fprintf(stderr, "scopa review: %s is not a good record: %s\n",
            cli_shown(o.path, shown, sizeof shown), f.message);
    return 1;
  }
  char msg[200], shown[80];
  scopa_bot *bot = NULL;
  if (scopa_bot_new(o.bot, &bot) != SCOPA_OK) {
    fprintf(stderr, "scopa review: no bot named %s\n",
            cli_shown(o.bot, shown, sizeof shown));
    scopa_match_free(m);
    return 2;
  }
  scopa_bot_limits lim = {.nodes =
                              (uint64_t)o.movetime_ms * SCOPA_BOT_NODES_PER_MS,
                          .threads = o.threads};
  char *doc_text = scopa_match_review(m, bot, &lim, o.seat, msg, sizeof msg);
  scopa_bot_free(bot);
  if (!doc_text) {
    fprintf(stderr, "scopa review: %s\n", msg);
    scopa_match_free(m);
    return 2;
  }
  if (o.json)
    printf("%s\n", doc_text);
  else {
    json_t *doc = json_loads(doc_text, 0, NULL);
    print_text(doc, m, &o);
    json_decref(doc);
  }
  scopa_free(doc_text);
  scopa_match_free(m);
  return 0;
}
