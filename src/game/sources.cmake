# The whole game (src/game): scopa_match, its seats, rounds and totals.
# Built into libscopa and into the WebAssembly build (src/wasm).  Paths
# relative to the top.
set(SCOPA_GAME_SOURCES
  src/game/match.c)
