/*
 * fuzz_check.h -- what every fuzz target checks of a message meant for a
 * person or a client: nothing in it drives a terminal.  Written apart from
 * scopa_text_safe (byte patterns, not its code), so a bug there is caught.
 */
#ifndef SCOPA_FUZZ_CHECK_H
#define SCOPA_FUZZ_CHECK_H

#include <stdlib.h>

/* Aborts when text holds a C0 control, DEL, a C1 control (UTF-8 C2 80..9F)
 * or a bidirectional embedding, override or isolate (E2 80 AA..AE, E2 81
 * A6..A9); with ascii, any byte past 0x7E. */
static void fuzz_check_safe(const char *text, int ascii) {
  const unsigned char *p = (const unsigned char *)text;
  for (; *p; p++) {
    if (*p < 0x20 || *p == 0x7F || (ascii && *p > 0x7E))
      abort();
    if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
      abort();
    if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE)
      abort();
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
      abort();
  }
}

#endif
