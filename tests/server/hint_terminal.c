/*
 * hint_terminal.c -- the terminal's hint (src/tui/session.c,
 * play_session_hint, what `scopa play` shows) at the position where each
 * given record ends, for tests/server/test_hint_agree.py, which sets it
 * against the server's hint for the same position:
 *
 *   hint_terminal [--ms MS] FILE...
 *
 * One JSON line per file: {"move": "...", "value": V} (V printed as
 * jansson prints the server's: the same double round-trips), or
 * {"error": "..."}.  --ms is the hint's work (play_config.hint_ms; the
 * server's --hint-ms).  Each file is resumed as `scopa play --resume`
 * does, and saved back by the session.
 */
#include "session.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void one(const char *path, int ms) {
  play_config cfg;
  play_session s;
  char msg[600];
  memset(&cfg, 0, sizeof cfg);
  scopa_rules_preset(&cfg.rules, "scopa");
  cfg.hints = 1;
  cfg.hint_ms = ms;
  snprintf(cfg.resume, sizeof cfg.resume, "%s", path);
  json_t *out;
  if (play_session_open(&s, &cfg, msg, sizeof msg) != 0) {
    out = json_pack("{s:s}", "error", msg);
  } else {
    scopa_move move;
    double value;
    char text[SCOPA_MOVE_TEXT];
    out = play_session_hint(&s, &move, &value) == 0
              ? json_pack("{s:s, s:f}", "move", scopa_move_str(move, text),
                          "value", value)
              : json_pack("{s:s}", "error", "no hint");
  }
  play_session_close(&s);
  char *line = json_dumps(out, JSON_COMPACT);
  printf("%s\n", line ? line : "{\"error\": \"out of memory\"}");
  free(line);
  json_decref(out);
}

int main(int argc, char **argv) {
  int ms = 0, i = 1;
  if (argc > 2 && strcmp(argv[1], "--ms") == 0)
    ms = atoi(argv[2]), i = 3;
  for (; i < argc; i++)
    one(argv[i], ms);
  return 0;
}
