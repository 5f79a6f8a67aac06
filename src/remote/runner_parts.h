/* SPDX-License-Identifier: MIT */
/*
 * runner_parts.h - what the files of the runner host share among
 * themselves (runner_host.h is their interface to the rest of primcost):
 * getting a runner's output (runner_proc.c) and two small functions.
 */
#ifndef PC_RUNNER_PARTS_H
#define PC_RUNNER_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

/* The most output one runner execution or saved file may hold. */
#define PC_RUNNER_OUTPUT_LIMIT (256u << 20)

/* What one execution of a runner left. */
struct pc_runner_exec {
	char *text;		/* what it wrote on standard output and error */
	size_t len;
	int status;		/* waitpid status */
	bool timed_out;		/* killed at the time limit */
};

/*
 * Runs argv (argv[0] looked up in PATH when search_path, else a path as
 * given) with standard input from /dev/null and standard output and error
 * into one pipe, and collects what it writes: at most timeout_s seconds
 * and PC_RUNNER_OUTPUT_LIMIT bytes, after which the child is killed. 0
 * when it ran (whatever its exit), -1 with err when it could not be run.
 */
int pc_runner_exec(char *const argv[], bool search_path, unsigned timeout_s,
		   struct pc_runner_exec *r, char *err, size_t errlen);
/* How the execution ended, for messages: "exited with status 1", ... */
void pc_runner_exit_text(const struct pc_runner_exec *r, unsigned timeout_s,
			 char *buf, size_t len);
/* Reads a saved runner output (at most PC_RUNNER_OUTPUT_LIMIT bytes). */
int pc_runner_load(const char *path, char **text, size_t *len, char *err,
		   size_t errlen);

static inline void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

static inline double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
