# The wire protocol (src/proto): the messages of `scopa serve` and of the
# browser's local table (src/wasm), parsed and written once, through
# scopa.h and jansson only.  Below both; includes nothing of either.
set(SCOPA_PROTO_SOURCES
  src/proto/proto.c)
