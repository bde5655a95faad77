// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat's command line alone: input split at newlines into argv. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irqlat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *argv[64], *p;
	struct irqlat_opts o;
	int argc = 0;

	memcpy(s, data, size);
	s[size] = '\0';
	argv[argc++] = "rtproof-irqlat";
	for (p = strtok(s, "\n"); p && argc < 63; p = strtok(NULL, "\n"))
		argv[argc++] = p;
	argv[argc] = NULL;
	irqlat_parse(&o, argc, argv);
	free(s);
	return 0;
}
