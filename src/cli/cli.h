/*
 * cli.h -- the verbs of the `scopa` command.  Each takes its own argv
 * (argv[0] is the verb) and returns the process exit status.
 */
#ifndef SCOPA_CLI_H
#define SCOPA_CLI_H

#include "scopa.h"

#include <stdio.h>

/* The whole `scopa` command: argv[1] is the verb (none: `play`). */
int cli_main(int argc, char **argv);

int cli_replay(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_arena(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_review(int argc, char **argv);
int cli_rules(int argc, char **argv);

/* `scopa replay --step`: walks through a valid record move by move;
 * returns the exit status. */
int cli_replay_step(const scopa_replay *replay);

/* text made safe to print (scopa_text_safe) into buf of n bytes, "..."
 * at the end when cut; returns buf.  For echoing arguments. */
const char *cli_shown(const char *text, char *buf, size_t n);

/* A numeric flag's value read with scopa_parse_int; value NULL means the
 * flag came last, without one.  Returns 0, or prints the one-line reason
 * ("scopa arena: --deals must be a whole number from 1 to ..., not
 * \"3x\"") and returns 2, the exit status of a usage error. */
int cli_int(const char *verb, const char *flag, const char *value,
            long long min, long long max, long long *out);

#endif
