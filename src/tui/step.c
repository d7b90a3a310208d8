/*
 * step.c -- `scopa replay --step FILE`: walks through a checked record
 * move by move, every hand face up, with the itemised score after each
 * round.  On a terminal it waits for Enter between moves (q stops); fed
 * from a pipe it prints the whole game, so it can be read or diffed.
 *
 * It replays through the same play_session texts as the game itself, so
 * a replayed round reads like a played one.
 */
#include "session.h"

#include <string.h>
#include <unistd.h>

static void print_hands(const play_session *s) {
  for (int seat = 0; seat < s->rules.players; seat++) {
    char cards[200];
    scopa_cards_str(s->st.hand[seat], cards, sizeof cards);
    printf("  %-14s %s\n", play_seat_name(s, seat), cards);
  }
  char table[200];
  scopa_cards_str(s->st.table, table, sizeof table);
  printf("  %-14s %s   (%s %d)\n", TX(s, "Table", "Tavolo"), table,
         TX(s, "stock", "mazzo"), scopa_state_stock(&s->st));
}

/* 0: go on, 1: the person typed q (or the input ended). */
static int wait_enter(const play_session *s, int interactive) {
  if (!interactive)
    return 0;
  printf("%s", TX(s, "[Enter: next, q: stop] ", "[Invio: avanti, q: esci] "));
  fflush(stdout);
  char line[64];
  if (!fgets(line, sizeof line, stdin))
    return 1;
  return line[0] == 'q' || line[0] == 'Q';
}

static int step_round(play_session *s, const scopa_replay_round *rr,
                      int interactive) {
  scopa_match_deal_deck(s->match, rr->deck, NULL, NULL, 0);
  s->st = *scopa_match_state(s->match);
  printf("\n=== %s %d, %s: %s ===\n", TX(s, "Round", "Mano"), s->round_no,
         TX(s, "dealer", "mazziere"), play_seat_name(s, rr->dealer));
  for (int i = 0; i < rr->nmoves; i++) {
    char m[SCOPA_MOVE_TEXT], words[400];
    scopa_event ev;
    print_hands(s);
    if (scopa_match_apply(s->match, rr->moves[i], &ev, NULL, 0) != SCOPA_OK)
      return 1; /* cannot happen: the record was checked */
    printf("%d. %s: %s  %s%s\n", i + 1, play_seat_name(s, ev.seat),
           scopa_move_str(rr->moves[i], m),
           play_move_words(s, rr->moves[i], words, sizeof words),
           ev.scopa ? "  SCOPA!" : "");
    s->st = *scopa_match_state(s->match);
    if (ev.round_over) {
      s->score = ev.score;
      s->game = *scopa_match_tally(s->match);
    }
    if (wait_enter(s, interactive))
      return 1;
  }
  if (!rr->complete) {
    printf("%s\n",
           TX(s, "(the round is not finished)", "(la mano non è finita)"));
    return 0;
  }
  memcpy(s->round_pile, s->st.pile, sizeof s->round_pile);
  play_lines lines;
  int n = play_score_lines(s, lines);
  printf("\n");
  for (int k = 0; k < n; k++)
    printf("%s\n", lines[k]);
  return 0;
}

/* The record's game is played again through a fresh scopa_match, move by
 * move, so the texts see it as it was at each step. */
int play_step_replay(const scopa_replay *rp, int italian) {
  static play_session s; /* large; texts only read it */
  memset(&s, 0, sizeof s);
  s.cfg.italian = italian;
  s.rules = rp->rules;
  for (int seat = 0; seat < rp->rules.players; seat++) {
    if (seat < rp->nseats)
      play_name_from_record(s.seat[seat].name, rp->seats[seat]);
    else
      snprintf(s.seat[seat].name, PLAY_NAME, "%s %d", TX(&s, "seat", "posto"),
               seat);
  }
  if (scopa_match_new(&s.rules, NULL, NULL, &s.match, NULL, 0) != SCOPA_OK)
    return 1;
  scopa_match_set_first_dealer(s.match, rp->nrounds ? rp->rounds[0].dealer : 0);
  s.game = *scopa_match_tally(s.match);
  int interactive = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  for (int r = 0; r < rp->nrounds; r++) {
    s.round_no = r + 1;
    if (step_round(&s, &rp->rounds[r], interactive))
      break;
  }
  char name[80];
  const scopa_tally *g = scopa_match_tally(s.match);
  if (g->finished)
    printf("\n%s %s\n", TX(&s, "Winner:", "Vince:"),
           play_side_name(&s, g->winner, name, sizeof name));
  else
    printf("\n%s\n",
           TX(&s, "The game is not finished.", "La partita non è finita."));
  scopa_match_free(s.match);
  return 0;
}
