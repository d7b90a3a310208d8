/*
 * rules.c -- `scopa rules`: the library's catalogue of what a game can be
 * set up with (every rules option, the presets, the levels; scopa.h
 * scopa_rules_catalogue_json), as indented JSON, for programs and for the
 * web client's build (web/tools/catalogue.mjs).  Exit 0, or 2 for a usage
 * error.
 */
#include "cli.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_rules(int argc, char **argv) {
  if (argc > 1 &&
      (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: scopa rules\n\nPrints the rules options, presets and "
         "levels as JSON (docs/play.md).");
    return 0;
  }
  if (argc > 1) {
    char shown[80];
    fprintf(stderr, "scopa rules: unknown argument %s\n",
            cli_shown(argv[1], shown, sizeof shown));
    return 2;
  }
  char *text = scopa_rules_catalogue_json();
  json_t *obj = text ? json_loads(text, 0, NULL) : NULL;
  scopa_free(text);
  char *out =
      obj ? json_dumps(obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
  json_decref(obj);
  if (!out) {
    fputs("scopa rules: out of memory\n", stderr);
    return 1;
  }
  puts(out);
  free(out);
  return 0;
}
