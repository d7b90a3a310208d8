# The engine protocol and the bindings support (src/engine), built into
# libscopa.  Paths relative to the top.
set(SCOPA_ENGINE_LIB_SOURCES
  src/engine/request.c
  src/engine/answer.c
  src/engine/support.c
  src/engine/features.c
  src/engine/learn.c
  src/engine/vecenv.c
  src/engine/review.c)
