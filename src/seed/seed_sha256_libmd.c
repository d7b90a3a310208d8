/*
 * seed_sha256_libmd.c -- the commitment to a game's seed (scopa.h
 * scopa_seed_sha256) from libmd's SHA-256, for the WebAssembly build,
 * where OpenSSL's libcrypto is not; the native build uses seed_sha256.c.
 * libmd's sha2.c is compiled from Debian's source package at build time
 * (src/wasm/CMakeLists.txt), never a hash function of our own.  Its
 * result is checked against node's crypto in web/wasm/test.
 */
#include "scopa.h"

#include <sha2.h>
#include <stdio.h>
#include <string.h>

int scopa_seed_sha256(const char *seed, char out[65]) {
  SHA2_CTX ctx;
  uint8_t digest[SHA256_DIGEST_LENGTH];
  SHA256Init(&ctx);
  SHA256Update(&ctx, (const uint8_t *)seed, strlen(seed));
  SHA256Final(digest, &ctx);
  for (unsigned i = 0; i < SHA256_DIGEST_LENGTH; i++)
    snprintf(out + 2 * i, 3, "%02x", digest[i]);
  return SCOPA_OK;
}
