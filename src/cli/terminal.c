/*
 * terminal.c -- `scopa play` (CONTRACTS.md) and `scopa replay --step`: reads
 * the command line, picks the face (full screen on a capable terminal,
 * else the line mode of CONTRACTS.md) and makes sure a signal or a closed
 * terminal ends the game with its record written (src/tui/session.c saves
 * after every move; here the handlers only ask the loops to stop).
 */
#include "cli.h"

#include "../tui/session.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_signal(int sig) {
  (void)sig;
  play_stop = 1;
}

/* No SA_RESTART: a blocked read returns, and the loop sees play_stop. */
static void catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
}

int cli_play(int argc, char **argv) {
  play_config cfg;
  char *none[] = {"play", NULL};
  if (argc < 1 || strcmp(argv[0], "play") != 0) { /* plain `scopa` */
    argc = 1;
    argv = none;
  }
  int rc = play_config_parse(&cfg, argc, argv);
  if (rc)
    return rc < 0 ? 0 : rc;
  int full = !cfg.plain && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) &&
             play_screen_usable();
  play_session s;
  char msg[1200];
  if ((rc = play_session_open(&s, &cfg, msg, sizeof msg)) != 0) {
    fprintf(stderr, "scopa play: %s\n", msg);
    play_session_close(&s);
    return rc == PLAY_EUSAGE ? 2 : 1;
  }
  catch_signals();
  rc = full ? play_screen_run(&s) : play_line_run(&s);
  play_session_close(&s);
  if (s.save_failed)
    fprintf(stderr, "scopa play: %s\n", s.save_msg);
  return rc;
}

static int italian_from_env(void) {
  const char *v = getenv("LC_ALL");
  if (!v || !*v)
    v = getenv("LANG");
  return v && strncmp(v, "it", 2) == 0;
}

int cli_replay_step(const scopa_replay *replay) {
  return play_step_replay(replay, italian_from_env());
}
