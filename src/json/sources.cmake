# The JSON shapes every front end shares (src/json): the "rules" object,
# a side's score, views and scores as text; below src/record and
# src/engine, which both use them.  The core plus jansson; built into
# libscopa and into the WebAssembly build (src/wasm).  Paths from the top.
set(SCOPA_JSON_SOURCES
  src/json/json_shapes.c
  src/json/write.c)
