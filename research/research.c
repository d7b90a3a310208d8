/*
 * research.c -- adds the research bots to the library's registry
 * (ai_bot_add), in the order the arena and `scopa --help` list them.
 */
#include "research.h"
#include "kinds.h"

static const bot_kind *const KINDS[] = {&research_dealend, &research_dealnet,
                                        &research_dealset};

int research_add_bots(void) {
  for (unsigned i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
    int rc = ai_bot_add(KINDS[i]);
    if (rc != SCOPA_OK)
      return rc;
  }
  return SCOPA_OK;
}
