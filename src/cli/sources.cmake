# The `scopa` command.  One file (or folder) per verb; paths from the top.
set(SCOPA_CLI_SOURCES
  src/cli/main.c
  src/cli/replay.c
  src/cli/bench.c
  src/cli/play.c
  src/cli/arena.c
  src/cli/engine.c)
# Extra libraries the verbs link (ncursesw for the terminal game, ...).
set(SCOPA_CLI_LIBS)
