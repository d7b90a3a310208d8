/*
 * replay.c -- `scopa replay [--json] [--legal] FILE` (CONTRACTS.md):
 * checks a record, scores every finished round, tells who won.  Exit 0
 * for a valid record, 1 for an invalid one, 2 for a usage error.
 */
#include "cli.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_t *moves_json(const scopa_move *moves, int n) {
  json_t *arr = json_array();
  for (int i = 0; i < n; i++) {
    char m[SCOPA_MOVE_TEXT];
    json_array_append_new(arr, json_string(scopa_move_str(moves[i], m)));
  }
  return arr;
}

/* The legal moves before each move of a round, replayed from its deck. */
static json_t *legal_json(const scopa_replay *rp,
                          const scopa_replay_round *rr) {
  json_t *all = json_array();
  scopa_state st;
  int cap = SCOPA_MAX_MOVES;
  scopa_move *buf = malloc(sizeof *buf * (size_t)cap);
  scopa_state_deal(&st, &rp->rules, rr->dealer, rr->deck, NULL, 0);
  for (int i = 0; buf && i < rr->nmoves; i++) {
    int n = scopa_state_legal(&st, buf, cap);
    if (n > cap) {
      scopa_move *bigger = realloc(buf, sizeof *buf * (size_t)n);
      if (!bigger)
        break;
      buf = bigger;
      cap = n;
      scopa_state_legal(&st, buf, cap);
    }
    json_array_append_new(all, moves_json(buf, n));
    scopa_state_play(&st, rr->moves[i]);
  }
  free(buf);
  return all;
}

/* The sides of a round's score, in the shape the library writes them. */
static json_t *sides_json(const scopa_score *score) {
  char *text = scopa_score_json(score);
  json_t *sides = text ? json_loads(text, 0, NULL) : NULL;
  scopa_free(text);
  return sides ? sides : json_array();
}

static json_t *ints_json(const int *v, int n) {
  json_t *arr = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(arr, json_integer(v[i]));
  return arr;
}

static json_t *replay_json(const scopa_replay *rp, int legal) {
  json_t *rounds = json_array();
  int sides = rp->game.sides;
  for (int r = 0; r < rp->nrounds; r++) {
    const scopa_replay_round *rr = &rp->rounds[r];
    json_t *round =
        json_pack("{s:i, s:b}", "dealer", rr->dealer, "complete", rr->complete);
    if (rr->complete) {
      json_object_set_new(round, "sides", sides_json(&rr->score));
      json_object_set_new(round, "totals", ints_json(rr->totals, sides));
    }
    if (legal)
      json_object_set_new(round, "legal", legal_json(rp, rr));
    json_array_append_new(rounds, round);
  }
  return json_pack("{s:b, s:o, s:o, s:b, s:o}", "valid", 1, "rounds", rounds,
                   "totals", ints_json(rp->game.totals, sides), "finished",
                   rp->game.finished, "winner",
                   rp->game.winner >= 0 ? json_integer(rp->game.winner)
                                        : json_null());
}

static json_t *fault_json(const scopa_fault *f) {
  json_t *err =
      json_pack("{s:o, s:o, s:s}", "round",
                f->round >= 0 ? json_integer(f->round) : json_null(), "move",
                f->move >= 0 ? json_integer(f->move) : json_null(), "message",
                f->message);
  return json_pack("{s:b, s:o}", "valid", 0, "error", err);
}

static void print_json(json_t *obj) {
  char *text = json_dumps(obj, JSON_PRESERVE_ORDER | JSON_COMPACT);
  if (text)
    puts(text);
  free(text);
  json_decref(obj);
}

/* Names come from the record: shown escaped (a name may hold terminal
 * escapes or a bidirectional override). */
static const char *side_name(const scopa_replay *rp, int side, char *buf,
                             size_t n) {
  int sides = scopa_rules_sides(&rp->rules);
  char a[80];
  if (side >= rp->nseats) {
    snprintf(buf, n, "side %d", side);
    return buf;
  }
  /* With teams, a side is every seat `sides` apart (RULES.md "Seats"). */
  snprintf(buf, n, "%s", cli_shown(rp->seats[side], a, sizeof a));
  for (int seat = side + sides; rp->rules.teams && seat < rp->nseats;
       seat += sides)
    snprintf(buf + strlen(buf), n - strlen(buf), " & %s",
             cli_shown(rp->seats[seat], a, sizeof a));
  return buf;
}

static void print_text(const scopa_replay *rp) {
  char name[160], rules[300];
  scopa_rules_str(&rp->rules, rules, sizeof rules);
  printf("rules: %s\n", rules);
  for (int r = 0; r < rp->nrounds; r++) {
    const scopa_replay_round *rr = &rp->rounds[r];
    printf("\nround %d (dealer seat %d): %d moves%s\n", r + 1, rr->dealer,
           rr->nmoves, rr->complete ? "" : ", unfinished");
    if (!rr->complete)
      continue;
    for (int s = 0; s < rp->game.sides; s++) {
      const scopa_side_score *sc = &rr->score.side[s];
      printf("  %-20s cards %2d  denari %2d  settebello %s  primiera %2d  "
             "scope %d  -> %d (total %d)\n",
             side_name(rp, s, name, sizeof name), sc->cards, sc->denari,
             sc->settebello ? "yes" : "no ", sc->primiera, sc->scope, sc->total,
             rr->totals[s]);
    }
  }
  printf("\n");
  if (rp->game.finished)
    printf("winner: %s\n", side_name(rp, rp->game.winner, name, sizeof name));
  else
    printf("the game is not finished\n");
}

/* Where the fault is, in words: "round 1", "round 3, move 7", or
 * nothing for a fault outside the rounds (the format, the rules). */
static void print_fault(const scopa_fault *f, int json) {
  if (json) {
    print_json(fault_json(f));
    return;
  }
  printf("invalid record: %s\n", f->message);
  if (f->round >= 0 && f->move >= 0)
    printf("  at round %d, move %d\n", f->round + 1, f->move + 1);
  else if (f->round >= 0)
    printf("  at round %d\n", f->round + 1);
}

int cli_replay(int argc, char **argv) {
  int json = 0, legal = 0, step = -1;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0)
      json = 1;
    else if (strcmp(argv[i], "--legal") == 0)
      legal = 1;
    else if (strcmp(argv[i], "--step") == 0)
      step = 1;
    else if (strcmp(argv[i], "--summary") == 0)
      step = 0;
    else if (strcmp(argv[i], "--help") == 0) {
      printf(
          "usage: scopa replay [--json] [--legal] [--step | --summary] FILE\n"
          "  FILE may be - (standard input)\n"
          "  --json     the result as one JSON object (CONTRACTS.md)\n"
          "  --legal    with --json: the legal moves before each move\n"
          "  --step     walk through the game move by move (the default\n"
          "             on a terminal)\n"
          "  --summary  print the round-by-round summary (the default\n"
          "             otherwise)\n");
      return 0;
    } else if (!path && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
      path = argv[i];
    else {
      char shown[80];
      fprintf(stderr, "scopa replay: unexpected argument '%s'\n",
              cli_shown(argv[i], shown, sizeof shown));
      return 2;
    }
  }
  if (!path) {
    fprintf(stderr, "usage: scopa replay [--json] [--legal] FILE\n");
    return 2;
  }
  /* On a terminal, without --json, a person is reading: walk through
   * the game; in a pipe, print the summary. */
  if (step < 0)
    step = !json && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
           strcmp(path, "-") != 0;
  size_t len;
  char *text;
  scopa_replay rp;
  scopa_fault fault;
  int rc = scopa_record_read_file(path, &text, &len, fault.message,
                                  sizeof fault.message);
  if (rc == SCOPA_OK)
    rc = scopa_replay_text(text, len, &rp, &fault);
  else if (rc != SCOPA_ERECORD) { /* missing, unreadable: not a record */
    fprintf(stderr, "scopa replay: %s\n", fault.message);
    return 2;
  } else /* too long to be a record: an invalid one */
    fault.round = fault.move = -1;
  scopa_free(text);
  if (rc != SCOPA_OK) {
    print_fault(&fault, json);
    return 1;
  }
  if (json)
    print_json(replay_json(&rp, legal));
  else if (step)
    rc = cli_replay_step(&rp);
  else
    print_text(&rp);
  scopa_replay_free(&rp);
  return rc;
}
