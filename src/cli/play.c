/*
 * play.c -- `scopa play` (CONTRACTS.md).  Not built yet: this placeholder
 * says so and exits with the usage status.
 */
#include "cli.h"

int cli_play(int argc, char **argv) {
  (void)argc;
  fprintf(stderr, "scopa %s: not available in this build yet\n", argv[0]);
  return 2;
}

int cli_replay_step(const scopa_replay *replay) {
  (void)replay;
  fprintf(stderr, "scopa replay --step: not available in this build yet\n");
  return 2;
}
