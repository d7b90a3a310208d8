/*
 * auth_body.c -- what an account request's JSON body says (auth.h),
 * kept apart from the thread and the store so that it is fuzzed alone
 * (fuzz/fuzz_account.c).  jansson reads the JSON.
 */
#include "auth.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

int auth_name_ok(const char *name) {
  size_t n = strlen(name);
  return n >= AUTH_NAME_MIN && n <= AUTH_NAME_MAX &&
         strspn(name, "abcdefghijklmnopqrstuvwxyz"
                      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* A string field of at most max bytes into out (cap bytes), else "":
 * 1 when it was such a string. */
static int field(json_t *obj, const char *key, char *out, size_t cap,
                 size_t max) {
  json_t *v = json_object_get(obj, key);
  out[0] = 0;
  if (!json_is_string(v) || json_string_length(v) > max ||
      strlen(json_string_value(v)) != json_string_length(v))
    return 0; /* no string, too long, or a NUL inside */
  snprintf(out, cap, "%s", json_string_value(v));
  return 1;
}

void auth_job_parse(auth_job *j, const char *body, size_t len) {
  json_t *v = json_loadb(body, len, 0, NULL);
  int named = field(v, "name", j->name, sizeof j->name, AUTH_NAME_MAX);
  /* A password that is no string is "": too short, or wrong. */
  field(v, j->op == AUTH_PASSWORD ? "old" : "password", j->password,
        sizeof j->password, AUTH_PASSWORD_MAX);
  field(v, "new", j->fresh, sizeof j->fresh, AUTH_PASSWORD_MAX);
  j->bad_shape = (j->op == AUTH_SIGNUP || j->op == AUTH_LOGIN) && !named;
  json_decref(v);
}
