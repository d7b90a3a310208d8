/*
 * record.h -- what the files of src/record share beyond the JSON shapes
 * (src/json/json_shapes.h).  Not API: the API is scopa.h's "Game
 * records" and "Files".
 */
#ifndef SCOPA_RECORD_RECORD_H
#define SCOPA_RECORD_RECORD_H

#include "json_shapes.h"

/* Writes text and a newline to path so that a crash at any point leaves
 * the old file or the new one, never a torn one.  Returns SCOPA_OK or
 * SCOPA_EIO with a message. */
int scopa__file_save(const char *path, const char *text, char *msg,
                     size_t msgsize);

#endif
