// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-cyclic's command line: input split at newlines into argv. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclic.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *argv[64], *p;
	struct cyclic_opts o;
	int argc = 0;

	memcpy(s, data, size);
	s[size] = '\0';
	argv[argc++] = "rtproof-cyclic";
	for (p = strtok(s, "\n"); p && argc < 63; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	if (!cyclic_parse(&o, argc, argv)) {
		if (o.interval_ns < 1000 || o.priority < 0 || o.priority > 99 || CPU_COUNT(&o.cpus) == 0)
			abort();
	}
	free(s);
	return 0;
}
