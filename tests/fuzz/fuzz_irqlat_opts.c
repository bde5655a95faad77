// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat's command line alone: input split at newlines into argv. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_argv.h"
#include "irqlat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX];
	struct irqlat_opts o;
	int argc = fuzz_argv(s, "rtproof-irqlat", argv);

	irqlat_parse(&o, argc, argv);
	free(s);
	return 0;
}
