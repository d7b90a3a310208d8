/*
 * test.h -- a tiny test harness with stable test names tied to the rules
 * (SQLite's do_test style): TEST("capture-1.1", "RULES.md A turn, rule 1")
 * opens a named case; CHECK() records a failure with the file and line;
 * test_summary() prints the plain closing line "N passed, M failed" and
 * returns the exit status.
 */
#ifndef SCOPA_TEST_H
#define SCOPA_TEST_H

#include <stdio.h>
#include <string.h>

static int test_passed, test_failed, test_case_failed;
static const char *test_name = "(none)";

static void test_end_case(void) {
  if (strcmp(test_name, "(none)") != 0) {
    if (test_case_failed)
      test_failed++;
    else
      test_passed++;
  }
  test_case_failed = 0;
}

/* Opens a named case; `rule` names what RULES.md says, for the reader. */
#define TEST(name, rule) (test_end_case(), test_name = (name), (void)(rule))

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: [%s] failed: %s\n", __FILE__, __LINE__,          \
              test_name, #cond);                                               \
      test_case_failed = 1;                                                    \
    }                                                                          \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                     \
  do {                                                                         \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_) {                                                            \
      fprintf(stderr, "%s:%d: [%s] failed: %s == %s (%lld != %lld)\n",         \
              __FILE__, __LINE__, test_name, #a, #b, a_, b_);                  \
      test_case_failed = 1;                                                    \
    }                                                                          \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                     \
  do {                                                                         \
    const char *a_ = (a), *b_ = (b);                                           \
    if (strcmp(a_, b_) != 0) {                                                 \
      fprintf(stderr, "%s:%d: [%s] failed: \"%s\" != \"%s\"\n", __FILE__,      \
              __LINE__, test_name, a_, b_);                                    \
      test_case_failed = 1;                                                    \
    }                                                                          \
  } while (0)

static int test_summary(const char *suite) {
  test_end_case();
  printf("%s: %d passed, %d failed\n", suite, test_passed, test_failed);
  return test_failed ? 1 : 0;
}

#endif
