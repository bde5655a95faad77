// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-lockstress's command line and list parsers: input split at newlines. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_argv.h"
#include "lockstress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "alpha", "beta", "gamma" };
	char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX], badbuf[64];
	int out[8], nout = 0, ints[16], nints = 0;
	struct ls_opts o;
	int argc;

	if (!ls_parse_names(s, names, 3, out, &nout, badbuf, sizeof(badbuf)) && (nout < 1 || nout > 3))
		abort();
	if (!ls_parse_int_list(s, 1, 64, ints, &nints, 16))
		for (int i = 0; i < nints; i++)
			if (ints[i] < 1 || ints[i] > 64)
				abort();
	argc = fuzz_argv(s, "rtproof-lockstress", argv);
	ls_parse(&o, argc, argv);
	free(s);
	return 0;
}
