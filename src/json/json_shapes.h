/*
 * json_shapes.h -- the JSON shapes that records, `scopa replay --json` and
 * the engine protocol share (RULES.md "Game records", CONTRACTS.md): the
 * "rules" object read with exact types and written in full, and one side
 * of a round's score, and the readers of rules and views (read.c).
 * Internal to libscopa: src/json sits below src/ai, src/game, src/record
 * and src/engine (HACKING.md "The layers"); the public way in is
 * scopa.h.
 */
#ifndef SCOPA_JSON_JSON_SHAPES_H
#define SCOPA_JSON_JSON_SHAPES_H

#include "scopa.h"

#include <jansson.h>
#include <stdarg.h>

/* A "rules" object: every option with the exact JSON type it needs (11,
 * not 11.0 or "11"; true, not 1), unknown options refused, then
 * scopa_rules_check.  Returns SCOPA_OK or SCOPA_ERULES with a message. */
int scopa__rules_read(json_t *obj, scopa_rules *rules, char *msg,
                      size_t msgsize);
/* The same, with the message in Italian when lang is "it". */
int scopa__rules_read_lang(json_t *obj, scopa_rules *rules, const char *lang,
                           char *msg, size_t msgsize);

/* Every option of checked rules, in option order (a new reference). */
json_t *scopa__rules_object(const scopa_rules *rules);

/* obj as compact JSON text in key order (malloc'd), and obj released;
 * NULL for a NULL obj or out of memory. */
char *scopa__dump(json_t *obj);

/* The options a preset sets (RULES.md "Presets"), as a "rules" object (a
 * new reference), or NULL for an unknown name. */
json_t *scopa__preset_rules_object(const char *name);

/* One side of a round's score as in `scopa replay --json` (a new
 * reference). */
json_t *scopa__side_object(const scopa_side_score *side);

/* vsnprintf into msg (msgsize bytes, may be NULL), then made safe to
 * print with scopa_text_safe(flags): messages quote their input (a key, a
 * name, a move), and what a person reads or a client receives must never
 * carry a control byte, a bidirectional override or invalid UTF-8. */
void scopa__vmsg(char *msg, size_t msgsize, unsigned flags, const char *fmt,
                 va_list ap) __attribute__((format(printf, 4, 0)));

/* scopa__vmsg in place on a message already written. */
void scopa__msg_safe(char *msg, size_t msgsize, unsigned flags);

/* read.c: reads a record-style "rules" object (exact types) and checks it. */
int scopa__json_read_rules(json_t *obj, scopa_rules *rules, char *msg,
                           size_t msgsize);

/* Reads the view fields of a request object (rules, seat, scores, round)
 * and builds the view with scopa_view_build. */
int scopa__json_read_view(json_t *obj, scopa_view *view, char *msg,
                          size_t msgsize);

/* An integer member of obj in lo..hi, or SCOPA_EVIEW with a message
 * naming the key. */
int scopa__json_read_int(json_t *obj, const char *key, long long lo,
                         long long hi, long long *out, char *msg,
                         size_t msgsize);

/* snprintf into msg, then made printable ASCII with scopa_text_safe
 * (SCOPA_SAFE_ASCII): text echoed from a request never carries a control
 * byte back to the client, and is always valid JSON text. */
void scopa__json_msg(char *msg, size_t msgsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The library's words in Italian for lang "it..." (core/text: the one
 * test scopa_card_name and the rules checks use), English otherwise. */
int scopa__italian(const char *lang);
#define SCOPA__TR(it, en, italian) ((it) ? (italian) : (en))

#endif
