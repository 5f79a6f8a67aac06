/* SPDX-License-Identifier: MIT */
/* main.c - subcommand dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli_common.h"
#include "commands.h"
#include "config.h"
#include "results/table.h"

static const struct pc_command commands[] = {
	{ "run", cmd_run, "measure the probes on this CPU and save the results" },
	{ "list", cmd_list, "list the probes and what this build can run" },
	{ "info", cmd_info, "show what primcost detects about this machine" },
	{ "compare", cmd_compare, "put result files side by side, probe by probe" },
	{ "merge", cmd_merge, "combine result files from many hosts into one" },
	{ "report", cmd_report, "write result files as one HTML page with charts" },
	{ "help", cmd_help, "show the help of a command" },
	{ "version", cmd_version, "print the version" },
};

#define NCOMMANDS PC_ARRAY_LEN(commands)

/* The commands as a table of two columns without headings, its summaries
 * wrapped under the line's width. */
static void usage(FILE *f)
{
	static const struct pc_table_col cols[] = {
		{ .head = "command", .flags = PC_COL_LEFT },
		{ .head = "summary", .flags = PC_COL_LEFT | PC_COL_WRAP, .gap = "   " },
	};
	struct pc_table t;
	size_t i;
	long r;

	pc_text_wrap(f, "", "usage: primcost [--version] [--help] COMMAND [ARGS]", 7,
		     pc_table_fit());
	fputc('\n', f);
	pc_text_wrap(f, "", "What low-level primitives cost on this CPU, in core cycles and "
		     "ns.", 0, pc_table_fit());
	fputs("\ncommands:\n", f);
	if (pc_table_init(&t, " ", cols, PC_ARRAY_LEN(cols)) == 0) {
		t.no_head = true;
		t.indent = 2;
		for (i = 0; i < NCOMMANDS; i++)
			if ((r = pc_table_row(&t)) < 0 ||
			    pc_table_text(&t, (size_t)r, 0, "%s", commands[i].name) < 0 ||
			    pc_table_text(&t, (size_t)r, 1, "%s", commands[i].summary) < 0)
				break;
		pc_table_draw(f, &t, PC_FORMAT_TABLE);
		pc_table_free(&t);
	}
	fputc('\n', f);
	pc_text_wrap(f, "", "'primcost help COMMAND' or 'man primcost-COMMAND' for details.",
		     0, pc_table_fit());
}

static const struct pc_command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int cmd_version(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		pc_error("version", "takes no arguments");
		return PC_EXIT_USAGE;
	}
	printf("primcost %s\n", PACKAGE_VERSION);
	return PC_EXIT_OK;
}

int cmd_help(int argc, char **argv)
{
	const struct pc_command *c;
	char *args[] = { NULL, (char *)"--help", NULL };

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return PC_EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		pc_error("help", "no command '%s'", argv[1]);
		return PC_EXIT_USAGE;
	}
	if (c->fn == cmd_help || c->fn == cmd_version) {
		usage(stdout);
		return PC_EXIT_OK;
	}
	args[0] = (char *)c->name;
	return c->fn(2, args);
}

/* A closed standard descriptor is held by /dev/null, opened the wrong way
 * round so that use of it fails: a file the command opens never takes its
 * number, and what it writes to a closed stdout is an error, not data in
 * that file. */
static void hold_closed_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			return;
}

/* Standard output flushed and closed, checked: a command whose output was
 * lost (a full disk, a closed pipe or descriptor) does not exit 0. */
static int close_stdout(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return rc;
	if (rc == PC_EXIT_USAGE)	/* the command has said why */
		return rc;
	pc_error(NULL, "cannot write to standard output: %s",
		 strerror(errno ? errno : EIO));
	return rc == PC_EXIT_OK ? PC_EXIT_USAGE : rc;
}

static int dispatch(int argc, char **argv)
{
	const struct pc_command *c;

	if (argc < 2) {
		usage(stderr);
		return PC_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return PC_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version(1, argv + 1);
	c = find(argv[1]);
	if (!c) {
		pc_error(NULL, "no command '%s' (see primcost --help)", argv[1]);
		return PC_EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}

/* The width every text view fits, read once: $COLUMNS, else the
 * terminal's, else 80 (pc_table_set_fit; views read pc_table_fit). */
static int term_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long n;

	if (c && *c) {
		n = strtol(c, &end, 10);
		if (!*end && n >= 20 && n <= 10000)
			return (int)n;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

int main(int argc, char **argv)
{
	hold_closed_std_fds();
	pc_table_set_fit(term_width());	/* every text view fits it */
	return close_stdout(dispatch(argc, argv));
}
