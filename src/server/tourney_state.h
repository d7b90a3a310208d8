/*
 * tourney_state.h -- a tournament's whole state as JSON (tourney_state.c):
 * what the store keeps in its row (store.h "Tournaments") and what the
 * director changes, one step at a time, under the cluster's lock.  Pure:
 * no store, no clock (the caller passes the time), so that every node
 * does the same with the same state.
 *
 * The state:
 *   {"id", "name", "format": "swiss"|"arena"|"duplicate", "rules": {...},
 *    "rounds": N (swiss, duplicate), "minutes": M (arena),
 *    "starts_at": ms, "ends_at": ms (arena, once started),
 *    "creator": account id, "status": "upcoming"|"running"|"finished",
 *    "round": the round in play (0 before the first),
 *    "entries": [{"id": account, "name", "rating", "active": bool}],
 *    "games": [{"round", "code", "a", "b", "result": TR_*}]}
 * An entry's id is its account's; a bye is a game with b 0 and no code.
 * A Scopone tournament's (rules of 4 players in 2 teams) entries are
 * pairs: {"id": the first one's account, "mate": the second's,
 * "members": [name, name], "name": "ada & bea", "rating": their mean},
 * and "invites": [{"id", "name", "partner", "rating"}] are the joins
 * that wait for the partner's (each names the other).
 */
#ifndef SCOPA_SERVER_TOURNEY_STATE_H
#define SCOPA_SERVER_TOURNEY_STATE_H

#include <jansson.h>

#define TS_ROUNDS_MAX 20        /* swiss and duplicate rounds at most      */
#define TS_MINUTES_MAX 720      /* an arena's length at most               */
#define TS_ENTRIES_MAX 1024     /* entries of one tournament at most       */
#define TS_STARTS_IN_MAX 604800 /* seconds ahead a tournament may start  */
/* A tournament due with fewer than 2 entries waits this long for them
 * (it starts once it has 2), then ends empty. */
#define TS_EMPTY_WAIT_MS (10 * 60 * 1000LL)

/* Why a step was refused: a stable code (CONTRACTS.md's error codes) and
 * the two texts. */
typedef struct ts_error {
  const char *code;
  const char *en, *it;
} ts_error;

/* A new tournament from a tournament_create message's fields (msg: the
 * message object; rules_json: its rules, checked, as a record has them),
 * made by account `creator` at now_ms: the state, or NULL with *err. */
json_t *ts_new(const char *id, const json_t *msg, const char *rules_json,
               long long creator, long long now_ms, ts_error *err);

/* Account `id` (named, with its rating) joins, or comes back after a
 * leave: 0, or -1 with *err (finished, full). */
int ts_join(json_t *st, long long id, const char *name, double rating,
            ts_error *err);
/* The same with a Scopone pair's partner (an account's name; NULL or ""
 * for a tournament of two): the first of the two to join waits in
 * "invites", the second's join (naming the first) makes the pair's
 * entry; a join again of either brings the pair back.  Refused:
 * no partner, oneself, a partner already in a pair (partner_taken), a
 * partner in a tournament of two. */
int ts_join_as(json_t *st, long long id, const char *name, double rating,
               const char *partner, ts_error *err);
/* 1 when st's entries are pairs (rules of 4 players in 2 teams). */
int ts_teams(const json_t *st);
/* Entry `entry`'s accounts and their names: 2 for a pair, 1 alone, 0
 * when st has no such entry. */
int ts_members(const json_t *st, long long entry, long long id[2],
               const char *name[2]);
/* Account `id` leaves: not paired any more, kept in the standings (a
 * pair's either one: the pair; a pair's first half still waiting: its
 * invitation gone): 0, or -1 with *err (not in it, finished). */
int ts_leave(json_t *st, long long id, ts_error *err);

/* One step of the director at now_ms (start_now: its creator said
 * start).  An upcoming tournament that is due starts, or with fewer than
 * 2 active entries waits TS_EMPTY_WAIT_MS for them, then ends empty; a Swiss or
 * duplicate round whose games all have results is followed by the next, or the
 * end; an arena pairs its free active entries until ends_at, then ends once its
 * games are. New games are added with "code" null and result TR_PENDING (a bye
 * with its result); the caller gives each a table (ts_set_code).
 * Returns how many new games need a table, or -1 without memory. */
int ts_step(json_t *st, long long now_ms, int start_now);
/* The games that need a table, as their index in "games": how many
 * (at most cap) into idx. */
int ts_tableless(const json_t *st, int *idx, int cap);
/* Game idx's table; the game at `code` ended with `result` (TR_*): 0,
 * or 1 when no such pending game. */
int ts_set_code(json_t *st, int idx, const char *code);
int ts_result(json_t *st, const char *code, int result);

/* 1 when game `code` of st may not be watched nor its record read yet:
 * a duplicate tournament's game whose round has a game in play (or a
 * code st does not know); else 0. */
int ts_sealed(const json_t *st, const char *code);

/* The status's number for the store (STORE_T_*). */
int ts_status(const json_t *st);

/* What GET /api/tournaments/ID answers (CONTRACTS.md "Tournaments"): a
 * new object, the standings worked out (tourney_rules.h), or NULL
 * without memory.  brief: the list's line only (no rounds). */
json_t *ts_view(const json_t *st, int brief);

#endif
