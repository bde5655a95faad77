// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Histogram figures: record cost (ns per record), memory per thread,
 * percentile and merge cost.  A benchmark, not a test: it prints figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hist.h"
#include "run.h"

#define NVALS 65536
#define REPS 15

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000ull;
	uint64_t *vals = malloc(sizeof(uint64_t) * NVALS), seed = 1, t0, t1, i, sink = 0;
	struct rtp_hist *h = malloc(sizeof(*h)), *h2 = malloc(sizeof(*h2));
	double rec[REPS], base[REPS], recat[REPS];
	int k;

	/* Latency-like values: 2..200 us, a tail to 10 ms. */
	for (i = 0; i < NVALS; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		vals[i] = 2000 + (seed >> 33) % 198000;
		if ((seed >> 20) % 1000 == 0)
			vals[i] = 10000000;
	}
	rtp_hist_init(h);
	rtp_hist_init(h2);
	/*
	 * Best and median of REPS repetitions: on a shared machine the best
	 * is the figure least disturbed by others, the median the typical one.
	 */
	for (k = 0; k < REPS; k++) {
		t0 = rtp_now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n; i++)
			sink += vals[i & (NVALS - 1)];
		t1 = rtp_now_ns(CLOCK_MONOTONIC);
		__asm__ volatile("" : : "r"(sink));
		base[k] = (double)(t1 - t0) / (double)n;
		t0 = rtp_now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n; i++)
			rtp_hist_record(h, vals[i & (NVALS - 1)]);
		t1 = rtp_now_ns(CLOCK_MONOTONIC);
		rec[k] = (double)(t1 - t0) / (double)n;
		/* with the time series: one sample per simulated 100 us, runs through coarsening */
		t0 = rtp_now_ns(CLOCK_MONOTONIC);
		for (i = 0; i < n; i++)
			rtp_hist_record_at(h2, vals[i & (NVALS - 1)], t0 + i * 100000);
		t1 = rtp_now_ns(CLOCK_MONOTONIC);
		recat[k] = (double)(t1 - t0) / (double)n;
	}
	qsort(recat, REPS, sizeof(double), cmp_d);
	qsort(base, REPS, sizeof(double), cmp_d);
	qsort(rec, REPS, sizeof(double), cmp_d);
	printf("hist record: %.2f ns per record best, %.2f ns median of %d x %llu records "
	       "(loop baseline %.2f / %.2f ns)\n", rec[0], rec[REPS / 2], REPS, (unsigned long long)n,
	       base[0], base[REPS / 2]);
	printf("hist record_at (histogram + time series): %.2f ns per record best, %.2f ns median; "
	       "series %u blocks of %.1f s after %u coarsenings\n", recat[0], recat[REPS / 2],
	       h2->series.nblocks, (double)h2->series.block_ns / 1e9, h2->series.coarsened);
	rtp_hist_init(h2);
	printf("hist memory: %zu bytes per thread (%.1f KiB), %u buckets, sub-bucket bits %d, "
	       "max relative error %.3f %%\n", sizeof(struct rtp_hist), sizeof(struct rtp_hist) / 1024.0,
	       RTP_HIST_NBUCKETS, RTP_HIST_SUB_BITS, 100.0 / RTP_HIST_SUB);
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	for (k = 0; k < 1000; k++)
		sink += rtp_hist_percentile(h, 99.99);
	t1 = rtp_now_ns(CLOCK_MONOTONIC);
	printf("hist percentile: %.1f us per query\n", (double)(t1 - t0) / 1000 / 1e3);
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	for (k = 0; k < 1000; k++)
		rtp_hist_merge(h2, h);
	t1 = rtp_now_ns(CLOCK_MONOTONIC);
	printf("hist merge: %.1f us per merge\n", (double)(t1 - t0) / 1000 / 1e3);
	__asm__ volatile("" : : "r"(sink));
	free(vals);
	free(h);
	free(h2);
	return 0;
}
