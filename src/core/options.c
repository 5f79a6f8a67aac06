/* SPDX-License-Identifier: MIT */
/* options.c - option values as typed: numbers in a range, words, paths,
 * each refused with one line that names the option and the value. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

long pc_parse_long(const char *s, long lo, long hi)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	return v;
}

double pc_parse_double(const char *s, double lo, double hi)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return NAN;
	return v;
}

int pc_opt_long(const char *opt, const char *arg, long lo, long hi,
		const char *want, long *out, char *err, size_t errlen)
{
	long v = pc_parse_long(arg, lo, hi);

	if (v < 0) {
		snprintf(err, errlen, "%s: want %s, got '%s'", opt, want, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int pc_opt_double(const char *opt, const char *arg, double lo, double hi,
		  const char *want, double *out, char *err, size_t errlen)
{
	double v = pc_parse_double(arg, lo, hi);

	if (isnan(v)) {
		snprintf(err, errlen, "%s: want %s, got '%s'", opt, want, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int pc_opt_nonempty(const char *opt, const char *arg, const char **out,
		    char *err, size_t errlen)
{
	if (!*arg) {
		snprintf(err, errlen, "%s: empty value", opt);
		return -1;
	}
	*out = arg;
	return 0;
}

int pc_opt_word(const char *opt, const char *arg, const char *const *words,
		char *err, size_t errlen)
{
	size_t i, n, at;

	for (n = 0; words[n]; n++)
		if (strcmp(arg, words[n]) == 0)
			return (int)n;
	at = (size_t)snprintf(err, errlen, "%s: want ", opt);
	for (i = 0; i < n && at < errlen; i++)
		at += (size_t)snprintf(err + at, errlen - at, "%s%s",
				       i == 0 ? "" : i + 1 == n ? " or " : ", ", words[i]);
	if (at < errlen)
		snprintf(err + at, errlen - at, ", got '%s'", arg);
	return -1;
}
