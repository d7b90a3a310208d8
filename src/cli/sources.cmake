# The `scopa` command.  One file (or folder) per verb; paths from the top.
set(SCOPA_CLI_SOURCES
  src/cli/main.c
  src/cli/args.c
  src/cli/replay.c
  src/cli/bench.c
  src/cli/terminal.c
  src/cli/arena.c
  src/cli/stats.c
  src/cli/engine.c
  src/cli/review.c
  src/cli/rules.c)
# The terminal game (`scopa play`, `scopa replay --step`): src/tui.
include(src/tui/sources.cmake)
list(APPEND SCOPA_CLI_SOURCES ${SCOPA_TUI_SOURCES})
# The wire protocol below the server and the local table: src/proto.
include(src/proto/sources.cmake)
list(APPEND SCOPA_CLI_SOURCES ${SCOPA_PROTO_SOURCES})
# The server (`scopa serve`): src/server.
include(src/server/sources.cmake)
list(APPEND SCOPA_CLI_SOURCES ${SCOPA_SERVER_SOURCES})
# Extra libraries the verbs link (ncursesw for the terminal game, ...).
set(SCOPA_CLI_LIBS ${SCOPA_TUI_LIBS} ${SCOPA_SERVER_LIBS})
