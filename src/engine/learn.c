/*
 * learn.c -- scopa_env, the learning environment of scopa.h: episodes of
 * one round or of a whole game, stepped by action ids (features.c lays
 * them out), with the other seats played by a library bot when one seat
 * learns alone.  bindings/python's ScopaEnv and ScopaGymEnv are this
 * object; scopa_vecenv (vecenv.c) steps many of them.
 *
 * What must stay true: the action table and mask describe the position
 * now (seat to play, page) whenever the caller can see it (while the
 * library's bot plays inside a step they are empty: new_position); the
 * mask is set at exactly the `count` actions of `legal`; every random choice of
 * an episode (dealer, decks, the bot's seeds) comes from the episode's own
 * stream, so the same seed and the same actions give the same episode anywhere;
 * nothing is allocated after scopa_env_new.
 */
#include "learn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scopa_env {
  scopa_rules rules;
  scopa_env_config config;
  int players, sides;
  scopa_bot *bot; /* the other seats' bot, single-agent face only */
  int bot_movetime;
  scopa_rng stream; /* episode seeds: one draw per episode         */
  scopa_rng deal;   /* this episode's dealer and decks             */
  uint64_t episode; /* this episode's seed                         */
  uint64_t bot_calls;
  scopa_tally game; /* totals over the episode's rounds             */
  int scores[SCOPA_MAX_SEATS];
  scopa_state st;
  /* got[0][seat]: the seat's hand at the deal; got[t + 1][seat]: the
   * cards it received after play t (the information states' recall) */
  scopa_cards got[41][SCOPA_MAX_SEATS];
  int over, page, count;
  uint8_t mask[SCOPA_ACTIONS];
  uint16_t legal[SCOPA_ACTIONS];   /* the count actions set in mask  */
  scopa_move table[SCOPA_ACTIONS]; /* meaningful where mask is 1 */
  scopa_move *work;                /* SCOPA_ACTION_WORK moves       */
  int own_work;                    /* 1: work is ours to free       */
};

/* splitmix64's finaliser: seeds for the bots from the episode's. */
static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int make_bot(scopa_env *env, const char *name) {
  const char *bot = name ? name : "random";
  int movetime = 0;
  if (scopa_bot_level(bot, &bot, &movetime) != SCOPA_OK)
    bot = name ? name : "random";
  env->bot_movetime = movetime;
  return scopa_bot_new(bot, &env->bot);
}

int scopa_env_new(const scopa_rules *rules, const scopa_env_config *config,
                  scopa_env **out) {
  return scopa__env_new(rules, config, NULL, out);
}

int scopa__env_learner(const scopa_env *env) { return env->config.learner; }

uint32_t scopa__env_external(const scopa_env *env) {
  return env->config.external;
}

void scopa__env_set_work(scopa_env *env, scopa_move *work) {
  if (!env->own_work)
    env->work = work;
}

int scopa__env_new(const scopa_rules *rules, const scopa_env_config *config,
                   scopa_move *work, scopa_env **out) {
  *out = NULL;
  scopa_env *env = calloc(1, sizeof *env);
  if (!env)
    return SCOPA_ENOMEM;
  env->own_work = work == NULL;
  env->work = work ? work : malloc(sizeof *work * SCOPA_ACTION_WORK);
  if (!env->work) {
    free(env);
    return SCOPA_ENOMEM;
  }
  env->rules = *rules;
  if (config)
    env->config = *config;
  else
    env->config.learner = -1;
  env->config.opponent = NULL; /* the caller's string is not kept */
  env->players = rules->players;
  env->sides = scopa_rules_sides(rules);
  int rc = env->config.learner >= env->players ? SCOPA_EINVAL : SCOPA_OK;
  if (rc == SCOPA_OK && env->config.learner >= 0)
    rc = make_bot(env, config->opponent);
  if (rc != SCOPA_OK) {
    scopa_env_free(env);
    return rc;
  }
  scopa_rng_seed(&env->stream, 0);
  env->over = 1;
  *out = env;
  return SCOPA_OK;
}

void scopa_env_free(scopa_env *env) {
  if (!env)
    return;
  scopa_bot_free(env->bot);
  if (env->own_work)
    free(env->work);
  free(env);
}

/* The mask is cleared where the last position set it (its legal list),
 * and only the legal entries of the table are written: the step touches
 * a few bytes of the environment's 11 KiB of actions, not all of them. */
static void clear_actions(scopa_env *env) {
  for (int k = 0; k < env->count; k++)
    env->mask[env->legal[k]] = 0;
  env->count = 0;
}

static void show_actions(scopa_env *env) {
  clear_actions(env);
  env->count =
      scopa__actions_page(&env->st, env->page, env->work, SCOPA_ACTION_WORK,
                          env->table, env->mask, env->legal);
}

/* The library's bot plays the seat to play (the single-agent face, a seat
 * neither the learner's nor the caller's). */
static int bot_to_play(const scopa_env *env) {
  int seat = env->st.to_play;
  return env->config.learner >= 0 && seat != env->config.learner &&
         !(env->config.external >> seat & 1u);
}

/* The actions of the position now, unless the library's bot is to play
 * it inside the step: its own moves are all it needs, and the learner's
 * are laid out when its turn comes (half the step's move generation). */
static void new_position(scopa_env *env) {
  env->page = 0;
  if (bot_to_play(env))
    clear_actions(env);
  else
    show_actions(env);
}

static void deal_round(scopa_env *env, int dealer) {
  scopa_state_deal_random(&env->st, &env->rules, dealer, &env->deal);
  memset(env->got, 0, sizeof env->got);
  memcpy(env->got[0], env->st.dealt, sizeof env->got[0]);
  new_position(env);
}

/* Each seat's reward for the round just over: its side's points minus
 * the mean of the other sides'.  Adds the round to the game. */
static void round_rewards(scopa_env *env, double *rewards) {
  scopa_score score;
  scopa_state_score(&env->st, &score);
  int sum = 0;
  for (int k = 0; k < env->sides; k++)
    sum += score.side[k].total;
  for (int seat = 0; rewards && seat < env->players; seat++) {
    int own = score.side[scopa_rules_side_of(&env->rules, seat)].total;
    rewards[seat] += own - (double)(sum - own) / (env->sides - 1);
  }
  scopa_tally_add(&env->game, &score);
}

/* Plays a legal move and remembers who received which cards after it. */
static void play(scopa_env *env, scopa_move m) {
  scopa_cards before[SCOPA_MAX_SEATS];
  int t = env->st.plays;
  memcpy(before, env->st.dealt, sizeof before);
  scopa_state_play(&env->st, m);
  for (int seat = 0; seat < env->players; seat++)
    env->got[t + 1][seat] = env->st.dealt[seat] & ~before[seat];
}

/* After a play: the round's end, the next round of a whole game, or the
 * next position's actions.  Returns what happened, as scopa_env_step. */
static int after_play(scopa_env *env, double *rewards) {
  if (!scopa_state_over(&env->st)) {
    new_position(env);
    return SCOPA_ENV_PLAYED;
  }
  round_rewards(env, rewards);
  if (env->config.whole_game && !env->game.finished) {
    memcpy(env->scores, env->game.totals, sizeof env->scores);
    deal_round(env, env->game.dealer);
    return SCOPA_ENV_ROUND;
  }
  env->over = 1;
  clear_actions(env);
  return SCOPA_ENV_OVER;
}

/* The bot plays every seat but the learner's until its turn or the end;
 * returns SCOPA_ENV_ROUND if a round ended on the way, else `rc`. */
static int play_others(scopa_env *env, double *rewards, int rc) {
  scopa_bot_limits lim = {.movetime_ms = env->config.movetime_ms
                                             ? env->config.movetime_ms
                                             : env->bot_movetime,
                          .nodes = env->config.nodes};
  while (!env->over && bot_to_play(env)) {
    scopa_view view;
    scopa_move m;
    scopa_view_of(&env->st, env->st.to_play, env->scores, &view);
    lim.seed = mix(env->episode ^ mix(++env->bot_calls));
    if (scopa_bot_choose(env->bot, &view, &lim, &m) != SCOPA_OK)
      abort(); /* the bot was asked on its own turn: cannot fail */
    play(env, m);
    if (after_play(env, rewards) == SCOPA_ENV_ROUND)
      rc = SCOPA_ENV_ROUND;
  }
  return rc;
}

void scopa_env_reset(scopa_env *env, uint64_t seed, int dealer,
                     const int *scores) {
  if (seed != SCOPA_ENV_NEXT)
    scopa_rng_seed(&env->stream, seed);
  env->episode = scopa_rng_next(&env->stream);
  scopa_rng_seed(&env->deal, env->episode);
  env->bot_calls = 0;
  if (dealer < 0 || dealer >= env->players)
    dealer = (int)scopa_rng_below(&env->deal, (uint32_t)env->players);
  scopa_tally_init(&env->game, &env->rules, dealer);
  for (int k = 0; k < SCOPA_MAX_SEATS; k++)
    env->scores[k] = scores && k < env->sides ? scores[k] : 0;
  memcpy(env->game.totals, env->scores, sizeof env->scores);
  env->over = 0;
  deal_round(env, dealer);
  if (env->config.learner >= 0)
    play_others(env, NULL, SCOPA_ENV_PLAYED);
}

int scopa_env_step(scopa_env *env, int action, double *rewards) {
  if (rewards)
    memset(rewards, 0, sizeof *rewards * (size_t)env->players);
  if (env->over)
    return SCOPA_EOVER;
  if (action < 0 || action >= SCOPA_ACTIONS || !env->mask[action]) {
    if (rewards)
      rewards[env->st.to_play] = env->config.illegal_reward;
    env->over = 1;
    clear_actions(env);
    return SCOPA_ENV_ILLEGAL;
  }
  if (env->table[action] == SCOPA_ACTION_MORE) {
    env->page++;
    show_actions(env);
    return SCOPA_ENV_PAGE;
  }
  play(env, env->table[action]);
  int rc = after_play(env, rewards);
  if (env->config.learner >= 0)
    rc = play_others(env, rewards, rc);
  return env->over ? SCOPA_ENV_OVER : rc;
}

int scopa_env_to_play(const scopa_env *env) {
  return env->over ? -1 : env->st.to_play;
}

const scopa_state *scopa_env_state(const scopa_env *env) { return &env->st; }

const int *scopa_env_scores(const scopa_env *env) { return env->scores; }

int scopa_env_page(const scopa_env *env) { return env->page; }

int scopa_env_move(const scopa_env *env, int action, scopa_move *move) {
  if (action < 0 || action >= SCOPA_ACTIONS || !env->mask[action])
    return SCOPA_EILLEGAL;
  *move = env->table[action];
  return SCOPA_OK;
}

int scopa_env_observe(const scopa_env *env, int seat, float *obs,
                      uint8_t *mask) {
  int mine = !env->over && seat == env->st.to_play;
  if (obs)
    scopa__state_features(&env->st, seat, env->scores, obs, NULL);
  if (mask) {
    memset(mask, 0, SCOPA_ACTIONS);
    for (int k = 0; mine && k < env->count; k++)
      mask[env->legal[k]] = 1;
  }
  return mine ? env->count : 0;
}

int scopa_env_observe_compact(const scopa_env *env, int seat, int8_t *obs,
                              uint8_t *mask) {
  if (obs)
    scopa__state_features(&env->st, seat, env->scores, NULL, obs);
  return scopa_env_observe(env, seat, NULL, mask);
}

/* ---- information states and the global state ---------------------- */

static void put_cards(int8_t *out, scopa_cards set) {
  for (int c = 0; c < 40; c++)
    out[c] = (int8_t)((set >> c) & 1);
}

typedef scopa_cards recall_table[41][SCOPA_MAX_SEATS];

/* A round's information states, from its state, what each seat received
 * (got, as scopa_env keeps it) and the game scores before it. */
static void infostate_of(const scopa_state *st, const recall_table got,
                         const int *scores, int seat, int8_t *out) {
  int P = st->players, S = st->sides;
  int own = scopa_rules_side_of(&st->rules, seat);
  memset(out, 0, SCOPA_INFOSTATE);
  put_cards(out + 0, st->initial_table);
  put_cards(out + 40, got[0][seat]);
  out[80 + (seat - st->dealer - 1 + 2 * P) % P] = 1;
  for (int k = 0; scores && k < S; k++) {
    int score = scores[(own + k) % S];
    out[86 + k] = (int8_t)(score < 0 ? 0 : score > 127 ? 127 : score);
  }
  for (int t = 0; t < st->plays; t++) {
    int8_t *block = out + SCOPA_INFOSTATE_HEADER + t * SCOPA_INFOSTATE_PLAY;
    int who = (st->dealer + 1 + t) % P;
    block[(who - seat + P) % P] = 1;
    block[6 + SCOPA_MOVE_CARD(st->moves[t])] = 1;
    put_cards(block + 46, SCOPA_MOVE_TAKES(st->moves[t]));
    put_cards(block + 86, got[t + 1][seat]);
  }
}

int scopa_env_infostate(const scopa_env *env, int seat, int8_t *out) {
  infostate_of(&env->st, env->got, env->scores, seat, out);
  return SCOPA_INFOSTATE;
}

/* What each seat received when, for a state alone: its round dealt again
 * (scopa_state_deck) and replayed. */
static int recall(const scopa_state *st, recall_table got) {
  uint8_t deck[40];
  scopa_state s;
  memset(got, 0, sizeof(recall_table));
  if (scopa_state_deck(st, deck) != SCOPA_OK ||
      scopa_state_deal(&s, &st->rules, st->dealer, deck, NULL, 0) != SCOPA_OK)
    return SCOPA_EINVAL;
  memcpy(got[0], s.dealt, sizeof got[0]);
  for (int t = 0; t < st->plays; t++) {
    scopa_cards before[SCOPA_MAX_SEATS];
    memcpy(before, s.dealt, sizeof before);
    scopa_state_play(&s, st->moves[t]);
    for (int seat = 0; seat < st->players; seat++)
      got[t + 1][seat] = s.dealt[seat] & ~before[seat];
  }
  return SCOPA_OK;
}

int scopa_state_infostate(const scopa_state *state, int seat, const int *scores,
                          int8_t *out) {
  recall_table got;
  if (seat < 0 || seat >= state->players || recall(state, got) != SCOPA_OK)
    return SCOPA_EINVAL;
  infostate_of(state, got, scores, seat, out);
  return SCOPA_INFOSTATE;
}

/* Appends text at *at, keeping the NUL inside size. */
static void add(char *buf, size_t size, size_t *at, const char *text) {
  size_t n = strlen(text);
  if (*at + n >= size)
    n = *at + 1 < size ? size - *at - 1 : 0;
  memcpy(buf + *at, text, n);
  *at += n;
  buf[*at] = 0;
}

static void add_cards(char *buf, size_t size, size_t *at, const char *key,
                      scopa_cards set) {
  char cards[160];
  scopa_cards_str(set, cards, sizeof cards);
  add(buf, size, at, key);
  add(buf, size, at, cards);
}

static size_t infostate_text_of(const scopa_state *st, const recall_table got,
                                const int *scores, int seat, char *buf,
                                size_t size) {
  int P = st->players, S = st->sides;
  int own = scopa_rules_side_of(&st->rules, seat);
  char word[SCOPA_MOVE_TEXT + 16];
  size_t at = 0;
  if (size)
    buf[0] = 0;
  snprintf(word, sizeof word, "o%d s", (seat - st->dealer - 1 + 2 * P) % P);
  add(buf, size, &at, word);
  for (int k = 0; k < S; k++) {
    snprintf(word, sizeof word, k ? ",%d" : "%d",
             scores ? scores[(own + k) % S] : 0);
    add(buf, size, &at, word);
  }
  add_cards(buf, size, &at, " | t ", st->initial_table);
  add_cards(buf, size, &at, " | h ", got[0][seat]);
  for (int t = 0; t < st->plays; t++) {
    char move[SCOPA_MOVE_TEXT];
    int who = (st->dealer + 1 + t) % P;
    snprintf(word, sizeof word, " | %d:%s", (who - seat + P) % P,
             scopa_move_str(st->moves[t], move));
    add(buf, size, &at, word);
    if (got[t + 1][seat])
      add_cards(buf, size, &at, " +", got[t + 1][seat]);
  }
  return at;
}

size_t scopa_env_infostate_text(const scopa_env *env, int seat, char *buf,
                                size_t size) {
  return infostate_text_of(&env->st, env->got, env->scores, seat, buf, size);
}

size_t scopa_state_infostate_text(const scopa_state *state, int seat,
                                  const int *scores, char *buf, size_t size) {
  recall_table got;
  if (size)
    buf[0] = 0;
  if (seat < 0 || seat >= state->players || recall(state, got) != SCOPA_OK)
    return 0;
  return infostate_text_of(state, got, scores, seat, buf, size);
}

int scopa_env_global(const scopa_env *env, float *out) {
  const scopa_state *st = &env->st;
  float target = env->rules.target > 0 ? (float)env->rules.target : 1.0f;
  memset(out, 0, sizeof *out * SCOPA_GLOBAL);
  for (int seat = 0; seat < env->players; seat++)
    for (int c = 0; c < 40; c++)
      out[40 * seat + c] = (float)((st->hand[seat] >> c) & 1);
  for (int c = 0; c < 40; c++)
    out[240 + c] = (float)((st->table >> c) & 1);
  for (int k = 0; k < env->sides; k++) {
    for (int c = 0; c < 40; c++)
      out[280 + 40 * k + c] = (float)((st->pile[k] >> c) & 1);
    float scope = st->scope[k] / 10.0f, score = env->scores[k] / target;
    out[572 + k] = scope > 1.0f ? 1.0f : scope;
    out[578 + k] = score > 1.0f ? 1.0f : score < 0.0f ? 0.0f : score;
  }
  for (int i = st->next; i < 40; i++)
    out[520 + st->deck[i]] = 1.0f;
  if (!env->over)
    out[560 + st->to_play] = 1.0f;
  out[566 + st->dealer] = 1.0f;
  out[584] = st->plays / 40.0f;
  return SCOPA_GLOBAL;
}

/* ---- moves by action, for move encodings ----------------------------- */

int scopa_env_legal_moves(const scopa_env *env, int *actions, scopa_move *moves,
                          int cap) {
  int k = 0;
  for (int a = 0; !env->over && a < SCOPA_ACTIONS; a++)
    if (env->mask[a]) {
      if (k < cap) {
        if (actions)
          actions[k] = a;
        if (moves)
          moves[k] = env->table[a];
      }
      k++;
    }
  return k;
}
