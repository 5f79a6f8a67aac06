/* SPDX-License-Identifier: MIT */
/* options.h - option values as typed (options.c). Each pc_opt_ function
 * takes the value of option opt ("--samples") as typed; it stores it and
 * returns 0, or fills err with one line naming the option and the value
 * and returns -1. */
#ifndef PC_OPTIONS_H
#define PC_OPTIONS_H

#include <stddef.h>

/* What an option handler returns for an option it does not know (the
 * option loop, commands.h, then asks the next one or refuses it). */
#define PC_OPT_NOT_MINE 1

/* Parses a non-negative integer option value in [lo, hi]; -1 if bad. */
long pc_parse_long(const char *s, long lo, long hi);
/* A finite number in [lo, hi] (decimal point allowed); NAN if bad. */
double pc_parse_double(const char *s, double lo, double hi);
/* An integer in [lo, hi]; want says so in the error ("9..1000000"). */
int pc_opt_long(const char *opt, const char *arg, long lo, long hi,
		const char *want, long *out, char *err, size_t errlen);
/* A finite number in [lo, hi] (pc_parse_double). */
int pc_opt_double(const char *opt, const char *arg, double lo, double hi,
		  const char *want, double *out, char *err, size_t errlen);
/* A value that must not be empty (a file name, a path). */
int pc_opt_nonempty(const char *opt, const char *arg, const char **out,
		    char *err, size_t errlen);
/* One of words (NULL-terminated): its index, or -1 with err listing them
 * ("--format: want table, csv or json, got 'xml'"). */
int pc_opt_word(const char *opt, const char *arg, const char *const *words,
		char *err, size_t errlen);

#endif
