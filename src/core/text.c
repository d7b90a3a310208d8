/*
 * text.c -- text that came from outside, made harmless: shown safely
 * (scopa_text_safe) and read strictly as a number (scopa_parse_int,
 * scopa_parse_real).  Every place that prints or sends such text goes
 * through here, so there is one list of what is escaped and one shape of
 * "bad number" message.
 *
 * What must stay true: the output of scopa_text_safe never holds a byte
 * that drives a terminal (C0, DEL, C1), never a character that reorders
 * the text around it (bidirectional controls), never invalid UTF-8, and is
 * always NUL-terminated and cut between two characters or escapes, never
 * inside one.  Pure functions: no allocation, no I/O, no global state.
 */
#include "scopa.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- decoding -------------------------------------------------------- */

/* Decodes the valid UTF-8 sequence at p (at most n bytes) into *cp and
 * returns its length, or 0 when the bytes there are not valid UTF-8
 * (overlong forms, surrogates and values past U+10FFFF included). */
static int utf8_decode(const unsigned char *p, size_t n, unsigned *cp) {
  int len = p[0] < 0x80                    ? 1
            : p[0] >= 0xC2 && p[0] <= 0xDF ? 2
            : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
            : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4
                                           : 0;
  if (len == 0 || (size_t)len > n)
    return 0;
  unsigned v = len == 1 ? p[0] : p[0] & (0x7F >> len);
  for (int i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80)
      return 0;
    v = v << 6 | (p[i] & 0x3F);
  }
  if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) ||
      (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
    return 0;
  *cp = v;
  return len;
}

/* Characters that act on the display rather than show: C1 controls, the
 * bidirectional marks, embeddings, overrides and isolates (a name with
 * U+202E prints the rest of the line backwards), the line and paragraph
 * separators. */
static int is_format_control(unsigned cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
         cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

/* ---- scopa_text_safe ------------------------------------------------- */

/* The length of the terminal control sequence (ECMA-48) that starts at p
 * with ESC or with the C1 introducer cp (0 when p starts none): ESC [ or
 * CSI, its parameter and intermediate bytes and its final byte
 * ("\x1b[31m"); ESC ], P, X, ^, _ or OSC, DCS, SOS, PM, APC, their string
 * up to BEL or ST; ESC, intermediate bytes and one final byte ("\x1b(B").
 * A sequence cut short ends where its bytes stop fitting its form, so a
 * dropped ESC never leaves its "[31m" behind in a name. */
static size_t control_sequence(const unsigned char *p, size_t len,
                               unsigned cp) {
  size_t i;
  int kind; /* '[' a CSI, ']' a string, 0 an ESC with intermediates */
  if (cp == 0x1B) {
    if (len < 2)
      return 1;
    kind = p[1] == '[' ? '['
           : (p[1] == ']' || p[1] == 'P' || p[1] == 'X' || p[1] == '^' ||
              p[1] == '_')
               ? ']'
               : 0;
    i = kind ? 2 : 1;
  } else if (cp == 0x9B || cp == 0x9D || cp == 0x90 || cp == 0x98 ||
             cp == 0x9E || cp == 0x9F) {
    kind = cp == 0x9B ? '[' : ']';
    i = 2; /* C1 controls are two bytes in UTF-8 */
  } else {
    return 0;
  }
  if (kind == '[') {
    while (i < len && p[i] >= 0x30 && p[i] <= 0x3F)
      i++;
    while (i < len && p[i] >= 0x20 && p[i] <= 0x2F)
      i++;
    return i < len && p[i] >= 0x40 && p[i] <= 0x7E ? i + 1 : i;
  }
  if (kind == ']') {
    for (; i < len; i++) {
      if (p[i] == 0x07)
        return i + 1;
      if (p[i] == 0x1B && i + 1 < len && p[i + 1] == '\\')
        return i + 2;
      if (p[i] == 0xC2 && i + 1 < len && p[i + 1] == 0x9C)
        return i + 2;
    }
    return i;
  }
  while (i < len && p[i] >= 0x20 && p[i] <= 0x2F)
    i++;
  return i < len && p[i] >= 0x30 && p[i] <= 0x7E ? i + 1 : i;
}

/* Appends piece (k bytes) to out if it fits whole; *at counts the whole
 * result, *full turns on at the first piece that does not fit. */
static void put(char *out, size_t outsize, size_t *at, int *full,
                const char *piece, size_t k) {
  if (!*full && outsize && *at + k < outsize)
    memcpy(out + *at, piece, k);
  else
    *full = 1;
  *at += k;
}

size_t scopa_text_safe(char *out, size_t outsize, const char *text, size_t len,
                       unsigned flags) {
  const unsigned char *p = (const unsigned char *)text;
  size_t at = 0, kept = 0;
  int full = 0;
  while (len > 0) {
    char esc[16];
    unsigned cp = 0;
    int n = utf8_decode(p, len, &cp);
    size_t k;
    if ((flags & SCOPA_SAFE_DROP) && n > 0 &&
        (k = control_sequence(p, len, cp)) > 0) {
      n = (int)k; /* the whole sequence left out */
    } else if (n == 0 || cp < 0x20 || cp == 0x7F) {
      n = 1; /* one byte, shown by its value */
      k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", p[0]);
      if (!(flags & SCOPA_SAFE_DROP))
        put(out, outsize, &at, &full, esc, k);
    } else if (is_format_control(cp) && (flags & SCOPA_SAFE_DROP)) {
      /* left out */
    } else if (is_format_control(cp) ||
               (cp >= 0x80 && (flags & SCOPA_SAFE_ASCII))) {
      k = (size_t)snprintf(esc, sizeof esc, cp > 0xFFFF ? "\\U%08x" : "\\u%04x",
                           cp);
      put(out, outsize, &at, &full, esc, k);
    } else {
      put(out, outsize, &at, &full, (const char *)p, (size_t)n);
    }
    if (!full)
      kept = at;
    p += n;
    len -= (size_t)n;
  }
  if (outsize)
    out[kept] = 0;
  return at;
}

/* ---- numbers --------------------------------------------------------- */

/* The value as the person gave it, made safe and cut short for a
 * message. */
static const char *shown(const char *text, char *buf, size_t n) {
  size_t len = text ? strlen(text) : 0;
  if (scopa_text_safe(buf, n, text ? text : "", len, 0) >= n && n > 4)
    memcpy(buf + n - 4, "...", 4);
  return buf;
}

static int bad_number(const char *name, const char *text, const char *what,
                      const char *range, char *msg, size_t msgsize) {
  char value[48];
  if (msg && msgsize)
    snprintf(msg, msgsize, "%s must be %s%s, not \"%s\"", name, what, range,
             shown(text, value, sizeof value));
  return SCOPA_EINVAL;
}

/* " from MIN to MAX", " (MIN or more)", "" when unbounded. */
static void int_range(long long min, long long max, char *buf, size_t n) {
  if (max == LLONG_MAX && min == LLONG_MIN)
    buf[0] = 0;
  else if (max == LLONG_MAX)
    snprintf(buf, n, ", %lld or more", min);
  else
    snprintf(buf, n, " from %lld to %lld", min, max);
}

int scopa_parse_int(const char *name, const char *text, long long min,
                    long long max, long long *out, char *msg, size_t msgsize) {
  char range[64];
  int_range(min, max, range, sizeof range);
  /* Only an optional '-' and decimal digits: strtoll alone would also take
   * spaces, a '+', and stop quietly at "3x". */
  const char *digits = text && text[0] == '-' ? text + 1 : text;
  if (!digits || !*digits || strspn(digits, "0123456789") != strlen(digits))
    return bad_number(name, text, "a whole number", range, msg, msgsize);
  errno = 0;
  long long v = strtoll(text, NULL, 10);
  if (errno == ERANGE || v < min || v > max)
    return bad_number(name, text, "a whole number", range, msg, msgsize);
  *out = v;
  return SCOPA_OK;
}

int scopa_parse_real(const char *name, const char *text, double min, double max,
                     double *out, char *msg, size_t msgsize) {
  char range[96];
  snprintf(range, sizeof range, " from %g to %g", min, max);
  /* Digits with at most one '.', an optional leading '-': no exponents,
   * no "inf" or "nan", no hexadecimal. */
  const char *s = text && text[0] == '-' ? text + 1 : text;
  size_t whole = s ? strspn(s, "0123456789") : 0;
  size_t frac = s && s[whole] == '.' ? strspn(s + whole + 1, "0123456789") : 0;
  size_t used = whole + (s && s[whole] == '.' ? 1 + frac : 0);
  if (!s || whole + frac == 0 || s[used] != 0)
    return bad_number(name, text, "a number", range, msg, msgsize);
  double v = strtod(text, NULL);
  if (!isfinite(v) || v < min || v > max)
    return bad_number(name, text, "a number", range, msg, msgsize);
  *out = v;
  return SCOPA_OK;
}
