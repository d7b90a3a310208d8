# The bots (src/ai), built into libscopa.  Paths relative to the top.
set(SCOPA_AI_SOURCES
  src/ai/bot.c
  src/ai/clock.c
  src/ai/heur.c
  src/ai/greedy.c
  src/ai/rulesbot.c
  src/ai/solver.c
  src/ai/eval.c
  src/ai/search.c
  src/ai/endgame.c
  src/ai/worlds.c
  src/ai/pimc.c
  src/ai/dealend.c
  src/ai/value.c
  src/ai/dealnet.c
  src/ai/rollout.c
  src/ai/level.c)
