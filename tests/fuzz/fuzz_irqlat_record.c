// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What rtproof-irqlat reads from the kernel: module records (any bytes, as
 * a buggy or foreign module could hand over), and the text it matches IRQ
 * threads and the threading mode with.  Records are accounted only in
 * order (a <= b <= c <= d), every one counted once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irqlat.h"
#include "../../kernel/module/rtproof_irqlat.h"

static struct irqlat_stats st;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtp_irqlat_record r;
	size_t off, n = 0, good = 0;
	char *s;
	int i;

	irqlat_stats_init(&st);
	for (off = 0; off + sizeof(r) <= size; off += sizeof(r)) {
		memcpy(&r, data + off, sizeof(r));
		good += irqlat_account_record(&st, &r);
		n++;
	}
	if (st.records != n || st.unordered + good != n)
		abort();
	for (i = 0; i < ST_N; i++)
		if (st.h[i].count > good)
			abort();
	s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	irqlat_forced_threading(size & 1, s);
	irqlat_comm_matches(s, (int)(size % 300), size > 2 ? s + size / 2 : "rtproof");
	free(s);
	return 0;
}
