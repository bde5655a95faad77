// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-cyclic's command line: input split at newlines into argv. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cyclic.h"
#include "fuzz_argv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX];
	struct cyclic_opts o;
	int argc = fuzz_argv(s, "rtproof-cyclic", argv);

	if (!cyclic_parse(&o, argc, argv)) {
		if (o.interval_ns < 1000 || o.priority < 0 || o.priority > 99 || CPU_COUNT(&o.cpus) == 0)
			abort();
	}
	free(s);
	return 0;
}
