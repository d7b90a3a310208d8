/*
 * main.c -- `scopa-research`: the `scopa` command with the research bots
 * added (research.h), so that `scopa-research arena --a dealset ...` and
 * the other verbs run them by name.  Built with the research bots, never
 * installed.
 */
#include "cli.h"
#include "research.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (research_add_bots() != SCOPA_OK) {
    fprintf(stderr, "scopa-research: the research bots clash with the "
                    "library's\n");
    return 1;
  }
  return cli_main(argc, argv);
}
