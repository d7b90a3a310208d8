/*
 * proto.c -- the pure parser and writers of the `scopa serve` messages
 * (docs/CONTRACTS.md).  Bytes in, a proto_msg or a proto_error out; values
 * in, JSON text out.  It must never crash or leak on any input (the fuzz
 * target holds it to that), and every field it accepts has an exact JSON
 * type and a bounded size, so what reaches the tables is already checked.
 *
 * The catalogue below is the one place where the server's words for
 * people live, in English and Italian; a client may also translate by
 * "code".
 */
#include "proto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* XX(code, English, Italian): each text may hold one %s, the detail. */
#define PROTO_TEXTS(XX)                                                        \
  XX("bad_json", "That message is not valid JSON (%s).",                       \
     "Il messaggio non è JSON valido (%s).")                                   \
  XX("bad_message", "That message cannot be used: %s.",                        \
     "Il messaggio non si può usare: %s.")                                     \
  XX("too_big", "That message is too long (%s).",                              \
     "Il messaggio è troppo lungo (%s).")                                      \
  XX("too_fast", "Too many messages; slow down (%s).",                         \
     "Troppi messaggi; rallenta (%s).")                                        \
  XX("bad_rules", "Those rules cannot be played: %s.",                         \
     "Con queste regole non si può giocare: %s.")                              \
  XX("bad_seats", "The seats are not right: %s.",                              \
     "I posti non vanno bene: %s.")                                            \
  XX("no_table", "There is no table %s.", "Non c'è nessun tavolo %s.")         \
  XX("table_damaged",                                                          \
     "Table %s is stored but cannot be read: the database is damaged.",        \
     "Il tavolo %s è salvato ma non si può leggere: "                        \
     "il database è danneggiato.")                                             \
  XX("store_failed",                                                           \
     "Table %s stopped: its last change could not be stored "                  \
     "(resume it to go on from what is stored).",                              \
     "Il tavolo %s si è fermato: la sua ultima modifica non è "              \
     "stata salvata (riprendilo per continuare da ciò che è salvato).")        \
  XX("table_full", "Table %s has no open seat.",                               \
     "Il tavolo %s non ha posti liberi.")                                      \
  XX("bad_token", "That token does not belong to table %s.",                   \
     "Quel codice non appartiene al tavolo %s.")                               \
  XX("not_seated", "You are not sitting at a table%s.",                        \
     "Non sei seduto a un tavolo%s.")                                          \
  XX("already_seated", "This connection already has a place at table %s.",     \
     "Questa connessione ha già un posto al tavolo %s.")                       \
  XX("not_your_seat", "You can only play for your own seat (%s).",             \
     "Puoi giocare solo per il tuo posto (%s).")                               \
  XX("not_your_turn", "It is not your turn (%s).", "Non è il tuo turno (%s).") \
  XX("not_playing", "The game is not being played (%s).",                      \
     "La partita non è in corso (%s).")                                        \
  XX("stale", "That move was sent for an earlier position (%s).",              \
     "Quella mossa era per una posizione precedente (%s).")                    \
  XX("bad_move", "That move is not written correctly: %s.",                    \
     "Quella mossa non è scritta bene: %s.")                                   \
  XX("illegal", "That move is against the rules: %s.",                         \
     "Quella mossa non è ammessa dalle regole: %s.")                           \
  XX("limit", "Limit reached: %s.", "Limite raggiunto: %s.")                   \
  XX("in_progress", "The record of table %s is secret until the game ends.",   \
     "La registrazione del tavolo %s è segreta fino alla fine.")               \
  XX("busy", "The server is busy; ask again in a moment (%s).",                \
     "Il server è occupato; riprova fra un momento (%s).")                     \
  XX("no_hints",                                                               \
     "No hints at a table of people only: the others could not know you "      \
     "asked%s.",                                                               \
     "Niente consigli a un tavolo di sole persone: gli altri non potrebbero "  \
     "saperlo%s.")                                                             \
  XX("server", "The server could not do that (%s).",                           \
     "Il server non ha potuto farlo (%s).")                                    \
  XX("bot_takes_seat", "%s is away: a bot plays for them until they return.",  \
     "%s è assente: gioca un bot finché non torna.")                           \
  XX("seat_back", "%s is back.", "%s è tornato al tavolo.")                    \
  XX("clock_bot", "Time is up for %s: a bot played their move.",               \
     "Tempo scaduto per %s: un bot ha giocato la sua mossa.")                  \
  XX("not_over", "The game is not over (%s).",                                 \
     "La partita non è finita (%s).")                                          \
  XX("rematch_offered", "%s would like to play again.",                        \
     "%s vuole giocare ancora.")                                               \
  XX("bad_reaction", "There is no reaction \"%s\".",                           \
     "Non c'è nessuna reazione \"%s\".")                                       \
  XX("rematch_declined", "%s does not want to play again.",                    \
     "%s non vuole giocare ancora.")                                           \
  XX("bad_talk", "That cannot be said: %s.", "Questo non si può dire: %s.")    \
  XX("talk_off", "Table talk is off at this table%s.",                         \
     "A questo tavolo non si parla%s.")                                        \
  XX("reported", "%s was reported; thank you.",                                \
     "%s è stato segnalato; grazie.")                                          \
  XX("no_tourney", "There is no tournament %s.", "Non c'è nessun torneo %s.")  \
  XX("sign_in", "Sign in to %s.", "Accedi per %s.")                            \
  XX("not_creator", "Only the tournament's creator may %s.",                   \
     "Solo chi ha creato il torneo può %s.")                                   \
  XX("not_joined", "You are not in tournament %s.", "Non sei nel torneo %s.")  \
  XX("tournament_full", "Tournament %s is full.",                              \
     "Il torneo %s è al completo.")                                            \
  XX("tournament_over", "Tournament %s is over.", "Il torneo %s è finito.")    \
  XX("partner_taken", "That cannot be: %s.", "Non si può: %s.")                \
  XX("sealed",                                                                 \
     "Table %s plays the same deals as the other tables of its round: it "     \
     "cannot be watched, and its record opens once the round is over.",        \
     "Il tavolo %s gioca le stesse smazzate degli altri del suo turno: non "   \
     "si può guardare, e la registrazione si apre a turno finito.")

typedef struct proto_text {
  const char *code, *en, *it;
} proto_text;

static const proto_text TEXTS[] = {
#define PROTO__XX(c, e, i) {c, e, i},
    PROTO_TEXTS(PROTO__XX)
#undef PROTO__XX
};

static const char TEXT_SERVER[] = "server";

/* The entry of a code; an unknown code (a slip in the server) reads as
 * "server". */
static const proto_text *text_of(const char *code) {
  for (size_t i = 0; i < sizeof TEXTS / sizeof TEXTS[0]; i++)
    if (strcmp(TEXTS[i].code, code) == 0)
      return &TEXTS[i];
  return code == TEXT_SERVER ? NULL : text_of(TEXT_SERVER);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
char *proto_default_name(int seat, const char *lang, char *out, size_t size) {
  int it = lang && strcmp(lang, "it") == 0;
  snprintf(out, size, it ? "Giocatore %d" : "Player %d", seat + 1);
  return out;
}

void proto_error_set(proto_error *err, const char *code, const char *detail,
                     const char *detail_it) {
  const proto_text *t = text_of(code);
  detail = detail ? detail : "";
  err->code = t->code;
  err->options[0] = err->options[1] = NULL;
  snprintf(err->en, sizeof err->en, t->en, detail);
  snprintf(err->it, sizeof err->it, t->it, detail_it ? detail_it : detail);
}
#pragma GCC diagnostic pop

/* ------------------------------------------------------------------ */
/* Parsing                                                             */
/* ------------------------------------------------------------------ */

static int refuse(proto_error *err, const char *code, const char *detail,
                  const char *detail_it) {
  proto_error_set(err, code, detail, detail_it);
  return -1;
}

/* Copies string field `key` into out (cap bytes with the NUL).  Returns 0
 * (absent fields leave out empty), or -1 for a wrong type or size. */
static int get_string(json_t *obj, const char *key, char *out, size_t cap,
                      int required, proto_error *err) {
  char detail[96], it[96];
  json_t *v = json_object_get(obj, key);
  out[0] = 0;
  if (!v) {
    if (!required)
      return 0;
    snprintf(detail, sizeof detail, "\"%s\" is missing", key);
    snprintf(it, sizeof it, "manca \"%s\"", key);
    return refuse(err, "bad_message", detail, it);
  }
  size_t n = json_is_string(v) ? json_string_length(v) : 0;
  if (!json_is_string(v) || n >= cap || memchr(json_string_value(v), 0, n)) {
    snprintf(detail, sizeof detail,
             "\"%s\" must be a string of at most %zu bytes", key, cap - 1);
    snprintf(it, sizeof it, "\"%s\" dev'essere un testo di al più %zu byte",
             key, cap - 1);
    return refuse(err, "bad_message", detail, it);
  }
  memcpy(out, json_string_value(v), n + 1);
  return 0;
}

/* An integer field in [lo, hi]; *out = absent when missing. */
static int get_int(json_t *obj, const char *key, long lo, long hi, int absent,
                   int *out, proto_error *err) {
  json_t *v = json_object_get(obj, key);
  *out = absent;
  if (!v || (json_is_null(v) && absent == -1))
    return 0;
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi) {
    char detail[96], it[96];
    snprintf(detail, sizeof detail,
             "\"%s\" must be a whole number from %ld to %ld", key, lo, hi);
    snprintf(it, sizeof it, "\"%s\" dev'essere un numero intero da %ld a %ld",
             key, lo, hi);
    return refuse(err, "bad_message", detail, it);
  }
  *out = (int)json_integer_value(v);
  return 0;
}

static int parse_seats(json_t *obj, proto_msg *out, proto_error *err) {
  json_t *seats = json_object_get(obj, "seats");
  if (!json_is_array(seats) || json_array_size(seats) < 2 ||
      json_array_size(seats) > PROTO_MAX_SEATS)
    return refuse(err, "bad_seats", "\"seats\" must list 2 to 6 seats",
                  "\"seats\" deve elencare da 2 a 6 posti");
  size_t i;
  json_t *s;
  json_array_foreach(seats, i, s) {
    if (!json_is_string(s) || json_string_length(s) == 0 ||
        json_string_length(s) > PROTO_SEAT_MAX)
      return refuse(err, "bad_seats",
                    "each seat is \"me\", \"open\" or a bot's name",
                    "ogni posto è \"me\", \"open\" o il nome di un bot");
    memcpy(out->seats[i], json_string_value(s), json_string_length(s) + 1);
  }
  out->nseats = (int)json_array_size(seats);
  return 0;
}

/* "rules", optional: an object as in a record, or a preset's name. */
static int get_rules(json_t *obj, proto_msg *out, proto_error *err) {
  json_t *rules = json_object_get(obj, "rules");
  if (rules && !json_is_object(rules) && !json_is_string(rules))
    return refuse(err, "bad_rules",
                  "\"rules\" is an object as in a record, or a preset name",
                  "\"rules\" è un oggetto come in una registrazione, o il "
                  "nome di una variante");
  out->rules = rules ? json_incref(rules) : NULL;
  return 0;
}

static int parse_create(json_t *obj, proto_msg *out, proto_error *err) {
  if (get_rules(obj, out, err))
    return -1;
  if (parse_seats(obj, out, err) ||
      get_int(obj, "away_timeout", 0, 86400, -1, &out->away_s, err) ||
      get_int(obj, "move_clock", 0, 86400, -1, &out->clock_s, err) ||
      get_int(obj, "bank", 10, 86400, -1, &out->bank_s, err) ||
      get_int(obj, "increment", 0, 3600, -1, &out->inc_s, err))
    return -1;
  if (out->inc_s >= 0 && out->bank_s < 0)
    return refuse(err, "bad_message",
                  "\"increment\" goes with a \"bank\" (seconds each seat has)",
                  "\"increment\" va con un \"bank\" (i secondi di ogni posto)");
  json_t *pub = json_object_get(obj, "public");
  if (pub && !json_is_boolean(pub) && !json_is_null(pub))
    return refuse(err, "bad_message", "\"public\" is true or false",
                  "\"public\" è true o false");
  out->listed = json_is_true(pub);
  json_t *talk = json_object_get(obj, "talk");
  if (talk && !json_is_boolean(talk) && !json_is_null(talk))
    return refuse(err, "bad_message", "\"talk\" is true or false",
                  "\"talk\" è true o false");
  out->talk = json_is_boolean(talk) ? json_is_true(talk) : -1;
  return 0;
}

/* A seek: its rules as a create's; its "clock" an object whose
 * "move_clock", "away_timeout", "bank" and "increment" are create's (any other
 * field is kept as part of what the seek asks for: only equal clocks are
 * paired). */
static int parse_seek(json_t *obj, proto_msg *out, proto_error *err) {
  json_t *clock = json_object_get(obj, "clock");
  if (get_rules(obj, out, err))
    return -1;
  if (clock && !json_is_object(clock) && !json_is_null(clock))
    return refuse(err, "bad_message",
                  "\"clock\" is an object such as {\"move_clock\": 30}",
                  "\"clock\" è un oggetto come {\"move_clock\": 30}");
  if (json_is_object(clock)) {
    out->clock = json_incref(clock);
    if (get_int(clock, "away_timeout", 0, 86400, -1, &out->away_s, err) ||
        get_int(clock, "move_clock", 0, 86400, -1, &out->clock_s, err) ||
        get_int(clock, "bank", 10, 86400, -1, &out->bank_s, err) ||
        get_int(clock, "increment", 0, 3600, -1, &out->inc_s, err))
      return -1;
    if (out->inc_s >= 0 && out->bank_s < 0)
      return refuse(err, "bad_message",
                    "\"increment\" goes with a \"bank\" (seconds each seat "
                    "has)",
                    "\"increment\" va con un \"bank\" (i secondi di ogni "
                    "posto)");
  }
  return 0;
}

static int parse_code(json_t *obj, proto_msg *out, proto_error *err) {
  return get_string(obj, "code", out->code, sizeof out->code, 1, err);
}

/* tournament_join, _leave, _start: the tournament's "id" (which the
 * answer echoes, as every answer its message's id). */
static int parse_tourney(json_t *obj, proto_msg *out, proto_error *err) {
  return get_string(obj, "id", out->code, sizeof out->code, 1, err);
}

/* tournament_join: the id, and a Scopone pair's partner (an account's
 * name) when it has one. */
static int parse_tourney_join(json_t *obj, proto_msg *out, proto_error *err) {
  char partner[PROTO_NAME_MAX + 1];
  if (parse_tourney(obj, out, err) ||
      get_string(obj, "partner", partner, sizeof partner, 0, err))
    return -1;
  proto_clean_name(partner, out->partner); /* shown to others, as names */
  return 0;
}

/* tournament_create: its rules as create's; every other field is the
 * server's to check against its tournaments (tourney_state.h). */
static int parse_tourney_create(json_t *obj, proto_msg *out, proto_error *err) {
  if (get_rules(obj, out, err))
    return -1;
  out->body = json_incref(obj);
  return 0;
}

static int parse_resume(json_t *obj, proto_msg *out, proto_error *err) {
  return parse_code(obj, out, err) ||
         get_string(obj, "token", out->token, sizeof out->token, 1, err);
}

static int parse_review(json_t *obj, proto_msg *out, proto_error *err) {
  return get_string(obj, "code", out->code, sizeof out->code, 0, err);
}

static int parse_move(json_t *obj, proto_msg *out, proto_error *err) {
  if (get_string(obj, "move", out->move, sizeof out->move, 1, err) ||
      get_int(obj, "ply", 0, 40, -1, &out->ply, err) ||
      get_int(obj, "seat", 0, PROTO_MAX_SEATS - 1, -1, &out->seat, err))
    return -1;
  if (out->ply < 0)
    return refuse(err, "bad_message",
                  "\"ply\" (the moves of the round you have seen) is "
                  "missing",
                  "manca \"ply\" (le mosse della mano che hai visto)");
  return 0;
}

static int parse_react(json_t *obj, proto_msg *out, proto_error *err) {
  return get_string(obj, "reaction", out->reaction, sizeof out->reaction, 1,
                    err);
}

/* A text field of talk: at most 4 bytes a character before cleaning
 * (then cleaned into out->text); 0, or -1.  required: it may not be
 * empty once cleaned. */
static int get_talk(json_t *obj, const char *key, int required, proto_msg *out,
                    proto_error *err) {
  char raw[4 * PROTO_TALK_MAX + 1];
  if (get_string(obj, key, raw, sizeof raw, required, err))
    return -1;
  int n = proto_clean_talk(raw, out->text);
  char detail[96], it[96];
  if (n < 0) {
    snprintf(detail, sizeof detail, "\"%s\" is at most %d characters", key,
             PROTO_TALK_CHARS);
    snprintf(it, sizeof it, "\"%s\" è di al più %d caratteri", key,
             PROTO_TALK_CHARS);
    return refuse(err, "bad_talk", detail, it);
  }
  if (n == 0 && required)
    return refuse(err, "bad_talk", "there is nothing to say",
                  "non c'è niente da dire");
  return 0;
}

/* say: "text", a line of table talk. */
static int parse_say(json_t *obj, proto_msg *out, proto_error *err) {
  return get_talk(obj, "text", 1, out, err);
}

/* report: "seat", the person reported, and an optional "reason". */
static int parse_report(json_t *obj, proto_msg *out, proto_error *err) {
  if (get_int(obj, "seat", 0, PROTO_MAX_SEATS - 1, -1, &out->seat, err) ||
      get_talk(obj, "reason", 0, out, err))
    return -1;
  if (out->seat < 0)
    return refuse(err, "bad_message", "\"seat\" (whom you report) is missing",
                  "manca \"seat\" (chi segnali)");
  return 0;
}

/* A rematch: "accept" is optional (true: play again; false: decline). */
static int parse_rematch(json_t *obj, proto_msg *out, proto_error *err) {
  json_t *v = json_object_get(obj, "accept");
  out->accept = 1;
  if (!v)
    return 0;
  if (!json_is_boolean(v))
    return refuse(err, "bad_message", "\"accept\" must be true or false",
                  "\"accept\" dev'essere true o false");
  out->accept = json_is_true(v);
  return 0;
}

static int parse_nothing(json_t *obj, proto_msg *out, proto_error *err) {
  (void)obj, (void)out, (void)err;
  return 0;
}

/* The message table (proto.h): each type's name and fields. */
static const struct {
  const char *name;
  int (*fields)(json_t *obj, proto_msg *out, proto_error *err);
} TYPES[PROTO_NTYPES] = {[PROTO_UNKNOWN] = {"", parse_nothing},
#define PROTO__ENTRY(type, name, fields) [PROTO_##type] = {name, fields},
                         PROTO_MESSAGES(PROTO__ENTRY)
#undef PROTO__ENTRY
};

/* The fields of the message's type, then those any message may carry. */
static int parse_fields(json_t *obj, proto_msg *out, proto_error *err) {
  char name[4 * PROTO_NAME_MAX + 1];
  if (TYPES[out->type].fields(obj, out, err) ||
      get_string(obj, "name", name, sizeof name, 0, err) ||
      get_string(obj, "player", out->player, sizeof out->player, 0, err))
    return -1;
  proto_clean_name(name, out->name);
  return 0;
}

/* Any message's "lang" and "deck" (the sentences' language and card
 * names): a language this server has no words for, or a deck that is not
 * a string, is ignored as an unknown field is. */
static void parse_words(json_t *obj, proto_msg *out) {
  const char *lang = json_string_value(json_object_get(obj, "lang"));
  const char *deck = json_string_value(json_object_get(obj, "deck"));
  if (lang && (!strcmp(lang, "en") || !strcmp(lang, "it")))
    snprintf(out->lang, sizeof out->lang, "%s", lang);
  if (deck)
    snprintf(out->deck, sizeof out->deck, "%s",
             strcmp(deck, SCOPA_DECK_FRENCH) ? "italiane" : SCOPA_DECK_FRENCH);
}

int proto_parse(const char *text, size_t len, proto_msg *out,
                proto_error *err) {
  memset(out, 0, sizeof *out);
  out->ply = out->seat = out->away_s = out->clock_s = -1;
  out->bank_s = out->inc_s = out->talk = -1;
  json_error_t jerr;
  json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!obj) {
    char detail[120];
    snprintf(detail, sizeof detail, "%.80s, at byte %d", jerr.text,
             jerr.position);
    /* jansson's text may quote the input: keep it printable ASCII. */
    for (char *p = detail; *p; p++)
      if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F)
        *p = '?';
    return refuse(err, "bad_json", detail, NULL); /* jansson's words */
  }
  int rc = -1;
  json_t *type = json_object_get(obj, "type");
  if (!json_is_object(obj)) {
    refuse(err, "bad_message", "a message is one JSON object",
           "un messaggio è un solo oggetto JSON");
    goto done;
  }
  json_t *id = json_object_get(obj, "id"); /* echoed even in a refusal */
  if (id)
    out->id = json_incref(id);
  if (!json_is_string(type)) {
    refuse(err, "bad_message", "\"type\" is missing", "manca \"type\"");
    goto done;
  }
  out->type = PROTO_UNKNOWN;
  for (int i = PROTO_UNKNOWN + 1; i < PROTO_NTYPES; i++)
    if (strcmp(json_string_value(type), TYPES[i].name) == 0)
      out->type = i;
  parse_words(obj, out);
  rc = parse_fields(obj, out, err);
done:
  json_decref(obj);
  if (rc) { /* only the id stays, for the refusal to echo */
    json_t *keep = out->id;
    out->id = NULL;
    proto_msg_free(out);
    out->id = keep;
  }
  return rc;
}

void proto_msg_free(proto_msg *msg) {
  json_decref(msg->id);
  json_decref(msg->rules);
  json_decref(msg->clock);
  json_decref(msg->body);
  msg->id = msg->rules = msg->clock = msg->body = NULL;
}

/* What a name may not hold (C0 and C1 controls, DEL, the bidirectional
 * marks and overrides, the line separators: anything that would let a
 * name reorder or break the text around it) is left out, by the
 * library's one rule for text from outside (scopa_text_safe). */
void proto_clean_name(const char *in, char *out) {
  while (*in == ' ')
    in++;
  scopa_text_safe(out, PROTO_NAME_MAX + 1, in, strlen(in), SCOPA_SAFE_DROP);
  size_t lead = strspn(out, " "); /* spaces behind a character left out */
  memmove(out, out + lead, strlen(out + lead) + 1);
  size_t n = strlen(out);
  while (n > 0 && out[n - 1] == ' ')
    n--;
  out[n] = 0;
}

int proto_clean_talk(const char *in, char *out) {
  char spaced[4 * PROTO_TALK_MAX + 1], clean[4 * PROTO_TALK_MAX + 1];
  size_t n = strlen(in);
  if (n >= sizeof spaced)
    return -1;
  for (size_t i = 0; i <= n; i++) /* a tab or a new line: a space */
    spaced[i] = strchr("\t\n\r\v\f", in[i]) && in[i] ? ' ' : in[i];
  scopa_text_safe(clean, sizeof clean, spaced, n, SCOPA_SAFE_DROP);
  size_t len = 0;
  int chars = 0;
  for (const char *p = clean; *p; p++) {
    if (*p == ' ' && (len == 0 || out[len - 1] == ' '))
      continue;
    if (((unsigned char)*p & 0xC0) != 0x80 && ++chars > PROTO_TALK_CHARS)
      return -1;
    out[len++] = *p;
  }
  if (len > 0 && out[len - 1] == ' ')
    len--, chars--;
  out[len] = 0;
  return chars;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

char *proto_finish(json_t *obj, const json_t *id) {
  if (!obj)
    return NULL;
  if (id)
    json_object_set_new(obj, "id", json_deep_copy(id));
  char *text = json_dumps(obj, JSON_COMPACT);
  json_decref(obj);
  return text;
}

char *proto_hello(const char *account) {
  return proto_finish(
      json_pack("{s:s, s:i, s:s, s:[s,s], s:s?}", "type", "hello", "protocol",
                PROTO_VERSION, "version", SCOPA_VERSION, "languages", "en",
                "it", "account", account && account[0] ? account : NULL),
      NULL);
}

char *proto_error_json(const json_t *id, const proto_error *err) {
  json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "type", "error", "code",
                        err->code, "message", err->en, "message_it", err->it);
  if (o && err->options[0]) {
    json_t *names = json_array();
    for (int i = 0; i < 2 && err->options[i]; i++)
      json_array_append_new(names, json_string(err->options[i]));
    json_object_set_new(o, "options", names);
  }
  return proto_finish(o, id);
}

char *proto_seated(const json_t *id, const char *code, int seat,
                   const char *token, const char *player) {
  return proto_finish(json_pack("{s:s, s:s, s:i, s:s, s:s}", "type", "seated",
                                "code", code, "seat", seat, "token", token,
                                "player", player),
                      id);
}

char *proto_notice(const char *code, int seat, const char *detail) {
  proto_error e;
  proto_error_set(&e, code, detail, NULL); /* a name or a seat's number */
  return proto_finish(json_pack("{s:s, s:s, s:i, s:s, s:s}", "type", "notice",
                                "code", e.code, "seat", seat, "message", e.en,
                                "message_it", e.it),
                      NULL);
}

/* ------------------------------------------------------------------ */
/* A create's seats and rules                                          */
/* ------------------------------------------------------------------ */

static int is_bot_or_level(const char *s) {
  if (scopa_bot_level(s, NULL, NULL) == SCOPA_OK)
    return 1;
  for (const char *const *b = scopa_bot_names(); *b; b++)
    if (strcmp(*b, s) == 0)
      return 1;
  return 0;
}

static int check_seats(const proto_msg *msg, int *me, proto_error *err) {
  char detail[96], it[96];
  *me = -1;
  for (int i = 0; i < msg->nseats; i++) {
    const char *s = msg->seats[i];
    if (strcmp(s, "me") == 0) {
      if (*me >= 0)
        return refuse(err, "bad_seats", "\"me\" appears twice",
                      "\"me\" compare due volte");
      *me = i;
    } else if (strcmp(s, "open") != 0 && !is_bot_or_level(s)) {
      snprintf(detail, sizeof detail, "no bot is called \"%.32s\"", s);
      snprintf(it, sizeof it, "nessun bot si chiama \"%.32s\"", s);
      return refuse(err, "bad_seats", detail, it);
    }
  }
  return *me < 0 ? refuse(err, "bad_seats", "\"me\" is missing", "manca \"me\"")
                 : 0;
}

/* The rules object of a create: a copy of the object, the preset's, or
 * an empty one; NULL with *err for an unknown preset (or no memory). */
static json_t *rules_object(const proto_msg *msg, proto_error *err) {
  char detail[96], it[96];
  if (!msg->rules)
    return json_object();
  if (!json_is_string(msg->rules))
    return json_deep_copy(msg->rules);
  /* RULES.md "Presets", as the library knows them (one copy) */
  char *preset = scopa_rules_preset_json(json_string_value(msg->rules));
  json_t *obj = preset ? json_loads(preset, 0, NULL) : NULL;
  scopa_free(preset);
  if (!obj) {
    snprintf(detail, sizeof detail, "no preset is called \"%.32s\"",
             json_string_value(msg->rules));
    snprintf(it, sizeof it, "nessuna variante si chiama \"%.32s\"",
             json_string_value(msg->rules));
    refuse(err, "bad_rules", detail, it);
  }
  return obj;
}

static int check_rules(const proto_msg *msg, scopa_rules *rules,
                       proto_error *err) {
  char detail[200], it[200] = "";
  proto_error_set(err, "server", "no memory", "memoria esaurita");
  json_t *obj = rules_object(msg, err);
  if (!obj)
    return -1;
  if (!json_object_get(obj, "players") && msg->nseats > 0) /* a create */
    json_object_set_new(obj, "players", json_integer(msg->nseats));
  char *text = json_dumps(obj, JSON_COMPACT);
  json_decref(obj);
  if (!text)
    return -1;
  int rc = scopa_rules_from_json(rules, text, strlen(text), NULL, detail,
                                 sizeof detail);
  if (rc != SCOPA_OK)
    scopa_rules_from_json(rules, text, strlen(text), "it", it, sizeof it);
  free(text);
  if (rc != SCOPA_OK) { /* the JSON parser's own words stay English */
    refuse(err, "bad_rules", detail, it[0] ? it : NULL);
    /* rules read but unplayable: the options by name, for programs (the
     * texts say their labels); only when the refusal is the check's */
    char again[200] = "";
    scopa_rules copy = *rules;
    if (rc == SCOPA_ERULES &&
        scopa_rules_check(&copy, NULL, again, sizeof again) != SCOPA_OK &&
        !strcmp(again, detail))
      scopa_rules_check_options(rules, err->options);
    return -1;
  }
  if (msg->nseats > 0 && rules->players != msg->nseats) {
    snprintf(detail, sizeof detail,
             "the rules are for %d players, the seats %d", rules->players,
             msg->nseats);
    snprintf(it, sizeof it, "le regole sono per %d giocatori, i posti %d",
             rules->players, msg->nseats);
    return refuse(err, "bad_rules", detail, it);
  }
  return 0;
}

int proto_create_check(const proto_msg *msg, int *me, scopa_rules *rules,
                       proto_error *err) {
  return check_seats(msg, me, err) || check_rules(msg, rules, err) ? -1 : 0;
}

int proto_seek_check(const proto_msg *msg, scopa_rules *rules,
                     proto_error *err) {
  proto_msg copy = *msg;
  copy.nseats = 0; /* the rules say how many */
  return check_rules(&copy, rules, err);
}

/* ------------------------------------------------------------------ */
/* A move                                                              */
/* ------------------------------------------------------------------ */

static int round_ply(const scopa_match *match) {
  const scopa_state *st = scopa_match_state(match);
  return st ? st->plays : 0;
}

/* Whose turn it is and at which ply: the checks before the move's text. */
static int check_turn(const proto_msg *msg, const scopa_match *match, int seat,
                      int waiting, proto_error *err) {
  char detail[96], it[96];
  if (msg->seat >= 0 && msg->seat != seat) {
    snprintf(detail, sizeof detail, "you sit at seat %d", seat);
    snprintf(it, sizeof it, "siedi al posto %d", seat);
    return refuse(err, "not_your_seat", detail, it);
  }
  if (waiting)
    return refuse(err, "not_playing", "waiting for players",
                  "si aspettano i giocatori");
  if (scopa_match_phase(match) == SCOPA_MATCH_OVER)
    return refuse(err, "not_playing", "the game is over",
                  "la partita è finita");
  int to_play = scopa_match_to_play(match);
  if (to_play != seat) {
    snprintf(detail, sizeof detail, "seat %d is to play", to_play);
    snprintf(it, sizeof it, "tocca al posto %d", to_play);
    return refuse(err, "not_your_turn", detail, it);
  }
  if (msg->ply != round_ply(match)) {
    snprintf(detail, sizeof detail, "ply %d, the round is at ply %d", msg->ply,
             round_ply(match));
    snprintf(it, sizeof it, "mossa %d, la mano è alla mossa %d", msg->ply,
             round_ply(match));
    return refuse(err, "stale", detail, it);
  }
  return 0;
}

int proto_move_check(const proto_msg *msg, const scopa_match *match, int seat,
                     int waiting, scopa_move *move, proto_error *err) {
  char detail[300], it[300];
  if (check_turn(msg, match, seat, waiting, err))
    return -1;
  if (scopa_move_parse(msg->move, NULL, move, detail, sizeof detail) !=
      SCOPA_OK) {
    scopa_move_parse(msg->move, "it", move, it, sizeof it);
    return refuse(err, "bad_move", detail, it);
  }
  /* Said without naming the cards: an answer never names a card its
   * reader cannot know, even one the reader made up. */
  const scopa_state *st = scopa_match_state(match);
  if (!(st->hand[seat] & SCOPA_BIT(SCOPA_MOVE_CARD(*move))))
    return refuse(err, "illegal", "that card is not in your hand",
                  "quella carta non è nella tua mano");
  if (SCOPA_MOVE_TAKES(*move) & ~st->table)
    return refuse(err, "illegal", "you can take only cards on the table",
                  "puoi prendere solo carte che sono in tavola");
  if (scopa_state_check(st, *move, "it", it, sizeof it) != SCOPA_OK) {
    scopa_state_check(st, *move, NULL, detail, sizeof detail);
    return refuse(err, "illegal", detail, it);
  }
  return 0;
}

int proto_hint_check(const scopa_match *match, int seat, int playing,
                     proto_error *err) {
  if (!match || seat < 0)
    return refuse(err, "not_seated", "", "");
  if (!playing || scopa_match_to_play(match) != seat)
    return refuse(err, "not_your_turn", "a hint is for your turn",
                  "un consiglio è per il tuo turno");
  return 0;
}

int proto_review_check(const proto_msg *msg, const char *code, int finished,
                       proto_error *err) {
  if (!code || (msg->code[0] && strcasecmp(msg->code, code) != 0))
    return refuse(err, "not_seated", " (a review is of your table)",
                  " (la revisione è del tuo tavolo)");
  if (!finished)
    return refuse(err, "not_playing", "the review comes at the end",
                  "la revisione viene alla fine");
  return 0;
}

void proto_no_memory(proto_error *err, int type) {
  if (type == PROTO_HINT)
    refuse(err, "server", "no memory for a hint",
           "non c'è memoria per un consiglio");
  else
    refuse(err, "server", "no memory for a review",
           "non c'è memoria per la revisione");
}

/* ------------------------------------------------------------------ */
/* What a table sends                                                  */
/* ------------------------------------------------------------------ */

static json_t *cards_json(scopa_cards cards) {
  json_t *list = json_array();
  char buf[SCOPA_CARD_TEXT];
  for (int card = 0; card < 40; card++)
    if (cards & SCOPA_BIT(card))
      json_array_append_new(list, json_string(scopa_card_str(card, buf)));
  return list;
}

static json_t *legal_json(const scopa_view *v) {
  scopa_move moves[SCOPA_MAX_MOVES];
  char buf[SCOPA_MOVE_TEXT];
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  json_t *list = json_array();
  for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
    json_array_append_new(list, json_string(scopa_move_str(moves[i], buf)));
  return list;
}

static json_t *seat_or_null(int seat) {
  return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *card_json(int card) {
  char buf[SCOPA_CARD_TEXT];
  return json_string(scopa_card_str(card, buf));
}

/* The cards that made each side's scope this round, in the order they
 * were made: the round played again from its deck by the library
 * (scopa_state_is_scopa before each move), so nothing here repeats a
 * rule.  A deal_bonus scopa is counted at the deal: its cards are the
 * first table cards (the four all went to the dealer's side).  Only
 * played cards and table cards are named, public to every seat. */
static json_t *scope_json(const scopa_state *st) {
  json_t *scope = json_array();
  json_t *side[SCOPA_MAX_SEATS];
  for (int i = 0; i < st->sides; i++) {
    side[i] = json_array();
    json_array_append_new(scope, side[i]);
  }
  scopa_state s;
  if (scopa_state_deal(&s, &st->rules, st->dealer, st->deck, NULL, 0) !=
      SCOPA_OK)
    return scope;
  for (int i = 0; i < s.sides; i++) {
    scopa_cards t = s.initial_table;
    for (int n = 0; n < s.scope[i] && t; n++) {
      int card = __builtin_ctzll(t);
      t &= t - 1;
      json_array_append_new(side[i], card_json(card));
    }
  }
  for (int i = 0; i < st->plays && s.to_play != SCOPA_NO_SEAT; i++) {
    scopa_move m = st->moves[i];
    int who = scopa_rules_side_of(&s.rules, s.to_play);
    if (scopa_state_is_scopa(&s, m))
      json_array_append_new(side[who], card_json(SCOPA_MOVE_CARD(m)));
    scopa_state_play(&s, m);
  }
  return scope;
}

/* A card's primiera value on the rules' scale (RULES.md "Cards"; faces
 * 0 under faces_zero), as the library scores a pile of that card alone. */
static int primiera_value(const scopa_rules *rules, int card) {
  scopa_cards pile = SCOPA_BIT(card);
  uint8_t scope = 0;
  scopa_score sc;
  scopa_score_piles(rules, 1, &pile, &scope, &sc);
  return sc.side[0].primiera;
}

/* The cards behind each category of a finished round, per side (the
 * round score shows them under the points round_over gives): its coins,
 * its sevens, and for primiera its best card of each suit (coins, cups,
 * swords, clubs; null for a suit it lacks) with its value. */
static json_t *categories_json(const scopa_view *v) {
  json_t *out = json_array();
  for (int i = 0; i < v->sides; i++) {
    scopa_cards pile = v->pile[i];
    json_t *prim = json_array();
    for (int suit = 0; suit < 4; suit++) {
      int best = -1, value = -1;
      for (int c = suit; c < 40; c += 4)
        if (pile & SCOPA_BIT(c)) {
          int x = primiera_value(&v->rules, c);
          if (x > value) {
            best = c;
            value = x;
          }
        }
      json_array_append_new(prim, best < 0 ? json_null()
                                           : json_pack("{s:o, s:i}", "card",
                                                       card_json(best), "value",
                                                       value));
    }
    json_array_append_new(out, json_pack("{s:o, s:o, s:o}", "denari",
                                         cards_json(pile & SCOPA_DENARI_CARDS),
                                         "sevens",
                                         cards_json(pile & SCOPA_RANK_CARDS(7)),
                                         "primiera", prim));
  }
  return out;
}

/* Why each card of the seat's hand plays as it does now, in the hand's
 * (card) order: [{"card", "reason"}] (scopa_view_card_reason); words
 * come with proto_add_words. */
static json_t *reasons_json(const scopa_view *v) {
  json_t *out = json_array();
  char text[SCOPA_CARD_TEXT];
  for (int c = 0; c < 40; c++)
    if (v->hand & SCOPA_BIT(c))
      json_array_append_new(
          out,
          json_pack("{s:s, s:s}", "card", scopa_card_str(c, text), "reason",
                    scopa_card_reason_code(scopa_view_card_reason(v, c))));
  return out;
}

/* What a client draws, from the recipient's view v (issue 33: the
 * browser replays nothing): the table now, each seat's number of cards
 * in hand, the stock, each side's captured cards (the leftovers in them
 * once the round is over) and the cards of its scope, the round's last
 * move with its seat (null before the first), once the round is over
 * its categories' cards, and for the seat to play (when legal is sent)
 * why each card of its hand plays as it does. */
static json_t *drawn_json(const scopa_match *match, const scopa_view *v,
                          int seat) {
  json_t *hands = json_array(), *piles = json_array(), *last = json_null();
  for (int i = 0; i < v->players; i++)
    json_array_append_new(hands, json_integer(v->hand_count[i]));
  for (int i = 0; i < v->sides; i++)
    json_array_append_new(piles, cards_json(v->pile[i]));
  if (v->plays > 0) {
    char buf[SCOPA_MOVE_TEXT];
    last = json_pack("{s:i, s:s}", "seat", (v->dealer + v->plays) % v->players,
                     "move", scopa_move_str(v->moves[v->plays - 1], buf));
  }
  json_t *d =
      json_pack("{s:o, s:o, s:i, s:o, s:o, s:o}", "table", cards_json(v->table),
                "hands", hands, "stock", v->stock, "piles", piles, "scope",
                scope_json(scopa_match_state(match)), "last", last);
  if (d && v->plays > 0 && v->to_play == SCOPA_NO_SEAT)
    json_object_set_new(d, "categories", categories_json(v));
  if (d && seat >= 0 && v->to_play == seat) /* with legal, as legal */
    json_object_set_new(d, "reasons", reasons_json(v));
  return d;
}

json_t *proto_state(const scopa_match *match, const char *code, int seat,
                    int to_play) {
  char *view_text = scopa_match_view_json(match, seat);
  json_t *view = view_text ? json_loads(view_text, 0, NULL) : NULL;
  scopa_free(view_text);
  json_t *o = json_pack("{s:s, s:s}", "type", "state", "code", code);
  if (!view || !o) {
    json_decref(view);
    json_decref(o);
    return NULL;
  }
  json_object_update(o, view); /* rules, seat, scores, round */
  json_decref(view);
  json_object_set_new(o, "seat", seat_or_null(seat));
  json_object_set_new(o, "to_play", seat_or_null(to_play));
  json_object_set_new(o, "ply", json_integer(round_ply(match)));
  scopa_view v; /* the one view of this recipient: hand, legal, drawn */
  scopa_match_view(match, seat, &v);
  if (seat >= 0) {
    json_object_set_new(o, "hand", cards_json(v.hand));
    if (to_play == seat)
      json_object_set_new(o, "legal", legal_json(&v));
  }
  json_object_set_new(o, "drawn", drawn_json(match, &v, seat));
  return o;
}

static json_t *totals_json(const scopa_event *ev) {
  json_t *totals = json_array();
  for (int i = 0; i < ev->score.sides; i++)
    json_array_append_new(totals, json_integer(ev->totals[i]));
  return totals;
}

char *proto_round_over(const char *code, const scopa_event *ev) {
  char *sides_text = scopa_score_json(&ev->score);
  json_t *sides = sides_text ? json_loads(sides_text, 0, NULL) : NULL;
  scopa_free(sides_text);
  return proto_finish(json_pack("{s:s, s:s, s:i, s:o*, s:o}", "type",
                                "round_over", "code", code, "round", ev->round,
                                "sides", sides, "totals", totals_json(ev)),
                      NULL);
}

char *proto_game_over(const char *code, const scopa_event *ev, const char *seed,
                      const char *seed_sha256) {
  return proto_finish(json_pack("{s:s, s:s, s:o, s:o, s:s, s:s}", "type",
                                "game_over", "code", code, "totals",
                                totals_json(ev), "winner",
                                seat_or_null(ev->winner), "seed", seed,
                                "seed_sha256", seed_sha256),
                      NULL);
}

/* A number, or null where there is no estimate (NAN). */
static json_t *value_json(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* What a move does (scopa_move_why_json), or null. */
static json_t *why_json(const scopa_view *view, scopa_move move) {
  char *text = view ? scopa_move_why_json(view, move) : NULL;
  json_t *o = text ? json_loads(text, 0, NULL) : NULL;
  scopa_free(text);
  return o ? o : json_null();
}

/* One move of a hint (scopa_bot_hint's fields and what it does). */
static json_t *hint_move_json(const scopa_view *view, const scopa_hint *h) {
  char buf[SCOPA_MOVE_TEXT];
  return json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o}", "move",
                   scopa_move_str(h->move, buf), "value", value_json(h->value),
                   "margin", value_json(h->margin), "loss", value_json(h->loss),
                   "loss_margin", value_json(h->loss_margin), "mark",
                   scopa_hint_mark_text(h->mark), "why",
                   why_json(view, h->move));
}

char *proto_hint(const char *code, int ply, const scopa_view *view,
                 const scopa_hint *hints, int n, const json_t *id) {
  char buf[SCOPA_MOVE_TEXT];
  json_t *list = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(list, hint_move_json(view, &hints[i]));
  json_t *o = json_pack("{s:s, s:s, s:i, s:o}", "type", "hint", "code", code,
                        "ply", ply, "moves", list);
  if (o && n > 0) {
    json_object_set_new(o, "move",
                        json_string(scopa_move_str(hints[0].move, buf)));
    json_object_set_new(o, "value", value_json(hints[0].value));
    json_object_set_new(o, "margin", value_json(hints[0].margin));
    json_object_set_new(o, "why", why_json(view, hints[0].move));
  }
  return proto_finish(o, id);
}

char *proto_review(const char *code, const char *review, const json_t *id) {
  json_t *r = json_loads(review, 0, NULL);
  json_t *o = r ? json_pack("{s:s, s:s}", "type", "review", "code", code) : 0;
  if (o)
    json_object_update(o, r);
  json_decref(r);
  return proto_finish(o, id);
}

/* ------------------------------------------------------------------ */
/* Words                                                               */
/* ------------------------------------------------------------------ */

void proto_why_of(const json_t *o, scopa_why *w) {
  memset(w, 0, sizeof *w);
  size_t i;
  json_t *code;
  json_array_foreach(json_object_get(o, "codes"), i, code) {
    for (int bit = 0; bit < SCOPA_WHY_COUNT; bit++)
      if (json_is_string(code) &&
          !strcmp(json_string_value(code), scopa_why_code(bit)))
        w->reasons |= 1u << bit;
  }
  w->cards = (int)json_integer_value(json_object_get(o, "cards"));
  w->coins = (int)json_integer_value(json_object_get(o, "coins"));
  w->sevens = (int)json_integer_value(json_object_get(o, "sevens"));
  w->sum = (int)json_integer_value(json_object_get(o, "sum"));
  w->rank = (int)json_integer_value(json_object_get(o, "rank"));
}

/* The move of `key` and what `why_key` says it does, as a hint says it:
 * "Take the 7 of coins with your 7 of cups: takes the settebello" (the
 * first two reasons, then a risk); null when key is no move. */
static json_t *said_json(const json_t *o, const char *key, const char *why_key,
                         const char *lang, const char *deck) {
  scopa_move m;
  const char *text = json_string_value(json_object_get(o, key));
  if (!text || scopa_move_parse(text, NULL, &m, NULL, 0) != SCOPA_OK)
    return json_null();
  char move[256], why[512], both[800];
  scopa_why w;
  scopa_move_words(m, lang, deck, move, sizeof move);
  proto_why_of(json_object_get(o, why_key), &w);
  scopa_why_words(&w, 2, lang, deck, why, sizeof why);
  snprintf(both, sizeof both, why[0] ? "%s: %s" : "%s", move, why);
  return json_string(both);
}

/* A number of o, NAN when it is not one (null: no estimate). */
static double number_of(const json_t *o, const char *key) {
  json_t *x = json_object_get(o, key);
  return json_is_number(x) ? json_number_value(x) : NAN;
}

/* "loss_words" and "cost_words" of a move that cost `cost`. */
static void loss_words(json_t *o, double cost, const char *lang) {
  char buf[300];
  const char *mark = json_string_value(json_object_get(o, "mark"));
  int marked = !mark                 ? SCOPA_MARK_NONE
               : !strcmp(mark, "??") ? SCOPA_MARK_BLUNDER
               : !strcmp(mark, "?")  ? SCOPA_MARK_SLIP
                                     : SCOPA_MARK_NONE;
  double margin = number_of(o, "loss_margin");
  scopa_loss_words(cost, isfinite(margin) ? margin : 0, marked, lang, buf,
                   sizeof buf);
  json_object_set_new(o, "loss_words", json_string(buf));
  scopa_points_words(isfinite(cost) ? cost : 0, lang, buf, sizeof buf);
  json_object_set_new(o, "cost_words", json_string(buf));
}

static void state_words(json_t *o, const char *lang, const char *deck) {
  json_t *legal = json_object_get(o, "legal"), *x;
  char buf[256];
  scopa_move m;
  size_t i;
  if (json_is_array(legal)) {
    json_t *words = json_array();
    json_array_foreach(legal, i, x) {
      const char *text = json_string_value(x);
      if (text && scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK)
        scopa_move_words(m, lang, deck, buf, sizeof buf);
      else
        buf[0] = 0;
      json_array_append_new(words, json_string(buf));
    }
    json_object_set_new(o, "legal_words", words);
  }
  json_t *reasons = json_object_get(json_object_get(o, "drawn"), "reasons");
  json_array_foreach(reasons, i, x) {
    const char *ct = json_string_value(json_object_get(x, "card"));
    int card = ct ? scopa_card_parse(ct) : -1;
    const char *code = json_string_value(json_object_get(x, "reason"));
    for (int r = 0; code && card >= 0 && r < SCOPA_CARD_REASON_COUNT; r++)
      if (!strcmp(code, scopa_card_reason_code(r))) {
        scopa_card_reason_words(r, card, lang, deck, buf, sizeof buf);
        json_object_set_new(x, "words", json_string(buf));
      }
  }
  json_t *last = json_object_get(json_object_get(o, "drawn"), "last");
  const char *text = json_string_value(json_object_get(last, "move"));
  if (text && scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK) {
    scopa_played_words(m, lang, deck, buf, sizeof buf);
    json_object_set_new(last, "words", json_string(buf));
  }
}

/* "others_words": what the hint says of the moves after its first, the
 * one it gives (scopa_hint_others_words). */
static void others_words(json_t *o, const char *lang) {
  json_t *moves = json_object_get(o, "moves");
  size_t n = json_array_size(moves), k = 0;
  double *loss = malloc((n ? n : 1) * sizeof *loss);
  double *margin = malloc((n ? n : 1) * sizeof *margin);
  char buf[300];
  if (loss && margin && n > 0) {
    for (size_t i = 1; i < n; i++, k++) {
      loss[k] = number_of(json_array_get(moves, i), "loss");
      margin[k] = number_of(json_array_get(moves, i), "loss_margin");
    }
    scopa_hint_others_words(number_of(o, "value"), loss, margin, (int)k, lang,
                            buf, sizeof buf);
    json_object_set_new(o, "others_words", json_string(buf));
  }
  free(loss);
  free(margin);
}

static void hint_words(json_t *o, const char *lang, const char *deck) {
  json_t *x;
  size_t i;
  if (json_object_get(o, "move"))
    json_object_set_new(o, "words", said_json(o, "move", "why", lang, deck));
  json_array_foreach(json_object_get(o, "moves"), i, x) {
    if (!json_is_object(x))
      continue;
    json_object_set_new(x, "words", said_json(x, "move", "why", lang, deck));
    loss_words(x, number_of(x, "loss"), lang);
  }
  others_words(o, lang);
}

static void review_words(json_t *o, const char *lang, const char *deck) {
  json_t *round, *x;
  size_t i, j;
  json_array_foreach(json_object_get(o, "rounds"), i, round) {
    json_array_foreach(json_object_get(round, "moves"), j, x) {
      if (!json_is_object(x))
        continue;
      json_object_set_new(x, "words", said_json(x, "move", "why", lang, deck));
      json_object_set_new(x, "move_words",
                          said_json(x, "move", "", lang, deck));
      json_object_set_new(x, "best_words",
                          said_json(x, "best", "best_why", lang, deck));
      double cost = number_of(x, "cost");
      loss_words(x, isfinite(cost) ? cost : number_of(x, "loss"), lang);
    }
  }
}

void proto_add_words(json_t *msg, const char *lang, const char *deck) {
  const char *type = json_string_value(json_object_get(msg, "type"));
  if (!lang || !lang[0])
    lang = "en";
  if (!type)
    return;
  if (!strcmp(type, "state"))
    state_words(msg, lang, deck);
  else if (!strcmp(type, "hint"))
    hint_words(msg, lang, deck);
  else if (!strcmp(type, "review"))
    review_words(msg, lang, deck);
}

char *proto_words(const char *text, const json_t *id, const char *lang,
                  const char *deck) {
  json_t *o = text ? json_loads(text, 0, NULL) : NULL;
  if (!json_is_object(o)) {
    json_decref(o);
    return NULL;
  }
  proto_add_words(o, lang, deck);
  return proto_finish(o, id);
}
