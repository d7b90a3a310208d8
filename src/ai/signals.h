/*
 * signals.h -- the traditional partner signals of scopone: conventions of
 * play by which partners tell each other what they hold without a word
 * (talk and gestures are forbidden), given by the bots and read by the
 * scopone worlds chain.  Not API.  The conventions and their sources are
 * in signals.c and docs/ai.md ("The partner's signals").
 */
#ifndef SCOPA_AI_SIGNALS_H
#define SCOPA_AI_SIGNALS_H

#include "scopa.h"

/* Nonzero where the signals apply: four seats in two teams (scopone,
 * scientifico, 4-player scopa in teams) under capture by match, without
 * ace sweeps or lowest_wins. */
int ai_signal_game(const scopa_view *view);

/* How conventional a lay is for a hand (the hand before the play; first:
 * the round's first play): positive when it signals what the conventions
 * say it should, negative when it breaks one, 0 for a capture or a lay
 * that says nothing.  Reads only the hand and the move. */
double ai_signal_lay(scopa_cards hand, int first, scopa_move move);

/* How conventional a legal move of the view's seat is: ai_signal_lay,
 * and for a capture whether it takes the card the partner has just laid
 * (which the side that did not deal leaves to the partner). */
double ai_signal_move(const scopa_view *view, scopa_move move);

/* The move a searcher plays: among the moves of the same kind (lay or
 * capture) as the best by value, and whose value is within `margin`
 * points of it, the most conventional (then the best valued).  Returns
 * its index; ai_best_index's when the signals do not apply. */
int ai_signal_pick(const scopa_view *view, const scopa_move *moves,
                   const double *values, int n, double margin);

/* Reading: the log-likelihood that a partner who follows the conventions
 * makes this lay with `hand` (its hand then) on `table`, given that it
 * lays: a softmax at strength `beta` of ai_signal_lay over its lays,
 * mixed with a uniform floor.  0 for a capture, or with a single lay. */
double ai_signal_read(const scopa_rules *rules, scopa_cards hand,
                      scopa_cards table, int first, scopa_move move,
                      double beta, double floor);

#endif
