/*
 * test_harden.c -- the library's defences against hostile input (issue
 * 14): text made safe to print, numbers read strictly, record files read
 * with a cap, saved durably, guarded, and resumed without losing a byte.
 * Test names cite the items ("harden-2.1" is item 2, case 1);
 * docs/hardening.md lists them.  Run from the top of the repository.
 */
#include "scopa.h"

#include "../test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* scopa_text_safe of a string, in a static buffer. */
static const char *safe(const char *text, size_t len, unsigned flags) {
  static char out[512];
  scopa_text_safe(out, sizeof out, text, len, flags);
  return out;
}

/* No byte that drives a terminal: C0, DEL, nor the UTF-8 of C1 controls
 * and bidirectional overrides (checked byte-wise, independently). */
static int printable(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  for (; *p; p++) {
    if (*p < 0x20 || *p == 0x7F)
      return 0;
    if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
      return 0;
    if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE)
      return 0;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
      return 0;
  }
  return 1;
}

static void test_text_safe(void) {
  TEST("harden-2.1", "issue 14 item 2: a seat name that retitles the "
                     "terminal is shown escaped");
  const char name[] = "\x1b]0;pwned\x07\x1b[31mAnna";
  CHECK_EQ_STR(safe(name, sizeof name - 1, 0),
               "\\x1b]0;pwned\\x07\\x1b[31mAnna");

  TEST("harden-2.2", "C1 controls, DEL, bidirectional overrides and "
                     "isolates, invalid UTF-8 are escaped; others kept");
  CHECK_EQ_STR(safe("a\x7f"
                    "b",
                    3, 0),
               "a\\x7fb");
  CHECK_EQ_STR(safe("\xc2\x9b"
                    "31m",
                    5, 0),
               "\\u009b31m");
  CHECK_EQ_STR(safe("\xe2\x80\xae"
                    "abc",
                    6, 0),
               "\\u202eabc");
  CHECK_EQ_STR(safe("\xe2\x81\xa6"
                    "x\xe2\x81\xa9",
                    7, 0),
               "\\u2066x\\u2069");
  CHECK_EQ_STR(safe("\xe2\x80\x8f", 3, 0), "\\u200f");
  CHECK_EQ_STR(safe("Niccol\xc3\xb2", 8, 0), "Niccol\xc3\xb2");
  CHECK_EQ_STR(safe("\xff\xc3", 2, 0), "\\xff\\xc3");
  CHECK_EQ_STR(safe("\xed\xa0\x80", 3, 0), "\\xed\\xa0\\x80"); /* surrogate */
  CHECK_EQ_STR(safe("\xc0\xaf", 2, 0), "\\xc0\\xaf");          /* overlong */
  CHECK_EQ_STR(safe("An\0na", 5, 0), "An\\x00na");
  CHECK_EQ_STR(safe("\xc3\xb2\xf0\x9f\x82\xa1", 6, SCOPA_SAFE_ASCII),
               "\\u00f2\\U0001f0a1");
  /* SCOPA_SAFE_DROP (names a person chose): the same characters left out */
  CHECK_EQ_STR(safe("A\xe2\x80\xaen\x01n\0a\xff", 10, SCOPA_SAFE_DROP), "Anna");
  /* ... and a terminal's control sequence whole, not just its ESC or C1
   * introducer: no "[31m" or "]0;x" left in a name (issue 22, item 10;
   * before, "\x1b[31mAnna" became "[31mAnna") */
  CHECK_EQ_STR(safe("\x1b[31mAn\x1b[0m", 11, SCOPA_SAFE_DROP), "An");
  CHECK_EQ_STR(safe("\x1b]0;x\x07"
                    "An\x1b]8;;u\x1b\\na",
                    18, SCOPA_SAFE_DROP),
               "Anna");
  CHECK_EQ_STR(safe("\xc2\x9b"
                    "1;2H"
                    "An\xc2\x9d"
                    "0;t\xc2\x9cna",
                    17, SCOPA_SAFE_DROP),
               "Anna");
  CHECK_EQ_STR(safe("\x1b(BAn\x1b[", 7, SCOPA_SAFE_DROP), "An");
  CHECK_EQ_STR(safe("\x1b[3\nAnna", 8, SCOPA_SAFE_DROP), "Anna");
  CHECK_EQ_STR(safe("Niccol\xc3\xb2", 8, SCOPA_SAFE_DROP), "Niccol\xc3\xb2");

  TEST("harden-2.3", "the result is cut between escapes, never inside one, "
                     "and its full length is returned");
  char small[8];
  size_t n = scopa_text_safe(small, sizeof small,
                             "ab\x1b"
                             "cd",
                             5, 0);
  CHECK_EQ_INT(n, 8);
  CHECK_EQ_STR(small, "ab\\x1bc");
  n = scopa_text_safe(small, 5,
                      "ab\x1b"
                      "cd",
                      5, 0);
  CHECK_EQ_STR(small, "ab");
  n = scopa_text_safe(small, 4, "\xc3\xb2\xc3\xb2", 4, 0);
  CHECK_EQ_STR(small, "\xc3\xb2");
  CHECK_EQ_INT(scopa_text_safe(NULL, 0, "\x01", 1, 0), 4);

  TEST("harden-2.4", "every byte string comes out printable, and safe text "
                     "is a fixed point");
  unsigned seed = 12345;
  for (int round = 0; round < 20000; round++) {
    char in[24], out[200], again[200];
    size_t len = (size_t)(round % 24);
    for (size_t i = 0; i < len; i++) {
      seed = seed * 1103515245u + 12345u;
      in[i] = (char)(seed >> 16);
    }
    scopa_text_safe(out, sizeof out, in, len, round & 1);
    if (!printable(out)) {
      CHECK(printable(out));
      break;
    }
    scopa_text_safe(again, sizeof again, out, strlen(out), round & 1);
    if (strcmp(out, again) != 0) {
      CHECK_EQ_STR(out, again);
      break;
    }
  }
}

static void test_numbers(void) {
  long long v = 7;
  double d = 0;
  char msg[200];
  TEST("harden-6.1", "issue 14 item 6: --deals 99999999999999999999 is out "
                     "of range, with the flag and the value named");
  CHECK_EQ_INT(scopa_parse_int("--deals", "99999999999999999999", 1, 1000, &v,
                               msg, sizeof msg),
               SCOPA_EINVAL);
  CHECK(strstr(msg, "--deals") && strstr(msg, "99999999999999999999"));
  CHECK(!strchr(msg, '\n'));
  CHECK_EQ_INT(v, 7);

  TEST("harden-6.2", "--deals 3x is not a number: the whole string counts");
  const char *bad[] = {
      "3x",  "",    " 3", "3 ",  "+3",          "0x10",
      "1e3", "--3", "-",  "3\n", "\xef\xbc\x93" /* fullwidth 3 */};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK_EQ_INT(scopa_parse_int("--n", bad[i], -100, 100, &v, msg, sizeof msg),
                 SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_parse_int("--n", "-100", -100, 100, &v, msg, sizeof msg),
               SCOPA_OK);
  CHECK_EQ_INT(v, -100);
  CHECK_EQ_INT(scopa_parse_int("--n", "101", -100, 100, &v, msg, sizeof msg),
               SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_parse_int("--n", "9223372036854775807", 0, LLONG_MAX, &v,
                               msg, sizeof msg),
               SCOPA_OK);
  CHECK_EQ_INT(scopa_parse_int("--n", "9223372036854775808", 0, LLONG_MAX, &v,
                               msg, sizeof msg),
               SCOPA_EINVAL);

  TEST("harden-6.3", "a value with a control byte is named escaped");
  scopa_parse_int("--seed", "1\x1b[2J", 0, 9, &v, msg, sizeof msg);
  CHECK(printable(msg) && strstr(msg, "\\x1b[2J"));

  TEST("harden-6.4", "decimal values: whole string, finite, in range");
  CHECK_EQ_INT(
      scopa_parse_real("--seconds", "2.5", 0.001, 10, &d, msg, sizeof msg),
      SCOPA_OK);
  CHECK(d == 2.5);
  const char *badd[] = {"",     ".",     "inf", "nan", "1e3",
                        "2.5s", "0x1p3", " 1",  "0",   "11"};
  for (size_t i = 0; i < sizeof badd / sizeof *badd; i++)
    CHECK_EQ_INT(
        scopa_parse_real("--seconds", badd[i], 0.001, 10, &d, msg, sizeof msg),
        SCOPA_EINVAL);
}

/* ---- files ------------------------------------------------------------ */

static char dir[] = "/tmp/scopa-harden-XXXXXX";

static void path_in(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

static void put_file(const char *path, const char *text, size_t len) {
  FILE *fp = fopen(path, "wb");
  fwrite(text, 1, len, fp);
  fclose(fp);
}

static int count_temps(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strstr(e->d_name, ".tmp") != NULL;
  closedir(d);
  return n;
}

static char *example(size_t *len) {
  char *text, msg[300];
  if (scopa_record_read_file("tests/data/examples/scopa-default.json", &text,
                             len, msg, sizeof msg) != SCOPA_OK) {
    fprintf(stderr, "%s\n", msg);
    exit(1);
  }
  return text;
}

static void test_read_file(void) {
  char path[300], msg[300], *text = NULL;
  size_t len = 0;
  TEST("harden-4.1", "issue 14 item 4: a directory is refused with a "
                     "message, nothing allocated from its size");
  CHECK_EQ_INT(scopa_record_read_file(dir, &text, &len, msg, sizeof msg),
               SCOPA_EIO);
  CHECK(strstr(msg, "is a directory") != NULL);
  CHECK(text == NULL);

  TEST("harden-4.2", "a missing or unreadable file: the system's reason");
  path_in(path, sizeof path, "missing.json");
  CHECK_EQ_INT(scopa_record_read_file(path, &text, &len, msg, sizeof msg),
               SCOPA_EIO);
  CHECK(strstr(msg, "No such file") && strstr(msg, "missing.json"));
  path_in(path, sizeof path, "locked.json");
  put_file(path, "{}", 2);
  chmod(path, 0);
  if (access(path, R_OK) != 0) { /* root reads anything */
    CHECK_EQ_INT(scopa_record_read_file(path, &text, &len, msg, sizeof msg),
                 SCOPA_EIO);
    CHECK(strstr(msg, "Permission denied") != NULL);
  }

  TEST("harden-4.3", "a pipe is read to its end, not seen as empty");
  int fd[2];
  CHECK(pipe(fd) == 0);
  CHECK(write(fd[1], "{\"a\": 1}", 8) == 8);
  close(fd[1]);
  snprintf(path, sizeof path, "/dev/fd/%d", fd[0]);
  CHECK_EQ_INT(scopa_record_read_file(path, &text, &len, msg, sizeof msg),
               SCOPA_OK);
  CHECK_EQ_INT(len, 8);
  CHECK(text && strcmp(text, "{\"a\": 1}") == 0);
  scopa_free(text);
  close(fd[0]);

  TEST("harden-s.2", "issue 14, smaller: a record over 4 MiB is refused "
                     "before it is parsed, from a file and from text");
  path_in(path, sizeof path, "huge.json");
  size_t big = (size_t)SCOPA_RECORD_MAX + 1;
  char *blob = malloc(big);
  memset(blob, ' ', big);
  put_file(path, blob, big);
  CHECK_EQ_INT(scopa_record_read_file(path, &text, &len, msg, sizeof msg),
               SCOPA_ERECORD);
  CHECK(strstr(msg, "4 MiB") != NULL);
  scopa_replay rp;
  scopa_fault f;
  CHECK_EQ_INT(scopa_replay_text(blob, big, &rp, &f), SCOPA_ERECORD);
  CHECK(strstr(f.message, "4 MiB") && f.round == -1 && f.move == -1);
  free(blob);
}

static void test_records(void) {
  scopa_replay rp;
  scopa_fault f;
  TEST("harden-s.1", "issue 14, smaller: a record with a key twice is "
                     "refused, as the engine refuses it");
  const char *dup = "{\"format\": \"scopa-record/1\", \"rules\": {}, "
                    "\"rules\": {\"game\": \"scopone\"}, \"rounds\": []}";
  CHECK(scopa_replay_text(dup, strlen(dup), &rp, &f) != SCOPA_OK);
  CHECK(strstr(f.message, "duplicate") != NULL);

  TEST("harden-1.2", "issue 14 item 1: a rules key with DEL or ESC comes "
                     "back escaped in the record's fault");
  const char *key = "{\"format\": \"scopa-record/1\", \"rules\": "
                    "{\"play\\u007frs\\u001b[2J\": 2}, \"rounds\": []}";
  CHECK(scopa_replay_text(key, strlen(key), &rp, &f) != SCOPA_OK);
  CHECK(printable(f.message));
  CHECK(strstr(f.message, "play\\x7frs\\x1b[2J") != NULL);

  TEST("harden-1.3", "a rules key with a bidirectional override, through "
                     "scopa_rules_from_json (the Python reader)");
  scopa_rules rules;
  char msg[300];
  const char *rk = "{\"\\u202egame\": 1}";
  CHECK(scopa_rules_from_json(&rules, rk, strlen(rk), NULL, msg, sizeof msg) !=
        0);
  CHECK(printable(msg) && strstr(msg, "\\u202e") != NULL);
  for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
    CHECK(*p >= 0x20 && *p < 0x7F); /* the engine's readers: ASCII */
}

static void test_save(void) {
  char path[300], stale[320], other[320], msg[300];
  size_t len;
  char *text = example(&len);
  scopa_replay ex;
  scopa_fault f;
  CHECK_EQ_INT(scopa_replay_text(text, len, &ex, &f), SCOPA_OK);
  scopa_record *rec = scopa_record_from_replay(&ex);
  scopa_replay_free(&ex);
  path_in(path, sizeof path, "game.json");

  TEST("harden-8.1", "issue 14 item 8: a save leaves no temporary file and "
                     "removes those a killed save left");
  snprintf(stale, sizeof stale, "%s.tmp%d", path, 4242);
  put_file(stale, "{\"half", 6);
  snprintf(other, sizeof other, "%s.tmpAbC123", path);
  put_file(other, "{", 1);
  char keep[320];
  path_in(keep, sizeof keep, "other.json.tmp999");
  put_file(keep, "x", 1);
  CHECK_EQ_INT(scopa_record_write_file(rec, path, msg, sizeof msg), SCOPA_OK);
  CHECK(access(stale, F_OK) != 0 && access(other, F_OK) != 0);
  CHECK(access(keep, F_OK) == 0); /* another record's: not ours to touch */
  unlink(keep);
  CHECK_EQ_INT(count_temps(), 0);

  TEST("harden-8.2", "the saved file is the record, whole, and keeps the "
                     "mode of the file it replaces");
  chmod(path, 0640);
  CHECK_EQ_INT(scopa_record_save(rec, path), SCOPA_OK);
  struct stat st;
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
  char *back;
  size_t blen;
  CHECK_EQ_INT(scopa_record_read_file(path, &back, &blen, msg, sizeof msg),
               SCOPA_OK);
  scopa_replay rp;
  CHECK_EQ_INT(scopa_replay_text(back, blen, &rp, &f), SCOPA_OK);
  scopa_replay_free(&rp);
  scopa_free(back);

  TEST("harden-8.3", "a write error is reported with the file and the "
                     "reason, and leaves no temporary file");
  char nodir[320];
  path_in(nodir, sizeof nodir, "no/such/dir/game.json");
  CHECK_EQ_INT(scopa_record_write_file(rec, nodir, msg, sizeof msg), SCOPA_EIO);
  CHECK(strstr(msg, "no/such/dir/game.json") && strstr(msg, "No such file"));
  /* Never a device or a pipe replaced by a plain file (as root, a save
   * to /dev/null would otherwise replace the device). */
  char fifo[320];
  path_in(fifo, sizeof fifo, "fifo.json");
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK_EQ_INT(scopa_file_save(fifo, "x", 1, msg, sizeof msg), SCOPA_EIO);
  CHECK(strstr(msg, "fifo.json") && strstr(msg, "not a regular file"));
  struct stat fst;
  CHECK(stat(fifo, &fst) == 0 && S_ISFIFO(fst.st_mode));
  unlink(fifo);
  CHECK_EQ_INT(scopa_file_save(dir, "x", 1, msg, sizeof msg), SCOPA_EIO);
  CHECK(strstr(msg, "directory") != NULL);
  CHECK_EQ_INT(count_temps(), 0);
  scopa_record_free(rec);
  free(text);
}

static void test_resume_text(void) {
  scopa_fault f;
  scopa_match *m = NULL;
  TEST("harden-9.1", "issue 14 item 9: a resumed record keeps unknown "
                     "top-level fields and names with a NUL, as written");
  const char *text =
      "{\"format\": \"scopa-record/1\", \"event\": {\"where\": \"Napoli\"}, "
      "\"rules\": {\"game\": \"scopa\", \"target\": 11}, "
      "\"seats\": [\"An\\u0000na\", \"Bruno\"], \"rounds\": [], "
      "\"x-note\": [1, 2.5, null]}";
  CHECK_EQ_INT(scopa_match_from_record(text, strlen(text), &m, &f), SCOPA_OK);
  char *out = m ? scopa_match_record_json(m, SCOPA_RECORD_FULL) : NULL;
  CHECK(out && strstr(out, "\"An\\u0000na\"") && strstr(out, "Napoli") &&
        strstr(out, "\"x-note\"") && strstr(out, "2.5"));
  scopa_replay rp;
  CHECK(out && scopa_replay_text(out, strlen(out), &rp, &f) == SCOPA_OK);
  if (out)
    scopa_replay_free(&rp);
  scopa_free(out);
  scopa_match_free(m);
}

static void test_target_check(void) {
  char path[300], other[300], msg[300];
  TEST("harden-5.1", "issue 14 item 5: --record refuses a file that holds a "
                     "saved game, and says how to continue it");
  path_in(path, sizeof path, "saved.json");
  put_file(path, "{\"format\": \"scopa-record/1\"}", 27);
  CHECK_EQ_INT(scopa_record_target_check(path, NULL, msg, sizeof msg),
               SCOPA_EINVAL);
  CHECK(strstr(msg, "--resume") && strstr(msg, "saved.json"));

  TEST("harden-5.2", "the same file resumed, a new file, an empty file are "
                     "fine; a directory is not");
  CHECK_EQ_INT(scopa_record_target_check(path, path, msg, sizeof msg),
               SCOPA_OK);
  path_in(other, sizeof other, "new.json");
  CHECK_EQ_INT(scopa_record_target_check(other, NULL, msg, sizeof msg),
               SCOPA_OK);
  CHECK_EQ_INT(scopa_record_target_check(other, path, msg, sizeof msg),
               SCOPA_OK);
  put_file(other, "", 0);
  CHECK_EQ_INT(scopa_record_target_check(other, NULL, msg, sizeof msg),
               SCOPA_OK);
  CHECK_EQ_INT(scopa_record_target_check(path, other, msg, sizeof msg),
               SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_record_target_check(dir, NULL, msg, sizeof msg),
               SCOPA_EINVAL);
  CHECK(strstr(msg, "directory") != NULL);
}

static void remove_dir(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (e->d_name[0] != '.')
      unlink(p);
  }
  if (d)
    closedir(d);
  rmdir(dir);
}

int main(void) {
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_text_safe();
  test_numbers();
  test_read_file();
  test_records();
  test_save();
  test_resume_text();
  test_target_check();
  remove_dir();
  return test_summary("test_harden");
}
