/* SPDX-License-Identifier: MIT */
/* util.c - small functions shared by the subcommands. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "primcost.h"

void pc_one_line(char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* The length of the character at s that a terminal would obey rather than
 * show: C0 and DEL (1 byte), C1 as UTF-8 (U+0080..U+009F, 2 bytes), the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069); *cp its code point. 0 for a character shown as it is. */
static size_t control_at(const unsigned char *s, unsigned *cp)
{
	if (s[0] < 0x20 || s[0] == 0x7f) {
		*cp = s[0];
		return 1;
	}
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
		*cp = s[1];
		return 2;
	}
	if (s[0] == 0xd8 && s[1] == 0x9c) {
		*cp = 0x61c;
		return 2;
	}
	if (s[0] == 0xe2 && (s[1] == 0x80 || s[1] == 0x81) && s[2] >= 0x80 && s[2] <= 0xbf) {
		*cp = 0x2000 | (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		if (*cp == 0x200e || *cp == 0x200f || (*cp >= 0x202a && *cp <= 0x202e) ||
		    (*cp >= 0x2066 && *cp <= 0x2069))
			return 3;
	}
	return 0;
}

/* The length of the valid UTF-8 sequence at s, 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* The escape of the character at s (n bytes, code point cp, control says
 * whether it is one) into esc; 0 when s is shown as it is. */
static int escape_of(const unsigned char *s, size_t *n, char *esc, size_t len)
{
	unsigned cp;

	*n = control_at(s, &cp);
	if (*n == 1 && (cp == '\n' || cp == '\t' || cp == '\r'))
		snprintf(esc, len, "\\%c", cp == '\n' ? 'n' : cp == '\t' ? 't' : 'r');
	else if (*n == 1)
		snprintf(esc, len, "\\x%02x", cp);
	else if (*n)
		snprintf(esc, len, "\\u%04x", cp);
	else if ((*n = utf8_len(s)) != 0)
		return 0;
	else {	/* not UTF-8: the byte */
		*n = 1;
		snprintf(esc, len, "\\x%02x", s[0]);
	}
	return 1;
}

int pc_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

size_t pc_escape_text(const char *s, char *out, size_t outlen)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	size_t at = 0, n, m;
	char esc[12];
	const char *from;

	if (!outlen)
		return 0;
	for (; *u; u += n) {
		from = escape_of(u, &n, esc, sizeof(esc)) ? esc : (const char *)u;
		m = from == esc ? strlen(esc) : n;
		if (at + m >= outlen)
			break;
		memcpy(out + at, from, m);
		at += m;
	}
	out[at] = 0;
	return at;
}

#define SHOWN_BUFS 8
#define SHOWN_LEN (4 * PATH_MAX)

const char *pc_shown(const char *s)
{
	static char buf[SHOWN_BUFS][SHOWN_LEN];
	static unsigned next;
	char *b = buf[next++ % SHOWN_BUFS];

	pc_escape_text(s, b, SHOWN_LEN);
	return b;
}

void pc_escape_controls(char *s, size_t size)
{
	char *in;

	if (!s || !size)
		return;
	in = strdup(s);
	if (!in) {
		pc_one_line(s);
		return;
	}
	pc_escape_text(in, s, size);
	free(in);
}

void pc_csv_field(FILE *f, const char *s)
{
	bool quote;

	s = pc_shown(s);	/* a spreadsheet or a terminal shows it */
	quote = strpbrk(s, ",\"\r\n") || *s == ' ' || (*s && s[strlen(s) - 1] == ' ');
	if (quote)
		fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	if (quote)
		fputc('"', f);
}

int pc_word_index(const char *s, const char *const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s, words[i]) == 0)
			return (int)i;
	return -1;
}

const char *pc_bad_option(char **argv, int c, char *buf, size_t len)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;

	if ((c == ':' || !optopt) && arg && strncmp(arg, "--", 2) == 0)
		snprintf(buf, len, "%s", arg);
	else if (optopt > 0 && optopt < 256)
		snprintf(buf, len, "-%c", optopt);
	else
		snprintf(buf, len, "%s", arg ? arg : "?");
	return buf;
}

void pc_status_line(int fd, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	size_t len, done = 0;
	int n;

	if (fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	len = strlen(line);
	pc_one_line(line);
	line[len++] = '\n';
	while (done < len) {
		ssize_t w = write(fd, line + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		done += (size_t)w;
	}
}

void pc_error(const char *cmd, const char *fmt, ...)
{
	char msg[2 * PC_ERRLEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pc_escape_controls(msg, sizeof(msg));
	if (cmd)
		fprintf(stderr, "primcost: %s: %s\n", cmd, msg);
	else
		fprintf(stderr, "primcost: %s\n", msg);
}

/* pc_paths.h, written by make: PC_REFERENCE_DIR, the installed tables. It
 * is rewritten whenever the configured directory changes, so that a new
 * --prefix rebuilds this file. */
#include "pc_paths.h"

int pc_reference_dirs(struct pc_data_dirs *d)
{
	const char *env = getenv("PRIMCOST_REFERENCE_DIR");
	char exe[PATH_MAX];
	ssize_t n;

	d->n = 0;
	if (env && *env) {	/* set: the only place */
		snprintf(d->dir[d->n++], sizeof(d->dir[0]), "%s", env);
		return d->n;
	}
	/* the build tree: data/ next to the program */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		snprintf(d->dir[d->n++], sizeof(d->dir[0]), "%s/data/reference",
			 dirname(exe));
	}
	snprintf(d->dir[d->n++], sizeof(d->dir[0]), "%s", PC_REFERENCE_DIR);
	return d->n;
}

/* "A (why), B (why)" for every directory of d, into buf. */
static void looked_in(const struct pc_data_dirs *d, char *buf, size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < d->n && at < len; i++) {
		int e = access(d->dir[i], R_OK | X_OK) == 0 ? 0 : errno;

		at += snprintf(buf + at, len - at, "%s%s%s%s%s", i ? ", " : "",
			       d->dir[i], e ? " (" : "", e ? strerror(e) : "",
			       e ? ")" : "");
	}
}

const char *pc_reference_dir(char *err, size_t errlen)
{
	static struct pc_data_dirs d;
	char where[PC_ERRLEN];
	struct stat st;
	int i;

	pc_reference_dirs(&d);
	for (i = 0; i < d.n; i++)
		if (stat(d.dir[i], &st) == 0 && S_ISDIR(st.st_mode))
			return d.dir[i];
	looked_in(&d, where, sizeof(where));
	snprintf(err, errlen, "no reference tables: looked in %s%s", where,
		 getenv("PRIMCOST_REFERENCE_DIR") && *getenv("PRIMCOST_REFERENCE_DIR") ?
		 " ($PRIMCOST_REFERENCE_DIR)" : "");
	return NULL;
}

const char *pc_input_path(const char *name, char *buf, size_t len,
			  char *err, size_t errlen)
{
	struct pc_data_dirs d;
	char where[PC_ERRLEN];
	size_t n = strlen(name);
	const char *ext = n > 5 && strcmp(name + n - 5, ".json") == 0 ? "" : ".json";
	int i;

	if (access(name, F_OK) == 0 || strchr(name, '/') || !n)
		return name;
	pc_reference_dirs(&d);
	for (i = 0; i < d.n; i++) {
		snprintf(buf, len, "%s/%s%s", d.dir[i], name, ext);
		if (access(buf, F_OK) == 0)
			return buf;
	}
	looked_in(&d, where, sizeof(where));
	snprintf(err, errlen, "%s: no such file, nor a reference table of that "
		 "name (looked for %s%s in %s; primcost list --reference)",
		 name, name, ext, where);
	return NULL;
}

/* "-" or "-@SEL": standard input. */
static int is_stdin(const char *arg)
{
	return arg[0] == '-' && (arg[1] == 0 || arg[1] == '@');
}

int pc_stdin_twice(const char *const *files, size_t n, const char *arg, char *err,
		   size_t errlen)
{
	size_t i;

	if (!is_stdin(arg))
		return 0;
	for (i = 0; i < n; i++) {
		if (is_stdin(files[i])) {
			snprintf(err, errlen, "standard input given twice ('%s' and "
				 "'%s'): it can be read once", files[i], arg);
			return 1;
		}
	}
	return 0;
}

int pc_add_files(int argc, char **argv, const char **files, size_t *n, size_t max,
		 char *err, size_t errlen)
{
	for (; optind < argc; optind++) {
		if (pc_stdin_twice(files, *n, argv[optind], err, errlen))
			return -1;
		if (*n == max) {
			snprintf(err, errlen, "at most %zu files", max);
			return -1;
		}
		files[(*n)++] = argv[optind];
	}
	return 0;
}
