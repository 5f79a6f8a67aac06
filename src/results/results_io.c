/* SPDX-License-Identifier: MIT */
/*
 * results_io.c - result files read (packed samples past the lexer, then
 * validated) and written (validated, then atomically: a temporary file,
 * fsync, rename), and the lock writers take turns on.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "packed.h"
#include "results.h"
#include "core/primcost.h"
#include "core/util.h"

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(PC_REAL_DIGITS))

/* ---- reading ----------------------------------------------------------- */

/* Nothing but white space: an empty file, not a JSON syntax error. */
static int blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)buf[i]))
			return 0;
	return 1;
}

/* Reads fd to its end, at most PC_LIMIT_FILE_BYTES + 1 bytes (one more says
 * "too big"); *len the bytes read. NULL with err filled on an error. */
static char *read_all(int fd, const char *name, size_t *len, char *err,
		      size_t errlen)
{
	size_t cap = 65536, got = 0, limit = (size_t)PC_LIMIT_FILE_BYTES + 1;
	char *buf = malloc(cap + 1), *grown;
	ssize_t r;

	while (buf) {
		if (got == cap) {
			cap = cap * 2 < limit ? cap * 2 : limit;
			grown = realloc(buf, cap + 1);
			if (!grown)
				break;
			buf = grown;
		}
		r = read(fd, buf + got, cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", name, strerror(errno));
			free(buf);
			return NULL;
		}
		got += (size_t)r;
		if (r == 0 || got >= limit) {
			*len = got;
			return buf;
		}
	}
	free(buf);
	snprintf(err, errlen, "%s: out of memory", name);
	return NULL;
}

json_t *pc_doc_parse(const char *buf, size_t len, const char *name, char *err,
		     size_t errlen)
{
	json_error_t jerr;
	json_t *doc;
	char why[PC_ERRLEN], *small;
	size_t smalllen;
	struct pc_packed_store st;

	if (len > PC_LIMIT_FILE_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes (limit %d MiB)", name, len,
			 PC_LIMIT_FILE_BYTES >> 20);
		return NULL;
	}
	if (blank(buf, len)) {
		snprintf(err, errlen, "%s: empty file", name);
		return NULL;
	}
	/* Packed samples bypass the lexer: taken out, parsed, put back. */
	small = pc_packed_extract(buf, len, &smalllen, &st);
	if (!small) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	doc = json_loadb(small, smalllen, JSON_REJECT_DUPLICATES, &jerr);
	free(small);
	if (doc && pc_packed_restore(doc, &st) < 0) {
		json_decref(doc);
		pc_packed_store_free(&st);
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	pc_packed_store_free(&st);
	if (!doc) {
		char text[4 * JSON_ERROR_TEXT_LENGTH];

		/* jansson quotes the input near the error: it may hold controls */
		pc_escape_text(jerr.text, text, sizeof(text));
		snprintf(err, errlen, "%s: not valid JSON: %s (line %d)", name,
			 text, jerr.line);
		return NULL;
	}
	if (pc_doc_validate(doc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* The bytes of a regular file: mapped (the page cache, read where it is:
 * copying 25 MiB into fresh memory cost more than parsing it), or where
 * mapping fails (an empty file), read to its end as a pipe is. *mapped
 * says which to release. */
static char *file_bytes(int fd, const char *path, size_t *len, int *mapped,
			char *err, size_t errlen)
{
	struct stat sb;
	char *buf;

	*mapped = 0;
	if (fstat(fd, &sb) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (sb.st_size > PC_LIMIT_FILE_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes (limit %d MiB)", path,
			 (long long)sb.st_size, PC_LIMIT_FILE_BYTES >> 20);
		return NULL;
	}
	*len = (size_t)sb.st_size;
	if (*len) {
		buf = mmap(NULL, *len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (buf != MAP_FAILED) {
			*mapped = 1;
			return buf;
		}
	}
	return read_all(fd, path, len, err, errlen);
}

json_t *pc_doc_load_fd(int fd, const char *path, char *err, size_t errlen)
{
	struct stat sb;
	json_t *doc;
	char *buf;
	size_t got = 0;
	int mapped;

	if (fstat(fd, &sb) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return NULL;
	}
	if (sb.st_size > PC_LIMIT_FILE_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes (limit %d MiB)", path,
			 (long long)sb.st_size, PC_LIMIT_FILE_BYTES >> 20);
		return NULL;
	}
	buf = file_bytes(fd, path, &got, &mapped, err, errlen);
	if (!buf)
		return NULL;
	doc = pc_doc_parse(buf, got, path, err, errlen);
	if (mapped)
		munmap(buf, got);
	else
		free(buf);
	return doc;
}

json_t *pc_doc_load(const char *path, int *missing, char *err, size_t errlen)
{
	struct stat sb;
	json_t *doc;
	char *buf;
	size_t got = 0;
	int fd;

	if (missing)
		*missing = 0;
	if (strcmp(path, "-") == 0) {
		buf = read_all(STDIN_FILENO, PC_STDIN_NAME, &got, err, errlen);
		if (!buf)
			return NULL;
		doc = pc_doc_parse(buf, got, PC_STDIN_NAME, err, errlen);
		free(buf);
		return doc;
	}
	/* a FIFO is refused before it is opened (an open would wait for a writer) */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && missing)
			*missing = 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	doc = pc_doc_load_fd(fd, path, err, errlen);
	close(fd);
	return doc;
}

/* ---- writing ------------------------------------------------------------ */

int pc_doc_dump(json_t *doc, FILE *f)
{
	if (json_dumpf(doc, f, DUMP_FLAGS) < 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

int pc_write_target(const char *path, char *out, size_t outlen, char *err,
		    size_t errlen)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	ssize_t n;
	int hops;

	if ((size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur))
		goto too_long;
	for (hops = 0; hops < 40; hops++) {
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {	/* not a link, or not there: the file itself */
			if ((size_t)snprintf(out, outlen, "%s", cur) >= outlen)
				goto too_long;
			return 0;
		}
		link[n] = 0;
		snprintf(dir, sizeof(dir), "%s", cur);
		if (link[0] == '/' || !strchr(cur, '/'))
			n = snprintf(cur, sizeof(cur), "%s", link);
		else
			n = snprintf(cur, sizeof(cur), "%s/%s", dirname(dir), link);
		if ((size_t)n >= sizeof(cur))
			goto too_long;
	}
	snprintf(err, errlen, "%s: too many levels of symbolic links", path);
	return -1;
too_long:
	snprintf(err, errlen, "%.200s: file name too long", path);
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The lock file of target, ".NAME.lock" beside it, in lock[len]. */
static int lock_path(const char *target, char *lock, size_t len, char *err, size_t errlen)
{
	char *d = strdup(target), *b = strdup(target);
	int rc = -1;

	if (!d || !b)
		snprintf(err, errlen, "out of memory");
	else if ((size_t)snprintf(lock, len, "%s/.%s.lock", dirname(d), basename(b)) >= len)
		snprintf(err, errlen, "cannot lock %s: file name too long", target);
	else
		rc = 0;
	free(d);
	free(b);
	return rc;
}

static int open_lock_file(const char *target, const char *lock, char *err,
			  size_t errlen)
{
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		fd = open(lock, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, errlen, "cannot lock %s: %s: %s", target, lock, strerror(errno));
	return fd;
}

/* Does the lock file's name still lead to the file fd locked? One removed
 * (or replaced) while we waited is a lock no other writer will see. */
static int still_named(int fd, const char *lock)
{
	struct stat held, named;

	return fstat(fd, &held) == 0 && stat(lock, &named) == 0 &&
	       held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

/* Waits for the lock on fd; 0 when held, -1 with err filled. */
static int wait_lock(int fd, const char *target, const char *cmd, int (*stop)(void),
		     int *stopped, char *err, size_t errlen)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	double start = now_s();
	int said = 0;

	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			snprintf(err, errlen, "cannot lock %s: %s", target, strerror(errno));
			return -1;
		}
		if (stop && stop()) {
			snprintf(err, errlen, "interrupted while waiting for another "
				 "primcost to finish writing %s", target);
			if (stopped)
				*stopped = 1;
			return -1;
		}
		if (!said && now_s() - start > PC_LOCK_NOTICE_S) {
			pc_error(cmd, "waiting for another primcost to finish writing %s",
				 target);
			said = 1;
		}
		nanosleep(&pause, NULL);
	}
	return 0;
}

int pc_doc_lock(const char *target, const char *cmd, int (*stop)(void),
		int *stopped, char *err, size_t errlen)
{
	char lock[PATH_MAX];
	int fd;

	if (stopped)
		*stopped = 0;
	if (lock_path(target, lock, sizeof(lock), err, errlen) < 0)
		return -1;
	for (;;) {
		fd = open_lock_file(target, lock, err, errlen);
		if (fd < 0)
			return -1;
		if (wait_lock(fd, target, cmd, stop, stopped, err, errlen) < 0) {
			close(fd);
			return -1;
		}
		if (still_named(fd, lock))
			return fd;
		close(fd);	/* removed under us: lock the file now named */
	}
}

bool pc_doc_lock_held(int fd, const char *target)
{
	char lock[PATH_MAX], err[PC_ERRLEN];

	return lock_path(target, lock, sizeof(lock), err, sizeof(err)) == 0 &&
	       still_named(fd, lock);
}

void pc_doc_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* closing the only descriptor releases the lock */
}

/* Checked on the file a write lands in (a symbolic link's target). */
int pc_check_writable(const char *path, char *err, size_t errlen)
{
	char target[PATH_MAX], *copy, *dir;
	struct stat st;
	int rc = 0;

	if (pc_write_target(path, target, sizeof(target), err, errlen) < 0 ||
	    pc_out_name_fits(target, err, errlen) < 0)
		return -1;
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a result is read and "
			 "replaced; give a file, or -o - for standard output)", path);
		return -1;
	}
	copy = strdup(target);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	dir = dirname(copy);
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "cannot write %s: directory %s: %s", path, dir,
			 strerror(errno));
		rc = -1;
	} else if (access(target, F_OK) == 0 && access(target, W_OK) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	free(copy);
	return rc;
}

/*
 * Writes doc to path through a temporary file in the same directory:
 * fsync, then rename over the old file, so that a reader (or a crash) sees
 * either the old file whole or the new one whole.
 */
static int doc_write_file(json_t *doc, const char *path, int *lock_fd,
			  const struct stat *read_st, char *err, size_t errlen);

/*
 * A signal that would end the program (SIGINT, SIGTERM, SIGHUP, ...) waits
 * while the temporary file exists: it takes effect after the rename (or
 * after the temporary file is removed on an error), so none is left behind
 * and the destination is whole, old or new. Only SIGKILL or a crash can
 * leave a "FILE.tmp.XXXXXX", never a damaged FILE.
 */
int pc_doc_write(json_t *doc, const char *path, char *err, size_t errlen)
{
	return pc_doc_write_locked(doc, path, NULL, NULL, err, errlen);
}

int pc_doc_write_locked(json_t *doc, const char *path, int *lock_fd,
			const struct stat *read_st, char *err, size_t errlen)
{
	sigset_t all, old;
	char why[PC_ERRLEN], target[PATH_MAX];
	int rc;

	/* What primcost writes, primcost reads back: a document its own
	 * reader would refuse is an error here, not in the next run. */
	if (pc_doc_validate(doc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s: not written: the result would not read back: %s",
			 path, why);
		return -1;
	}
	if (strcmp(path, "-") == 0)
		return doc_write_file(doc, path, NULL, NULL, err, errlen);
	/* Through a symbolic link, the file it points to is replaced. */
	if (pc_write_target(path, target, sizeof(target), err, errlen) < 0)
		return -1;
	path = target;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);	/* faults must still be reported */
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGABRT);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	sigprocmask(SIG_BLOCK, &all, &old);
	rc = doc_write_file(doc, path, lock_fd, read_st, err, errlen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int doc_write_file(json_t *doc, const char *path, int *lock_fd,
			  const struct stat *read_st, char *err, size_t errlen)
{
	struct pc_out o;
	long long bytes;

	if (pc_out_open(&o, path, NULL, 0, err, errlen) < 0)
		return -1;
	o.lock_fd = lock_fd;
	o.read_st = read_st;
	o.read_existed = read_st != NULL;
	if (pc_doc_dump(doc, o.f) < 0 || fflush(o.f) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", o.f == stdout ?
			 "standard output" : path, strerror(errno ? errno : EIO));
		pc_out_abort(&o);
		return -1;
	}
	bytes = o.tmp ? (long long)ftello(o.f) : 0;
	if (bytes > PC_LIMIT_FILE_BYTES) {	/* primcost would refuse to read it back */
		snprintf(err, errlen, "cannot write %s: it would be %lld bytes, over the "
			 "%d MiB a result file may have", path, bytes,
			 PC_LIMIT_FILE_BYTES >> 20);
		pc_out_abort(&o);
		return -1;
	}
	return pc_out_commit(&o, err, errlen);
}
