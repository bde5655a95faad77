// SPDX-License-Identifier: GPL-2.0-or-later
/* CPU lists: no crash, and what parses formats back to an equal set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[8192];
	cpu_set_t a, b;

	memcpy(s, data, size);
	s[size] = '\0';
	if (!rtp_parse_cpulist(s, &a)) {
		rtp_format_cpulist(&a, buf, sizeof(buf));
		if (rtp_parse_cpulist(buf, &b) || !CPU_EQUAL(&a, &b))
			abort();
	}
	free(s);
	return 0;
}
