/*
 * level.c -- difficulty levels for people, mapped onto the ladder of bots
 * and their time budgets.  Italian and English names are both accepted.
 */
#include "scopa.h"

#include <string.h>

typedef struct level {
  const char *it, *en, *bot;
  int movetime_ms;
} level;

static const level LEVELS[] = {
    {"principiante", "beginner", "greedy", 0},
    {"intermedio", "intermediate", "rules", 0},
    {"esperto", "expert", "pimc", 30},
    {"campione", "champion", "best", 100},
};

int scopa_bot_level_get(int i, const char **name, const char **english,
                        const char **bot, int *movetime_ms) {
  if (i < 0 || (size_t)i >= sizeof LEVELS / sizeof LEVELS[0])
    return SCOPA_EINVAL;
  *name = LEVELS[i].it;
  *english = LEVELS[i].en;
  *bot = LEVELS[i].bot;
  *movetime_ms = LEVELS[i].movetime_ms;
  return SCOPA_OK;
}

int scopa_bot_level(const char *name, const char **bot, int *movetime_ms) {
  for (size_t i = 0; name && i < sizeof LEVELS / sizeof LEVELS[0]; i++)
    if (strcmp(name, LEVELS[i].it) == 0 || strcmp(name, LEVELS[i].en) == 0) {
      if (bot)
        *bot = LEVELS[i].bot;
      if (movetime_ms)
        *movetime_ms = LEVELS[i].movetime_ms;
      return SCOPA_OK;
    }
  return SCOPA_EINVAL;
}
