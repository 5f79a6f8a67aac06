/* SPDX-License-Identifier: MIT */
/*
 * runner_proc.c - getting a probe runner's output: running it (or the
 * emulator that runs it) as a child process with a time limit and a cap
 * on what it may write, or reading a copy saved where it ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner_parts.h"

extern char **environ;

#define READ_CHUNK 65536

/* Starts argv with stdin from /dev/null, stdout and stderr into out_fd. */
static int spawn(char *const argv[], bool search_path, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int e;

	e = posix_spawn_file_actions_init(&fa);
	if (e)
		return e;
	e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!e)
		e = posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	if (!e)
		e = search_path ? posix_spawnp(pid, argv[0], &fa, NULL, argv, environ) :
				  posix_spawn(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return e;
}

/* Makes room for one more read; false (the child is to be stopped) when
 * the output would pass the limit or memory runs out. */
static bool room_for_chunk(struct pc_runner_exec *r, size_t *cap)
{
	char *t;

	if (r->len + READ_CHUNK + 1 <= *cap)
		return true;
	*cap = *cap ? *cap * 2 : 1 << 20;
	if (*cap > PC_RUNNER_OUTPUT_LIMIT)
		return false;
	t = realloc(r->text, *cap);
	if (!t)
		return false;
	r->text = t;
	return true;
}

/* Reads fd until the child closes it, killing the child at the deadline
 * or when its output does not fit. */
static void collect(int fd, pid_t pid, double deadline, struct pc_runner_exec *r)
{
	size_t cap = 0;

	for (;;) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		double left = deadline - mono_s();
		ssize_t got;

		if (left <= 0) {
			r->timed_out = true;
			kill(pid, SIGKILL);
			return;
		}
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (!pfd.revents)
			continue;
		if (!room_for_chunk(r, &cap)) {
			kill(pid, SIGKILL);
			return;
		}
		got = read(fd, r->text + r->len, READ_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return;
		r->len += (size_t)got;
	}
}

int pc_runner_exec(char *const argv[], bool search_path, unsigned timeout_s,
		   struct pc_runner_exec *r, char *err, size_t errlen)
{
	double deadline = mono_s() + timeout_s;
	int fds[2], e;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	e = spawn(argv, search_path, fds[1], &pid);
	close(fds[1]);
	if (e) {
		close(fds[0]);
		snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(e));
		return -1;
	}
	collect(fds[0], pid, deadline, r);
	close(fds[0]);
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
	if (!r->text)
		r->text = calloc(1, 1);
	return r->text ? 0 : -1;
}

void pc_runner_exit_text(const struct pc_runner_exec *r, unsigned timeout_s,
			 char *buf, size_t len)
{
	if (r->timed_out)
		snprintf(buf, len, "did not finish within %u s and was killed", timeout_s);
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(r->status),
			 strsignal(WTERMSIG(r->status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(r->status));
}

int pc_runner_load(const char *path, char **text, size_t *len, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	if (!f || !buf) {
		snprintf(err, errlen, "%s: %s", path, f ? "out of memory" : strerror(errno));
		if (f)
			fclose(f);
		free(buf);
		return -1;
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *t = cap < PC_RUNNER_OUTPUT_LIMIT ? realloc(buf, cap * 2) : NULL;

			if (!t) {
				snprintf(err, errlen, "%s: larger than %u MiB", path,
					 PC_RUNNER_OUTPUT_LIMIT >> 20);
				fclose(f);
				free(buf);
				return -1;
			}
			buf = t;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}
