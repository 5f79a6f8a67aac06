/* util.c - small helpers shared by the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

#ifndef PC_REFERENCE_DIR
#define PC_REFERENCE_DIR "/usr/local/share/primcost/reference"
#endif

const char *pc_reference_dir(void)
{
	const char *d = getenv("PRIMCOST_REFERENCE_DIR");

	return d && *d ? d : PC_REFERENCE_DIR;
}

const char *pc_input_path(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (access(name, F_OK) == 0 || strchr(name, '/') || !n)
		return name;
	snprintf(buf, len, "%s/%s%s", pc_reference_dir(), name,
		 n > 5 && strcmp(name + n - 5, ".json") == 0 ? "" : ".json");
	return access(buf, F_OK) == 0 ? buf : name;
}
