# The whole game (src/game), built into libscopa and into the WebAssembly
# build (src/wasm).  Paths relative to the top.  The SHA-256 of a seed is
# the one file that differs: seed_sha256.c (OpenSSL's libcrypto) natively,
# seed_sha256_libmd.c (libmd's SHA-256) in WebAssembly, where OpenSSL is
# not; each build adds its own.
set(SCOPA_GAME_SOURCES
  src/game/match.c
  src/game/seed.c)
