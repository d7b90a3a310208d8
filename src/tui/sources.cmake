# The terminal game behind `scopa play`, linked into the `scopa` command.
# Needs ncursesw (Debian: libncurses-dev) found through pkg-config.
find_package(PkgConfig REQUIRED)
pkg_check_modules(NCURSESW REQUIRED IMPORTED_TARGET ncursesw)
set(SCOPA_TUI_SOURCES
  src/tui/config.c
  src/tui/session.c
  src/tui/text.c
  src/tui/line.c
  src/tui/draw.c
  src/tui/screen.c
  src/tui/step.c)
set(SCOPA_TUI_LIBS PkgConfig::NCURSESW)
