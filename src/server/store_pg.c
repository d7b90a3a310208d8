/*
 * store_pg.c -- store.h on PostgreSQL (Debian's libpq): the store that
 * several `scopa serve` processes share (docs/serve.md, "More than one
 * machine"; store_impl.h; store.c chooses it for a postgresql:// URL).
 *
 * The same ideas as store_sqlite.c: a game is its seed, rules and seats
 * plus numbered moves whose key is (code, number), so a move is never
 * stored twice; a batch is one transaction (BEGIN ... COMMIT), committed
 * with synchronous_commit = on (set on every connection, whatever the
 * server's default) so that COMMIT returns only once the WAL is flushed,
 * before anyone hears of the batch; the writer thread groups batches
 * (group commit) exactly as on SQLite.  Statements are prepared once per
 * connection; a connection found broken is reset (and its statements
 * prepared again) at the next batch or read.
 *
 * Ratings are counted exactly once with several nodes: store_is_rated
 * takes a transaction-wide advisory lock (RATINGS_LOCK) first, then the
 * game's row FOR UPDATE, so the read-then-write of ratings is serialised
 * across every node, and a second node rating the same game waits for
 * the first and then reads rated = 1.  The lock comes before the row
 * everywhere, so these two never deadlock each other.
 *
 * The start's checks (store_claim) are the counterparts of SQLite's that
 * make sense here: the server answers; the database is scopa's (the
 * table scopa_schema holds its schema version) or has no tables at all;
 * the schema goes in under an advisory lock (nodes starting together)
 * in a real, synchronously committed transaction.  No lock is held for
 * the process's life: several nodes share the database by design.
 */
#include "store_impl.h"
#include "store_pg_acct.h"
#include "store_seek.h"
#include "store_talk.h"
#include "store_tourney.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SCHEMA_VERSION 8         /* scopa_schema.version after STEPS        */
#define SCHEMA_LOCK "1396920385" /* advisory lock keys: "SCPA", "SCPB", ... */
#define RATINGS_LOCK "1396920386"
#define CONNS_LOCK "1396920387" /* with an address's hash: its connections */

/* The schema, as the steps that made it: STEPS[v] brings a database of
 * version v to v + 1, and an empty one goes through all of them.  Every
 * change of the schema is a new step and a new SCHEMA_VERSION; a step
 * never changes once released (a database that ran it would never run
 * it again).  Version 1 was written by several releases with different
 * cluster tables (before and after leases, the relay logged or not), so
 * the step to 3 makes them what they are now whatever it finds. */
static const char STEP_1[] = /* the games */
    "CREATE TABLE IF NOT EXISTS games("
    "  code text PRIMARY KEY, seed text NOT NULL, rules text NOT NULL,"
    "  away_s integer NOT NULL, clock_s integer NOT NULL,"
    "  created bigint NOT NULL, finished integer NOT NULL DEFAULT 0,"
    "  rated integer NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats("
    "  code text NOT NULL REFERENCES games(code), seat integer NOT NULL,"
    "  kind integer NOT NULL, name text NOT NULL, bot text NOT NULL,"
    "  token_sha256 text NOT NULL, player text NOT NULL,"
    "  PRIMARY KEY (code, seat));"
    "CREATE TABLE IF NOT EXISTS moves("
    "  code text NOT NULL REFERENCES games(code), number integer NOT NULL,"
    "  move text NOT NULL, PRIMARY KEY (code, number));"
    "CREATE TABLE IF NOT EXISTS ratings("
    "  pool text NOT NULL, player text NOT NULL, name text NOT NULL,"
    "  rating double precision NOT NULL, rd double precision NOT NULL,"
    "  vol double precision NOT NULL, games integer NOT NULL,"
    "  PRIMARY KEY (pool, player));"
    "CREATE INDEX IF NOT EXISTS ratings_by_pool ON ratings(pool, rating);";

static const char STEP_2[] = /* accounts (store_pg_acct.c) */
    "ALTER TABLE seats ADD COLUMN IF NOT EXISTS account bigint NOT NULL "
    "  DEFAULT 0;"
    "CREATE INDEX IF NOT EXISTS seats_by_account ON seats(account, code)"
    "  WHERE account > 0;"
    "ALTER TABLE ratings ADD COLUMN IF NOT EXISTS account bigint NOT NULL "
    "  DEFAULT 0;"
    "CREATE TABLE IF NOT EXISTS accounts("
    "  id bigserial PRIMARY KEY, name text NOT NULL, name_key text UNIQUE,"
    "  hash text NOT NULL, created bigint NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions("
    "  sha256 text PRIMARY KEY, account bigint NOT NULL,"
    "  expires bigint NOT NULL);"
    "CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions(account);"
    "CREATE TABLE IF NOT EXISTS tries(key text NOT NULL, at bigint NOT NULL);"
    "CREATE INDEX IF NOT EXISTS tries_by_key ON tries(key, at);"
    "CREATE TABLE IF NOT EXISTS rating_log("
    "  pool text NOT NULL, account bigint NOT NULL, code text NOT NULL,"
    "  at bigint NOT NULL, rating double precision NOT NULL,"
    "  rd double precision NOT NULL, PRIMARY KEY (account, pool, code));"
    "CREATE INDEX IF NOT EXISTS rating_log_by_code ON rating_log(code);";

static const char STEP_3[] = /* the cluster (relay.c, store_pg_relay.c) */
    "CREATE TABLE IF NOT EXISTS leases("
    "  code text PRIMARY KEY, node text NOT NULL,"
    "  epoch bigint NOT NULL, expires timestamptz NOT NULL);"
    /* A new table's lease is taken before its game row is committed (the
     * writer's batch): no foreign key (it had one in the first schema). */
    "ALTER TABLE leases DROP CONSTRAINT IF EXISTS leases_code_fkey;"
    /* The nodes: each one's heartbeat, and the messages relayed between
     * a client's node and its table's owner (unlogged: no WAL for what
     * lives a few milliseconds; a crash of PostgreSQL empties it, and
     * the nodes' clients resume; it was logged in the first schema). */
    "CREATE TABLE IF NOT EXISTS nodes("
    "  node text PRIMARY KEY, seen timestamptz NOT NULL);"
    "CREATE UNLOGGED TABLE IF NOT EXISTS relay("
    "  id bigserial PRIMARY KEY, dst text NOT NULL, src text NOT NULL,"
    "  conn bigint NOT NULL, kind integer NOT NULL, addr text NOT NULL,"
    "  body text NOT NULL);"
    "ALTER TABLE relay SET UNLOGGED;"
    "CREATE INDEX IF NOT EXISTS relay_by_dst ON relay(dst, id);"
    /* Every lease is renewed every second: room on its page for the new
     * version (a HOT update, no index entry); and the relay's rows, each
     * deleted milliseconds after its insertion, vacuumed often. */
    "ALTER TABLE leases SET (fillfactor = 50);"
    "ALTER TABLE relay SET (autovacuum_vacuum_scale_factor = 0, "
    "  autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_cost_delay = 0);"
    /* The per-address limits across the cluster: connections open, per
     * address and node (a dead node's do not count), and each address's
     * bucket of new tables.  Counters, not the game: unlogged. */
    "CREATE UNLOGGED TABLE IF NOT EXISTS addr_conns("
    "  addr text NOT NULL, node text NOT NULL, n integer NOT NULL,"
    "  PRIMARY KEY (addr, node));"
    "ALTER TABLE addr_conns SET UNLOGGED;"
    "CREATE UNLOGGED TABLE IF NOT EXISTS addr_tables("
    "  addr text PRIMARY KEY, credits double precision NOT NULL,"
    "  at timestamptz NOT NULL);"
    "ALTER TABLE addr_tables SET UNLOGGED;"
    /* A connection from a opens on node nd: this node's closes so far
     * (closed, one address a line) taken off first; then, under a lock
     * of the address, its connections on the live nodes counted and
     * this one added if they are fewer than lim.  True when allowed. */
    "CREATE OR REPLACE FUNCTION scopa_conn_open(a text, nd text, lim integer,"
    "  closed text, alive_s integer) RETURNS boolean LANGUAGE plpgsql AS $f$"
    " BEGIN"
    "  UPDATE addr_conns c SET n = c.n - d.k FROM (SELECT x, count(*)::integer"
    "   AS k FROM unnest(string_to_array(closed, E'\\n')) x GROUP BY x) d"
    "   WHERE c.addr = d.x AND c.node = nd;"
    "  PERFORM pg_advisory_xact_lock(" CONNS_LOCK ", hashtext(a));"
    "  IF (SELECT coalesce(sum(c.n), 0) FROM addr_conns c JOIN nodes s"
    "   ON s.node = c.node WHERE c.addr = a AND s.seen >"
    "   clock_timestamp() - make_interval(secs => alive_s)) >= lim THEN"
    "   RETURN false;"
    "  END IF;"
    "  INSERT INTO addr_conns(addr, node, n) VALUES (a, nd, 1)"
    "   ON CONFLICT (addr, node) DO UPDATE SET n = addr_conns.n + 1;"
    "  RETURN true;"
    " END $f$;";

static const char STEP_4[] = /* the lobby's public tables (store.h) */
    "CREATE TABLE IF NOT EXISTS lobby("
    "  code text PRIMARY KEY REFERENCES games(code),"
    "  created bigint NOT NULL);";

static const char STEP_5[] = /* Play now's seeks (store.h, store_pg_seek.c) */
    "CREATE TABLE IF NOT EXISTS seeks("
    "  id text PRIMARY KEY, node text NOT NULL, key text NOT NULL,"
    "  rules text NOT NULL, players integer NOT NULL,"
    "  away_s integer NOT NULL, clock_s integer NOT NULL,"
    "  rating double precision NOT NULL, account bigint NOT NULL,"
    "  since bigint NOT NULL, beat bigint NOT NULL, code text);"
    "CREATE INDEX IF NOT EXISTS seeks_by_node ON seeks(node);";

static const char STEP_6[] = /* the time bank (docs/serve.md) */
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS bank_s integer NOT NULL"
    "  DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS inc_s integer NOT NULL"
    "  DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN IF NOT EXISTS at_ms bigint NOT NULL"
    "  DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN IF NOT EXISTS took_ms integer NOT NULL"
    "  DEFAULT 0;";

static const char STEP_7[] = /* table talk (store_pg_talk.c), seek banks */
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS talk integer NOT NULL"
    "  DEFAULT 0;"
    "CREATE TABLE IF NOT EXISTS talk("
    "  code text NOT NULL REFERENCES games(code), n integer NOT NULL,"
    "  seat integer NOT NULL, at_ms bigint NOT NULL, text text NOT NULL,"
    "  PRIMARY KEY (code, n));"
    "CREATE TABLE IF NOT EXISTS reports("
    "  code text NOT NULL REFERENCES games(code), by_seat integer NOT NULL,"
    "  seat integer NOT NULL, account bigint NOT NULL,"
    "  at_ms bigint NOT NULL, through integer NOT NULL,"
    "  reason text NOT NULL, PRIMARY KEY (code, by_seat, seat));"
    /* ... and Play now with a time bank (store_pg_seek.c) */
    "ALTER TABLE seeks ADD COLUMN IF NOT EXISTS bank_s integer NOT NULL"
    "  DEFAULT 0;"
    "ALTER TABLE seeks ADD COLUMN IF NOT EXISTS inc_s integer NOT NULL"
    "  DEFAULT 0;";

static const char STEP_8[] = /* tournaments (store_pg_tourney.c) */
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS tourney text NOT NULL"
    "  DEFAULT '';"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS abandoned integer NOT NULL"
    "  DEFAULT 0;"
    "CREATE TABLE IF NOT EXISTS tourneys("
    "  id text PRIMARY KEY, status integer NOT NULL,"
    "  created bigint NOT NULL, state text NOT NULL);";

static const char *const STEPS[SCHEMA_VERSION] = {
    STEP_1, STEP_2, STEP_3, STEP_4, STEP_5, STEP_6, STEP_7, STEP_8};

/* The prepared statements, by name. */
#define PG_SQL(XX)                                                             \
  XX(ADD_GAME,                                                                 \
     "INSERT INTO games(code, seed, rules, away_s, clock_s, "                  \
     "created, bank_s, inc_s, talk, tourney) VALUES ($1, $2, $3, $4, $5, "     \
     "$6, $7, $8, $9, $10)")                                                   \
  XX(SET_SEAT, "INSERT INTO seats(code, seat, kind, name, bot, token_sha256, " \
               "player, account) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON "  \
               "CONFLICT (code, seat) DO UPDATE SET kind = EXCLUDED.kind, "    \
               "name = EXCLUDED.name, bot = EXCLUDED.bot, token_sha256 = "     \
               "EXCLUDED.token_sha256, player = EXCLUDED.player, account = "   \
               "EXCLUDED.account")                                             \
  XX(ADD_MOVE, "INSERT INTO moves(code, number, move, at_ms, took_ms) "        \
               "VALUES ($1, $2, $3, $4, $5)")                                  \
  XX(FINISH, "UPDATE games SET finished = 1, abandoned = $2 WHERE code = $1")  \
  XX(HAS_CODE, "SELECT 1 FROM games WHERE code = $1")                          \
  XX(GET_GAME,                                                                 \
     "SELECT seed, rules, away_s, clock_s, finished, bank_s, inc_s, "          \
     "talk, tourney, abandoned FROM games WHERE code = $1")                    \
  XX(GET_SEATS, "SELECT seat, kind, name, bot, token_sha256, player, account " \
                "FROM seats WHERE code = $1 ORDER BY seat")                    \
  XX(GET_MOVES, "SELECT number, move, at_ms, took_ms FROM moves WHERE "        \
                "code = $1 "                                                   \
                "ORDER BY number")                                             \
  XX(GET_RATING, "SELECT rating, rd, vol, games FROM ratings WHERE "           \
                 "pool = $1 AND player = $2")                                  \
  XX(PUT_RATING,                                                               \
     "INSERT INTO ratings(pool, player, name, rating, rd, vol, "               \
     "games, account) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON "             \
     "CONFLICT (pool, player) DO UPDATE SET name = EXCLUDED.name, "            \
     "rating = EXCLUDED.rating, rd = EXCLUDED.rd, vol = "                      \
     "EXCLUDED.vol, games = EXCLUDED.games, account = "                        \
     "EXCLUDED.account")                                                       \
  XX(LOG_RATING,                                                               \
     "INSERT INTO rating_log(pool, account, code, at, rating, rd) "            \
     "VALUES ($1, $2, $3, extract(epoch FROM now())::bigint, $4, "             \
     "$5) ON CONFLICT (account, pool, code) DO UPDATE SET rating "             \
     "= EXCLUDED.rating, rd = EXCLUDED.rd")                                    \
  XX(PAIR_GAMES, "SELECT count(*) FROM rating_log a JOIN rating_log b ON "     \
                 "b.code = a.code AND b.pool = a.pool WHERE a.pool = $1 AND "  \
                 "a.account = $2 AND b.account = $3 AND a.at >= $4")           \
  XX(LOCK_RATINGS, "SELECT pg_advisory_xact_lock(" RATINGS_LOCK ")")           \
  XX(IS_RATED, "SELECT rated FROM games WHERE code = $1 FOR UPDATE")           \
  XX(SET_RATED, "UPDATE games SET rated = 1 WHERE code = $1")                  \
  XX(LEADERS, "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN "    \
              "accounts a ON a.id = r.account WHERE r.pool = $1 AND "          \
              "r.account > 0 AND a.name_key IS NOT NULL ORDER BY r.rating "    \
              "DESC LIMIT $2")                                                 \
  XX(ADD_LOBBY, "INSERT INTO lobby(code, created) VALUES ($1, $2)")            \
  XX(LOBBY, "SELECT code FROM lobby ORDER BY created DESC, code LIMIT $1")     \
  XX(LOBBY_DROP, "DELETE FROM lobby WHERE code = $1")                          \
  XX(LEASE_TAKE,                                                               \
     "WITH held AS (SELECT 1 FROM leases WHERE code = $1 FOR UPDATE) "         \
     "INSERT INTO leases(code, node, epoch, expires) SELECT $1, $2, 1, "       \
     "now() + make_interval(secs => $3) FROM (SELECT count(*) FROM held) h "   \
     "ON CONFLICT (code) DO UPDATE SET "                                       \
     "epoch = CASE WHEN leases.node = EXCLUDED.node THEN leases.epoch ELSE "   \
     "leases.epoch + 1 END, node = EXCLUDED.node, expires = EXCLUDED.expires " \
     "WHERE leases.node = EXCLUDED.node OR leases.expires < now() OR ("        \
     "EXISTS (SELECT 1 FROM nodes WHERE nodes.node = leases.node) AND NOT "    \
     "EXISTS (SELECT 1 FROM pg_locks WHERE " LIFE_HELD(                        \
         "leases.node") ")) "                                                  \
                        "RETURNING epoch")                                     \
  XX(LEASE_RENEW,                                                              \
     "UPDATE leases l SET expires = now() + make_interval(secs => $4) FROM "   \
     "unnest($2::text[], $3::bigint[]) AS x(code, epoch) WHERE l.code = "      \
     "x.code AND l.epoch = x.epoch AND l.node = $1 AND l.expires > now() "     \
     "RETURNING l.code")                                                       \
  XX(LEASE_RELEASE, "UPDATE leases SET expires = '-infinity' WHERE code = $1 " \
                    "AND node = $2 AND epoch = $3")                            \
  XX(ADD_MOVE_FENCED,                                                          \
     "INSERT INTO moves(code, number, move, at_ms, took_ms) SELECT $1, $2, "   \
     "$3, $6, $7 FROM leases WHERE code = $1 AND node = $4 AND epoch = $5 "    \
     "FOR KEY SHARE")                                                          \
  XX(FENCE, "SELECT 1 FROM leases WHERE code = $1 AND node = $2 AND "          \
            "epoch = $3 FOR KEY SHARE")

enum {
#define PG__XX(name, sql) Q_##name,
  PG_SQL(PG__XX)
#undef PG__XX
      Q_COUNT
};

static const char *const SQL[] = {
#define PG__XX(name, sql) sql,
    PG_SQL(PG__XX)
#undef PG__XX
};

typedef struct pgs {
  store base; /* first: the table of functions (store_impl.h)        */
  PGconn *c;
  int in_batch;  /* a BEGIN is open                                      */
  int failed;    /* a write of the open batch failed: commit rolls back */
  char state[6]; /* SQLSTATE of the last failure ("" when none)         */
} pgs;

#define P(st) ((pgs *)(st)) /* a PostgreSQL store, from its head */

/* ------------------------------------------------------------------ */
/* Connecting                                                          */
/* ------------------------------------------------------------------ */

/* A connection to url: the URL's own settings win over these defaults
 * (they come after them, expand_dbname).  NULL only without memory. */
static PGconn *connect_to(const char *url) {
  const char *const keys[] = {"connect_timeout", "client_encoding",
                              "application_name", "dbname", NULL};
  const char *const vals[] = {"10", "UTF8", "scopa serve", url, NULL};
  return PQconnectdbParams(keys, vals, 1);
}

/* Which database, for messages: never the URL (it may hold a password). */
static void describe(PGconn *c, char *out, size_t n) {
  const char *db = c ? PQdb(c) : NULL, *host = c ? PQhost(c) : NULL,
             *port = c ? PQport(c) : NULL;
  snprintf(out, n, "the PostgreSQL database %s on %s:%s", db ? db : "?",
           host && *host ? host : "localhost", port && *port ? port : "5432");
}

/* The first line of libpq's last error. */
static void first_line(PGconn *c, char *out, size_t n) {
  snprintf(out, n, "%s", c ? PQerrorMessage(c) : "out of memory");
  out[strcspn(out, "\n")] = 0;
}

/* A connection that answers, or NULL with a message. */
static PGconn *reach(const char *url, char *msg, size_t n) {
  char who[256], why[256];
  PGconn *c = connect_to(url);
  if (c && PQstatus(c) == CONNECTION_OK)
    return c;
  describe(c, who, sizeof who);
  first_line(c, why, sizeof why);
  snprintf(msg, n, "%s cannot be reached: %s", who, why);
  PQfinish(c);
  return NULL;
}

/* Runs one simple command; 0 when it succeeded, else -1 with its error. */
static int command(PGconn *c, const char *sql, char *msg, size_t n) {
  PGresult *r = PQexec(c, sql);
  ExecStatusType s = PQresultStatus(r);
  int ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
  if (!ok && msg) {
    snprintf(msg, n, "%s", PQresultErrorMessage(r));
    msg[strcspn(msg, "\n")] = 0;
  }
  PQclear(r);
  return ok ? 0 : -1;
}

/* One integer a query answers, or `otherwise`. */
static int query_int(PGconn *c, const char *sql, int otherwise) {
  PGresult *r = PQexec(c, sql);
  int v = otherwise;
  if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
      !PQgetisnull(r, 0, 0))
    v = atoi(PQgetvalue(r, 0, 0));
  PQclear(r);
  return v;
}

/* Inside the schema lock: a scopa database of a known version (into
 * *version), or one with no tables at all (version 0). */
static int check_version(PGconn *c, const char *who, int *version, char *msg,
                         size_t n) {
  int tables = query_int(c,
                         "SELECT count(*) FROM information_schema.tables "
                         "WHERE table_schema = current_schema()",
                         -1);
  int ours = query_int(c,
                       "SELECT count(*) FROM information_schema.tables WHERE "
                       "table_schema = current_schema() AND "
                       "table_name = 'scopa_schema'",
                       -1);
  *version =
      ours == 1 ? query_int(c, "SELECT max(version) FROM scopa_schema", 0) : 0;
  if (tables < 0 || ours < 0)
    snprintf(msg, n, "%s cannot be read: %s", who, PQerrorMessage(c));
  else if (ours == 0 && tables > 0)
    snprintf(msg, n, "%s is not a scopa database (another program's tables)",
             who);
  else if (*version > SCHEMA_VERSION)
    snprintf(msg, n,
             "%s was made by a newer scopa (schema version %d; this one "
             "knows up to %d)",
             who, *version, SCHEMA_VERSION);
  else
    return 0;
  msg[strcspn(msg, "\n")] = 0;
  return -1;
}

/* The steps from the database's version to SCHEMA_VERSION and the new
 * version, in one synchronously committed transaction under the schema
 * lock; at the current version, the version written again: the start's
 * real write either way. */
static int write_schema(PGconn *c, const char *who, char *msg, size_t n) {
  char why[256] = "", sql[128];
  int version = 0;
  if (command(c, "SET client_min_messages = warning", why, sizeof why) ||
      command(c, "SET synchronous_commit = on", why, sizeof why) ||
      command(c, "BEGIN", why, sizeof why) ||
      command(c, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", why,
              sizeof why))
    goto fail;
  if (check_version(c, who, &version, msg, n)) {
    command(c, "ROLLBACK", NULL, 0);
    return -1;
  }
  if (command(c,
              "CREATE TABLE IF NOT EXISTS scopa_schema(version integer NOT "
              "NULL)",
              why, sizeof why))
    goto fail;
  for (int v = version; v < SCHEMA_VERSION; v++)
    if (command(c, STEPS[v], why, sizeof why))
      goto fail;
  snprintf(sql, sizeof sql,
           "DELETE FROM scopa_schema;"
           "INSERT INTO scopa_schema(version) VALUES (%d)",
           SCHEMA_VERSION);
  if (command(c, sql, why, sizeof why) == 0 &&
      command(c, "COMMIT", why, sizeof why) == 0)
    return 0;
fail:
  command(c, "ROLLBACK", NULL, 0);
  snprintf(msg, n, "%s cannot be written: %s", who, why);
  return -1;
}

static int pg_claim(const char *url, int *lock, char *msg, size_t msgsize) {
  char who[256];
  *lock = -1; /* no lock: the nodes share the database */
  PGconn *c = reach(url, msg, msgsize);
  if (!c)
    return -1;
  describe(c, who, sizeof who);
  int rc = write_schema(c, who, msg, msgsize);
  PQfinish(c);
  return rc;
}

/* Prepares every statement on the store's connection: 0 or -1. */
static int prepare(pgs *p) {
  for (int i = 0; i < Q_COUNT; i++) {
    char name[16];
    snprintf(name, sizeof name, "q%d", i);
    PGresult *r = PQprepare(p->c, name, SQL[i], 0, NULL);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok)
      return -1;
  }
  /* A lock held elsewhere fails the write after 5 s ("the database is
   * busy"), as SQLite's busy timeout does, instead of stalling the
   * writer for good. */
  return command(p->c, "SET synchronous_commit = on", NULL, 0) ||
         command(p->c, "SET lock_timeout = '5s'", NULL, 0);
}

static void pg_close(store *st) {
  if (!st)
    return;
  PQfinish(P(st)->c);
  free(st);
}

static int pg_open(const char *url, store **out, char *msg, size_t msgsize) {
  pgs *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(msg, msgsize, "out of memory");
    return -1;
  }
  p->base.ops = &store_pg_ops;
  p->c = reach(url, msg, msgsize);
  if (!p->c) {
    free(p);
    return -1;
  }
  if (prepare(p)) {
    char who[256];
    describe(p->c, who, sizeof who);
    snprintf(msg, msgsize, "%s: %s", who, PQerrorMessage(p->c));
    msg[strcspn(msg, "\n")] = 0;
    pg_close(&p->base);
    return -1;
  }
  *out = &p->base;
  return 0;
}

/* A connection found broken is reset, outside a batch only (a batch in
 * flight on a lost connection is lost with it and fails). 0 when the
 * connection is usable. */
static int ready(pgs *p) {
  if (PQstatus(p->c) == CONNECTION_OK)
    return 0;
  snprintf(p->state, sizeof p->state, "08006");
  if (p->in_batch)
    return -1;
  PQreset(p->c);
  if (PQstatus(p->c) != CONNECTION_OK || prepare(p))
    return -1;
  fprintf(stderr, "scopa serve: store: reconnected to PostgreSQL\n");
  return 0;
}

/* ------------------------------------------------------------------ */
/* Statements, batches                                                 */
/* ------------------------------------------------------------------ */

/* Keeps the SQLSTATE of a failed result (or of a lost connection). */
static void note_failure(pgs *p, const PGresult *r) {
  const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
  if (PQstatus(p->c) != CONNECTION_OK || !s)
    s = "08006";
  snprintf(p->state, sizeof p->state, "%s", s);
}

/* Runs prepared statement q with n text parameters; the result (for the
 * caller to PQclear), or NULL when it failed (noted, and logged).  A
 * connection lost between batches (PostgreSQL restarted) shows only at
 * the next statement: outside a batch it is reset and the statement
 * runs once more, so a restart costs no table anything. */
static PGresult *run_q(pgs *p, int q, int n, const char *const *vals) {
  char name[16];
  snprintf(name, sizeof name, "q%d", q);
  for (int again = 1;; again = 0) {
    if (ready(p))
      return NULL;
    PGresult *r = PQexecPrepared(p->c, name, n, vals, NULL, NULL, 0);
    ExecStatusType s = PQresultStatus(r);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
      return r;
    if (again && !p->in_batch && PQstatus(p->c) == CONNECTION_BAD) {
      PQclear(r);
      continue;
    }
    note_failure(p, r);
    fprintf(stderr, "scopa serve: store: %s", PQresultErrorMessage(r));
    PQclear(r);
    return NULL;
  }
}

/* A write joining the batch: 0, or -1 with the batch marked failed. */
static int write_q(store *st, int q, int n, const char *const *vals) {
  PGresult *r = NULL;
  if (st->ops->begin(st) == 0)
    r = run_q(P(st), q, n, vals);
  if (!r) {
    P(st)->failed = 1;
    return -1;
  }
  PQclear(r);
  return 0;
}

static int pg_begin(store *st) {
  pgs *p = P(st);
  if (p->in_batch)
    return 0;
  int ok = 0;
  for (int again = 1; !ok; again = 0) { /* once more on a lost connection */
    if (ready(p))
      return -1;
    PGresult *r = PQexec(p->c, "BEGIN");
    ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    int retry = !ok && again && PQstatus(p->c) == CONNECTION_BAD;
    if (!ok && !retry)
      note_failure(p, r);
    PQclear(r);
    if (!ok && !retry)
      return -1;
  }
  p->in_batch = 1;
  p->failed = 0;
  return 0;
}

static int pg_in_batch(const store *st) { return P(st)->in_batch; }

static void pg_rollback(store *st) {
  pgs *p = P(st);
  if (PQstatus(p->c) == CONNECTION_OK &&
      PQtransactionStatus(p->c) != PQTRANS_IDLE)
    command(p->c, "ROLLBACK", NULL, 0);
  p->in_batch = 0;
  p->failed = 0;
}

/* COMMIT answers "ROLLBACK" for a transaction that had failed: only a
 * "COMMIT" tag means the batch is durable. */
static int pg_commit(store *st, char *msg, size_t msgsize) {
  pgs *p = P(st);
  if (!p->in_batch)
    return 0;
  if (!p->failed) {
    PGresult *r = PQexec(p->c, "COMMIT");
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK &&
             strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (!ok)
      note_failure(p, r);
    PQclear(r);
    if (ok) {
      p->in_batch = 0;
      return 0;
    }
  }
  snprintf(msg, msgsize, "%s", PQerrorMessage(p->c));
  msg[strcspn(msg, "\n")] = 0;
  pg_rollback(st);
  return -1;
}

/* A failure's SQLSTATE (or its class, two characters), in a player's
 * words. */
static const struct {
  const char *state, *en, *it;
} WHY[] = {
    {"53100", "the disk is full", "il disco è pieno"},
    {"53200", "out of memory", "memoria esaurita"},
    {"08", "the database cannot be reached", "il database non è raggiungibile"},
    {"57P", "the database cannot be reached",
     "il database non è raggiungibile"},
    {"25006", "the database is read-only", "il database è di sola lettura"},
    {"XX001", "the database is damaged", "il database è danneggiato"},
    {"XX002", "the database is damaged", "il database è danneggiato"},
    {"40", "the database is busy", "il database è occupato"},
    {"55P03", "the database is busy", "il database è occupato"},
    {"lease", "another server took the table over",
     "un altro server ha preso il tavolo"},
    {"23", "the database refused the write",
     "il database ha rifiutato la scrittura"},
    {"58", "the disk failed", "il disco ha dato un errore"},
};

static void pg_why(const store *st, const char **en, const char **it) {
  *en = "the database could not write";
  *it = "il database non ha potuto scrivere";
  for (size_t i = 0; i < sizeof WHY / sizeof WHY[0]; i++)
    if (strncmp(P(st)->state, WHY[i].state, strlen(WHY[i].state)) == 0) {
      *en = WHY[i].en;
      *it = WHY[i].it;
      return;
    }
}

/* Class 23 (a constraint: a move's number taken), 22 (a value out of
 * range) and a lost lease are the write's own; everything else is the
 * database's. */
static int pg_failure_is_local(const store *st) {
  return strncmp(P(st)->state, "23", 2) == 0 ||
         strncmp(P(st)->state, "22", 2) == 0 ||
         strcmp(P(st)->state, "lease") == 0;
}

/* ------------------------------------------------------------------ */
/* Writes                                                              */
/* ------------------------------------------------------------------ */

static int pg_set_seat(store *st, const char *code, int seat,
                       const store_seat *s) {
  char n[16], kind[16], account[24];
  snprintf(n, sizeof n, "%d", seat);
  snprintf(kind, sizeof kind, "%d", s->kind);
  snprintf(account, sizeof account, "%lld", s->account);
  const char *const v[] = {
      code, n, kind, s->name, s->bot, s->token_sha256, s->player, account};
  return write_q(st, Q_SET_SEAT, 8, v);
}

static int pg_add_game(store *st, const store_game *g) {
  char away[16], clock[16], created[32], bank[16], inc[16], talk[4];
  snprintf(away, sizeof away, "%d", g->away_s);
  snprintf(clock, sizeof clock, "%d", g->clock_s);
  snprintf(created, sizeof created, "%lld", (long long)time(NULL));
  snprintf(bank, sizeof bank, "%d", g->bank_s);
  snprintf(inc, sizeof inc, "%d", g->inc_s);
  snprintf(talk, sizeof talk, "%d", g->talk_on ? 1 : 0);
  const char *const v[] = {g->code, g->seed, g->rules_json, away, clock,
                           created, bank,    inc,           talk, g->tourney};
  if (write_q(st, Q_ADD_GAME, 10, v))
    return -1;
  for (int i = 0; i < g->nseats; i++)
    if (pg_set_seat(st, g->code, i, &g->seat[i]))
      return -1;
  const char *const l[] = {g->code, created};
  return g->listed ? write_q(st, Q_ADD_LOBBY, 2, l) : 0;
}

static int pg_add_move(store *st, const char *code, int number, scopa_move move,
                       int64_t at_ms, int took_ms) {
  char n[16], at[32], took[16], text[SCOPA_MOVE_TEXT];
  snprintf(n, sizeof n, "%d", number);
  snprintf(at, sizeof at, "%lld", (long long)at_ms);
  snprintf(took, sizeof took, "%d", took_ms);
  const char *const v[] = {code, n, scopa_move_str(move, text), at, took};
  return write_q(st, Q_ADD_MOVE, 5, v);
}

static int pg_finish(store *st, const char *code, int abandoned) {
  char a[16];
  snprintf(a, sizeof a, "%d", abandoned);
  const char *const v[] = {code, a};
  return write_q(st, Q_FINISH, 2, v);
}

static int pg_set_rated(store *st, const char *code) {
  const char *const v[] = {code};
  return write_q(st, Q_SET_RATED, 1, v);
}

static int pg_rating_put(store *st, const char *pool, const char *player,
                         const char *name, const store_rating *r) {
  char rating[32], rd[32], vol[32], games[16], account[24];
  snprintf(rating, sizeof rating, "%.17g", r->rating);
  snprintf(rd, sizeof rd, "%.17g", r->rd);
  snprintf(vol, sizeof vol, "%.17g", r->vol);
  snprintf(games, sizeof games, "%d", r->games);
  snprintf(account, sizeof account, "%lld", r->account);
  const char *const v[] = {pool, player, name, rating, rd, vol, games, account};
  return write_q(st, Q_PUT_RATING, 8, v);
}

static int pg_rating_log(store *st, const char *pool, long long account,
                         const char *code, const store_rating *r) {
  char a[24], rating[32], rd[32];
  snprintf(a, sizeof a, "%lld", account);
  snprintf(rating, sizeof rating, "%.17g", r->rating);
  snprintf(rd, sizeof rd, "%.17g", r->rd);
  const char *const v[] = {pool, a, code, rating, rd};
  return write_q(st, Q_LOG_RATING, 5, v);
}

static int pg_pair_games(store *st, const char *pool, long long a, long long b,
                         long long since) {
  char x[24], y[24], t[24];
  snprintf(x, sizeof x, "%lld", a);
  snprintf(y, sizeof y, "%lld", b);
  snprintf(t, sizeof t, "%lld", since);
  const char *const v[] = {pool, x, y, t};
  PGresult *r = run_q(P(st), Q_PAIR_GAMES, 4, v);
  if (!r)
    return -1;
  int n = atoi(PQgetvalue(r, 0, 0));
  PQclear(r);
  return n;
}

/* ------------------------------------------------------------------ */
/* Reads                                                               */
/* ------------------------------------------------------------------ */

static int pg_has_code(store *st, const char *code) {
  const char *const v[] = {code};
  PGresult *r = run_q(P(st), Q_HAS_CODE, 1, v);
  if (!r)
    return -1;
  int rc = PQntuples(r) > 0;
  PQclear(r);
  return rc;
}

/* Inside the batch (writer.c's run_rate): the ratings lock, then the
 * game's row, so two nodes never count one game twice. */
static int pg_is_rated(store *st, const char *code) {
  const char *const v[] = {code};
  PGresult *r = run_q(P(st), Q_LOCK_RATINGS, 0, NULL);
  if (!r)
    return -1;
  PQclear(r);
  if (!(r = run_q(P(st), Q_IS_RATED, 1, v)))
    return -1;
  int rc = PQntuples(r) == 0 ? 0 : atoi(PQgetvalue(r, 0, 0)) != 0;
  PQclear(r);
  return rc;
}

static int pg_rating_get(store *st, const char *pool, const char *player,
                         store_rating *out) {
  const char *const v[] = {pool, player};
  PGresult *r = run_q(P(st), Q_GET_RATING, 2, v);
  if (!r)
    return -1;
  int rc = PQntuples(r) == 0;
  if (!rc) {
    out->rating = atof(PQgetvalue(r, 0, 0));
    out->rd = atof(PQgetvalue(r, 0, 1));
    out->vol = atof(PQgetvalue(r, 0, 2));
    out->games = atoi(PQgetvalue(r, 0, 3));
  }
  PQclear(r);
  return rc;
}

static void copy_col(const PGresult *r, int row, int col, char *out,
                     size_t cap) {
  snprintf(out, cap, "%s", PQgetvalue(r, row, col));
}

static int load_seats(pgs *p, store_game *g, char *msg, size_t n) {
  const char *const v[] = {g->code};
  PGresult *r = run_q(p, Q_GET_SEATS, 1, v);
  if (!r) {
    snprintf(msg, n, "the seats cannot be read (SQLSTATE %s)", p->state);
    return -1;
  }
  for (int row = 0; row < PQntuples(r); row++) {
    int i = atoi(PQgetvalue(r, row, 0));
    if (i < 0 || i >= STORE_MAX_SEATS) {
      snprintf(msg, n, "seat %d is out of range", i);
      PQclear(r);
      return -1;
    }
    store_seat *s = &g->seat[i];
    s->kind = atoi(PQgetvalue(r, row, 1));
    copy_col(r, row, 2, s->name, sizeof s->name);
    copy_col(r, row, 3, s->bot, sizeof s->bot);
    copy_col(r, row, 4, s->token_sha256, sizeof s->token_sha256);
    copy_col(r, row, 5, s->player, sizeof s->player);
    s->account = atoll(PQgetvalue(r, row, 6));
    if (i >= g->nseats)
      g->nseats = i + 1;
  }
  PQclear(r);
  return 0;
}

/* Moves come back in number order; a gap is an error (store_sqlite.c). */
static int load_moves(pgs *p, store_game *g, char *msg, size_t n) {
  const char *const v[] = {g->code};
  PGresult *r = run_q(p, Q_GET_MOVES, 1, v);
  if (!r) {
    snprintf(msg, n, "the moves cannot be read (SQLSTATE %s)", p->state);
    return -1;
  }
  int rows = PQntuples(r), rc = 0;
  g->moves = rows ? malloc((size_t)rows * sizeof *g->moves) : NULL;
  g->move_at = rows ? malloc((size_t)rows * sizeof *g->move_at) : NULL;
  g->move_took = rows ? malloc((size_t)rows * sizeof *g->move_took) : NULL;
  if (rows && (!g->moves || !g->move_at || !g->move_took)) {
    snprintf(msg, n, "out of memory");
    rc = -1;
  }
  for (int row = 0; rc == 0 && row < rows; row++) {
    scopa_move m;
    if (atoi(PQgetvalue(r, row, 0)) != g->nmoves) {
      snprintf(msg, n, "move %d is missing", g->nmoves);
      rc = -1;
    } else if (scopa_move_parse(PQgetvalue(r, row, 1), NULL, &m, NULL, 0) !=
               SCOPA_OK) {
      snprintf(msg, n, "move %d cannot be read", g->nmoves);
      rc = -1;
    } else {
      g->move_at[g->nmoves] = strtoll(PQgetvalue(r, row, 2), NULL, 10);
      g->move_took[g->nmoves] = atoi(PQgetvalue(r, row, 3));
      g->moves[g->nmoves++] = m;
    }
  }
  PQclear(r);
  return rc;
}

static int pg_load(store *st, const char *code, store_game *g, char *msg,
                   size_t msgsize) {
  pgs *p = P(st);
  const char *const v[] = {code};
  memset(g, 0, sizeof *g);
  snprintf(g->code, sizeof g->code, "%s", code);
  PGresult *r = run_q(p, Q_GET_GAME, 1, v);
  if (!r) {
    snprintf(msg, msgsize, "the game cannot be read (SQLSTATE %s)", p->state);
    return -1;
  }
  if (PQntuples(r) == 0) {
    PQclear(r);
    return 1;
  }
  copy_col(r, 0, 0, g->seed, sizeof g->seed);
  g->rules_json = strdup(PQgetvalue(r, 0, 1));
  g->away_s = atoi(PQgetvalue(r, 0, 2));
  g->clock_s = atoi(PQgetvalue(r, 0, 3));
  g->finished = atoi(PQgetvalue(r, 0, 4));
  g->bank_s = atoi(PQgetvalue(r, 0, 5));
  g->inc_s = atoi(PQgetvalue(r, 0, 6));
  g->talk_on = atoi(PQgetvalue(r, 0, 7));
  snprintf(g->tourney, sizeof g->tourney, "%s", PQgetvalue(r, 0, 8));
  g->abandoned = atoi(PQgetvalue(r, 0, 9));
  PQclear(r);
  if (!g->rules_json)
    snprintf(msg, msgsize, "out of memory");
  if (!g->rules_json || load_seats(p, g, msg, msgsize) ||
      load_moves(p, g, msg, msgsize)) {
    store_game_free(g);
    return -1;
  }
  return 0;
}

static int pg_leaders(store *st, const char *pool, int limit, store_leader *out,
                      int *n) {
  char lim[16];
  snprintf(lim, sizeof lim, "%d", limit);
  const char *const v[] = {pool, lim};
  PGresult *r = run_q(P(st), Q_LEADERS, 2, v);
  if (!r)
    return -1;
  for (*n = 0; *n < PQntuples(r) && *n < limit; ++*n) {
    store_leader *l = &out[*n];
    snprintf(l->name, sizeof l->name, "%s", PQgetvalue(r, *n, 0));
    l->rating = atof(PQgetvalue(r, *n, 1));
    l->rd = atof(PQgetvalue(r, *n, 2));
    l->games = atoi(PQgetvalue(r, *n, 3));
  }
  PQclear(r);
  return 0;
}

static int pg_lobby(store *st, int limit, char (*codes)[STORE_CODE_MAX + 1],
                    int *n) {
  char lim[16];
  snprintf(lim, sizeof lim, "%d", limit);
  const char *const v[] = {lim};
  PGresult *r = run_q(P(st), Q_LOBBY, 1, v);
  if (!r)
    return -1;
  for (*n = 0; *n < PQntuples(r) && *n < limit; ++*n)
    snprintf(codes[*n], STORE_CODE_MAX + 1, "%s", PQgetvalue(r, *n, 0));
  PQclear(r);
  return 0;
}

/* Outside any batch (the lobby's reader, auth.c): autocommit. */
static int pg_lobby_drop(store *st, const char *code) {
  const char *const v[] = {code};
  PGresult *r = run_q(P(st), Q_LOBBY_DROP, 1, v);
  PQclear(r);
  return r ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Leases (store.h; docs/serve.md "Any node serves any table")         */
/* ------------------------------------------------------------------ */

static int pg_lease_take(store *st, const char *code, const char *node,
                         int ttl_s, long long *epoch) {
  char ttl[16];
  snprintf(ttl, sizeof ttl, "%d", ttl_s);
  const char *const v[] = {code, node, ttl};
  PGresult *r = run_q(P(st), Q_LEASE_TAKE, 3, v);
  if (!r)
    return -1;
  int rc = PQntuples(r) == 1 ? 0 : 1;
  if (rc == 0)
    *epoch = atoll(PQgetvalue(r, 0, 0));
  PQclear(r);
  return rc;
}

/* An UPDATE of the lease that must match one row: 0, 1 when none did
 * (the lease is another's), -1. */
static int lease_update(store *st, int q, int n, const char *const *v) {
  PGresult *r = run_q(P(st), q, n, v);
  if (!r)
    return -1;
  int rc = strcmp(PQcmdTuples(r), "1") == 0 ? 0 : 1;
  PQclear(r);
  return rc;
}

/* A PostgreSQL array text of codes[0, n): each element quoted. */
static char *code_array(const char *const *codes, int n) {
  size_t cap = 3;
  for (int i = 0; i < n; i++)
    cap += 2 * strlen(codes[i]) + 3;
  char *a = malloc(cap), *o = a;
  if (!a)
    return NULL;
  *o++ = '{';
  for (int i = 0; i < n; i++) {
    if (i)
      *o++ = ',';
    *o++ = '"';
    for (const char *c = codes[i]; *c; c++) {
      if (*c == '"' || *c == '\\')
        *o++ = '\\';
      *o++ = *c;
    }
    *o++ = '"';
  }
  *o++ = '}';
  *o = 0;
  return a;
}

static int by_code(const void *a, const void *b) {
  return strcmp(**(const char *const *const *)a,
                **(const char *const *const *)b);
}

static int pg_lease_renew(store *st, const char *node, const char *const *codes,
                          const long long *epochs, int n, int ttl_s,
                          int *held) {
  char ttl[16];
  snprintf(ttl, sizeof ttl, "%d", ttl_s);
  char *ca = code_array(codes, n), *ea = malloc((size_t)n * 22 + 3);
  const char *const **order = malloc((size_t)(n ? n : 1) * sizeof *order);
  PGresult *r = NULL;
  if (ca && ea && order) {
    size_t len = 0;
    ea[len++] = '{';
    for (int i = 0; i < n; i++)
      len += (size_t)snprintf(ea + len, 23, "%s%lld", i ? "," : "", epochs[i]);
    snprintf(ea + len, 2, "}");
    const char *const v[] = {node, ca, ea, ttl};
    r = run_q(P(st), Q_LEASE_RENEW, 4, v);
  }
  free(ca);
  free(ea);
  if (!r) {
    free(order);
    return -1;
  }
  /* By code, to find each one renewed (codes are one lease each). */
  for (int i = 0; i < n; i++) {
    order[i] = &codes[i];
    held[i] = 0;
  }
  qsort(order, (size_t)n, sizeof *order, by_code);
  for (int k = 0; k < PQntuples(r); k++) {
    const char *code = PQgetvalue(r, k, 0), *const *key = &code;
    const char *const **hit =
        bsearch(&key, order, (size_t)n, sizeof *order, by_code);
    if (hit)
      held[*hit - codes] = 1;
  }
  PQclear(r);
  free(order);
  return 0;
}

static int pg_lease_release(store *st, const char *code, const char *node,
                            long long epoch) {
  char e[32];
  snprintf(e, sizeof e, "%lld", epoch);
  const char *const v[] = {code, node, e};
  return lease_update(st, Q_LEASE_RELEASE, 3, v) < 0 ? -1 : 0;
}

/* A write of a table that goes in only through its lease row, locked FOR
 * KEY SHARE (prepared statement q, which must touch or return exactly
 * one row): no row (another node or epoch holds the lease) is a failed
 * write of this table.
 * A takeover locks the row FOR UPDATE first, so it waits for the batch;
 * a renewal (FOR NO KEY UPDATE) does not, nor the batch for it: with
 * FOR SHARE, the renewal of all a node's leases in one statement and its
 * writer's batches locked each other, until lock_timeout failed moves
 * ("the database is busy") at 5,000 tables. */
static int fenced_q(store *st, int q, int n, const char *const *v) {
  PGresult *r = NULL;
  if (pg_begin(st) == 0)
    r = run_q(P(st), q, n, v);
  int rc = r && strcmp(PQcmdTuples(r), "1") == 0 ? 0 : -1;
  if (r && rc)
    snprintf(P(st)->state, sizeof P(st)->state, "lease");
  PQclear(r);
  if (rc)
    P(st)->failed = 1;
  return rc;
}

static int pg_add_move_fenced(store *st, const char *code, int number,
                              scopa_move move, int64_t at_ms, int took_ms,
                              const char *node, long long epoch) {
  char n[16], e[32], at[32], took[16], text[SCOPA_MOVE_TEXT];
  snprintf(n, sizeof n, "%d", number);
  snprintf(e, sizeof e, "%lld", epoch);
  snprintf(at, sizeof at, "%lld", (long long)at_ms);
  snprintf(took, sizeof took, "%d", took_ms);
  const char *const v[] = {code, n,   scopa_move_str(move, text), node, e,
                           at,   took};
  return fenced_q(st, Q_ADD_MOVE_FENCED, 7, v);
}

/* The same lock and check as a fenced move's, for any other write of
 * the table in this batch. */
static int pg_fence(store *st, const char *code, const char *node,
                    long long epoch) {
  char e[32];
  snprintf(e, sizeof e, "%lld", epoch);
  const char *const v[] = {code, node, e};
  return fenced_q(st, Q_FENCE, 3, v);
}

const store_ops store_pg_ops = {
    .claim = pg_claim,
    .open = pg_open,
    .close = pg_close,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .in_batch = pg_in_batch,
    .why = pg_why,
    .failure_is_local = pg_failure_is_local,
    .add_game = pg_add_game,
    .set_seat = pg_set_seat,
    .add_move = pg_add_move,
    .finish = pg_finish,
    .has_code = pg_has_code,
    .load = pg_load,
    .rating_get = pg_rating_get,
    .rating_put = pg_rating_put,
    .is_rated = pg_is_rated,
    .set_rated = pg_set_rated,
    .leaders = pg_leaders,
    .lobby = pg_lobby,
    .lobby_drop = pg_lobby_drop,
    .add_talk = pgt_add_talk,
    .add_report = pgt_add_report,
    .talk_load = pgt_talk_load,
    .reports = pgt_reports,
    .seek_add = pgs_seek_add,
    .seek_drop = pgs_seek_drop,
    .seek_beat = pgs_seek_beat,
    .seek_lock = pgs_seek_lock,
    .seek_waiting = pgs_seek_waiting,
    .seek_pair = pgs_seek_pair,
    .seek_paired = pgs_seek_paired,
    .lease_take = pg_lease_take,
    .lease_renew = pg_lease_renew,
    .lease_release = pg_lease_release,
    .add_move_fenced = pg_add_move_fenced,
    .fence = pg_fence,
    .tourney_put = pgr_tourney_put,
    .tourney_get = pgr_tourney_get,
    .tourney_list = pgr_tourney_list,
    .tourney_lock = pgr_tourney_lock,
    .game_end = pgr_game_end,
    .rating_log = pg_rating_log,
    .pair_games = pg_pair_games,
    .account_add = pga_account_add,
    .account_get = pga_account_get,
    .account_set_hash = pga_account_set_hash,
    .account_delete = pga_account_delete,
    .session_add = pga_session_add,
    .session_get = pga_session_get,
    .session_end = pga_session_end,
    .sessions_end = pga_sessions_end,
    .tries_count = pga_tries_count,
    .tries_add = pga_tries_add,
    .account_ratings = pga_account_ratings,
    .account_history = pga_account_history,
    .account_games = pga_account_games,
};

void *store_pg_conn(store *st) { return P(st)->c; }

int store_pg_ready(store *st) { return ready(P(st)); }

PGresult *store_pg_run(store *st, const char *sql, int n,
                       const char *const *vals) {
  if (store_pg_ready(st))
    return NULL;
  PGresult *r = PQexecParams(P(st)->c, sql, n, NULL, vals, NULL, NULL, 0);
  ExecStatusType s = PQresultStatus(r);
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
    return r;
  fprintf(stderr, "scopa serve: store: %s", PQresultErrorMessage(r));
  PQclear(r);
  return NULL;
}

int store_pg_write(store *st, const char *sql, int n, const char *const *vals) {
  pgs *p = P(st);
  PGresult *r = NULL;
  if (st->ops->begin(st) == 0 && ready(p) == 0) {
    r = PQexecParams(p->c, sql, n, NULL, vals, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
      note_failure(p, r);
      fprintf(stderr, "scopa serve: store: %s", PQresultErrorMessage(r));
      PQclear(r);
      r = NULL;
    }
  }
  if (!r) {
    p->failed = 1;
    return -1;
  }
  PQclear(r);
  return 0;
}
