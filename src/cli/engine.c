/*
 * engine.c -- `scopa engine` (CONTRACTS.md): reads request lines on stdin
 * and writes one answer line per request on stdout, flushed, until "quit"
 * or end of input.  The protocol itself is scopa_engine_answer() in
 * src/engine; this file moves bytes and keeps time.
 *
 * What must stay true: no input ends the engine but "quit" and end of
 * input; memory stays bounded whatever the line length (a line longer
 * than MAX_LINE is skipped to its end and answered with an error); and no
 * request hangs it.  A searching bot that overruns its time (movetime_ms
 * plus half, plus 250 ms; DEFAULT_DEADLINE_MS without one) or crashes is
 * cut off: "go" and "hint" for such bots run in a child process, which is
 * killed at the deadline, and the same request is then answered by the
 * fastest rule-based bot, so the answer is still legal and on time.
 */
#include "cli.h"

#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE (1 << 20)
#define DEFAULT_DEADLINE_MS 2000

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

/* ---- deadlines ------------------------------------------------------- */

static int fast_bot(const char *name) {
  static const char *const FAST[] = {"random", "greedy", "rules"};
  for (size_t i = 0; i < sizeof FAST / sizeof *FAST; i++)
    if (strcmp(name, FAST[i]) == 0)
      return 1;
  return 0;
}

/* The bot that answers when a searching one overruns: the first of the
 * fast bots this build has. */
static const char *fallback_bot(void) {
  static const char *const ORDER[] = {"rules", "greedy", "random"};
  for (size_t i = 0; i < sizeof ORDER / sizeof *ORDER; i++)
    for (const char *const *b = scopa_bot_names(); *b; b++)
      if (strcmp(*b, ORDER[i]) == 0)
        return ORDER[i];
  return "random";
}

/* For a go/hint request to a searching bot: its parsed JSON and deadline
 * in ms; NULL for anything else (answered directly). */
static json_t *timed_request(const char *line, size_t len, long *deadline) {
  json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
  const char *cmd = json_string_value(json_object_get(req, "cmd"));
  json_t *bot = json_object_get(req, "bot");
  json_t *movetime = json_object_get(req, "movetime_ms");
  if (!json_is_object(req) || !cmd ||
      (strcmp(cmd, "go") != 0 && strcmp(cmd, "hint") != 0) ||
      (json_is_string(bot) && fast_bot(json_string_value(bot)))) {
    json_decref(req);
    return NULL;
  }
  long long mt = json_is_integer(movetime) ? json_integer_value(movetime) : 0;
  *deadline = mt > 0 && mt <= 600000 ? (long)(mt + mt / 2 + 250)
                                     : DEFAULT_DEADLINE_MS;
  return req;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Runs the request in a child; returns its answer, or NULL if it did not
 * finish by the deadline (the child is then killed) or failed. */
static char *answer_in_child(scopa_engine *engine, const char *line,
                             size_t len, long deadline) {
  int fd[2];
  if (pipe(fd) != 0)
    return NULL;
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return NULL;
  }
  if (pid == 0) {
    int quit;
    close(fd[0]);
    char *ans = scopa_engine_answer(engine, line, len, &quit);
    size_t n = ans ? strlen(ans) : 0, off = 0;
    while (off < n) {
      ssize_t w = write(fd[1], ans + off, n - off);
      if (w <= 0)
        _exit(1);
      off += (size_t)w;
    }
    _exit(0);
  }
  close(fd[1]);
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  double end = now_ms() + (double)deadline;
  int done = 0;
  while (buf && !done) {
    int wait = (int)(end - now_ms());
    struct pollfd p = {fd[0], POLLIN, 0};
    if (wait <= 0 || poll(&p, 1, wait) <= 0)
      break;
    if (n + 1024 > cap) {
      char *more = realloc(buf, cap * 2);
      if (!more)
        break;
      buf = more;
      cap *= 2;
    }
    ssize_t r = read(fd[0], buf + n, cap - n - 1);
    if (r < 0)
      break;
    if (r == 0)
      done = 1;
    n += (size_t)(r > 0 ? r : 0);
  }
  close(fd[0]);
  int status = 0;
  if (!done)
    kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  if (!done || n == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  return buf;
}

/* One answer, with the deadline kept for searching bots. */
static char *answer(scopa_engine *engine, const char *line, size_t len,
                    int *quit) {
  long deadline = 0;
  json_t *req = timed_request(line, len, &deadline);
  if (!req)
    return scopa_engine_answer(engine, line, len, quit);
  *quit = 0;
  fflush(stdout);
  char *ans = answer_in_child(engine, line, len, deadline);
  if (!ans) {
    const char *bot = fallback_bot();
    fprintf(stderr, "scopa engine: the bot did not answer within %ld ms; "
            "%s answers instead\n", deadline, bot);
    json_object_set_new(req, "bot", json_string(bot));
    char *text = json_dumps(req, JSON_COMPACT);
    if (text)
      ans = scopa_engine_answer(engine, text, strlen(text), quit);
    free(text);
  }
  json_decref(req);
  return ans;
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
    char *ans = len == -2 ? strdup("{\"error\":\"request line longer than "
                                   "1048576 bytes\"}")
                          : answer(engine, buf, (size_t)len, &quit);
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
