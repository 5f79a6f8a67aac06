/* SPDX-License-Identifier: MIT */
/* util.h - errors, escaping, input paths (util.c). */
#ifndef PC_UTIL_H
#define PC_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* The one line on stderr of a user-facing error: "primcost: CMD: what",
 * control characters replaced (cmd NULL: "primcost: what"). */
void pc_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Fills err[errlen] as snprintf and returns -1: a failure said in one
 * statement ("return pc_fail(err, errlen, ...)"). */
int pc_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Writes s into out[outlen] with every character a terminal would obey
 * escaped: C0 and DEL as \n, \t, \r, \x1b; C1 and the bidirectional
 * controls as \u009b, \u202e; a byte that is not UTF-8 as \xff. The one
 * way to show a string that came from outside (a file name, a JSON string)
 * on a terminal or in CSV. Cuts what does not fit; returns the length. */
size_t pc_escape_text(const char *s, char *out, size_t outlen);
/* s escaped as pc_escape_text does, in one of 8 static buffers used in
 * turn (for the arguments of one printf). */
const char *pc_shown(const char *s);
/* One CSV field (RFC 4180): escaped as pc_escape_text does, then quoted,
 * with its quotes doubled, when it holds a comma, a double quote or an outer
 * space; NULL is empty. */
void pc_csv_field(FILE *f, const char *s);

/* The index of s in words[0..n), or -1 when s is none of them. */
int pc_word_index(const char *s, const char *const *words, size_t n);

/* The places the published reference tables may be, in order:
 * $PRIMCOST_REFERENCE_DIR alone when it is set; else data/reference next to
 * the program (a build tree), then the installed data directory. */
struct pc_data_dirs {
	int n;
	char dir[2][4096];
};
int pc_reference_dirs(struct pc_data_dirs *d);
/* The first of those that is a directory; NULL, with err naming every place
 * and why it failed, when none is. */
const char *pc_reference_dir(char *err, size_t errlen);
/* A compare/merge argument: the file itself, or when no such file exists
 * and name has no '/', the reference table NAME(.json) of the first place
 * that has one; NULL, err naming the places looked in, when none has. */
const char *pc_input_path(const char *name, char *buf, size_t len,
			  char *err, size_t errlen);
/* Is arg a second "-" among the n files before it? (Standard input can be
 * read once.) Fills err when so. */
int pc_stdin_twice(const char *const *files, size_t n, const char *arg, char *err,
		   size_t errlen);
/* Appends the operands argv[optind..argc) to files[*n], which holds at most
 * max; -1 with err filled on standard input given twice or too many files. */
int pc_add_files(int argc, char **argv, const char **files, size_t *n, size_t max,
		 char *err, size_t errlen);

/* Replaces control characters (a newline in a file name, a key, an option
 * value) so that an error message stays on one line. */
void pc_one_line(char *s);
/* Rewrites control characters as C escapes (\n, \t, \x1b), in place in
 * s[size], cutting what no longer fits: a user's value shown escaped on
 * one line. */
void pc_escape_controls(char *s, size_t size);
/* The option getopt_long just refused (it returned c, '?' or ':'), as the
 * user typed it: "--bogus", "-z". */
const char *pc_bad_option(char **argv, int c, char *buf, size_t len);

/* The number of elements of array a. */
#define PC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
