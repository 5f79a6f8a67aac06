/* SPDX-License-Identifier: MIT */
/* tap.h - a minimal Test Anything Protocol emitter for the C tests. */
#ifndef PC_TAP_H
#define PC_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void tap_vresult(int pass, const char *fmt, va_list ap)
{
	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		tap_failed++;
	fflush(stdout);
}

static inline int ok(int pass, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, fmt, ap);
	va_end(ap);
	return pass;
}

/* |got - want| <= tol, with both values printed on failure. */
static inline int near(double got, double want, double tol, const char *fmt, ...)
{
	va_list ap;
	int pass = fabs(got - want) <= tol;

	va_start(ap, fmt);
	tap_vresult(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got %.6g, want %.6g +- %.3g\n", got, want, tol);
	return pass;
}

static inline void skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	fflush(stdout);
}

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

/* The main of a test whose subject this architecture does not have: its
 * one point skipped, saying why. */
#define TAP_SKIP_MAIN(why, what)		\
	int main(void)				\
	{					\
		skip(why, "%s", what);		\
		return done_testing();		\
	}

#endif
