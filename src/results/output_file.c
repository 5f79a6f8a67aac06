/* SPDX-License-Identifier: MIT */
/*
 * output_file.c - the one way a command writes a file: a regular file is
 * replaced atomically (an unpredictable temporary file beside it, made with
 * O_EXCL, fsync, rename) keeping its mode and owner where the writer may;
 * a symbolic link is followed to its target; a device, a FIFO and "-" are
 * written in place; a command's own input is never overwritten.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results.h"
#include "core/primcost.h"

#define TMP_SUFFIX ".tmp.XXXXXX"

/*
 * A signal that ends the program while a temporary file exists removes it
 * first. Commands that must finish their write (run, merge) block these
 * signals around it, and get their own handlers back after it.
 */
static const int ending_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_ENDING (sizeof(ending_signals) / sizeof(ending_signals[0]))
static char *volatile guarded_tmp;
static struct sigaction saved_actions[N_ENDING];

static void remove_tmp_and_end(int sig)
{
	char *tmp = guarded_tmp;

	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);		/* delivered when this handler returns */
}

static void guard_tmp(const char *tmp)
{
	struct sigaction act;
	size_t i;

	if (guarded_tmp)
		return;
	memset(&act, 0, sizeof(act));
	act.sa_handler = remove_tmp_and_end;
	sigemptyset(&act.sa_mask);
	guarded_tmp = (char *)tmp;
	for (i = 0; i < N_ENDING; i++) {
		sigaction(ending_signals[i], &act, &saved_actions[i]);
		if (saved_actions[i].sa_handler == SIG_IGN)	/* nohup: still ignored */
			sigaction(ending_signals[i], &saved_actions[i], NULL);
	}
}

static void unguard_tmp(const char *tmp)
{
	size_t i;

	if (!tmp || guarded_tmp != tmp)
		return;
	for (i = 0; i < N_ENDING; i++)
		sigaction(ending_signals[i], &saved_actions[i], NULL);
	guarded_tmp = NULL;
}

/* The mode a new file gets: 0666 less the umask, as open(2) gives it. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

/* Is target (st) one of the inputs? An input may carry a run selector
 * (FILE@latest): the name before its last '@' is tried too. */
static const char *same_as_input(const struct stat *st, const char *const *inputs,
				 size_t ninputs)
{
	char name[PATH_MAX], *at;
	struct stat in;
	size_t i;

	for (i = 0; i < ninputs; i++) {
		if (!inputs[i] || strcmp(inputs[i], "-") == 0)
			continue;
		snprintf(name, sizeof(name), "%s", inputs[i]);
		if (stat(name, &in) != 0 && (at = strrchr(name, '@')) != NULL) {
			*at = 0;
			if (stat(name, &in) != 0)
				continue;
		}
		if (in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return inputs[i];
	}
	return NULL;
}

int pc_out_name_fits(const char *target, char *err, size_t errlen)
{
	const char *base = strrchr(target, '/');

	base = base ? base + 1 : target;
	if (strlen(base) + strlen(TMP_SUFFIX) > NAME_MAX) {
		snprintf(err, errlen, "%.200s...: file name too long (at most %zu bytes, "
			 "to leave room for its temporary file)", target,
			 (size_t)NAME_MAX - strlen(TMP_SUFFIX));
		return -1;
	}
	return 0;
}

/* The temporary file beside o->target, with the mode and owner of the file
 * it replaces (st, when existed) or those a new file gets. */
static int open_tmp(struct pc_out *o, const struct stat *st, int existed, char *err,
		    size_t errlen)
{
	int fd;

	if (asprintf(&o->tmp, "%s" TMP_SUFFIX, o->target) < 0) {
		o->tmp = NULL;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	fd = mkostemp(o->tmp, O_CLOEXEC);	/* O_CREAT | O_EXCL, mode 0600 */
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s", o->target, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* owner first: a change of owner clears the set-ID bits */
	if (existed && fchown(fd, st->st_uid, st->st_gid) != 0 &&
	    fchown(fd, (uid_t)-1, st->st_gid) != 0)
		errno = 0;	/* not ours to give away: the writer keeps it */
	if (fchmod(fd, existed ? st->st_mode & 07777 : new_file_mode()) != 0) {
		snprintf(err, errlen, "cannot write %s: %s", o->target, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int pc_out_open(struct pc_out *o, const char *path, const char *const *inputs,
		size_t ninputs, char *err, size_t errlen)
{
	struct stat st;
	sigset_t block, old;
	const char *in;
	int existed, fd;
	size_t i;

	memset(o, 0, sizeof(*o));
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	/* A device or a FIFO is opened by the name given: /dev/stdout leads,
	 * through /proc, to a pipe that has no name to follow. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		snprintf(o->target, sizeof(o->target), "%s", path);
	else if (pc_write_target(path, o->target, sizeof(o->target), err, errlen) < 0)
		return -1;
	existed = stat(o->target, &st) == 0;
	if (!existed && errno != ENOENT) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (existed && (in = same_as_input(&st, inputs, ninputs)) != NULL) {
		snprintf(err, errlen, "%s: is also the input %s; refusing to overwrite "
			 "it (choose another output)", path, in);
		return -1;
	}
	if (existed && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(EISDIR));
		return -1;
	}
	if (existed && !S_ISREG(st.st_mode)) {
		/* a device or a FIFO: written in place, never replaced */
		fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		return 0;
	}
	if (pc_out_name_fits(o->target, err, errlen) < 0)
		return -1;
	/* no signal between the file's creation and its guard */
	sigemptyset(&block);
	for (i = 0; i < N_ENDING; i++)
		sigaddset(&block, ending_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	fd = open_tmp(o, &st, existed, err, errlen);
	if (fd >= 0)
		guard_tmp(o->tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		pc_out_abort(o);
		return -1;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		pc_out_abort(o);
		return -1;
	}
	return 0;
}

/* Makes the rename itself durable. */
static void sync_dir(const char *target)
{
	char *copy = strdup(target);
	int dfd;

	if (!copy)
		return;
	dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(copy);
}

/* Is the file at o->target (fd, or none when fd < 0) the one read? The
 * lock on fd was waited for: the name must still lead to it, since the
 * writer that held it may have renamed another file over it meanwhile. */
static bool same_as_read(const struct pc_out *o, int fd)
{
	struct stat now, named;

	if (fd < 0)
		return !o->read_existed && access(o->target, F_OK) != 0;
	return o->read_existed && fstat(fd, &now) == 0 &&
	       now.st_dev == o->read_st->st_dev && now.st_ino == o->read_st->st_ino &&
	       stat(o->target, &named) == 0 && named.st_dev == now.st_dev &&
	       named.st_ino == now.st_ino;
}

/* Puts the temporary file in place. Where the file read did not exist, a
 * hard link makes it only if no other writer made one meanwhile (EEXIST:
 * PC_OUT_LOCK_LOST); a file system without links gets the rename. */
static int put_in_place(const struct pc_out *o)
{
	if (o->lock_fd && !o->read_existed) {
		if (link(o->tmp, o->target) == 0) {
			unlink(o->tmp);
			return 0;
		}
		if (errno == EEXIST)
			return PC_OUT_LOCK_LOST;
		if (errno != EPERM && errno != EOPNOTSUPP && errno != EMLINK)
			return -1;
	}
	return rename(o->tmp, o->target);
}

/*
 * Before the rename of a read, change and write: the lock taken again if
 * its file was removed meanwhile, and the file at the target locked
 * (*held, closed after the rename) and checked to be the one read. Every
 * writer replaces the file, so one that wrote since we read left another
 * file there: PC_OUT_LOCK_LOST, for the caller to read and change again.
 * 0 when the write may go on; -1 with err on an error.
 */
static int relock(struct pc_out *o, int *held, char *err, size_t errlen)
{
	int fd;

	if (*o->lock_fd < 0 || !pc_doc_lock_held(*o->lock_fd, o->target)) {
		pc_doc_unlock(*o->lock_fd);
		*o->lock_fd = pc_doc_lock(o->target, NULL, NULL, NULL, err, errlen);
		if (*o->lock_fd < 0)
			return -1;
	}
	fd = open(o->target, O_RDONLY | O_CLOEXEC);
	while (fd >= 0 && flock(fd, LOCK_EX) != 0 && errno == EINTR)
		;
	if (!same_as_read(o, fd)) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s: replaced by another writer while its lock "
			 "file was removed", o->target);
		return PC_OUT_LOCK_LOST;
	}
	*held = fd;
	return 0;
}

int pc_out_commit(struct pc_out *o, char *err, size_t errlen)
{
	const char *name = o->f == stdout ? "standard output" : o->target;
	int failed, e = 0, held = -1, lost;

	failed = fflush(o->f) != 0 || ferror(o->f);
	if (failed)
		e = errno ? errno : EIO;
	if (!failed && o->tmp && fsync(fileno(o->f)) != 0) {
		failed = 1;
		e = errno;
	}
	if (o->f != stdout && fclose(o->f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	o->f = NULL;
	if (!failed && o->tmp && o->lock_fd && (e = relock(o, &held, err, errlen)) != 0) {
		pc_out_abort(o);
		return e;
	}
	if (!failed && o->tmp && (lost = put_in_place(o)) != 0) {
		if (lost == PC_OUT_LOCK_LOST) {
			if (held >= 0)
				close(held);
			snprintf(err, errlen, "%s: made by another writer while its lock "
				 "file was removed", o->target);
			pc_out_abort(o);
			return PC_OUT_LOCK_LOST;
		}
		failed = 1;
		e = errno;
	}
	if (held >= 0)
		close(held);	/* after the rename: the next writer sees the new file */
	if (failed) {
		snprintf(err, errlen, "cannot write %s: %s", name, strerror(e));
		pc_out_abort(o);
		return -1;
	}
	if (o->tmp)
		sync_dir(o->target);
	unguard_tmp(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void pc_out_abort(struct pc_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		unguard_tmp(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
}

json_t *pc_output_open(const char *output, const char *cmd, int (*stop)(void),
		       int *stopped, struct pc_output *out, char *err, size_t errlen)
{
	char why[PC_ERRLEN];
	struct stat st;
	json_t *doc;

	out->lock_fd = -1;
	out->read_fd = -1;
	if (pc_write_target(output, out->target, sizeof(out->target), err, errlen) < 0)
		return NULL;
	/* a result is read, changed and replaced: a device or a FIFO cannot be */
	if (stat(out->target, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file (a result is read and "
			 "replaced; give a file, or -o - for standard output)", output);
		return NULL;
	}
	/* Writers of one file take turns: read, change and write under the lock. */
	out->lock_fd = pc_doc_lock(out->target, cmd, stop, stopped, err, errlen);
	if (out->lock_fd < 0)
		return NULL;
	/* The file read is the one checked before the rename: its identity
	 * taken from the descriptor it is read through. */
	out->read_fd = open(out->target, O_RDONLY | O_CLOEXEC);
	out->read_existed = out->read_fd >= 0 && fstat(out->read_fd, &out->read_st) == 0;
	if (out->read_existed)
		doc = pc_doc_load_fd(out->read_fd, out->target, why, sizeof(why));
	else if (out->read_fd < 0 && errno == ENOENT)
		doc = pc_doc_new();
	else {
		snprintf(why, sizeof(why), "%.400s: %s", out->target, strerror(errno));
		doc = NULL;
	}
	if (!doc) {
		snprintf(err, errlen, "%.400s (refusing to replace it; move it away or "
			 "choose another -o)", why);
		pc_output_close(out);
	}
	return doc;
}

void pc_output_close(struct pc_output *out)
{
	pc_doc_unlock(out->lock_fd);
	out->lock_fd = -1;
	if (out->read_fd >= 0)
		close(out->read_fd);
	out->read_fd = -1;
}
