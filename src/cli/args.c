/*
 * args.c -- what every verb does with its arguments: echo one safely,
 * read a number strictly (cli.h).  Apart from main.c so that a verb can
 * be built alone: the WebAssembly build runs `scopa bench` from bench.c
 * and this file (src/wasm, docs/wasm.md).
 */
#include "cli.h"

#include <string.h>

const char *cli_shown(const char *text, char *buf, size_t n) {
  if (scopa_text_safe(buf, n, text, strlen(text), 0) >= n && n > 4)
    memcpy(buf + n - 4, "...", 4);
  return buf;
}

int cli_int(const char *verb_name, const char *flag, const char *value,
            long long min, long long max, long long *out) {
  char msg[300];
  if (!value) {
    fprintf(stderr, "scopa %s: %s needs a value (scopa %s --help)\n", verb_name,
            flag, verb_name);
    return 2;
  }
  if (scopa_parse_int(flag, value, min, max, out, msg, sizeof msg) == SCOPA_OK)
    return 0;
  fprintf(stderr, "scopa %s: %s\n", verb_name, msg);
  return 2;
}
