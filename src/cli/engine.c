/*
 * engine.c -- `scopa engine` (CONTRACTS.md): reads request lines on stdin
 * and writes one answer line per request on stdout, flushed, until "quit"
 * or end of input.  The protocol itself is scopa_engine_answer() in
 * src/engine, time-keeping included (the bots keep their movetime in
 * process, and every request gets a deadline); this file moves bytes.
 *
 * What must stay true: no input ends the engine but "quit" and end of
 * input; memory stays bounded whatever the line length (a line longer
 * than MAX_LINE is skipped to its end and answered with an error); and no
 * request hangs it (src/engine/answer.c).
 */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1 << 20)

/* Reads one line without its '\n' (and a '\r' before it) into buf, which
 * holds MAX_LINE bytes.  Returns the length, -1 at end of input, or -2 for
 * a line too long (consumed to its end). */
static long read_line(FILE *in, char *buf) {
  long n = 0;
  int c, any = 0, too_long = 0;
  while ((c = getc_unlocked(in)) != EOF) {
    any = 1;
    if (c == '\n')
      break;
    if (n < MAX_LINE)
      buf[n++] = (char)c;
    else
      too_long = 1;
  }
  if (!any)
    return -1;
  if (too_long)
    return -2;
  if (n > 0 && buf[n - 1] == '\r')
    n--;
  return n;
}

/* ---- the loop -------------------------------------------------------- */

static int usage(FILE *out) {
  fprintf(out, "usage: scopa engine\n"
               "  reads JSON requests, one per line, on standard input and "
               "answers each\n  with one JSON line (docs/engine.md):\n"
               "  {\"cmd\": \"hello\"}   {\"cmd\": \"legal\"|\"go\"|\"hint\", "
               "\"rules\": {...}, \"seat\": S,\n   \"scores\": [...], "
               "\"round\": {\"dealer\": D, \"table\": [...], \"dealt\": "
               "[...],\n   \"moves\": [...]}}   {\"cmd\": \"quit\"}\n");
  return out == stderr ? 2 : 0;
}

int cli_engine(int argc, char **argv) {
  if (argc > 1)
    return usage(strcmp(argv[1], "--help") == 0 ? stdout : stderr);
  /* A reader that goes away is end of output, not a crash. */
  signal(SIGPIPE, SIG_IGN);
  scopa_engine *engine;
  char *buf = malloc(MAX_LINE);
  if (!buf || scopa_engine_new(&engine) != SCOPA_OK) {
    fprintf(stderr, "scopa engine: out of memory\n");
    free(buf);
    return 1;
  }
  long len;
  int quit = 0;
  while (!quit && (len = read_line(stdin, buf)) != -1) {
    char *ans = len == -2
                    ? strdup("{\"error\":\"request line longer than "
                             "1048576 bytes\"}")
                    : scopa_engine_answer(engine, buf, (size_t)len, &quit);
    if (ans) {
      fputs(ans, stdout);
      fputc('\n', stdout);
      free(ans);
    } else if (!quit) {
      fputs("{\"error\":\"out of memory\"}\n", stdout);
    }
    if (fflush(stdout) != 0)
      break;
  }
  scopa_engine_free(engine);
  free(buf);
  return 0;
}
