/*
 * test_server.c -- the server's pure parts without sockets: the message
 * parser (proto.c), Glicko-2 (glicko.c) on Glickman's worked example, the
 * flood credits and per-address counts (limits.c), and the store
 * (store.c): a game comes back as stored, and a move number can never be
 * written twice (PRIMARY KEY (game, number)); Play now's grouping
 * (pairing.c) and its seeks in the store.  Names: serve-proto-N,
 * serve-rating-N, serve-limits-N, serve-store-N, serve-pairing-N.
 */
#include "../../src/proto/proto.h"
#include "../../src/server/bank.h"
#include "../../src/server/glicko.h"
#include "../../src/server/limits.h"
#include "../../src/server/pairing.h"
#include "../../src/server/store.h"
#include "../test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse(const char *text, proto_msg *m, proto_error *e) {
  return proto_parse(text, strlen(text), m, e);
}

static void test_proto(void) {
  proto_msg m;
  proto_error e;
  TEST("serve-proto-1", "CONTRACTS.md scopa serve");
  /* serve-proto-1: the contract's messages parse to their fields. */
  CHECK(parse("{\"type\":\"create\",\"rules\":{\"target\":3},\"seats\":"
              "[\"me\",\"open\",\"best\"],\"name\":\" Anna \",\"id\":7}",
              &m, &e) == 0);
  CHECK(m.type == PROTO_CREATE && m.nseats == 3);
  CHECK(strcmp(m.seats[2], "best") == 0 && strcmp(m.name, "Anna") == 0);
  CHECK(json_is_object(m.rules) && json_integer_value(m.id) == 7);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"move\",\"move\":\"7dx3c+4s\",\"ply\":12}", &m, &e) ==
        0);
  CHECK(m.type == PROTO_MOVE && m.ply == 12 && m.seat == -1);
  CHECK(strcmp(m.move, "7dx3c+4s") == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"resume\",\"code\":\"K7QX2M\",\"token\":\"ab\"}", &m,
              &e) == 0);
  CHECK(m.type == PROTO_RESUME && strcmp(m.token, "ab") == 0);
  proto_msg_free(&m);
  /* play again: "accept" is optional (yes), and false says no */
  CHECK(parse("{\"type\":\"rematch\"}", &m, &e) == 0);
  CHECK(m.type == PROTO_REMATCH && m.accept == 1);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"rematch\",\"accept\":false}", &m, &e) == 0);
  CHECK(m.type == PROTO_REMATCH && m.accept == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"react\",\"reaction\":\"bella\"}", &m, &e) == 0);
  CHECK(m.type == PROTO_REACT && strcmp(m.reaction, "bella") == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"react\",\"reaction\":\"x01234567890123456\"}", &m,
              &e) == -1);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"rematch\",\"accept\":1}", &m, &e) == -1);
  CHECK(strcmp(e.code, "bad_message") == 0);
  proto_msg_free(&m);
  TEST("serve-proto-2", "CONTRACTS.md scopa serve");
  /* serve-proto-2: unknown types and fields are ignored, not errors. */
  CHECK(parse("{\"type\":\"later\",\"x\":[1,2]}", &m, &e) == 0);
  CHECK(m.type == PROTO_UNKNOWN);
  proto_msg_free(&m);
  TEST("serve-proto-3", "CONTRACTS.md scopa serve");
  /* serve-proto-3: wrong types, sizes and shapes are errors with both
   * languages' texts. */
  const char *bad[] = {
      "",
      "{",
      "[]",
      "7",
      "{\"type\":3}",
      "{\"type\":\"move\",\"move\":\"7d\"}",
      "{\"type\":\"move\",\"move\":\"7d\",\"ply\":\"1\"}",
      "{\"type\":\"move\",\"move\":\"7d\",\"ply\":41}",
      "{\"type\":\"move\",\"move\":\"7d\",\"ply\":1,\"seat\":9}",
      "{\"type\":\"join\"}",
      "{\"type\":\"join\",\"code\":\"ABCDEFGHIJKLMNOPQ\"}",
      "{\"type\":\"create\",\"seats\":[\"me\"]}",
      "{\"type\":\"create\",\"seats\":[\"me\",7]}",
      "{\"type\":\"create\",\"seats\":[\"me\",\"open\"],\"rules\":[1]}",
      "{\"type\":\"join\",\"code\":\"A\\u0000B\"}",
      "{\"type\":\"ping\",\"type\":\"ping\"}",
      "{\"type\":\"ping\"} x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(parse(bad[i], &m, &e) == -1);
    CHECK(e.code && e.en[0] && e.it[0]);
    CHECK(m.id == NULL && m.rules == NULL);
    proto_msg_free(&m);
  }
  /* ... and a refused message that was a JSON object keeps its id for the
   * refusal to echo (CONTRACTS.md), whatever made it wrong. */
  const char *bad_with_id[] = {
      "{\"id\":5}", "{\"type\":3,\"id\":5}",
      "{\"type\":\"move\",\"move\":\"7d\",\"id\":5}",
      "{\"type\":\"create\",\"seats\":[\"me\"],\"rules\":{},\"id\":5}"};
  for (size_t i = 0; i < sizeof bad_with_id / sizeof bad_with_id[0]; i++) {
    CHECK(parse(bad_with_id[i], &m, &e) == -1);
    CHECK(json_integer_value(m.id) == 5 && m.rules == NULL);
    proto_msg_free(&m);
  }
  TEST("serve-proto-4", "CONTRACTS.md scopa serve");
  /* serve-proto-4: names lose control characters and are cut on a
   * character boundary. */
  char name[PROTO_NAME_MAX + 1];
  proto_clean_name("a\tb\x7f"
                   "c",
                   name);
  CHECK(strcmp(name, "abc") == 0);
  proto_clean_name("x\xe2\x80\xaey\xe2\x81\xa6z\xc2\x85!", name);
  CHECK(strcmp(name, "xyz!") == 0); /* RLO, LRI, NEL removed */
  proto_clean_name(" \x01 Anna\xe2\x80\x8f ", name);
  CHECK(strcmp(name, "Anna") == 0); /* no edge space behind a dropped mark */
  char longname[200];
  memset(longname, 0, sizeof longname);
  for (int i = 0; i < 40; i++)
    memcpy(longname + 2 * i, "\xc3\xa8", 2); /* è */
  proto_clean_name(longname, name);
  CHECK(strlen(name) == 64 && (unsigned char)name[62] == 0xc3);
  TEST("serve-talk-1", "docs/serve.md Table talk");
  /* serve-talk-1: a line of talk loses what a name loses, its white
   * space folded; at most PROTO_TALK_CHARS characters, never cut. */
  char line[PROTO_TALK_MAX + 1];
  CHECK(proto_clean_talk("  a\t\tb\n\x1b[31mc\xe2\x80\xae  d  ", line) == 7);
  CHECK(strcmp(line, "a b c d") == 0);
  CHECK(proto_clean_talk(" \x07 \n ", line) == 0 && line[0] == 0);
  char many[4 * PROTO_TALK_MAX];
  memset(many, 0, sizeof many);
  for (int i = 0; i < PROTO_TALK_CHARS; i++)
    memcpy(many + 4 * i, "\xf0\x9f\x98\x80", 4); /* U+1F600, 4 bytes */
  CHECK(proto_clean_talk(many, line) == PROTO_TALK_CHARS);
  CHECK(strlen(line) == PROTO_TALK_MAX);
  memcpy(many + 4 * PROTO_TALK_CHARS - 4, "xy", 3); /* one more character */
  CHECK(proto_clean_talk(many, line) == -1);
  CHECK(parse("{\"type\":\"say\",\"text\":\" ciao \"}", &m, &e) == 0 &&
        m.type == PROTO_SAY && strcmp(m.text, "ciao") == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"say\",\"text\":\"\\u0007\"}", &m, &e) == -1 &&
        strcmp(e.code, "bad_talk") == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"report\",\"seat\":1}", &m, &e) == 0 &&
        m.type == PROTO_REPORT && m.seat == 1 && m.text[0] == 0);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"report\"}", &m, &e) == -1);
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"create\",\"seats\":[\"me\",\"open\"],"
              "\"talk\":false}",
              &m, &e) == 0 &&
        m.talk == 0);
  proto_msg_free(&m);
  TEST("serve-proto-partner", "docs/serve.md Scopone pairs: partner");
  CHECK(parse("{\"type\":\"tournament_join\",\"id\":\"SAB\","
              "\"partner\":\"bea\\u202e\\u0007x\",\"name\":\"n\"}",
              &m, &e) == 0);
  CHECK(m.type == PROTO_TOURNAMENT_JOIN && !strcmp(m.code, "SAB"));
  CHECK_EQ_STR(m.partner, "beax"); /* the controls left out, as a name's */
  CHECK_EQ_STR(m.name, "n");       /* and not the name */
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"tournament_join\",\"id\":\"SAB\","
              "\"partner\":7}",
              &m, &e) == -1 &&
        !strcmp(e.code, "bad_message"));
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"tournament_join\",\"id\":\"SAB\"}", &m, &e) == 0 &&
        m.partner[0] == 0);
  proto_msg_free(&m);
  TEST("serve-proto-5", "CONTRACTS.md scopa serve");
  /* serve-proto-5: writers give one JSON object with the id echoed. */
  json_t *id = json_string("x1");
  proto_error_set(&e, "stale", "ply 3", "mossa 3");
  char *text = proto_error_json(id, &e);
  json_t *o = json_loads(text, 0, NULL);
  CHECK(o &&
        strcmp(json_string_value(json_object_get(o, "type")), "error") == 0);
  CHECK(strcmp(json_string_value(json_object_get(o, "id")), "x1") == 0);
  CHECK(strstr(json_string_value(json_object_get(o, "message")), "ply 3"));
  CHECK(!strstr(json_string_value(json_object_get(o, "message")), "mossa"));
  /* serve-proto-6: the detail is in Italian in message_it; the library's
   * words (no Italian given) are kept as they are. */
  TEST("serve-proto-6", "docs/serve.md: errors in English and Italian");
  CHECK(strstr(json_string_value(json_object_get(o, "message_it")), "mossa 3"));
  CHECK(!strstr(json_string_value(json_object_get(o, "message_it")), "ply"));
  json_decref(o);
  free(text);
  proto_error_set(&e, "illegal", "the 7 must take the 7", NULL);
  CHECK(strstr(e.it, "the 7 must take the 7") && strstr(e.it, "regole"));
  json_decref(id);

  TEST("serve-proto-words", "issue 33: the reader's language and deck");
  /* Any message may say its reader's language and deck; a language the
   * server has no words for is ignored, as an unknown field is. */
  CHECK(parse("{\"type\":\"ping\",\"lang\":\"it\",\"deck\":\"francesi\"}", &m,
              &e) == 0);
  CHECK(!strcmp(m.lang, "it") && !strcmp(m.deck, SCOPA_DECK_FRENCH));
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"ping\",\"lang\":\"fr\",\"deck\":\"napoletane\"}", &m,
              &e) == 0);
  CHECK(!m.lang[0] && !strcmp(m.deck, "italiane"));
  proto_msg_free(&m);
  CHECK(parse("{\"type\":\"ping\",\"lang\":7,\"deck\":[]}", &m, &e) == 0);
  CHECK(!m.lang[0] && !m.deck[0]);
  proto_msg_free(&m);
  /* The sentences are the library's, of the moves the message names. */
  char *said =
      proto_words("{\"type\":\"state\",\"legal\":[\"7cx7d\",\"5s\",\"zz\"],"
                  "\"drawn\":{\"last\":{\"seat\":1,\"move\":\"9cx2s+3c+4b\"}}}",
                  NULL, "it", SCOPA_DECK_FRENCH);
  o = said ? json_loads(said, 0, NULL) : NULL;
  json_t *words = json_object_get(o, "legal_words");
  CHECK(json_array_size(words) == 3);
  CHECK(!strcmp(json_string_value(json_array_get(words, 0)),
                "Prendi il 7 di quadri con il tuo 7 di cuori"));
  CHECK(!strcmp(json_string_value(json_array_get(words, 1)),
                "Cala il 5 di picche"));
  CHECK(!strcmp(json_string_value(json_array_get(words, 2)), ""));
  CHECK(!strcmp(
      json_string_value(json_object_get(
          json_object_get(json_object_get(o, "drawn"), "last"), "words")),
      "prende il 2 di picche, il 3 di cuori e il 4 di fiori con la "
      "donna di cuori"));
  json_decref(o);
  free(said);
  said = proto_words("{\"type\":\"review\",\"rounds\":[{\"moves\":[{\"move\":"
                     "\"7cx7d\",\"why\":{\"codes\":[\"settebello\"]},"
                     "\"best\":\"5s\",\"cost\":0.75,\"loss_margin\":0.1,"
                     "\"mark\":\"?\"}]}],\"id\":4}",
                     NULL, NULL, NULL);
  o = said ? json_loads(said, 0, NULL) : NULL;
  json_t *mv = json_array_get(
      json_object_get(json_array_get(json_object_get(o, "rounds"), 0), "moves"),
      0);
  CHECK(!strcmp(json_string_value(json_object_get(mv, "words")),
                "Take the 7 of coins with your 7 of cups: takes the "
                "settebello"));
  CHECK(!strcmp(json_string_value(json_object_get(mv, "move_words")),
                "Take the 7 of coins with your 7 of cups"));
  CHECK(!strcmp(json_string_value(json_object_get(mv, "best_words")),
                "Lay the 5 of swords on the table"));
  CHECK(!strcmp(json_string_value(json_object_get(mv, "cost_words")),
                "about 3/4 of a point"));
  CHECK(!strncmp(json_string_value(json_object_get(mv, "loss_words")),
                 "A slip (?)", 10));
  CHECK(json_integer_value(json_object_get(o, "id")) == 4);
  json_decref(o);
  free(said);
  CHECK(proto_words("[1]", NULL, "en", NULL) == NULL);
}

static void test_rating(void) {
  TEST("serve-rating-1", "CONTRACTS.md scopa serve");
  /* serve-rating-1: Glickman's example (1500/200/0.06 against 1400/30,
   * 1550/100, 1700/300, winning the first only) gives 1464.06, 151.52,
   * 0.05999. */
  rating me = {1500, 200, 0.06};
  rating opp[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
  double s[3] = {1, 0, 0};
  rating r = rating_update(me, opp, s, 3, 0.5);
  CHECK(fabs(r.r - 1464.06) < 0.05);
  CHECK(fabs(r.rd - 151.52) < 0.05);
  CHECK(fabs(r.vol - 0.05999) < 0.00001);
  TEST("serve-rating-2", "CONTRACTS.md scopa serve");
  /* serve-rating-2: a win raises, a loss lowers, nothing widens RD. */
  rating fresh = {RATING_START, RATING_START_RD, RATING_START_VOL};
  double win = 1, loss = 0;
  CHECK(rating_update(fresh, &fresh, &win, 1, 0.5).r > 1500);
  CHECK(rating_update(fresh, &fresh, &loss, 1, 0.5).r < 1500);
  CHECK(rating_update(me, NULL, NULL, 0, 0.5).rd > 200);
  CHECK(strcmp(rating_pool(2), "2p") == 0 && strcmp(rating_pool(4), "4p") == 0);
}

static void test_limits(void) {
  limits_conf c = {.burst = 3,
                   .per_second = 2,
                   .strikes = 2,
                   .conns_per_addr = 2,
                   .tables_per_addr = 1};
  limits_bucket b;
  TEST("serve-limits-1", "CONTRACTS.md scopa serve");
  /* serve-limits-1: a burst, then refusals, then a close. */
  limits_bucket_init(&b, &c, 0);
  CHECK(limits_take(&b, &c, 0) == 1 && limits_take(&b, &c, 0) == 1 &&
        limits_take(&b, &c, 0) == 1);
  CHECK(limits_take(&b, &c, 0) == 0 && limits_take(&b, &c, 0) == 0);
  CHECK(limits_take(&b, &c, 0) == -1);
  TEST("serve-limits-2", "CONTRACTS.md scopa serve");
  /* serve-limits-2: credits come back with time. */
  limits_bucket_init(&b, &c, 0);
  for (int i = 0; i < 3; i++)
    limits_take(&b, &c, 0);
  CHECK(limits_take(&b, &c, 500) == 1 && limits_take(&b, &c, 500) == 0);
  limits_refund(&b, &c); /* an accepted move costs nothing */
  CHECK(limits_take(&b, &c, 500) == 1);
  TEST("serve-limits-3", "CONTRACTS.md scopa serve");
  /* serve-limits-3: connections and tables per address. */
  limits_table *t = limits_table_new(1000);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_COUNTED &&
        limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_COUNTED);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_REFUSED);
  CHECK(limits_conn_open(t, &c, "10.0.0.2", 0) == LIMITS_COUNTED);
  limits_conn_close(t, &c, "10.0.0.1", 0);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &c, "10.0.0.1", 1000) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &c, "10.0.0.1", 2000) == LIMITS_REFUSED);
  CHECK(limits_table_create(t, &c, "10.0.0.1", 62000) == LIMITS_COUNTED);
  limits_table_free(t);
  TEST("serve-limits-4", "issue 22 item 2: per-address keys are exact");
  /* serve-limits-4: an address is its own entry, whatever other addresses
   * did: 20,000 others each creating a table (before: 4,096 hash slots,
   * an entry that created a table held its slot, and 64 addresses that
   * hashed near a victim's locked it out until a restart). */
  limits_conf many = c;
  many.tables_per_addr = 1;
  t = limits_table_new(100000);
  char addr[64];
  for (int i = 0; i < 20000; i++) {
    snprintf(addr, sizeof addr, "::ffff:10.%d.%d.%d", i >> 16, (i >> 8) & 255,
             i & 255);
    CHECK(limits_conn_open(t, &many, addr, 0) == LIMITS_COUNTED);
    CHECK(limits_table_create(t, &many, addr, 0) == LIMITS_COUNTED);
    limits_conn_close(t, &many, addr, 0);
  }
  CHECK(limits_conn_open(t, &many, "192.0.2.7", 0) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &many, "192.0.2.7", 0) == LIMITS_COUNTED);
  /* IPv4-mapped IPv6 is the IPv4 address; an IPv6 address counts by /64 */
  CHECK(limits_table_create(t, &many, "::ffff:192.0.2.7", 0) == LIMITS_REFUSED);
  CHECK(limits_table_create(t, &many, "2001:db8:1:2::1", 0) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &many, "2001:db8:1:2:ffff::9", 0) ==
        LIMITS_REFUSED);
  CHECK(limits_table_create(t, &many, "2001:db8:1:3::1", 0) == LIMITS_COUNTED);
  char key[LIMITS_KEY_TEXT];
  limits_key_text("::ffff:127.0.0.1", key);
  CHECK(strcmp(key, "127.0.0.1") == 0);
  limits_key_text("2001:0db8:0001:0002:0003:0004:0005:0006", key);
  CHECK(strcmp(key, "2001:db8:1:2::/64") == 0);
  limits_key_text("not an address", key);
  CHECK(strcmp(key, "not an address") == 0);
  /* --trusted-proxy: exact forms, and X-Forwarded-For's last entry. */
  CHECK(limits_exact_text("2001:0db8:0001:0002:0003:0004:0005:0006", key) ==
            0 &&
        strcmp(key, "2001:db8:1:2:3:4:5:6") == 0);
  CHECK(limits_exact_text("::ffff:10.0.0.1", key) == 0 &&
        strcmp(key, "10.0.0.1") == 0);
  CHECK(limits_exact_text("10.0.0.0/8", key) == -1);
  CHECK(limits_forwarded("6.6.6.6, 10.0.0.1", key) == 0 &&
        strcmp(key, "10.0.0.1") == 0);
  CHECK(limits_forwarded(" 2001:db8::1\t", key) == 0 &&
        strcmp(key, "2001:db8::1") == 0);
  CHECK(limits_forwarded("10.0.0.1,", key) == -1);
  CHECK(limits_forwarded("10.0.0.1, unknown", key) == -1);
  CHECK(limits_forwarded("", key) == -1);
  TEST("serve-limits-5", "issue 22 item 2: entries freed when idle, tables "
                         "counted in a real minute");
  /* serve-limits-5: tables come back one by one over a minute, not all at
   * a calendar minute's turn; an entry that counts nothing is freed. */
  CHECK(limits_sweep(t, &many, 0) > 20000);  /* buckets still empty */
  CHECK(limits_sweep(t, &many, 60000) == 1); /* 192.0.2.7 still open */
  limits_conn_close(t, &many, "192.0.2.7", 60000);
  CHECK(limits_sweep(t, &many, 60000) == 0);
  limits_conf two = c;
  two.tables_per_addr = 2;
  CHECK(limits_table_create(t, &two, "10.9.9.9", 59000) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &two, "10.9.9.9", 59500) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &two, "10.9.9.9", 60500) == LIMITS_REFUSED);
  CHECK(limits_table_create(t, &two, "10.9.9.9", 89500) == LIMITS_COUNTED);
  CHECK(limits_table_create(t, &two, "10.9.9.9", 89600) == LIMITS_REFUSED);
  limits_table_free(t);
  TEST("serve-limits-6", "issue 22 item 2: a full table allows, uncounted");
  /* serve-limits-6: past max_addrs a new address is let in uncounted, and
   * the ones counted keep their limits. */
  t = limits_table_new(2);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_COUNTED);
  CHECK(limits_conn_open(t, &c, "10.0.0.2", 0) == LIMITS_COUNTED);
  CHECK(limits_conn_open(t, &c, "10.0.0.3", 0) == LIMITS_UNCOUNTED);
  CHECK(limits_table_create(t, &c, "10.0.0.3", 0) == LIMITS_UNCOUNTED);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_COUNTED);
  CHECK(limits_conn_open(t, &c, "10.0.0.1", 0) == LIMITS_REFUSED);
  limits_conn_close(t, &c, "10.0.0.2", 0); /* freed: room again */
  CHECK(limits_conn_open(t, &c, "10.0.0.3", 0) == LIMITS_COUNTED);
  limits_table_free(t);
  TEST("serve-limits-7", "issue 32 item 6: unknown codes and HTTP");
  /* serve-limits-7: 2 misses then one every second, checked before the
   * lookup; 3 HTTP requests then 2 a second; both by address. */
  limits_conf g = c;
  g.misses_burst = 2;
  g.miss_refill_ms = 1000;
  g.http_burst = 3;
  g.http_per_second = 2;
  t = limits_table_new(100);
  int wait = 0;
  CHECK(limits_code_check(t, &g, "10.0.0.9", 0, &wait) == 1);
  limits_code_miss(t, &g, "10.0.0.9", 0);
  limits_code_miss(t, &g, "10.0.0.9", 0);
  CHECK(limits_code_check(t, &g, "10.0.0.9", 0, &wait) == 0 && wait == 1000);
  CHECK(limits_code_check(t, &g, "10.0.0.8", 0, &wait) == 1);
  CHECK(limits_code_check(t, &g, "10.0.0.9", 1000, &wait) == 1);
  for (int i = 0; i < 3; i++)
    CHECK(limits_http_take(t, &g, "10.0.0.9", 1000, &wait) == 1);
  CHECK(limits_http_take(t, &g, "10.0.0.9", 1000, &wait) == 0 && wait == 500);
  CHECK(limits_http_take(t, &g, "10.0.0.8", 1000, &wait) == 1);
  CHECK(limits_http_take(t, &g, "10.0.0.9", 1500, &wait) == 1);
  CHECK(limits_sweep(t, &g, 1500) == 1 && limits_sweep(t, &g, 10000) == 0);
  limits_table_free(t);
}

static void test_store(void) {
  char path[] = "/tmp/scopa-test-store-XXXXXX", msg[256];
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  store *st = NULL;
  CHECK(store_open(path, &st, msg, sizeof msg) == 0);
  store_game g = {.code = "ABC234",
                  .seed = "0123456789abcdef0123456789abcdef",
                  .rules_json = "{\"players\":2}",
                  .nseats = 2,
                  .away_s = 60,
                  .clock_s = 0,
                  .bank_s = 180,
                  .inc_s = 5};
  g.seat[0].kind = STORE_PERSON;
  strcpy(g.seat[0].name, "Anna");
  strcpy(g.seat[0].token_sha256, "aa");
  g.seat[1].kind = STORE_BOT;
  strcpy(g.seat[1].bot, "greedy");
  scopa_move m1, m2;
  scopa_move_parse("7dx3c+4s", NULL, &m1, NULL, 0);
  scopa_move_parse("10b", NULL, &m2, NULL, 0);
  TEST("serve-store-1", "CONTRACTS.md scopa serve");
  /* serve-store-1: a batch is durable once committed, and loads back,
   * with the time bank and each move's time (docs/serve.md). */
  CHECK(store_add_game(st, &g) == 0 && store_in_batch(st));
  CHECK(store_add_move(st, "ABC234", 0, m1, 1764000000123LL, 7000) == 0);
  CHECK(store_add_move(st, "ABC234", 1, m2, 1764000004567LL, 4444) == 0);
  CHECK(store_commit(st, msg, sizeof msg) == 0 && !store_in_batch(st));
  CHECK(store_has_code(st, "ABC234") == 1 && store_has_code(st, "ZZZ") == 0);
  store_close(st);
  CHECK(store_open(path, &st, msg, sizeof msg) == 0);
  store_game back;
  CHECK(store_load(st, "ABC234", &back, msg, sizeof msg) == 0);
  CHECK(back.nmoves == 2 && back.moves[0] == m1 && back.moves[1] == m2);
  CHECK(back.move_at && back.move_at[0] == 1764000000123LL &&
        back.move_at[1] == 1764000004567LL && back.move_took &&
        back.move_took[0] == 7000 && back.move_took[1] == 4444);
  CHECK(back.bank_s == 180 && back.inc_s == 5);
  CHECK(back.nseats == 2 && back.seat[1].kind == STORE_BOT);
  CHECK(strcmp(back.seat[0].name, "Anna") == 0);
  CHECK(strcmp(back.seed, g.seed) == 0 && back.away_s == 60);
  store_game_free(&back);
  CHECK(store_load(st, "NONE", &back, msg, sizeof msg) == 1);
  TEST("serve-store-2", "CONTRACTS.md scopa serve");
  /* serve-store-2: move number 1 again fails, and the whole batch with
   * it (nothing of a failed batch is kept). */
  CHECK(store_add_move(st, "ABC234", 2, m1, 0, 0) == 0);
  CHECK(store_add_move(st, "ABC234", 1, m1, 0, 0) == -1);
  CHECK(store_commit(st, msg, sizeof msg) == -1);
  CHECK(store_load(st, "ABC234", &back, msg, sizeof msg) == 0 &&
        back.nmoves == 2);
  store_game_free(&back);
  TEST("serve-store-3", "CONTRACTS.md scopa serve");
  /* serve-store-3: ratings and the leaderboard, which lists accounts
   * only (a guest's row of old is kept, never listed). */
  long long id = 0;
  CHECK(store_account_add(st, "Anna", "$argon2id$x", &id) == 0 && id > 0);
  CHECK(store_account_add(st, "anna", "$argon2id$y", &id) == 1);
  store_rating r = {1600, 80, 0.06, 3, id}, guest = {1900, 80, 0.06, 9, 0};
  CHECK(store_rating_put(st, "2p", "a:1", "Anna", &r) == 0);
  CHECK(store_rating_put(st, "2p", "p1", "Guest", &guest) == 0);
  CHECK(store_commit(st, msg, sizeof msg) == 0);
  store_rating got;
  CHECK(store_rating_get(st, "2p", "a:1", &got) == 0 && got.games == 3);
  CHECK(store_rating_get(st, "4p", "a:1", &got) == 1);
  char *board = store_leaderboard(st, "2p", 10);
  CHECK(board && strstr(board, "\"Anna\"") && strstr(board, "1600"));
  CHECK(board && !strstr(board, "Guest") && strstr(board, "\"provisional\""));
  free(board);
  TEST("serve-store-4", "docs/serve.md Play now");
  /* serve-store-4: seeks come back unpaired, oldest first; a pass pairs
   * them in its batch; the paired go to their node once; stale rows go. */
  store_seek a = {.id = "aa",
                  .node = "n1",
                  .key = "k",
                  .rules_json = "{}",
                  .players = 2,
                  .rating = 1500,
                  .since_ms = 2000},
             b = a;
  snprintf(b.id, sizeof b.id, "bb");
  snprintf(b.node, sizeof b.node, "n2");
  b.since_ms = 1000;
  CHECK(store_seek_add(st, &a) == 0 && store_seek_add(st, &b) == 0);
  CHECK(store_seek_add(st, &a) == -1); /* an id once */
  store_seek w[4];
  int n = 0;
  CHECK(store_seek_waiting(st, w, 4, &n) == 0 && n == 2);
  CHECK(n == 2 && !strcmp(w[0].id, "bb") && !strcmp(w[1].node, "n1"));
  CHECK(n == 2 && w[1].since_ms == 2000 && w[1].beat_ms == 2000 &&
        !strcmp(w[1].rules_json, "{}") && w[0].rating == 1500);
  store_seek_free_all(w, n);
  CHECK(store_begin(st) == 0 && store_seek_lock(st) == 0);
  CHECK(store_seek_pair(st, "aa", "T1") == 0 &&
        store_seek_pair(st, "aa", "T2") == -1); /* paired once */
  CHECK(store_commit(st, msg, sizeof msg) == 0);
  CHECK(store_seek_waiting(st, w, 4, &n) == 0 && n == 1);
  store_seek_free_all(w, n);
  char ids[4][33], codes[4][STORE_CODE_MAX + 1];
  CHECK(store_seek_paired(st, "n2", ids, codes, 4, &n) == 0 && n == 0);
  CHECK(store_seek_paired(st, "n1", ids, codes, 4, &n) == 0 && n == 1 &&
        !strcmp(ids[0], "aa") && !strcmp(codes[0], "T1"));
  CHECK(store_seek_paired(st, "n1", ids, codes, 4, &n) == 0 && n == 0);
  CHECK(store_seek_beat(st, "n2", 9000, 5000) == 0); /* bb beats: stays */
  CHECK(store_seek_waiting(st, w, 4, &n) == 0 && n == 1 &&
        w[0].beat_ms == 9000);
  store_seek_free_all(w, n);
  CHECK(store_seek_beat(st, "n1", 20000, 15000) == 0); /* bb is stale */
  CHECK(store_seek_waiting(st, w, 4, &n) == 0 && n == 0);
  TEST("serve-store-5", "docs/serve.md Tournaments");
  /* serve-store-5: a tournament's row is written whole and read back,
   * listed newest first (the active ones, or every one); a game of it
   * names it, and its end says which sides abandoned it. */
  store_tourney t1 = {.id = "T1",
                      .status = STORE_T_RUNNING,
                      .created_ms = 100,
                      .state = "{\"a\":1}"},
                t2 = {.id = "T2",
                      .status = STORE_T_FINISHED,
                      .created_ms = 200,
                      .state = "{}"},
                tg;
  CHECK(store_begin(st) == 0 && store_tourney_lock(st) == 0);
  CHECK(store_tourney_put(st, &t1) == 0 && store_tourney_put(st, &t2) == 0);
  t1.state = "{\"a\":2}"; /* replaced, not added */
  CHECK(store_tourney_put(st, &t1) == 0);
  store_game tgame = g;
  snprintf(tgame.code, sizeof tgame.code, "TGAME2");
  snprintf(tgame.tourney, sizeof tgame.tourney, "T1");
  CHECK(store_add_game(st, &tgame) == 0);
  CHECK(store_commit(st, msg, sizeof msg) == 0);
  CHECK(store_tourney_get(st, "T1", &tg) == 0 && tg.status == STORE_T_RUNNING &&
        tg.created_ms == 100 && !strcmp(tg.state, "{\"a\":2}"));
  free(tg.state);
  CHECK(store_tourney_get(st, "T3", &tg) == 1);
  store_tourney *list = NULL;
  CHECK(store_tourney_list(st, 0, 10, &list, &n) == 0 && n == 2 &&
        !strcmp(list[0].id, "T2") && !strcmp(list[1].id, "T1"));
  store_tourney_free_all(list, n);
  CHECK(store_tourney_list(st, 1, 10, &list, &n) == 0 && n == 1 &&
        !strcmp(list[0].id, "T1"));
  store_tourney_free_all(list, n);
  CHECK(store_tourney_list(st, 0, 1, &list, &n) == 0 && n == 1);
  store_tourney_free_all(list, n);
  int fin = -1, ab = -1;
  CHECK(store_game_end(st, "TGAME2", &fin, &ab) == 0 && fin == 0 && ab == 0);
  CHECK(store_game_end(st, "NOPE", &fin, &ab) == 1);
  CHECK(store_finish(st, "TGAME2", 2) == 0 &&
        store_commit(st, msg, sizeof msg) == 0);
  CHECK(store_game_end(st, "TGAME2", &fin, &ab) == 0 && fin == 1 && ab == 2);
  CHECK(store_load(st, "TGAME2", &back, msg, sizeof msg) == 0 &&
        !strcmp(back.tourney, "T1") && back.abandoned == 2 && back.finished);
  store_game_free(&back);
  store_close(st);
  unlink(path);
  char side[sizeof path + 8];
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

/* The drawn part of a state for `seat` (-1: spectator), parsed. */
static json_t *drawn_of(const scopa_match *match, int seat, json_t **state) {
  *state = proto_state(match, "T", seat, scopa_match_to_play(match));
  return *state ? json_object_get(*state, "drawn") : NULL;
}

static void test_drawn(void) {
  TEST("serve-proto-drawn", "RULES.md deal_bonus; issue 33");
  /* serve-proto-drawn: a state says what a client draws without rules of
   * its own.  Under deal_bonus a first table of 1+2+3+9 (fifteen) goes
   * to the dealer's side with one scopa, at the deal: its pile holds the
   * four cards, its scope one of them, the table is empty. */
  scopa_rules r;
  scopa_rules_init(&r);
  CHECK(scopa_rules_set_text(&r, "deal_bonus", "fifteen", NULL, NULL, 0) ==
        SCOPA_OK);
  CHECK(scopa_rules_check(&r, NULL, NULL, 0) == SCOPA_OK);
  scopa_match *match = NULL;
  CHECK(scopa_match_new(&r, NULL, NULL, &match, NULL, 0) == SCOPA_OK);
  CHECK(scopa_match_set_first_dealer(match, 1) == SCOPA_OK);
  const char *order[] = {"4c", "5c", "6c", "7c", "4s",
                         "5s", "1d", "2d", "3d", "9d"};
  uint8_t deck[40];
  int n = 0, used[40] = {0};
  for (int i = 0; i < 10; i++) {
    deck[n] = (uint8_t)scopa_card_parse(order[i]);
    used[deck[n++]] = 1;
  }
  for (int c = 0; c < 40; c++)
    if (!used[c])
      deck[n++] = (uint8_t)c;
  CHECK(scopa_match_deal_deck(match, deck, NULL, NULL, 0) == SCOPA_OK);
  json_t *st;
  json_t *d = drawn_of(match, 0, &st);
  CHECK(d != NULL);
  CHECK_EQ_INT((int)json_array_size(json_object_get(d, "table")), 0);
  json_t *piles = json_object_get(d, "piles"),
         *scope = json_object_get(d, "scope");
  CHECK_EQ_INT((int)json_array_size(json_array_get(piles, 1)), 4);
  CHECK_EQ_INT((int)json_array_size(json_array_get(piles, 0)), 0);
  CHECK_EQ_INT((int)json_array_size(json_array_get(scope, 1)), 1);
  CHECK_EQ_INT((int)json_array_size(json_array_get(scope, 0)), 0);
  CHECK_EQ_INT((int)json_integer_value(json_object_get(d, "stock")), 30);
  CHECK(json_is_null(json_object_get(d, "last")));
  /* Seat 0 (to play: the seat after the dealer) holds 3, seat 1 3; seat
   * 0 is told why each of its cards plays so (issue 33), with legal. */
  json_t *why = json_object_get(d, "reasons");
  CHECK_EQ_INT((int)json_array_size(why), 3);
  CHECK_EQ_INT((int)json_array_size(json_object_get(st, "legal")) > 0, 1);
  for (size_t i = 0; i < json_array_size(why); i++)
    CHECK(scopa_card_parse(json_string_value(
              json_object_get(json_array_get(why, i), "card"))) >= 0);
  json_t *hands = json_object_get(d, "hands");
  CHECK_EQ_INT((int)json_integer_value(json_array_get(hands, 0)), 3);
  CHECK_EQ_INT((int)json_integer_value(json_array_get(hands, 1)), 3);
  json_decref(st);
  /* After seat 0 lays a card, the last move is its, and the table has
   * it; the spectator's drawn is the same, with no hand or legal (and
   * no reasons: seat 0 is not to play now, and a spectator never is). */
  scopa_move m = SCOPA_MOVE(scopa_card_parse("4c"), 0);
  CHECK(scopa_match_apply(match, m, NULL, NULL, 0) == SCOPA_OK);
  json_t *st0, *stw;
  json_t *d0 = drawn_of(match, 0, &st0), *dw = drawn_of(match, -1, &stw);
  CHECK(!json_object_get(d0, "reasons"));
  CHECK(json_equal(d0, dw));
  CHECK(!json_object_get(stw, "hand") && !json_object_get(stw, "legal"));
  char *text = json_dumps(json_object_get(d0, "last"), JSON_COMPACT);
  CHECK_EQ_STR(text, "{\"seat\":0,\"move\":\"4c\"}");
  free(text);
  text = json_dumps(json_object_get(d0, "table"), JSON_COMPACT);
  CHECK_EQ_STR(text, "[\"4c\"]");
  free(text);
  hands = json_object_get(d0, "hands");
  CHECK_EQ_INT((int)json_integer_value(json_array_get(hands, 0)), 2);
  json_decref(st0);
  json_decref(stw);
  /* The round played to its end (the first legal move each time): the
   * last state has the categories, and its coins and primiera are the
   * library's score (RULES.md "Scoring a round"; a 7 is worth 21). */
  CHECK(!json_object_get(
      json_object_get(stw = proto_state(match, "T", -1, 0), "drawn"),
      "categories"));
  json_decref(stw);
  while (scopa_match_to_play(match) >= 0) {
    scopa_move moves[SCOPA_MAX_MOVES];
    CHECK(scopa_state_legal(scopa_match_state(match), moves, SCOPA_MAX_MOVES) >
          0);
    CHECK(scopa_match_apply(match, moves[0], NULL, NULL, 0) == SCOPA_OK);
  }
  scopa_score score;
  CHECK(scopa_state_score(scopa_match_state(match), &score) == SCOPA_OK);
  d = drawn_of(match, -1, &st);
  json_t *cats = json_object_get(d, "categories");
  CHECK_EQ_INT((int)json_array_size(cats), 2);
  for (int side = 0; side < 2; side++) {
    json_t *c = json_array_get(cats, side);
    CHECK_EQ_INT((int)json_array_size(json_object_get(c, "denari")),
                 score.side[side].denari);
    CHECK_EQ_INT((int)json_array_size(json_object_get(c, "sevens")),
                 score.side[side].sevens[0]);
    int sum = 0, suits = 0;
    json_t *p;
    size_t k;
    json_array_foreach(json_object_get(c, "primiera"), k, p) {
      if (json_is_null(p))
        continue;
      int card =
          scopa_card_parse(json_string_value(json_object_get(p, "card")));
      int value = (int)json_integer_value(json_object_get(p, "value"));
      CHECK_EQ_INT(SCOPA_SUIT(card), (int)k);
      if (SCOPA_RANK(card) == 7)
        CHECK_EQ_INT(value, 21);
      sum += value;
      suits++;
    }
    CHECK_EQ_INT(suits, score.side[side].suits);
    CHECK_EQ_INT(sum, score.side[side].primiera);
  }
  json_decref(st);
  scopa_match_free(match);
}

static void test_pairing(void) {
  int64_t now = 100000;
  int t[8];
  TEST("serve-pairing-1", "issue 34 item 1: closest ratings first");
  /* serve-pairing-1: the oldest seek is seated with the closest rating
   * of its key; another key never joins it. */
  pairing_seek s[] = {{"k", 2, 1500, now - 3000, 0},
                      {"k", 2, 1580, now - 1000, 0},
                      {"k", 2, 1510, now - 500, 0},
                      {"other", 2, 1500, now - 9000, 0}};
  CHECK(pairing_group(s, 4, now, t) == 1);
  CHECK(t[0] == 0 && t[2] == 0 && t[1] == -1 && t[3] == -1);
  TEST("serve-pairing-2", "issue 34 item 1: the range widens with the wait");
  /* serve-pairing-2: 400 points apart, two new seeks wait; once each has
   * waited 15 s (100 + 20 x 15 = 400) they are paired.  Both must
   * accept: one old seek does not widen a new one's range. */
  pairing_seek far[] = {{"k", 2, 1400, now, 0}, {"k", 2, 1800, now, 0}};
  CHECK(pairing_group(far, 2, now, t) == 0 && t[0] == -1 && t[1] == -1);
  far[0].since_ms = now - 15000;
  CHECK(pairing_group(far, 2, now, t) == 0);
  far[1].since_ms = now - 15000;
  CHECK(pairing_group(far, 2, now, t) == 1 && t[0] == 0 && t[1] == 0);
  CHECK(pairing_range(&far[0], now) == 400.0);
  TEST("serve-pairing-3", "issue 34 item 1: tables of four, one account once");
  /* serve-pairing-3: five seeks of four players make one table, the
   * oldest four that fit; one account's two seeks never share a table. */
  pairing_seek four[] = {{"s", 4, 1500, now - 5000, 7},
                         {"s", 4, 1500, now - 4000, 7},
                         {"s", 4, 1500, now - 3000, 8},
                         {"s", 4, 1500, now - 2000, 0},
                         {"s", 4, 1500, now - 1000, 0}};
  CHECK(pairing_group(four, 5, now, t) == 1);
  CHECK(t[0] == 0 && t[1] == -1 && t[2] == 0 && t[3] == 0 && t[4] == 0);
  CHECK(pairing_group(four, 3, now, t) == 0); /* 7, 7, 8: not enough */
  pairing_seek many[8];
  for (int i = 0; i < 8; i++)
    many[i] = (pairing_seek){"k", 2, 1500 + 10 * i, now - 100 * i, 0};
  CHECK(pairing_group(many, 8, now, t) == 4);
  for (int i = 0; i < 8; i += 2) /* neighbours in rating pair up */
    CHECK(t[i] >= 0 && t[i] == t[i + 1]);
}

/* The time bank's arithmetic (bank.h), on moves written out by hand:
 * {when, took, seat, opens a round}. */
static void test_bank(void) {
  int64_t left[4];
  const int64_t T0 = 1764000000000LL; /* the first turn begins */
  TEST("serve-bank-1", "issue 34 item 4: a bank with an increment");
  /* serve-bank-1: 180 s + 5 s.  Seat 0 takes 10 s, seat 1 4 s, seat 0
   * 20 s: 180-10+5-20+5 = 160 s and 180-4+5 = 181 s; then seat 1's turn
   * has run 3 s: 178 s. */
  bank_move m[3] = {{T0 + 10000, 10000, 0, 1},
                    {T0 + 14000, 4000, 1, 0},
                    {T0 + 34000, 20000, 0, 0}};
  bank_left(180, 5, 2, m, 3, T0, 1, 0, T0 + 37000, left);
  CHECK(left[0] == 160000 && left[1] == 178000);
  CHECK(bank_turn_ms(m, 3, T0, 0, T0 + 37000) == 3000);
  CHECK(bank_turn_ms(m, 0, T0, 0, T0 + 37000) == 37000);
  /* nobody to play (the game over): nothing runs */
  bank_left(180, 5, 2, m, 3, T0, -1, 0, T0 + 99000, left);
  CHECK(left[0] == 160000 && left[1] == 181000);
  TEST("serve-bank-2", "issue 34 item 4: never below zero, then the increment");
  /* serve-bank-2: 30 s, 2 s a move; seat 0 takes 50 s: 0 + 2 = 2 s, not
   * -18 s; its next turn of 5 s leaves it at 0. */
  bank_move z[2] = {{T0 + 50000, 50000, 0, 1}, {T0 + 51000, 1000, 1, 0}};
  bank_left(30, 2, 2, z, 2, T0, 0, 0, T0 + 56000, left);
  CHECK(left[0] == 0 && left[1] == 31000);
  bank_left(30, 2, 2, z, 1, T0, 1, 0, T0 + 51000, left);
  CHECK(left[0] == 2000 && left[1] == 29000);
  TEST("serve-bank-3", "issue 34 item 4: a round's score is nobody's time");
  /* serve-bank-3: a round's first turn is timed from 10 s after the
   * round's last move: seat 0 to play one, 3 s past its grace.  A start
   * not known (0: loaded before the first move) counts nothing. */
  bank_move r[1] = {{T0 + 1000, 1000, 1, 0}};
  bank_left(60, 0, 2, r, 1, T0, 0, 1, T0 + 1000 + BANK_ROUND_GRACE_MS + 3000,
            left);
  CHECK(left[0] == 57000 && left[1] == 59000);
  CHECK(bank_turn_ms(r, 1, T0, 1, T0 + 5000) == 0); /* still in its grace */
  CHECK(bank_wait_ms(r, 1, T0, 1, T0 + 5000) ==
        1000 + BANK_ROUND_GRACE_MS - 5000);
  CHECK(bank_wait_ms(r, 1, T0, 0, T0 + 5000) == 0); /* not a round's first */
  CHECK(bank_turn_ms(r, 0, 0, 0, T0 + 5000) == 0);
}

int main(void) {
  test_bank();
  test_pairing();
  test_proto();
  test_drawn();
  test_rating();
  test_limits();
  test_store();
  return test_summary("test_server");
}
