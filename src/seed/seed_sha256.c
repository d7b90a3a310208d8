/*
 * seed_sha256.c -- the commitment to a game's seed: its SHA-256, from
 * OpenSSL's libcrypto (never a hash function of our own).  Apart from
 * seed.c so that only this file needs the library.
 */
#include "scopa.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

int scopa_seed_sha256(const char *seed, char out[65]) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (!EVP_Digest(seed, strlen(seed), digest, &len, EVP_sha256(), NULL) ||
      len != 32)
    return SCOPA_EIO;
  for (unsigned i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", digest[i]);
  return SCOPA_OK;
}
