/* util.c - small helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>

#include "commands.h"

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
