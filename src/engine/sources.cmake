# The top of libscopa (src/engine): the `scopa engine` protocol, the
# catalogue front ends read (options, presets, levels), reviews, learning
# features and the bindings' support.  Paths relative to the top.
set(SCOPA_ENGINE_LIB_SOURCES
  src/engine/request.c
  src/engine/answer.c
  src/engine/support.c
  src/engine/catalogue.c
  src/engine/features.c
  src/engine/learn.c
  src/engine/vecenv.c
  src/engine/review.c)
