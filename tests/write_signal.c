/* SPDX-License-Identifier: MIT */
/*
 * The atomic write under signals. A SIGTERM that arrives while
 * pc_doc_write() has its temporary file takes effect after the rename: the
 * destination is the new document, whole, and no temporary file is left.
 * A SIGKILL (which nothing can delay) leaves the old destination whole.
 */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/results.h"
#include "tap.h"
#include "core/primcost.h"

static char dir[] = "/tmp/pc-write-signal-XXXXXX";
static char path[256];

/* A valid result made big by a long history of runs: a second or so to
 * write, so that the signal lands in the middle. */
static json_t *big_doc(int tag)
{
	json_t *doc = pc_doc_new();
	int c, i;

	/* 6 CPUs x 10000 runs: as large as the reader's limits allow per CPU. */
	for (c = 0; c < 6; c++) {
		json_t *runs = json_array(), *entry;
		char key[64];

		for (i = 0; i < 10000; i++)
			json_array_append_new(runs, json_pack("{s:s, s:i, s:s}", "date",
				"2026-01-01T00:00:00Z", "tag", tag, "host",
				"a-host-name-long-enough-to-make-the-file-large"));
		entry = json_pack("{s:{s:s}, s:o, s:{}}", "cpu", "arch", "x86_64",
				  "runs", runs, "probes");
		snprintf(key, sizeof(key), c ? "x86_64.test.1-2-3.cpu%d" :
			 "x86_64.test.1-2-3.cpu", c);
		json_object_set_new(json_object_get(doc, "cpus"), key, entry);
	}
	return doc;
}

static int temp_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strstr(e->d_name, ".tmp.") != NULL;
	if (d)
		closedir(d);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Forks a writer of doc, sends sig once its temporary file exists.
 * Returns the wait status, or -1 when the temporary file was never seen
 * (then the test `what` is skipped). */
static int write_and_signal(json_t *doc, int sig, const char *what)
{
	char err[PC_ERRLEN];
	int status, seen = 0, ended = 0;
	double t0 = now_s();
	pid_t pid = fork();

	if (pid == 0)
		_exit(pc_doc_write(doc, path, err, sizeof(err)) == 0 ? 0 : 3);
	while (now_s() - t0 < 20) {
		if (temp_files()) {
			seen = 1;
			kill(pid, sig);
			break;
		}
		if (waitpid(pid, &status, WNOHANG) == pid) {
			ended = 1;
			break;
		}
		usleep(200);
	}
	if (!ended)
		waitpid(pid, &status, 0);
	if (!seen)
		skip("the write ended before its temporary file was seen", what);
	return seen ? status : -1;
}

static int tag_of(json_t *doc)
{
	json_t *e = json_object_get(json_object_get(doc, "cpus"), "x86_64.test.1-2-3.cpu");

	return (int)json_integer_value(json_object_get(
		json_array_get(json_object_get(e, "runs"), 0), "tag"));
}

int main(void)
{
	json_t *old_doc = big_doc(1), *new_doc = big_doc(2), *back;
	char err[PC_ERRLEN], cmd[300];
	int status, missing;

	/* The test forks a writer and signals it; a fork under qemu-user spins
	 * in the emulator's translator (Debian 12's qemu-user 7.2). */
	if (getenv("TEST_EMULATOR") && *getenv("TEST_EMULATOR")) {
		skip("a fork under an emulator hangs in the emulator",
		     "signals during the write");
		return done_testing();
	}
	if (!mkdtemp(dir)) {
		skip("cannot make a temporary directory", "signals during the write");
		return done_testing();
	}
	snprintf(path, sizeof(path), "%s/primcost.json", dir);
	ok(pc_doc_write(old_doc, path, err, sizeof(err)) == 0, "the old file is written");

	status = write_and_signal(new_doc, SIGTERM, "SIGTERM during the write");
	if (status != -1) {
		ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
		   "SIGTERM during the write still ends the writer");
		back = pc_doc_load(path, &missing, err, sizeof(err));
		ok(back && tag_of(back) == 2,
		   "... after the rename: the destination is the new file, whole (%s)",
		   back ? "valid" : err);
		ok(temp_files() == 0, "... and no temporary file is left");
		json_decref(back);
	}

	/* Start again from the old file; SIGKILL cannot wait. */
	ok(pc_doc_write(old_doc, path, err, sizeof(err)) == 0, "the old file is written again");
	status = write_and_signal(new_doc, SIGKILL, "SIGKILL during the write");
	if (status != -1) {
		back = pc_doc_load(path, &missing, err, sizeof(err));
		ok(WIFSIGNALED(status) && back && tag_of(back) == 1,
		   "SIGKILL during the write: the destination is the old file, whole (%s)",
		   back ? "valid" : err);
		json_decref(back);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	json_decref(old_doc);
	json_decref(new_doc);
	return done_testing();
}
