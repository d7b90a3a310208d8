/*
 * scopa.c -- main of the `scopa` command (main.c has the verbs).
 */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
