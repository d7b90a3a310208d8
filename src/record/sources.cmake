# Game records (src/record), the core plus jansson; built into libscopa and
# into the WebAssembly build (src/wasm).  Paths relative to the top.
set(SCOPA_RECORD_SOURCES
  src/record/replay.c
  src/record/write.c
  src/record/match_record.c
  src/record/file.c)
