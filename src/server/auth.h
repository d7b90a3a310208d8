/*
 * auth.h -- accounts off the event loop: a thread of our own, with its
 * own connection to the store, does what an account's request needs
 * (an Argon2id hash or check costs tens of milliseconds and 64 MiB, by
 * design), so a login flood never stalls a table.  The loop hands in a
 * job (account.c builds it from an HTTP request) and takes back its
 * answer, a status, a JSON body and the headers to add; wake(arg) tells
 * the loop an answer is waiting (lws_cancel_service).
 *
 * What must stay true: a password leaves memory once hashed or checked
 * (sodium_memzero); a wrong name and a wrong password get the same
 * answer after the same work (a name that does not exist is checked
 * against a hash made at start with the same parameters); the store
 * keeps only Argon2id strings and the SHA-256 of session tokens.
 */
#ifndef SCOPA_SERVER_AUTH_H
#define SCOPA_SERVER_AUTH_H

#include <stdint.h>

#include "store.h"

enum {
  AUTH_SIGNUP,
  AUTH_LOGIN,
  AUTH_LOGOUT,
  AUTH_LOGOUT_ALL,
  AUTH_ME,
  AUTH_HISTORY,
  AUTH_GAMES,
  AUTH_EXPORT,
  AUTH_PASSWORD,
  AUTH_DELETE,
  /* Not of accounts, but reads of the store the loop must not wait for:
   * the leaderboard of pool `what`, and on a cluster the record of a
   * table (code `what`) no longer in this node's memory. */
  AUTH_LEADERBOARD,
  AUTH_RECORD,
  AUTH_LOBBY,    /* the lobby's public tables that wait for people */
  AUTH_TOURNEYS, /* the tournaments: upcoming, running, finished   */
  AUTH_TOURNEY,  /* tournament `what`                               */
};

#define AUTH_NAME_MIN 3
#define AUTH_NAME_MAX 20
#define AUTH_PASSWORD_MIN 8
#define AUTH_PASSWORD_MAX 256
#define AUTH_SESSION_S (30 * 24 * 3600) /* a session lasts 30 days     */
#define AUTH_ANON "(deleted)" /* a deleted account's seats are named so */

typedef struct auth_job {
  int op;           /* AUTH_*                                           */
  void *req;        /* the request it answers (account.c's)             */
  char addr[64];    /* the client's address (limits)                    */
  int secure;       /* the request came over https: the cookie Secure   */
  char session[65]; /* SHA-256 of the request's session token ("": none) */
  char name[AUTH_NAME_MAX + 1];
  char password[AUTH_PASSWORD_MAX + 1], fresh[AUTH_PASSWORD_MAX + 1];
  int bad_shape; /* the body's name or password is not a string      */
  char what[32]; /* AUTH_LEADERBOARD: the pool; AUTH_RECORD: the code;
                    AUTH_TOURNEY: the tournament's id */
  /* The answer. */
  int status;
  char *body;              /* JSON text, malloc'd                         */
  char cookie[256];        /* a Set-Cookie value ("": none)               */
  int retry_after;         /* seconds (429), else 0                        */
  const char *disposition; /* a download's Content-Disposition, or NULL */
  long long deleted;       /* AUTH_DELETE done: the account's id      */
} auth_job;

typedef struct auth auth;

typedef struct auth_conf {
  unsigned long long opslimit; /* Argon2id: passes                     */
  size_t memlimit;             /* Argon2id: bytes                      */
  int queue_max;               /* jobs waiting at most, then 503       */
} auth_conf;

/* The default cost (docs/serve.md "Accounts": libsodium's INTERACTIVE
 * level, measured there). */
void auth_conf_default(auth_conf *c);

/* Opens the store at `where` for the thread and starts it; NULL with a
 * message. */
auth *auth_new(const char *where, const auth_conf *conf, void (*wake)(void *),
               void *arg, char *msg, size_t msgsize);
void auth_free(auth *a); /* waits for the job in hand; NULL: no-op */

/* Hands a job over (the thread owns it until auth_take gives it back):
 * 0, or -1 when the queue is full (the job is still the caller's). */
int auth_submit(auth *a, auth_job *job);
/* Answered jobs, oldest first (loop thread): how many, up to cap. */
int auth_take(auth *a, auth_job **out, int cap);

/* A session token: 64 hex digits from the operating system, and the
 * SHA-256 (hex) the store keeps of one. */
int auth_token(char out[65]);
void auth_token_sha256(const char *token, char out[65]);

/* auth_body.c, pure (fuzz/fuzz_account.c): */
/* Whether a name has the shape of one (3-20 letters, digits, _ or -). */
int auth_name_ok(const char *name);
/* A POST's JSON body into the job's fields, by its op: "name" and
 * "password" ("old" and "new" for AUTH_PASSWORD).  Anything else (no
 * JSON, no object, a field no string or too long) leaves the field ""
 * and, for a name a signup or login needs, sets bad_shape. */
void auth_job_parse(auth_job *j, const char *body, size_t len);

#endif
