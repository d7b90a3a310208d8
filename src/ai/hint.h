/*
 * hint.h -- the calibration of the hints' values (hint.c, scopa.h
 * scopa_bot_hint): what is added to a value so that, on average, it is
 * what the mover's side then makes.  Measured by bench/ai/calibrate.c
 * (its command and figures are in docs/ai.md, "Hint calibration").  Not
 * API.
 */
#ifndef SCOPA_AI_HINT_H
#define SCOPA_AI_HINT_H

#include "scopa.h"

/* The correction added to every value of a hint in this view (0 where
 * none was measured: rules other than the default 2-player ones). */
double ai_hint_correction(const scopa_view *view);

#endif
