// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: the timerlat trace line parser and the command line. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_argv.h"
#include "irqlat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX];
	struct irqlat_opts o;
	uint64_t seq, ns;
	int ctx, ret, argc;

	ret = irqlat_parse_timerlat(s, &ctx, &seq, &ns);
	if (ret < 0 || ret > 1 || (ret == 1 && (ctx < 0 || ctx > 2)))
		abort();
	argc = fuzz_argv(s, "rtproof-irqlat", argv);
	irqlat_parse(&o, argc, argv);
	free(s);
	return 0;
}
