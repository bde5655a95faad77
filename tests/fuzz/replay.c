// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replay main for gcc builds: runs a fuzz target over the files named on
 * the command line (the committed seed corpus).  With clang, build the
 * same target with -fsanitize=fuzzer instead (make fuzz).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i, n = 0, keep = dup(2);
	FILE *report = fdopen(keep, "w");

	/* The parsers' own messages are not the point of a replay. */
	if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
		return 1;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;

		if (!f) {
			fprintf(report, "%s: cannot open\n", argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		buf = malloc(len > 0 ? (size_t)len : 1);
		if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
			fprintf(report, "%s: cannot read\n", argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
		n++;
	}
	fprintf(report, "%s: %d inputs replayed\n", argv[0], n);
	fclose(report);
	return 0;
}
