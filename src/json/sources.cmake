# The JSON shapes every front end shares (src/json): the "rules" object,
# a side's score, views and scores as text, the catalogue of options,
# presets and levels (GET /api/rules); below src/record and
# src/engine, which both use them.  The core plus jansson; built into
# libscopa and into the WebAssembly build (src/wasm).  Paths from the top.
set(SCOPA_JSON_SOURCES
  src/json/json_shapes.c
  src/json/write.c
  src/json/catalogue.c)
