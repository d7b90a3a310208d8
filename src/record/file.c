/*
 * file.c -- record files on disk: read whole with a size cap, written
 * durably, and guarded against being overwritten by another game.
 *
 * What must stay true:
 *   - a save never leaves a torn file: the text goes to a fresh temporary
 *     file beside the record (mkstemp, so two writers never share one),
 *     is fsync'd, renamed over the record, and the directory is fsync'd
 *     so the rename itself survives a power failure;
 *   - a save killed midway leaves at most its own temporary file, and the
 *     next save of the same record removes it;
 *   - a file is never read past SCOPA_RECORD_MAX bytes, whatever it is (a
 *     pipe, a device, a file growing while read);
 *   - every failure comes back as a code and a sentence that names the
 *     file and the reason; the file name is made safe to print.
 */
#include "json_shapes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int say(char *msg, size_t msgsize, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int say(char *msg, size_t msgsize, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  scopa__vmsg(msg, msgsize, 0, fmt, ap);
  va_end(ap);
  return code;
}

/* ---- reading --------------------------------------------------------- */

/* Reads fd to its end, at most SCOPA_RECORD_MAX bytes (one more tells it
 * is too long).  Returns SCOPA_OK, SCOPA_ENOMEM, SCOPA_ERECORD (too long)
 * or SCOPA_EIO with errno set. */
static int read_all(int fd, size_t hint, char **text, size_t *len) {
  size_t cap = hint + 1 < 65536 ? 65536 : hint + 1, n = 0;
  if (cap > (size_t)SCOPA_RECORD_MAX + 1)
    cap = (size_t)SCOPA_RECORD_MAX + 1;
  char *buf = malloc(cap + 1);
  if (!buf)
    return SCOPA_ENOMEM;
  for (;;) {
    if (n == cap) {
      if (cap > (size_t)SCOPA_RECORD_MAX)
        break;
      size_t more = cap * 2 > (size_t)SCOPA_RECORD_MAX + 1
                        ? (size_t)SCOPA_RECORD_MAX + 1
                        : cap * 2;
      char *bigger = realloc(buf, more + 1);
      if (!bigger) {
        free(buf);
        return SCOPA_ENOMEM;
      }
      buf = bigger;
      cap = more;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int e = errno;
      free(buf);
      errno = e;
      return SCOPA_EIO;
    }
    if (got == 0)
      break;
    n += (size_t)got;
  }
  if (n > (size_t)SCOPA_RECORD_MAX) {
    free(buf);
    return SCOPA_ERECORD;
  }
  buf[n] = 0;
  *text = buf;
  *len = n;
  return SCOPA_OK;
}

int scopa_record_read_file(const char *path, char **text, size_t *len,
                           char *msg, size_t msgsize) {
  int from_stdin = strcmp(path, "-") == 0;
  const char *shown = from_stdin ? "standard input" : path;
  struct stat st;
  *text = NULL;
  *len = 0;
  int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return say(msg, msgsize, SCOPA_EIO, "cannot read %s: %s", shown,
               strerror(errno));
  int rc = SCOPA_EIO;
  if (fstat(fd, &st) != 0)
    say(msg, msgsize, rc, "cannot read %s: %s", shown, strerror(errno));
  else if (S_ISDIR(st.st_mode))
    say(msg, msgsize, rc, "%s is a directory, not a game record", shown);
  else if (S_ISREG(st.st_mode) && st.st_size > SCOPA_RECORD_MAX)
    rc = say(msg, msgsize, SCOPA_ERECORD,
             "%s is %lld bytes long, more than the %d MiB any real game "
             "needs: not read",
             shown, (long long)st.st_size, SCOPA_RECORD_MAX >> 20);
  else {
    size_t hint = S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
    rc = read_all(fd, hint, text, len);
    if (rc == SCOPA_ENOMEM)
      say(msg, msgsize, rc, "out of memory reading %s", shown);
    else if (rc == SCOPA_ERECORD)
      say(msg, msgsize, rc,
          "%s is longer than the %d MiB any real game needs: not read", shown,
          SCOPA_RECORD_MAX >> 20);
    else if (rc != SCOPA_OK)
      say(msg, msgsize, rc, "cannot read %s: %s", shown, strerror(errno));
  }
  if (!from_stdin)
    close(fd);
  return rc;
}

/* ---- writing --------------------------------------------------------- */

/* The directory part of path ("." for none), in buf. */
static void dir_of(const char *path, char *buf, size_t n) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(buf, n, ".");
  else if (slash == path)
    snprintf(buf, n, "/");
  else
    snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

/* A temporary file of the record named base: base ".tmp" then six
 * letters and digits (mkstemp) or a process id (older versions). */
static int is_temp_of(const char *name, const char *base) {
  size_t b = strlen(base);
  if (strncmp(name, base, b) != 0 || strncmp(name + b, ".tmp", 4) != 0)
    return 0;
  const char *tail = name + b + 4;
  size_t k = strlen(tail);
  const char *alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      "0123456789";
  if (k == 6 && strspn(tail, alnum) == 6)
    return 1;
  return k > 0 && k <= 10 && strspn(tail, "0123456789") == k;
}

/* Removes the temporary files that earlier saves of path left behind
 * (killed between mkstemp and rename). */
static void remove_stale(const char *dir, const char *path) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (is_temp_of(e->d_name, base)) {
      char full[4096];
      if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) <
          (int)sizeof full)
        unlink(full);
    }
  closedir(d);
}

static int write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

/* fsync of a directory, so a rename or unlink in it is on disk.  Some
 * file systems cannot sync a directory (EINVAL): nothing more can be done
 * there, and it is not an error. */
static int sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int rc = fsync(fd);
  int e = errno;
  close(fd);
  errno = e;
  return rc == 0 || e == EINVAL || e == ENOTSUP ? 0 : -1;
}

int scopa_file_save(const char *path, const void *data, size_t len, char *msg,
                    size_t msgsize) {
  size_t n = strlen(path);
  char dir[4096];
  struct stat st;
  /* Only a file is replaced: renaming over a device (/dev/null, as root)
   * or a pipe would put a plain file in its place. */
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return say(msg, msgsize, SCOPA_EIO, "cannot save %s: %s", path,
               S_ISDIR(st.st_mode) ? "it is a directory"
                                   : "it is not a regular file");
  char *tmp = malloc(n + 16);
  if (!tmp)
    return say(msg, msgsize, SCOPA_ENOMEM, "out of memory saving %s", path);
  snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
  dir_of(path, dir, sizeof dir);
  const char *step = "cannot create a temporary file beside it";
  int fd = mkstemp(tmp);
  if (fd < 0)
    goto fail;
  /* mkstemp makes the file 0600; a record keeps the mode of the one it
   * replaces, else is readable as a file made by fopen would be. */
  fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 : 0644);
  step = "cannot write";
  if (write_all(fd, data, len) != 0)
    goto fail_close;
  step = "cannot flush it to disk";
  if (fsync(fd) != 0)
    goto fail_close;
  step = "cannot close it";
  int closed = close(fd);
  fd = -1;
  if (closed != 0)
    goto fail_unlink;
  step = "cannot put the new version in place";
  if (rename(tmp, path) != 0)
    goto fail_unlink;
  remove_stale(dir, path);
  step = "cannot flush its directory to disk";
  if (sync_dir(dir) != 0)
    goto fail;
  free(tmp);
  return SCOPA_OK;
fail_close:;
  int e = errno;
  close(fd);
  errno = e;
fail_unlink:
  e = errno;
  unlink(tmp);
  errno = e;
fail:
  e = errno;
  free(tmp);
  return say(msg, msgsize, SCOPA_EIO, "cannot save %s: %s: %s", path, step,
             strerror(e));
}

/* ---- guarding -------------------------------------------------------- */

int scopa_record_target_check(const char *path, const char *resumed_from,
                              char *msg, size_t msgsize) {
  struct stat st, from;
  if (stat(path, &st) != 0)
    return SCOPA_OK; /* nothing there to lose; a save says if it fails */
  if (S_ISDIR(st.st_mode))
    return say(msg, msgsize, SCOPA_EINVAL,
               "%s is a directory; the record needs a file name", path);
  if (!S_ISREG(st.st_mode))
    return say(msg, msgsize, SCOPA_EINVAL,
               "%s is not a regular file; the record needs one", path);
  if (st.st_size == 0)
    return SCOPA_OK;
  if (resumed_from && stat(resumed_from, &from) == 0 &&
      from.st_dev == st.st_dev && from.st_ino == st.st_ino)
    return SCOPA_OK;
  return say(msg, msgsize, SCOPA_EINVAL,
             "%s already holds a saved game, which this one would "
             "overwrite; to continue that game use --resume %s, or choose "
             "another file",
             path, path);
}
