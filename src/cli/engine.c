/*
 * engine.c -- `scopa engine` (CONTRACTS.md).  Not built yet: this placeholder
 * says so and exits with the usage status.
 */
#include "cli.h"

int cli_engine(int argc, char **argv) {
  (void)argc;
  fprintf(stderr, "scopa %s: not available in this build yet\n", argv[0]);
  return 2;
}
