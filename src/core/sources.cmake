# The core engine (src/core), libc only; built into libscopa and into the
# WebAssembly build (src/wasm).  Paths relative to the top.
set(SCOPA_CORE_SOURCES
  src/core/card.c
  src/core/rules.c
  src/core/rng.c
  src/core/movegen.c
  src/core/state.c
  src/core/score.c
  src/core/view.c
  src/core/text.c)
