// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The result document reader: any input is parsed or refused with a
 * reason, never crashes or leaks; what it accepts keeps its invariants.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtp_doc d;
	char err[256];
	size_t i, k;

	err[0] = 0;
	if (rtp_doc_parse(&d, (const char *)data, size, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a refusal always says why */
		return 0;
	}
	if (strncmp(d.tool, "rtproof-", 8))
		abort();
	for (i = 0; i < d.nmetrics; i++) {
		const struct rtp_doc_metric *m = &d.metrics[i];
		uint64_t sum = m->overflow, bsum = 0;

		if (m->buckets) {
			for (k = 0; k < m->nbuckets; k++) {
				if (m->buckets[k].hi < m->buckets[k].lo)
					abort();
				sum += m->buckets[k].count;
			}
			if (sum != m->count)
				abort();
		}
		for (k = 0; k < m->nblocks; k++) {
			bsum += m->blocks[k].count;
			if (m->blocks[k].max > m->max)
				abort();
		}
		if (bsum > m->count)
			abort();
		if (rtp_doc_find(&d, m->name, m->key) != m)
			abort();
	}
	rtp_doc_free(&d);
	return 0;
}
