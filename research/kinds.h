/*
 * kinds.h -- the research bots' kinds, each defined in its own file with
 * its choose function (research.c adds them to the registry).  They use
 * src/ai's internals as the library's own bots do.
 */
#ifndef SCOPA_RESEARCH_KINDS_H
#define SCOPA_RESEARCH_KINDS_H

#include "bots.h"

extern const bot_kind research_dealend; /* dealend.c */
extern const bot_kind research_dealnet; /* dealnet.c */
extern const bot_kind research_dealset; /* dealset.c */

#endif
