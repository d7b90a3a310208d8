/*
 * main.c -- `scopa serve`: flags, signals, the store, then the loop.
 *
 *   scopa serve [--host ADDR] [--port N] [--db FILE | --store WHERE] ...
 *
 * (docs/CONTRACTS.md "scopa serve"; every flag in docs/serve.md.)
 */
#include "../cli/cli.h"
#include "loop.h"
#include "request.h"
#include "table.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static server *running; /* for the signal handler only */

static void on_signal(int sig) {
  (void)sig;
  if (running && running->ctx) {
    running->stop = 1;
    lws_cancel_service(running->ctx);
  }
}

static const char USAGE[] =
    "usage: scopa serve [--host ADDR] [--port N] [--db FILE] [--web DIR]\n"
    "                   [--store FILE | sqlite:FILE | postgresql://URL]\n"
    "                   [--away-timeout S] [--move-clock S] [--idle S]\n"
    "                   [--ping S]\n"
    "                   [--bot-threads N] [--bot-ms MS] [--away-bot BOT]\n"
    "                   [--hint-ms MS] [--seek-offer S]\n"
    "                   [--max-conns-per-addr N] [--max-tables-per-minute N]\n"
    "                   [--max-addrs N] [--trusted-proxy ADDR[,ADDR]]\n"
    "                   [--origin URL] [--code-misses N] [--code-miss-ms MS]\n"
    "                   [--http-burst N] [--http-per-second N]\n"
    "                   [--pwhash-ops N] [--pwhash-mib N] [--quiet]\n"
    "       scopa serve --reports [--db FILE | --store WHERE]\n"
    "\n"
    "Serves the web client and the game's WebSocket (/ws) on one port\n"
    "(default 127.0.0.1:8080).  --host: an IPv4 or IPv6 address (0.0.0.0\n"
    "or :: for every address), localhost (127.0.0.1 and ::1) or a name\n"
    "(its addresses on this machine).  Games are stored in --db (default\n"
    "$XDG_DATA_HOME/scopa/serve.db, or ~/.local/share/scopa/serve.db);\n"
    "--store: the same file, or a PostgreSQL database that several\n"
    "servers share (postgresql://USER@HOST:PORT/DB).\n"
    "--away-timeout: seconds before a bot plays for a player who left\n"
    "(default 60); --move-clock: seconds per move, 0 = none (default);\n"
    "--idle: seconds before a table nobody is at leaves memory (600).\n"
    "--ping: seconds of silence before a connection is pinged (30); one\n"
    "silent for 2.5 times as long is cut.\n"
    "--seek-offer: seconds a Play now seek waits before a bot is offered\n"
    "(20).\n"
    "--trusted-proxy: a proxy's address (repeat it, or a comma list);\n"
    "a client coming through it is counted under the last address of\n"
    "its X-Forwarded-For, and refused without one.\n"
    "--origin: the address of the site's pages, as a browser names it\n"
    "(https://scopa.example; repeat it, at most 8): a WebSocket or a POST\n"
    "from a page anywhere else is refused (403).  Without it only pages\n"
    "of the server itself, at an address literal or localhost, are let in.\n"
    "--code-misses, --code-miss-ms: unknown table codes an address may ask\n"
    "for (20), then one more every MS (6000); --http-burst,\n"
    "--http-per-second: HTTP requests of an address (200, then 50 a second).\n"
    "--pwhash-ops, --pwhash-mib: Argon2id's passes and memory for the\n"
    "accounts' passwords (default 2 and 64: libsodium's interactive).\n"
    "--reports: prints every report of table talk (who reported whom, why,\n"
    "and what had been said at that table by then) as JSON, and stops.\n";

static void defaults(serve_conf *c) {
  memset(c, 0, sizeof *c);
  c->host = "127.0.0.1";
  c->port = 8080;
  c->away_s = 60;
  c->clock_s = 0;
  c->idle_s = 600;
  c->ping_s = 30;
  c->seek_offer_s = 20;
  c->bot_threads = 2;
  c->slow_cap = 64;
  c->bot_ms = 100;
  c->away_bot = "rules";
  c->hint_ms = SCOPA_HINT_MS;
  c->soft_bytes = 256 * 1024;
  c->hard_bytes = 1024 * 1024;
  c->soft_s = 10;
  c->limits.burst = 60;
  c->limits.per_second = 30;
  c->limits.strikes = 30;
  c->limits.conns_per_addr = 256;
  c->limits.tables_per_addr = 300;
  c->limits.misses_burst = 20;
  c->limits.miss_refill_ms = 6000;
  c->limits.http_burst = 200;
  c->limits.http_per_second = 50;
  c->max_addrs = 100000;
  auth_conf_default(&c->auth);
}

/* The default database: $XDG_DATA_HOME/scopa/serve.db. */
static const char *default_db(char *buf, size_t cap) {
  const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  char dir[PATH_MAX];
  if (xdg && *xdg)
    snprintf(dir, sizeof dir, "%s/scopa", xdg);
  else
    snprintf(dir, sizeof dir, "%s/.local/share/scopa", home ? home : ".");
  char parent[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", dir);
  for (char *s = parent + 1; *s; s++) /* mkdir -p */
    if (*s == '/') {
      *s = 0;
      mkdir(parent, 0700);
      *s = '/';
    }
  mkdir(dir, 0700);
  snprintf(buf, cap, "%s/serve.db", dir);
  return buf;
}

/* web/dist next to the source tree of this binary (build/scopa ->
 * ../web/dist), else ./web/dist. */
static const char *default_web(char *buf, size_t cap) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  struct stat sb;
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(buf, cap, "%s/../web/dist", exe);
      if (stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode))
        return buf;
    }
  }
  snprintf(buf, cap, "web/dist");
  return buf;
}

/* --trusted-proxy A[,B...]: each an exact numeric address, kept in
 * limits_exact_text form.  0, or 2 (the message written). */
static int add_trusted(serve_conf *c, const char *list) {
  const char *s = list;
  for (;;) {
    size_t n = strcspn(s, ",");
    char text[LIMITS_KEY_TEXT], msg[300];
    int ok = n > 0 && n < sizeof text && c->ntrusted < TRUSTED_MAX;
    if (ok) {
      memcpy(text, s, n);
      text[n] = 0;
      ok = limits_exact_text(text, c->trusted[c->ntrusted]) == 0;
    }
    if (!ok) {
      scopa_text_safe(msg, sizeof msg, list, strlen(list), 0);
      fprintf(stderr,
              "scopa serve: --trusted-proxy wants numeric addresses "
              "(at most %d): %s\n",
              TRUSTED_MAX, msg);
      return 2;
    }
    c->ntrusted++;
    if (!s[n])
      return 0;
    s += n + 1;
  }
}

/* --origin URL: kept as browsers write an Origin.  0, or 2 (the message
 * written). */
static int add_origin(serve_conf *c, const char *url) {
  char msg[300];
  if (c->norigins < ORIGIN_MAX &&
      request_origin_norm(url, c->origins[c->norigins]) == 0) {
    c->norigins++;
    return 0;
  }
  scopa_text_safe(msg, sizeof msg, url, strlen(url), 0);
  fprintf(stderr,
          "scopa serve: --origin wants http(s)://HOST[:PORT] and nothing "
          "after (at most %d): %s\n",
          ORIGIN_MAX, msg);
  return 2;
}

typedef struct flag {
  const char *name;
  long lo, hi;
  int *ival;
  const char **sval;
} flag;

static int parse_flags(int argc, char **argv, serve_conf *c) {
  int soft_kb = (int)(c->soft_bytes / 1024),
      hard_kb = (int)(c->hard_bytes / 1024), pw_ops = (int)c->auth.opslimit,
      pw_mib = (int)(c->auth.memlimit >> 20);
  const flag FLAGS[] = {
      {"--host", 0, 0, NULL, &c->host},
      {"--db", 0, 0, NULL, &c->db},
      {"--store", 0, 0, NULL, &c->db},
      {"--web", 0, 0, NULL, &c->web},
      {"--away-bot", 0, 0, NULL, &c->away_bot},
      {"--port", 0, 65535, &c->port, NULL},
      {"--away-timeout", 0, 86400, &c->away_s, NULL},
      {"--move-clock", 0, 86400, &c->clock_s, NULL},
      {"--idle", 1, 86400 * 7, &c->idle_s, NULL},
      {"--ping", 1, 3600, &c->ping_s, NULL},
      {"--seek-offer", 1, 3600, &c->seek_offer_s, NULL},
      {"--bot-threads", 1, 64, &c->bot_threads, NULL},
      {"--bot-ms", 1, 60000, &c->bot_ms, NULL},
      {"--hint-ms", 1, 10000, &c->hint_ms, NULL},
      {"--max-conns-per-addr", 1, 1000000, &c->limits.conns_per_addr, NULL},
      {"--max-tables-per-minute", 1, 1000000, &c->limits.tables_per_addr, NULL},
      {"--max-addrs", 1, 10000000, &c->max_addrs, NULL},
      {"--msg-burst", 1, 1000000, &c->limits.burst, NULL},
      {"--code-misses", 1, 1000000, &c->limits.misses_burst, NULL},
      {"--code-miss-ms", 1, 3600000, &c->limits.miss_refill_ms, NULL},
      {"--http-burst", 1, 1000000, &c->limits.http_burst, NULL},
      {"--http-per-second", 1, 1000000, &c->limits.http_per_second, NULL},
      {"--msg-per-second", 1, 1000000, &c->limits.per_second, NULL},
      {"--out-soft-kb", 1, 1 << 20, &soft_kb, NULL},
      {"--out-hard-kb", 1, 1 << 20, &hard_kb, NULL},
      {"--pwhash-ops", 1, 20, &pw_ops, NULL},
      {"--pwhash-mib", 1, 4096, &pw_mib, NULL},
  };
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(USAGE, stdout);
      return 1;
    }
    if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "--reports") == 0) {
      *(argv[i][2] == 'q' ? &c->quiet : &c->reports) = 1;
      continue;
    }
    if (strcmp(argv[i], "--trusted-proxy") == 0 && i + 1 < argc) {
      if (add_trusted(c, argv[++i]))
        return 2;
      continue;
    }
    if (strcmp(argv[i], "--origin") == 0 && i + 1 < argc) {
      if (add_origin(c, argv[++i]))
        return 2;
      continue;
    }
    size_t k = 0;
    while (k < sizeof FLAGS / sizeof FLAGS[0] &&
           strcmp(argv[i], FLAGS[k].name) != 0)
      k++;
    long long v;
    char msg[300];
    if (k == sizeof FLAGS / sizeof FLAGS[0] || i + 1 == argc) {
      scopa_text_safe(msg, sizeof msg, argv[i], strlen(argv[i]), 0);
      fprintf(stderr, "scopa serve: unknown flag or missing value: %s\n%s", msg,
              USAGE);
      return 2;
    }
    const flag *f = &FLAGS[k];
    if (f->sval) {
      *f->sval = argv[++i];
    } else if (scopa_parse_int(f->name, argv[++i], f->lo, f->hi, &v, msg,
                               sizeof msg) == SCOPA_OK) {
      *f->ival = (int)v;
    } else { /* the whole value, in range: the library's one reader */
      fprintf(stderr, "scopa serve: %s\n", msg);
      return 2;
    }
  }
  c->auth.opslimit = (unsigned long long)pw_ops;
  c->auth.memlimit = (size_t)pw_mib << 20;
  c->soft_bytes = (size_t)soft_kb * 1024;
  c->hard_bytes = (size_t)hard_kb * 1024;
  if (c->soft_bytes > c->hard_bytes)
    c->soft_bytes = c->hard_bytes;
  const char *bot = NULL;
  if (scopa_bot_level(c->away_bot, &bot, NULL) != SCOPA_OK) {
    scopa_bot *b = NULL;
    if (scopa_bot_new(c->away_bot, &b) != SCOPA_OK) {
      fprintf(stderr, "scopa serve: no bot is called %s\n", c->away_bot);
      return 2;
    }
    scopa_bot_free(b);
  }
  return 0;
}

/* --reports: the store's reports on stdout (a server may be running on
 * it: reading needs no claim). */
static int print_reports(const char *where) {
  store *st = NULL;
  char msg[512];
  if (store_open(where, &st, msg, sizeof msg)) {
    fprintf(stderr, "scopa serve: cannot open the database %s\n", msg);
    return 1;
  }
  char *text = store_reports(st);
  store_close(st);
  if (!text) {
    fprintf(stderr, "scopa serve: the reports could not be read\n");
    return 1;
  }
  puts(text);
  free(text);
  return 0;
}

int cli_serve(int argc, char **argv) {
  static server srv; /* one per process: the signal handler reaches it */
  char dbbuf[PATH_MAX], webbuf[PATH_MAX], msg[512];
  memset(&srv, 0, sizeof srv);
  defaults(&srv.conf);
  int rc = parse_flags(argc, argv, &srv.conf);
  if (rc)
    return rc == 1 ? 0 : rc;
  if (!srv.conf.db)
    srv.conf.db = default_db(dbbuf, sizeof dbbuf);
  if (srv.conf.reports)
    return print_reports(srv.conf.db);
  if (!srv.conf.web)
    srv.conf.web = default_web(webbuf, sizeof webbuf);
  /* SCOPA_LWS_LOG: lws's log mask, for debugging (lws's LLL_* bits). */
  const char *mask = getenv("SCOPA_LWS_LOG");
  lws_set_log_level(mask             ? atoi(mask)
                    : srv.conf.quiet ? LLL_ERR
                                     : LLL_ERR | LLL_WARN | LLL_USER,
                    NULL);
  if (listen_resolve(srv.conf.host, srv.conf.port, &srv.listen, msg,
                     sizeof msg)) {
    fprintf(stderr, "scopa serve: %s\n", msg);
    return 1;
  }
  srv.addrs = limits_table_new(srv.conf.max_addrs);
  if (!srv.addrs)
    goto fail_memory;
  /* The file is this process's, and sound, before anyone is served. */
  int lock = -1;
  if (store_claim(srv.conf.db, &lock, msg, sizeof msg)) {
    fprintf(stderr, "scopa serve: %s\n", msg);
    rc = 1;
    goto fail_claim;
  }
  if (store_open(srv.conf.db, &srv.st, msg, sizeof msg)) {
    fprintf(stderr, "scopa serve: cannot open the database %s\n", msg);
    rc = 1;
    goto fail_store;
  }
  running = &srv;
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  signal(SIGPIPE, SIG_IGN);
  rc = loop_run(&srv);
  running = NULL;
  tables_free(&srv);
  store_close(srv.st);
fail_store:
  store_release(lock); /* after every connection to the file is closed */
fail_claim:
fail_memory:
  limits_table_free(srv.addrs);
  if (!srv.addrs)
    rc = 1;
  return rc;
}
