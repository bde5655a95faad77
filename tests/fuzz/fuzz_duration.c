// SPDX-License-Identifier: GPL-2.0-or-later
/* Durations and integers: no crash, results within their documented range. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t ns, v;
	int p;

	memcpy(s, data, size);
	s[size] = '\0';
	if (!rtp_parse_duration_ns(s, &ns) && ns > 100ull * 86400 * 1000000000ull)
		abort();
	if (!rtp_parse_u64(s, 5, 500, &v) && (v < 5 || v > 500))
		abort();
	if (!rtp_parse_prio(s, 1, 99, &p) && (p < 1 || p > 99))
		abort();
	rtp_parse_policy(s, &p);
	free(s);
	return 0;
}
