/*
 * main.c -- the `scopa` command: finds the verb and hands over.  cli_main
 * is the whole command; scopa.c's main calls it, and so does
 * research/main.c's for `scopa-research` (the same verbs with the research
 * bots added).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

typedef struct verb {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} verb;

static const verb VERBS[] = {
    {"play", cli_play, "play a game in the terminal (the default verb)"},
    {"replay", cli_replay, "check and score a game record"},
    {"review", cli_review,
     "the moves of a game valued, the costly ones marked"},
    {"arena", cli_arena, "match two bots on duplicate deals"},
    {"engine", cli_engine, "JSON line protocol for programs (like UCI)"},
    {"bench", cli_bench, "measure the engine's speed on random games"},
    {"rules", cli_rules, "the rules options, presets and levels, as JSON"},
    {"serve", cli_serve,
     "online tables with friends and bots (HTTP + WebSocket)"},
};

static int usage(FILE *out) {
  fprintf(out, "usage: scopa VERB [OPTIONS]\n\nverbs:\n");
  for (size_t i = 0; i < sizeof VERBS / sizeof VERBS[0]; i++)
    fprintf(out, "  %-8s %s\n", VERBS[i].name, VERBS[i].help);
  fprintf(out, "\n'scopa VERB --help' tells more.\n");
  return out == stderr ? 2 : 0;
}

int cli_main(int argc, char **argv) {
  if (argc < 2) /* plain `scopa` starts a game */
    return cli_play(argc, argv);
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)
    return usage(stdout);
  if (strcmp(argv[1], "--version") == 0) {
    printf("scopa %s\n", SCOPA_VERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof VERBS / sizeof VERBS[0]; i++)
    if (strcmp(argv[1], VERBS[i].name) == 0)
      return VERBS[i].run(argc - 1, argv + 1);
  char shown[80];
  fprintf(stderr, "scopa: unknown verb '%s'\n",
          cli_shown(argv[1], shown, sizeof shown));
  return usage(stderr);
}
