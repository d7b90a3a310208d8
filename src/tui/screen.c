#include "play.h"
int play_screen_usable(void) { return 0; }
int play_screen_run(play_session *s) { return play_line_run(s); }
