// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat: the timerlat trace line parser and the command line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irqlat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *argv[64], *p;
	struct irqlat_opts o;
	uint64_t seq, ns;
	int ctx, ret, argc = 0;

	memcpy(s, data, size);
	s[size] = '\0';
	ret = irqlat_parse_timerlat(s, &ctx, &seq, &ns);
	if (ret < 0 || ret > 1 || (ret == 1 && (ctx < 0 || ctx > 2)))
		abort();
	argv[argc++] = "rtproof-irqlat";
	for (p = strtok(s, "\n"); p && argc < 63; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	irqlat_parse(&o, argc, argv);
	free(s);
	return 0;
}
