# A game's seed (src/seed): its decks, its first dealer, the seeds of
# bots and hints derive from it, and its SHA-256 (the commitment of
# records).  Built into libscopa and into the WebAssembly build
# (src/wasm).  Paths relative to the top.  The SHA-256 is the one file
# that differs: seed_sha256.c (OpenSSL's libcrypto) natively,
# seed_sha256_libmd.c (libmd's SHA-256) in WebAssembly, where OpenSSL is
# not; each build adds its own.
set(SCOPA_SEED_SOURCES
  src/seed/seed.c)
