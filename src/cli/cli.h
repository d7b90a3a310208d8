/*
 * cli.h -- the verbs of the `scopa` command.  Each takes its own argv
 * (argv[0] is the verb) and returns the process exit status.
 */
#ifndef SCOPA_CLI_H
#define SCOPA_CLI_H

#include "scopa.h"

#include <stdio.h>

int cli_replay(int argc, char **argv);
int cli_bench(int argc, char **argv);

/* Reads a whole file ("-" for stdin) into a malloc'd buffer; NULL with
 * errno set on failure. */
char *cli_read_file(const char *path, size_t *len);

#endif
