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
int cli_play(int argc, char **argv);
int cli_arena(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_review(int argc, char **argv);

/* `scopa replay --step`: walks through a valid record move by move;
 * returns the exit status. */
int cli_replay_step(const scopa_replay *replay);

/* Reads a whole file ("-" for stdin) into a malloc'd buffer; NULL with
 * errno set on failure. */
char *cli_read_file(const char *path, size_t *len);

#endif
