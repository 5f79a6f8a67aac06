/* SPDX-License-Identifier: MIT */
/*
 * Replays fuzz inputs through a fuzz target without libFuzzer, so that
 * `make check` runs every seed of tests/fuzz/ (under the sanitizers too, in
 * their build) and a target that stops building or an input that breaks a
 * property shows up without clang. A broken property aborts.
 *
 *   replay_TARGET FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long len;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)len + 1)) ||
		    fread(buf, 1, (size_t)len, f) != (size_t)len) {
			fprintf(stderr, "replay: %s: cannot read it\n", argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
	}
	return 0;
}
