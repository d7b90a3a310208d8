/*
 * store_sqlite.c -- store.h on SQLite (Debian's libsqlite3): the default
 * store, one file (store_impl.h; store.c chooses it).
 *
 * What must stay true: a move the server announces is on disk.  Hence WAL
 * with synchronous=FULL (a commit returns only once the log is synced),
 * BEGIN IMMEDIATE for the write batches (the write lock is taken up front,
 * so a batch never fails half-way for want of it), and PRIMARY KEY (code,
 * number) on moves, so a duplicate write fails loudly instead of being
 * stored twice.  Statements are prepared once and kept for the process.
 *
 * One process serves a file (store_claim): its flock on the database file
 * is held until the process ends.  flock, not fcntl: fcntl locks belong to
 * the process and SQLite uses them itself, so they would not keep out a
 * second connection of ours and closing any descriptor of the file would
 * drop them; flock belongs to our one descriptor, is independent of
 * SQLite's locks (Linux, local files), and follows the file, not its
 * name, so links and other spellings of the path are refused too.  Other
 * programs (the sqlite3 shell) still read the file: they take no flock.
 *
 * The file also says what it is: PRAGMA application_id SCOPA_APP_ID and
 * PRAGMA user_version the schema's version (7: the tables below; 6:
 * before tournaments, whose columns MIGRATE_7 adds and whose table TABLES
 * makes; 5: before table talk, whose column MIGRATE_6 adds and whose tables
 * TABLES makes; 4: before the time bank's columns, which MIGRATE_5 adds; 3:
 * before the seeks' table and 2 before the lobby's, which TABLES adds; 1:
 * before accounts, moved on at the start by MIGRATE_2, nothing lost; files from
 * before the version was written have 0 and the first four tables, and are
 * taken as version 1).
 */
#include "store_impl.h"
#include "store_seek.h"
#include "store_sqlite_acct.h"
#include "store_talk.h"
#include "store_tourney.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define SCHEMA_VERSION 7        /* PRAGMA user_version of TABLES     */
#define SCOPA_APP_ID 0x53435041 /* PRAGMA application_id: "SCPA"    */

static const char PRAGMAS[] = "PRAGMA journal_mode=WAL;"
                              "PRAGMA synchronous=FULL;"
                              "PRAGMA foreign_keys=ON;";

static const char TABLES[] =
    "CREATE TABLE IF NOT EXISTS games("
    "  code TEXT PRIMARY KEY, seed TEXT NOT NULL, rules TEXT NOT NULL,"
    "  away_s INTEGER NOT NULL, clock_s INTEGER NOT NULL,"
    "  created INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,"
    "  rated INTEGER NOT NULL DEFAULT 0,"
    "  bank_s INTEGER NOT NULL DEFAULT 0, inc_s INTEGER NOT NULL DEFAULT 0,"
    "  talk INTEGER NOT NULL DEFAULT 0,"
    "  tourney TEXT NOT NULL DEFAULT '', abandoned INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats("
    "  code TEXT NOT NULL REFERENCES games(code), seat INTEGER NOT NULL,"
    "  kind INTEGER NOT NULL, name TEXT NOT NULL, bot TEXT NOT NULL,"
    "  token_sha256 TEXT NOT NULL, player TEXT NOT NULL,"
    "  account INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (code, seat)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS seats_by_account ON seats(account, code)"
    "  WHERE account > 0;"
    "CREATE TABLE IF NOT EXISTS moves("
    "  code TEXT NOT NULL REFERENCES games(code), number INTEGER NOT NULL,"
    "  move TEXT NOT NULL, at_ms INTEGER NOT NULL DEFAULT 0,"
    "  took_ms INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (code, number)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS ratings("
    "  pool TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,"
    "  rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    "  games INTEGER NOT NULL, account INTEGER NOT NULL DEFAULT 0,"
    "  PRIMARY KEY (pool, player)) WITHOUT ROWID;"
    /* Accounts (store_sqlite_acct.c): name_key is the name in lower case,
     * NULL once the account is deleted (the name free again). */
    "CREATE TABLE IF NOT EXISTS accounts("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT UNIQUE,"
    "  hash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions("
    "  sha256 TEXT PRIMARY KEY, account INTEGER NOT NULL,"
    "  expires INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions(account);"
    "CREATE TABLE IF NOT EXISTS tries(key TEXT NOT NULL, at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS tries_by_key ON tries(key, at);"
    "CREATE TABLE IF NOT EXISTS rating_log("
    "  pool TEXT NOT NULL, account INTEGER NOT NULL, code TEXT NOT NULL,"
    "  at INTEGER NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,"
    "  PRIMARY KEY (account, pool, code)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS rating_log_by_code ON rating_log(code);"
    /* The lobby's public tables (version 3; store.h). */
    "CREATE TABLE IF NOT EXISTS lobby("
    "  code TEXT PRIMARY KEY REFERENCES games(code),"
    "  created INTEGER NOT NULL) WITHOUT ROWID;"
    /* Play now's seeks (version 4; store.h, store_sqlite_seek.c). */
    "CREATE TABLE IF NOT EXISTS seeks("
    "  id TEXT PRIMARY KEY, node TEXT NOT NULL, key TEXT NOT NULL,"
    "  rules TEXT NOT NULL, players INTEGER NOT NULL,"
    "  away_s INTEGER NOT NULL, clock_s INTEGER NOT NULL,"
    "  rating REAL NOT NULL, account INTEGER NOT NULL,"
    "  since INTEGER NOT NULL, beat INTEGER NOT NULL, code TEXT,"
    "  bank_s INTEGER NOT NULL DEFAULT 0, inc_s INTEGER NOT NULL DEFAULT 0)"
    "  WITHOUT ROWID;"
    /* Table talk and its reports (version 6; store_sqlite_talk.c). */
    "CREATE TABLE IF NOT EXISTS talk("
    "  code TEXT NOT NULL REFERENCES games(code), n INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, at_ms INTEGER NOT NULL, text TEXT NOT NULL,"
    "  PRIMARY KEY (code, n)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS reports("
    "  code TEXT NOT NULL REFERENCES games(code), by_seat INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, account INTEGER NOT NULL,"
    "  at_ms INTEGER NOT NULL, through INTEGER NOT NULL,"
    "  reason TEXT NOT NULL, PRIMARY KEY (code, by_seat, seat));"
    /* Tournaments (version 7; store_sqlite_tourney.c). */
    "CREATE TABLE IF NOT EXISTS tourneys("
    "  id TEXT PRIMARY KEY, status INTEGER NOT NULL,"
    "  created INTEGER NOT NULL, state TEXT NOT NULL) WITHOUT ROWID;";

/* From version 1 (or 0): the columns accounts added to old tables; the
 * new tables come from TABLES. */
static const char MIGRATE_2[] =
    "ALTER TABLE seats ADD COLUMN account INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE ratings ADD COLUMN account INTEGER NOT NULL DEFAULT 0;";

/* From version 4 (or older, after MIGRATE_2): the time bank's columns. */
static const char MIGRATE_5[] =
    "ALTER TABLE games ADD COLUMN bank_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN inc_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN at_ms INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN took_ms INTEGER NOT NULL DEFAULT 0;";

/* From version 5 (or older): whether a game's table talks. */
static const char MIGRATE_6[] =
    "ALTER TABLE games ADD COLUMN talk INTEGER NOT NULL DEFAULT 0;";
/* ... and, where Play now's seeks were (version 4 or 5), their bank. */
static const char MIGRATE_6_SEEKS[] =
    "ALTER TABLE seeks ADD COLUMN bank_s INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE seeks ADD COLUMN inc_s INTEGER NOT NULL DEFAULT 0;";

/* From version 6 (or older): a game's tournament and who abandoned it. */
static const char MIGRATE_7[] =
    "ALTER TABLE games ADD COLUMN tourney TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;";

/* The prepared statements, by name. */
#define STORE_SQL(XX)                                                          \
  XX(BEGIN, "BEGIN IMMEDIATE")                                                 \
  XX(COMMIT, "COMMIT")                                                         \
  XX(ROLLBACK, "ROLLBACK")                                                     \
  XX(ADD_GAME,                                                                 \
     "INSERT INTO games(code, seed, rules, away_s, clock_s, "                  \
     "created, bank_s, inc_s, talk, tourney) VALUES (?1, ?2, ?3, ?4, ?5, "     \
     "?6, ?7, ?8, ?9, ?10)")                                                   \
  XX(SET_SEAT, "INSERT OR REPLACE INTO seats(code, seat, kind, name, bot, "    \
               "token_sha256, player, account) VALUES (?1, ?2, ?3, ?4, ?5, "   \
               "?6, ?7, ?8)")                                                  \
  XX(ADD_MOVE, "INSERT INTO moves(code, number, move, at_ms, took_ms) "        \
               "VALUES (?1, ?2, ?3, ?4, ?5)")                                  \
  XX(FINISH, "UPDATE games SET finished = 1, abandoned = ?2 WHERE code = ?1")  \
  XX(HAS_CODE, "SELECT 1 FROM games WHERE code = ?1")                          \
  XX(GET_GAME,                                                                 \
     "SELECT seed, rules, away_s, clock_s, finished, bank_s, inc_s, "          \
     "talk, tourney, abandoned FROM games WHERE code = ?1")                    \
  XX(GET_SEATS, "SELECT seat, kind, name, bot, token_sha256, player, account " \
                "FROM seats WHERE code = ?1 ORDER BY seat")                    \
  XX(GET_MOVES, "SELECT number, move, at_ms, took_ms FROM moves WHERE "        \
                "code = ?1 "                                                   \
                "ORDER BY number")                                             \
  XX(GET_RATING, "SELECT rating, rd, vol, games FROM ratings WHERE "           \
                 "pool = ?1 AND player = ?2")                                  \
  XX(PUT_RATING, "INSERT OR REPLACE INTO ratings(pool, player, name, rating, " \
                 "rd, vol, games, account) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "   \
                 "?7, ?8)")                                                    \
  XX(LOG_RATING, "INSERT OR REPLACE INTO rating_log(pool, account, code, at, " \
                 "rating, rd) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")                \
  XX(PAIR_GAMES, "SELECT count(*) FROM rating_log a JOIN rating_log b ON "     \
                 "b.code = a.code AND b.pool = a.pool WHERE a.pool = ?1 AND "  \
                 "a.account = ?2 AND b.account = ?3 AND a.at >= ?4")           \
  XX(IS_RATED, "SELECT rated FROM games WHERE code = ?1")                      \
  XX(SET_RATED, "UPDATE games SET rated = 1 WHERE code = ?1")                  \
  XX(LEADERS, "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN "    \
              "accounts a ON a.id = r.account WHERE r.pool = ?1 AND "          \
              "r.account > 0 AND a.name_key IS NOT NULL ORDER BY r.rating "    \
              "DESC LIMIT ?2")                                                 \
  XX(ADD_LOBBY, "INSERT INTO lobby(code, created) VALUES (?1, ?2)")            \
  XX(LOBBY, "SELECT code FROM lobby ORDER BY created DESC, code LIMIT ?1")     \
  XX(LOBBY_DROP, "DELETE FROM lobby WHERE code = ?1")

enum {
#define STORE__XX(name, sql) Q_##name,
  STORE_SQL(STORE__XX)
#undef STORE__XX
      Q_COUNT
};

static const char *const SQL[] = {
#define STORE__XX(name, sql) sql,
    STORE_SQL(STORE__XX)
#undef STORE__XX
};

typedef struct sq {
  store base; /* first: the table of functions (store_impl.h)        */
  sqlite3 *db;
  sqlite3_stmt *q[Q_COUNT];
  int in_batch; /* a BEGIN IMMEDIATE is open                              */
  int failed;   /* a write of the open batch failed: commit rolls back   */
  int last_rc;  /* SQLite's primary code of the last failed write        */
} sq;

#define S(st) ((sq *)(st)) /* an SQLite store, from its head */

static void sq_close(store *st);
static void sq_rollback(store *st);
static int sq_set_seat(store *st, const char *code, int seat,
                       const store_seat *s);

/* ------------------------------------------------------------------ */
/* Claiming and checking the file (before the server listens)          */
/* ------------------------------------------------------------------ */

/* The pid holding a flock on fd's file, from /proc/locks, or -1. */
static long lock_holder(int fd) {
  struct stat sb;
  FILE *f = fstat(fd, &sb) == 0 ? fopen("/proc/locks", "r") : NULL;
  char line[256], kind[16];
  long pid, found = -1;
  unsigned maj, min;
  unsigned long ino;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &pid, &maj, &min,
               &ino) == 5 &&
        strcmp(kind, "FLOCK") == 0 && ino == (unsigned long)sb.st_ino &&
        maj == major(sb.st_dev) && min == minor(sb.st_dev))
      found = pid;
  if (f)
    fclose(f);
  return found;
}

/* The first answer of a one-value query, or `otherwise`. */
static int query_int(sqlite3 *db, const char *sql, int otherwise) {
  sqlite3_stmt *q = NULL;
  int v = otherwise;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW)
    v = sqlite3_column_int(q, 0);
  sqlite3_finalize(q);
  return v;
}

/* One line for an SQLite error met while checking the file at path. */
static void say_error(sqlite3 *db, const char *path, char *msg, size_t n) {
  int ext = sqlite3_extended_errcode(db), primary = ext & 0xff;
  snprintf(msg, n, "the database %s %s: %s%s", path,
           primary == SQLITE_READONLY ? "is read-only"
           : primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
               ? "is damaged"
               : "cannot be used",
           sqlite3_errmsg(db),
           ext == SQLITE_READONLY_DIRECTORY
               ? " (its folder is read-only, and SQLite keeps the -wal and "
                 "-shm files beside the database)"
               : "");
}

/* PRAGMA quick_check: 0 when it says "ok", else -1 with its first
 * finding (one line) and whether there are more, or with the error that
 * kept it from running. */
static int quick_check(sqlite3 *db, const char *path, char *msg, size_t n) {
  sqlite3_stmt *q = NULL;
  char first[200] = "";
  int rows = 0, rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &q, NULL);
  while (q && (rc = sqlite3_step(q)) == SQLITE_ROW)
    if (rows++ == 0) {
      const char *t = (const char *)sqlite3_column_text(q, 0);
      snprintf(first, sizeof first, "%s", t ? t : "");
      for (char *c = first; *c; c++)
        *c = *c == '\n' ? ' ' : *c;
    }
  if (rc != SQLITE_DONE)
    say_error(db, path, msg, n);
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE)
    return -1;
  if (rows == 1 && strcmp(first, "ok") == 0)
    return 0;
  snprintf(msg, n, "the database %s is damaged (PRAGMA quick_check: %s%s)",
           path, first, rows > 1 ? ", and more" : "");
  return -1;
}

/* A scopa database of a version this server knows, or an empty one. */
static int check_version(sqlite3 *db, const char *path, char *msg, size_t n) {
  int app = query_int(db, "PRAGMA application_id", 0);
  int version = query_int(db, "PRAGMA user_version", 0);
  int tables = query_int(db,
                         "SELECT count(*) FROM sqlite_master WHERE type = "
                         "'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
                         0);
  int ours =
      query_int(db,
                "SELECT count(*) FROM sqlite_master WHERE type = "
                "'table' AND name IN ('games','seats','moves','ratings')",
                0);
  if ((app != 0 && app != SCOPA_APP_ID) ||
      (app == 0 && version == 0 && tables > 0 && ours < 4))
    snprintf(msg, n,
             "the database %s is not a scopa database (another "
             "program's tables)",
             path);
  else if (version > SCHEMA_VERSION)
    snprintf(msg, n,
             "the database %s was made by a newer scopa (schema version "
             "%d; this one knows up to %d)",
             path, version, SCHEMA_VERSION);
  else if (version < 0)
    snprintf(msg, n, "the database %s has an unknown schema version (%d)", path,
             version);
  else
    return 0;
  return -1;
}

/* The schema and its version, written in one transaction: the start's
 * real write. */
static int write_schema(sqlite3 *db, const char *path, char *msg, size_t n) {
  char sql[sizeof TABLES + sizeof MIGRATE_2 + sizeof MIGRATE_5 +
           sizeof MIGRATE_6 + sizeof MIGRATE_6_SEEKS + sizeof MIGRATE_7 + 200];
  int old = query_int(db,
                      "SELECT count(*) FROM sqlite_master WHERE type = "
                      "'table' AND name = 'seats'",
                      0) &&
            !query_int(db,
                       "SELECT count(*) FROM pragma_table_info('seats') "
                       "WHERE name = 'account'",
                       0);
  /* a file from before the time bank: its tables gain the columns */
  int old5 = query_int(db,
                       "SELECT count(*) FROM sqlite_master WHERE type = "
                       "'table' AND name = 'moves'",
                       0) &&
             !query_int(db,
                        "SELECT count(*) FROM pragma_table_info('moves') "
                        "WHERE name = 'at_ms'",
                        0);
  /* ... and from before table talk, its column */
  int old6 = query_int(db,
                       "SELECT count(*) FROM sqlite_master WHERE type = "
                       "'table' AND name = 'games'",
                       0) &&
             !query_int(db,
                        "SELECT count(*) FROM pragma_table_info('games') "
                        "WHERE name = 'talk'",
                        0);
  int old6s = query_int(db,
                        "SELECT count(*) FROM sqlite_master WHERE type = "
                        "'table' AND name = 'seeks'",
                        0) &&
              !query_int(db,
                         "SELECT count(*) FROM pragma_table_info('seeks') "
                         "WHERE name = 'bank_s'",
                         0);
  /* ... and from before tournaments, their columns */
  int old7 = query_int(db,
                       "SELECT count(*) FROM sqlite_master WHERE type = "
                       "'table' AND name = 'games'",
                       0) &&
             !query_int(db,
                        "SELECT count(*) FROM pragma_table_info('games') "
                        "WHERE name = 'tourney'",
                        0);
  snprintf(sql, sizeof sql,
           "BEGIN IMMEDIATE;%s%s%s%s%s%sPRAGMA application_id=%d;"
           "PRAGMA user_version=%d;COMMIT;",
           old ? MIGRATE_2 : "", old5 ? MIGRATE_5 : "", old6 ? MIGRATE_6 : "",
           old6s ? MIGRATE_6_SEEKS : "", old7 ? MIGRATE_7 : "", TABLES,
           SCOPA_APP_ID, SCHEMA_VERSION);
  if (sqlite3_exec(db, PRAGMAS, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
    say_error(db, path, msg, n);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
  }
  return 0;
}

/* Everything store_claim checks once the file is locked. */
static int check_file(const char *path, char *msg, size_t n) {
  sqlite3 *db = NULL;
  int rc = -1;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK)
    say_error(db, path, msg, n);
  else if (sqlite3_db_readonly(db, "main") == 1)
    snprintf(msg, n, "the database %s is read-only", path);
  else if (sqlite3_busy_timeout(db, 5000) == SQLITE_OK &&
           quick_check(db, path, msg, n) == 0 &&
           check_version(db, path, msg, n) == 0 &&
           write_schema(db, path, msg, n) == 0)
    rc = 0;
  sqlite3_close(db);
  return rc;
}

static int sq_claim(const char *path, int *lock, char *msg, size_t msgsize) {
  int existed = access(path, F_OK) == 0;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    int e = errno;
    snprintf(msg, msgsize, "the database %s %s: %s", path,
             !existed                                  ? "cannot be created"
             : e == EACCES || e == EROFS || e == EPERM ? "is read-only"
                                                       : "cannot be opened",
             strerror(e));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    long pid = errno == EWOULDBLOCK ? lock_holder(fd) : -1;
    if (errno != EWOULDBLOCK)
      snprintf(msg, msgsize, "the database %s cannot be locked: %s", path,
               strerror(errno));
    else if (pid > 0)
      snprintf(msg, msgsize,
               "the database %s is already served by another process "
               "(pid %ld)",
               path, pid);
    else
      snprintf(msg, msgsize,
               "the database %s is already served by another process", path);
    close(fd);
    return -1;
  }
  if (check_file(path, msg, msgsize) != 0) {
    close(fd);
    return -1;
  }
  *lock = fd;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Connections, batches, writes                                        */
/* ------------------------------------------------------------------ */

static int sq_open(const char *path, store **out, char *msg, size_t msgsize) {
  sq *sst = calloc(1, sizeof *sst);
  store *st = (store *)sst;
  if (!st) {
    snprintf(msg, msgsize, "out of memory");
    return -1;
  }
  char *err = NULL;
  if (sqlite3_open_v2(path, &S(st)->db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                          SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK)
    goto fail;
  st->ops = &store_sqlite_ops;
  sqlite3_busy_timeout(S(st)->db, 5000);
  if (sqlite3_exec(S(st)->db, PRAGMAS, NULL, NULL, &err) != SQLITE_OK ||
      sqlite3_exec(S(st)->db, TABLES, NULL, NULL, &err) != SQLITE_OK)
    goto fail;
  for (int i = 0; i < Q_COUNT; i++)
    if (sqlite3_prepare_v3(S(st)->db, SQL[i], -1, SQLITE_PREPARE_PERSISTENT,
                           &S(st)->q[i], NULL) != SQLITE_OK)
      goto fail;
  *out = st;
  return 0;
fail:
  snprintf(msg, msgsize, "%s: %s", path,
           err         ? err
           : S(st)->db ? sqlite3_errmsg(S(st)->db)
                       : "cannot open");
  sqlite3_free(err);
  sq_close(st);
  return -1;
}

static void sq_close(store *st) {
  if (!st)
    return;
  for (int i = 0; i < Q_COUNT; i++)
    sqlite3_finalize(S(st)->q[i]);
  sqlite3_close(S(st)->db);
  free(st);
}

/* Runs a write statement to its end; marks the batch failed on error. */
static int run(store *st, sqlite3_stmt *q) {
  int rc = sqlite3_step(q);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  if (rc != SQLITE_DONE) {
    S(st)->last_rc = rc & 0xff;
    fprintf(stderr, "scopa serve: store: %s\n", sqlite3_errmsg(S(st)->db));
    S(st)->failed = 1;
    return -1;
  }
  return 0;
}

static int sq_begin(store *st) {
  if (S(st)->in_batch)
    return 0;
  if (run(st, S(st)->q[Q_BEGIN]))
    return -1;
  S(st)->in_batch = 1;
  S(st)->failed = 0;
  return 0;
}

static int sq_in_batch(const store *st) { return S(st)->in_batch; }

static int sq_commit(store *st, char *msg, size_t msgsize) {
  if (!S(st)->in_batch)
    return 0;
  if (!S(st)->failed && run(st, S(st)->q[Q_COMMIT]) == 0) {
    S(st)->in_batch = 0;
    return 0;
  }
  snprintf(msg, msgsize, "%s", sqlite3_errmsg(S(st)->db));
  sq_rollback(st);
  return -1;
}

/* A failed COMMIT may have rolled back already (SQLite does on a full
 * disk or an I/O error): ROLLBACK only what is still open, so that its
 * own error never hides the first one. */
static void sq_rollback(store *st) {
  if (!sqlite3_get_autocommit(S(st)->db)) {
    sqlite3_step(S(st)->q[Q_ROLLBACK]);
    sqlite3_reset(S(st)->q[Q_ROLLBACK]);
  }
  S(st)->in_batch = 0;
  S(st)->failed = 0;
}

/* A failed write's SQLite code, in a player's words. */
static const struct {
  int rc;
  const char *en, *it;
} WHY[] = {
    {SQLITE_FULL, "the disk is full", "il disco è pieno"},
    {SQLITE_IOERR, "the disk failed", "il disco ha dato un errore"},
    {SQLITE_READONLY, "the database is read-only",
     "il database è di sola lettura"},
    {SQLITE_CORRUPT, "the database is damaged", "il database è danneggiato"},
    {SQLITE_NOTADB, "the database is damaged", "il database è danneggiato"},
    {SQLITE_BUSY, "the database is busy", "il database è occupato"},
    {SQLITE_LOCKED, "the database is busy", "il database è occupato"},
    {SQLITE_NOMEM, "out of memory", "memoria esaurita"},
    {SQLITE_CONSTRAINT, "the database refused the write",
     "il database ha rifiutato la scrittura"},
};

static void sq_why(const store *st, const char **en, const char **it) {
  *en = "the database could not write";
  *it = "il database non ha potuto scrivere";
  for (size_t i = 0; i < sizeof WHY / sizeof WHY[0]; i++)
    if (WHY[i].rc == S(st)->last_rc) {
      *en = WHY[i].en;
      *it = WHY[i].it;
    }
}

static int sq_failure_is_local(const store *st) {
  return S(st)->last_rc == SQLITE_CONSTRAINT ||
         S(st)->last_rc == SQLITE_TOOBIG || S(st)->last_rc == SQLITE_MISMATCH ||
         S(st)->last_rc == SQLITE_RANGE;
}

static void bind_text(sqlite3_stmt *q, int i, const char *s) {
  sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
}

static int sq_add_game(store *st, const store_game *g) {
  sqlite3_stmt *q = S(st)->q[Q_ADD_GAME];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, g->code);
  bind_text(q, 2, g->seed);
  bind_text(q, 3, g->rules_json);
  sqlite3_bind_int(q, 4, g->away_s);
  sqlite3_bind_int(q, 5, g->clock_s);
  sqlite3_bind_int64(q, 6, (sqlite3_int64)time(NULL));
  sqlite3_bind_int(q, 7, g->bank_s);
  sqlite3_bind_int(q, 8, g->inc_s);
  sqlite3_bind_int(q, 9, g->talk_on);
  bind_text(q, 10, g->tourney);
  if (run(st, q))
    return -1;
  for (int i = 0; i < g->nseats; i++)
    if (sq_set_seat(st, g->code, i, &g->seat[i]))
      return -1;
  if (!g->listed)
    return 0;
  q = S(st)->q[Q_ADD_LOBBY];
  bind_text(q, 1, g->code);
  sqlite3_bind_int64(q, 2, (sqlite3_int64)time(NULL));
  return run(st, q);
}

static int sq_set_seat(store *st, const char *code, int seat,
                       const store_seat *s) {
  sqlite3_stmt *q = S(st)->q[Q_SET_SEAT];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, code);
  sqlite3_bind_int(q, 2, seat);
  sqlite3_bind_int(q, 3, s->kind);
  bind_text(q, 4, s->name);
  bind_text(q, 5, s->bot);
  bind_text(q, 6, s->token_sha256);
  bind_text(q, 7, s->player);
  sqlite3_bind_int64(q, 8, s->account);
  return run(st, q);
}

static int sq_add_move(store *st, const char *code, int number, scopa_move move,
                       int64_t at_ms, int took_ms) {
  sqlite3_stmt *q = S(st)->q[Q_ADD_MOVE];
  char text[SCOPA_MOVE_TEXT];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, code);
  sqlite3_bind_int(q, 2, number);
  bind_text(q, 3, scopa_move_str(move, text));
  sqlite3_bind_int64(q, 4, (sqlite3_int64)at_ms);
  sqlite3_bind_int(q, 5, took_ms);
  return run(st, q);
}

static int by_code(store *st, int which, const char *code) {
  sqlite3_stmt *q = S(st)->q[which];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, code);
  return run(st, q);
}

static int sq_finish(store *st, const char *code, int abandoned) {
  sqlite3_stmt *q = S(st)->q[Q_FINISH];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, code);
  sqlite3_bind_int(q, 2, abandoned);
  return run(st, q);
}

static int sq_set_rated(store *st, const char *code) {
  return by_code(st, Q_SET_RATED, code);
}

/* A one-row query by code: 1 when it has a row (left on it; the caller
 * resets), 0 when none, -1 on error. */
static int row_by_code(sqlite3_stmt *q, const char *code) {
  bind_text(q, 1, code);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW)
    return 1;
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return rc == SQLITE_DONE ? 0 : -1;
}

static void done(sqlite3_stmt *q) {
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
}

static int sq_has_code(store *st, const char *code) {
  int rc = row_by_code(S(st)->q[Q_HAS_CODE], code);
  if (rc == 1)
    done(S(st)->q[Q_HAS_CODE]);
  return rc;
}

static int sq_is_rated(store *st, const char *code) {
  sqlite3_stmt *q = S(st)->q[Q_IS_RATED];
  int rc = row_by_code(q, code);
  if (rc == -1)
    S(st)->last_rc = sqlite3_errcode(S(st)->db) & 0xff;
  if (rc != 1)
    return rc;
  rc = sqlite3_column_int(q, 0) != 0;
  done(q);
  return rc;
}

static void copy_col(sqlite3_stmt *q, int col, char *out, size_t cap) {
  const unsigned char *s = sqlite3_column_text(q, col);
  snprintf(out, cap, "%s", s ? (const char *)s : "");
}

/* Why a read failed, into msg: SQLite's words, or `what`. */
static int read_failed(store *st, int rc, const char *what, char *msg,
                       size_t n) {
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    snprintf(msg, n, "%s (SQLite code %d)", sqlite3_errmsg(S(st)->db), rc);
  else
    snprintf(msg, n, "%s", what);
  return -1;
}

static int load_seats(store *st, store_game *g, char *msg, size_t n) {
  sqlite3_stmt *q = S(st)->q[Q_GET_SEATS];
  int rc, i = 0;
  bind_text(q, 1, g->code);
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    i = sqlite3_column_int(q, 0);
    if (i < 0 || i >= STORE_MAX_SEATS)
      break;
    store_seat *s = &g->seat[i];
    s->kind = sqlite3_column_int(q, 1);
    copy_col(q, 2, s->name, sizeof s->name);
    copy_col(q, 3, s->bot, sizeof s->bot);
    copy_col(q, 4, s->token_sha256, sizeof s->token_sha256);
    copy_col(q, 5, s->player, sizeof s->player);
    s->account = sqlite3_column_int64(q, 6);
    if (i >= g->nseats)
      g->nseats = i + 1;
  }
  if (rc != SQLITE_DONE) {
    char what[64];
    snprintf(what, sizeof what, "seat %d is out of range", i);
    read_failed(st, rc, what, msg, n);
  }
  done(q);
  return rc == SQLITE_DONE ? 0 : -1;
}

/* Moves come back in number order; a gap would mean a lost move, which
 * the primary key and the batches make impossible: it is an error, as a
 * move that cannot be read is. */
static int load_moves(store *st, store_game *g, char *msg, size_t n) {
  sqlite3_stmt *q = S(st)->q[Q_GET_MOVES];
  int rc, cap = 0;
  char what[64] = "out of memory";
  bind_text(q, 1, g->code);
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    const char *text = (const char *)sqlite3_column_text(q, 1);
    scopa_move m;
    if (sqlite3_column_int(q, 0) != g->nmoves) {
      snprintf(what, sizeof what, "move %d is missing", g->nmoves);
      break;
    }
    if (!text || scopa_move_parse(text, NULL, &m, NULL, 0) != SCOPA_OK) {
      snprintf(what, sizeof what, "move %d cannot be read", g->nmoves);
      break;
    }
    if (g->nmoves == cap) {
      cap = cap ? cap * 2 : 64;
      scopa_move *more = realloc(g->moves, (size_t)cap * sizeof *more);
      if (more)
        g->moves = more;
      int64_t *at = more ? realloc(g->move_at, (size_t)cap * sizeof *at) : NULL;
      if (at)
        g->move_at = at;
      int *took = at ? realloc(g->move_took, (size_t)cap * sizeof *took) : NULL;
      if (!took)
        break;
      g->move_took = took;
    }
    g->move_at[g->nmoves] = (int64_t)sqlite3_column_int64(q, 2);
    g->move_took[g->nmoves] = sqlite3_column_int(q, 3);
    g->moves[g->nmoves++] = m;
  }
  if (rc != SQLITE_DONE)
    read_failed(st, rc, what, msg, n);
  done(q);
  return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_load(store *st, const char *code, store_game *g, char *msg,
                   size_t msgsize) {
  sqlite3_stmt *q = S(st)->q[Q_GET_GAME];
  memset(g, 0, sizeof *g);
  snprintf(g->code, sizeof g->code, "%s", code);
  int rc = row_by_code(q, code);
  if (rc != 1)
    return rc == 0
               ? 1
               : read_failed(st, sqlite3_errcode(S(st)->db), "", msg, msgsize);
  copy_col(q, 0, g->seed, sizeof g->seed);
  const char *rules = (const char *)sqlite3_column_text(q, 1);
  g->rules_json = strdup(rules ? rules : "{}");
  g->away_s = sqlite3_column_int(q, 2);
  g->clock_s = sqlite3_column_int(q, 3);
  g->finished = sqlite3_column_int(q, 4);
  g->bank_s = sqlite3_column_int(q, 5);
  g->inc_s = sqlite3_column_int(q, 6);
  g->talk_on = sqlite3_column_int(q, 7);
  copy_col(q, 8, g->tourney, sizeof g->tourney);
  g->abandoned = sqlite3_column_int(q, 9);
  done(q);
  if (!g->rules_json)
    snprintf(msg, msgsize, "out of memory");
  if (!g->rules_json || load_seats(st, g, msg, msgsize) ||
      load_moves(st, g, msg, msgsize)) {
    store_game_free(g);
    return -1;
  }
  return 0;
}

static int sq_rating_get(store *st, const char *pool, const char *player,
                         store_rating *r) {
  sqlite3_stmt *q = S(st)->q[Q_GET_RATING];
  bind_text(q, 1, pool);
  bind_text(q, 2, player);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    r->rating = sqlite3_column_double(q, 0);
    r->rd = sqlite3_column_double(q, 1);
    r->vol = sqlite3_column_double(q, 2);
    r->games = sqlite3_column_int(q, 3);
  } else if (rc != SQLITE_DONE) {
    S(st)->last_rc = rc & 0xff;
  }
  done(q);
  return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

static int sq_rating_put(store *st, const char *pool, const char *player,
                         const char *name, const store_rating *r) {
  sqlite3_stmt *q = S(st)->q[Q_PUT_RATING];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, pool);
  bind_text(q, 2, player);
  bind_text(q, 3, name);
  sqlite3_bind_double(q, 4, r->rating);
  sqlite3_bind_double(q, 5, r->rd);
  sqlite3_bind_double(q, 6, r->vol);
  sqlite3_bind_int(q, 7, r->games);
  sqlite3_bind_int64(q, 8, r->account);
  return run(st, q);
}

static int sq_rating_log(store *st, const char *pool, long long account,
                         const char *code, const store_rating *r) {
  sqlite3_stmt *q = S(st)->q[Q_LOG_RATING];
  if (sq_begin(st))
    return -1;
  bind_text(q, 1, pool);
  sqlite3_bind_int64(q, 2, account);
  bind_text(q, 3, code);
  sqlite3_bind_int64(q, 4, (sqlite3_int64)time(NULL));
  sqlite3_bind_double(q, 5, r->rating);
  sqlite3_bind_double(q, 6, r->rd);
  return run(st, q);
}

static int sq_pair_games(store *st, const char *pool, long long a, long long b,
                         long long since) {
  sqlite3_stmt *q = S(st)->q[Q_PAIR_GAMES];
  bind_text(q, 1, pool);
  sqlite3_bind_int64(q, 2, a);
  sqlite3_bind_int64(q, 3, b);
  sqlite3_bind_int64(q, 4, since);
  int rc = sqlite3_step(q),
      n = rc == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
  done(q);
  return n;
}

static int sq_leaders(store *st, const char *pool, int limit, store_leader *out,
                      int *n) {
  sqlite3_stmt *q = S(st)->q[Q_LEADERS];
  bind_text(q, 1, pool);
  sqlite3_bind_int(q, 2, limit);
  for (*n = 0; *n < limit && sqlite3_step(q) == SQLITE_ROW; ++*n) {
    store_leader *l = &out[*n];
    const char *name = (const char *)sqlite3_column_text(q, 0);
    snprintf(l->name, sizeof l->name, "%s", name ? name : "");
    l->rating = sqlite3_column_double(q, 1);
    l->rd = sqlite3_column_double(q, 2);
    l->games = sqlite3_column_int(q, 3);
  }
  done(q);
  return 0;
}

static int sq_lobby(store *st, int limit, char (*codes)[STORE_CODE_MAX + 1],
                    int *n) {
  sqlite3_stmt *q = S(st)->q[Q_LOBBY];
  sqlite3_bind_int(q, 1, limit);
  for (*n = 0; *n < limit && sqlite3_step(q) == SQLITE_ROW; ++*n) {
    const char *code = (const char *)sqlite3_column_text(q, 0);
    snprintf(codes[*n], STORE_CODE_MAX + 1, "%s", code ? code : "");
  }
  done(q);
  return 0;
}

/* Outside any batch (the lobby's reader, auth.c): its own commit. */
static int sq_lobby_drop(store *st, const char *code) {
  sqlite3_stmt *q = S(st)->q[Q_LOBBY_DROP];
  bind_text(q, 1, code);
  int rc = sqlite3_step(q);
  done(q);
  return rc == SQLITE_DONE ? 0 : -1;
}

/* Leases: the file's flock makes this process the only node, so the
 * lease is always its own (store.h). */
static int sq_lease_take(store *st, const char *code, const char *node,
                         int ttl_s, long long *epoch) {
  (void)st, (void)code, (void)node, (void)ttl_s;
  *epoch = 1;
  return 0;
}

static int sq_lease_renew(store *st, const char *node, const char *const *codes,
                          const long long *epochs, int n, int ttl_s,
                          int *held) {
  (void)st, (void)node, (void)codes, (void)epochs, (void)ttl_s;
  for (int i = 0; i < n; i++)
    held[i] = 1; /* the file's lock: this process is the only node */
  return 0;
}

static int sq_lease_release(store *st, const char *code, const char *node,
                            long long epoch) {
  (void)st, (void)code, (void)node, (void)epoch;
  return 0;
}

static int sq_add_move_fenced(store *st, const char *code, int number,
                              scopa_move move, int64_t at_ms, int took_ms,
                              const char *node, long long epoch) {
  (void)node, (void)epoch;
  return sq_add_move(st, code, number, move, at_ms, took_ms);
}

static int sq_fence(store *st, const char *code, const char *node,
                    long long epoch) {
  (void)st, (void)code, (void)node, (void)epoch;
  return 0; /* the file's lock: this process is the only node */
}

const store_ops store_sqlite_ops = {
    .claim = sq_claim,
    .open = sq_open,
    .close = sq_close,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .in_batch = sq_in_batch,
    .why = sq_why,
    .failure_is_local = sq_failure_is_local,
    .add_game = sq_add_game,
    .set_seat = sq_set_seat,
    .add_move = sq_add_move,
    .finish = sq_finish,
    .has_code = sq_has_code,
    .load = sq_load,
    .rating_get = sq_rating_get,
    .rating_put = sq_rating_put,
    .is_rated = sq_is_rated,
    .set_rated = sq_set_rated,
    .leaders = sq_leaders,
    .lobby = sq_lobby,
    .lobby_drop = sq_lobby_drop,
    .add_talk = sqt_add_talk,
    .add_report = sqt_add_report,
    .talk_load = sqt_talk_load,
    .reports = sqt_reports,
    .seek_add = sqs_seek_add,
    .seek_drop = sqs_seek_drop,
    .seek_beat = sqs_seek_beat,
    .seek_lock = sqs_seek_lock,
    .seek_waiting = sqs_seek_waiting,
    .seek_pair = sqs_seek_pair,
    .seek_paired = sqs_seek_paired,
    .lease_take = sq_lease_take,
    .lease_renew = sq_lease_renew,
    .lease_release = sq_lease_release,
    .add_move_fenced = sq_add_move_fenced,
    .fence = sq_fence,
    .tourney_put = sqr_tourney_put,
    .tourney_get = sqr_tourney_get,
    .tourney_list = sqr_tourney_list,
    .tourney_lock = sqr_tourney_lock,
    .game_end = sqr_game_end,
    .rating_log = sq_rating_log,
    .pair_games = sq_pair_games,
    .account_add = sq_account_add,
    .account_get = sq_account_get,
    .account_set_hash = sq_account_set_hash,
    .account_delete = sq_account_delete,
    .session_add = sq_session_add,
    .session_get = sq_session_get,
    .session_end = sq_session_end,
    .sessions_end = sq_sessions_end,
    .tries_count = sq_tries_count,
    .tries_add = sq_tries_add,
    .account_ratings = sq_account_ratings,
    .account_history = sq_account_history,
    .account_games = sq_account_games,
};

void *store_sqlite_db(store *st) { return S(st)->db; }

sqlite3_stmt *store_sqlite_prepare(store *st, const char *sql) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(S(st)->db, sql, -1, &q, NULL) != SQLITE_OK) {
    fprintf(stderr, "scopa serve: store: %s\n", sqlite3_errmsg(S(st)->db));
    sqlite3_finalize(q);
    return NULL;
  }
  return q;
}

void store_sqlite_text(sqlite3_stmt *q, int i, const char *s) {
  sqlite3_bind_text(q, i, s, -1, SQLITE_TRANSIENT);
}

int store_sqlite_write(store *st, void *q) {
  int rc = q && sq_begin(st) == 0 ? run(st, q) : -1;
  if (!q)
    S(st)->failed = 1;
  sqlite3_finalize(q);
  return rc;
}
