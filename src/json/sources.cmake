# The JSON shapes every front end shares (src/json): the "rules" object,
# a side's score, views and scores written as JSON (write.c,
# json_shapes.c) and read back (read.c).  The core plus jansson; below
# every layer that speaks JSON (src/record, src/engine).  Built into
# libscopa and into the WebAssembly build (src/wasm).  Paths from the top.
set(SCOPA_JSON_SOURCES
  src/json/json_shapes.c
  src/json/write.c
  src/json/read.c)
