# The bots (src/ai), built into libscopa.  Paths relative to the top.
set(SCOPA_AI_SOURCES
  src/ai/bot.c)
