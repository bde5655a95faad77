// SPDX-License-Identifier: GPL-2.0-or-later
/* Block series: placement, pairwise coarsening, merge by time, bounds. */
#include <stdint.h>
#include <string.h>

#include "hist.h"
#include "series.h"
#include "tap.h"

#define MS UINT64_C(1000000)
#define B0 RTP_SERIES_BLOCK0_NS

static uint64_t sum_max(const struct rtp_series *s)
{
	uint64_t m = 0;
	uint32_t i;

	for (i = 0; i < s->nblocks; i++)
		if (s->max[i] > m)
			m = s->max[i];
	return m;
}

static void placement(void)
{
	static struct rtp_series s;
	uint64_t t0 = 1000 * B0;	/* on the grid */

	rtp_series_init(&s);
	rtp_series_record(&s, 5, t0);
	rtp_series_record(&s, 7, t0 + 1);
	rtp_series_record(&s, 3, t0 + B0);		/* next block */
	rtp_series_record(&s, 9, t0 + 5 * B0 + 1);	/* a gap of empty blocks */
	is_u64(s.nblocks, 6, "blocks 0..5 in use");
	is_u64(rtp_series_used(&s), 3, "three of them hold samples");
	ok(s.count[0] == 2 && s.max[0] == 7 && s.count[1] == 1 && s.max[1] == 3 && s.count[5] == 1 &&
	   s.max[5] == 9, "count and max per block");
	rtp_series_record(&s, 11, t0 - B0 + 5);		/* earlier than the window: shifts it */
	ok(s.base == 999 && s.count[0] == 1 && s.max[0] == 11 && s.count[1] == 2 && s.max[1] == 7,
	   "a sample before the window shifts it (base %llu)", (unsigned long long)s.base);
	is_u64(rtp_series_total(&s), 5, "every sample counted");
}

static void coarsening(void)
{
	static struct rtp_series s;
	uint64_t t0 = 12345 * B0 + 17, i, n = 10 * RTP_SERIES_BLOCKS, total = 0;

	rtp_series_init(&s);
	for (i = 0; i < n; i++) {
		rtp_series_record(&s, i == 777 ? 1000000 : i % 100, t0 + i * B0);
		total++;
	}
	ok(s.nblocks <= RTP_SERIES_BLOCKS, "bounded: %u blocks of %d", s.nblocks, RTP_SERIES_BLOCKS);
	ok(s.coarsened == 4 && s.block_ns == 16 * B0, "coarsened %u times to %llu ns blocks", s.coarsened,
	   (unsigned long long)s.block_ns);
	is_u64(rtp_series_total(&s), total, "no sample lost in coarsening");
	is_u64(sum_max(&s), 1000000, "the overall max survives exactly");
	/* the block holding sample 777 holds its time */
	{
		uint64_t t = t0 + 777 * B0, k = t / s.block_ns - s.base;

		is_u64(s.max[k], 1000000, "the max sits in the block of its time");
	}
	ok(sizeof(struct rtp_series) <= 4200, "one series takes %zu bytes", sizeof(struct rtp_series));
}

static void merging(void)
{
	static struct rtp_hist a, b, c;
	uint64_t t0 = 5000 * B0, i;

	rtp_hist_init(&a);
	rtp_hist_init(&b);
	rtp_hist_init(&c);
	for (i = 0; i < 100; i++)
		rtp_hist_record_at(&a, 10 + i, t0 + i * B0);		/* 100 blocks */
	for (i = 0; i < 1000; i++)
		rtp_hist_record_at(&b, i == 500 ? 99999 : 20, t0 + 50 * B0 + i * B0 / 2); /* finer, later */
	rtp_hist_merge(&c, &a);
	rtp_hist_merge(&c, &b);
	is_u64(c.count, 1100, "merged histogram count");
	is_u64(rtp_series_total(&c.series), 1100, "merged series count");
	is_u64(sum_max(&c.series), 99999, "merged series max");
	ok(c.series.nblocks <= RTP_SERIES_BLOCKS && c.series.block_ns >= 2 * B0,
	   "merged by time into %u blocks of %llu ns", c.series.nblocks, (unsigned long long)c.series.block_ns);
	{
		uint64_t t = t0 + 50 * B0 + 500 * B0 / 2, k = t / c.series.block_ns - c.series.base;

		is_u64(c.series.max[k], 99999, "b's spike in the merged block of its time");
	}
}

int main(void)
{
	placement();
	coarsening();
	merging();
	return tap_done();
}
