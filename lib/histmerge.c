// SPDX-License-Identifier: GPL-2.0-or-later
#include "histmerge.h"

#include <stdint.h>
#include <stdlib.h>

static int cmp_span(const void *a, const void *b)
{
	const struct rtp_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

size_t rtp_span_merge(struct rtp_span *b, size_t n)
{
	size_t i, out = 0;

	if (!n)
		return 0;
	qsort(b, n, sizeof(*b), cmp_span);
	for (i = 0; i < n; i++) {
		if (out && b[i].lo <= b[out - 1].hi) {
			/* saturating: a document's counts are not to be trusted */
			b[out - 1].count = b[out - 1].count + b[i].count < b[out - 1].count ?
					   UINT64_MAX : b[out - 1].count + b[i].count;
			if (b[i].hi > b[out - 1].hi)
				b[out - 1].hi = b[i].hi;
		} else {
			b[out++] = b[i];
		}
	}
	return out;
}
