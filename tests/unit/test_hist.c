// SPDX-License-Identifier: GPL-2.0-or-later
/* Histogram: index/value round trip and error bound, percentiles, merge. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "tap.h"

/* xorshift64*: reproducible samples without global state. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* Log-uniform over [1, 10 s] ns. */
static uint64_t logu(uint64_t *s)
{
	double e = (double)(rnd(s) >> 11) / 9007199254740992.0 * log(1e10);

	return (uint64_t)exp(e) + 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void round_trip(void)
{
	uint64_t seed = 42, v, lo, hi, worst_v = 0;
	double worst = 0, err;
	unsigned idx;
	bool contained = true, monotonic = true;
	int i;

	/* Every edge of every bucket, then random values over 1 ns..10 s. */
	for (idx = 0; idx < RTP_HIST_NBUCKETS; idx++) {
		rtp_hist_bucket_range(idx, &lo, &hi);
		if (rtp_hist_index(lo) != idx || rtp_hist_index(hi) != idx)
			contained = false;
	}
	ok(contained, "every bucket's edges index back to it (%u buckets)", RTP_HIST_NBUCKETS);
	{
		uint64_t lo2, hi2;
		bool adjacent = true;

		for (idx = 1; idx < RTP_HIST_NBUCKETS; idx++) {
			rtp_hist_bucket_range(idx - 1, &lo, &hi);
			rtp_hist_bucket_range(idx, &lo2, &hi2);
			if (lo2 != hi + 1)
				adjacent = false;
		}
		ok(adjacent, "buckets tile the range without gaps or overlaps");
		rtp_hist_bucket_range(RTP_HIST_NBUCKETS - 1, &lo, &hi);
		is_u64(hi + 1, RTP_HIST_LIMIT, "the last bucket ends at the overflow limit");
	}
	for (i = 0; i < 2000000; i++) {
		v = i < 1000 ? (uint64_t)i + 1 : logu(&seed);
		idx = rtp_hist_index(v);
		rtp_hist_bucket_range(idx, &lo, &hi);
		if (v < lo || v > hi)
			contained = false;
		if (i && idx < rtp_hist_index(v - 1))
			monotonic = false;
		err = (double)(hi - v) / (double)v;
		if (err > worst) {
			worst = err;
			worst_v = v;
		}
	}
	ok(contained, "2e6 values from 1 ns to 10 s fall inside their bucket");
	ok(monotonic, "the index never decreases with the value");
	ok(worst <= 1.0 / RTP_HIST_SUB, "upper edge overstates by at most 2^-%d (worst %.4f%% at %llu ns)",
	   RTP_HIST_SUB_BITS, worst * 100, (unsigned long long)worst_v);
	ok(worst <= 0.01, "relative error <= 1%% over 1 ns..10 s");
	ok(sizeof(struct rtp_hist) <= 64 * 1024, "one histogram takes %zu bytes (<= 64 KiB)",
	   sizeof(struct rtp_hist));
	is_u64(rtp_hist_index(0), 0, "0 ns has bucket 0");
	is_u64(rtp_hist_index(255), 255, "values below 256 ns are exact");
}

static void percentiles(void)
{
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100 };
	static const int sizes[] = { 1, 2, 7, 100, 1000, 100003 };
	uint64_t seed = 7;
	struct rtp_hist *h = malloc(sizeof(*h));
	uint64_t *v = malloc(sizeof(uint64_t) * 100003);
	bool never_under = true, tight = true, minmax = true;
	size_t s, i, k;
	int dist;

	for (dist = 0; dist < 3; dist++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			size_t n = (size_t)sizes[s];

			rtp_hist_init(h);
			for (i = 0; i < n; i++) {
				if (dist == 0)
					v[i] = logu(&seed);
				else if (dist == 1)
					v[i] = 20000 + rnd(&seed) % 5000;	/* a tight 20-25 us band */
				else
					v[i] = (rnd(&seed) % 100 == 0) ? 2000000 + rnd(&seed) % 100000 :
					       5000 + rnd(&seed) % 1000;	/* bimodal with a tail */
				rtp_hist_record(h, v[i]);
			}
			qsort(v, n, sizeof(*v), cmp_u64);
			if (h->min != v[0] || h->max != v[n - 1] || h->count != n)
				minmax = false;
			for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
				size_t rank = (size_t)ceil(ps[k] / 100.0 * (double)n - 1e-9);
				uint64_t exact, got;

				if (rank < 1)
					rank = 1;
				exact = v[rank - 1];
				got = rtp_hist_percentile(h, ps[k]);
				if (got < exact) {
					never_under = false;
					tap_diag("p%g of %zu (dist %d): got %llu < exact %llu", ps[k], n, dist,
						 (unsigned long long)got, (unsigned long long)exact);
				}
				if ((double)got > (double)exact * (1.0 + 1.0 / RTP_HIST_SUB) + 1)
					tight = false;
			}
		}
	}
	ok(minmax, "exact count, min and max");
	ok(never_under, "percentiles never understate the exact sorted value");
	ok(tight, "percentiles within one bucket (2^-%d) of the exact value", RTP_HIST_SUB_BITS);
	rtp_hist_init(h);
	is_u64(rtp_hist_percentile(h, 99), 0, "an empty histogram's percentile is 0");
	rtp_hist_record(h, 123456789);
	is_u64(rtp_hist_percentile(h, 50), 123456789, "a single sample: p50 is that sample (capped at max)");
	free(v);
	free(h);
}

static void merge_and_overflow(void)
{
	struct rtp_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	uint64_t seed = 99, x;
	int i;

	rtp_hist_init(a);
	rtp_hist_init(b);
	rtp_hist_init(all);
	for (i = 0; i < 100000; i++) {
		x = logu(&seed);
		rtp_hist_record(i % 3 ? a : b, x);
		rtp_hist_record(all, x);
	}
	rtp_hist_record(a, RTP_HIST_LIMIT + 5);
	rtp_hist_record(all, RTP_HIST_LIMIT + 5);
	rtp_hist_merge(a, b);
	ok(a->count == all->count && a->min == all->min && a->max == all->max && a->sum == all->sum &&
	   a->sumsq == all->sumsq && a->overflow == all->overflow &&
	   !memcmp(a->buckets, all->buckets, sizeof(a->buckets)), "merge equals recording everything in one");
	is_u64(all->overflow, 1, "a value past the limit is counted as overflow");
	is_u64(all->max, RTP_HIST_LIMIT + 5, "and still sets the exact max");
	is_u64(rtp_hist_percentile(all, 100), RTP_HIST_LIMIT + 5, "p100 in the overflow reports the exact max");

	rtp_hist_init(a);
	rtp_hist_record(a, 10);
	rtp_hist_record(a, 20);
	rtp_hist_record(a, 30);
	ok(fabs(rtp_hist_mean(a) - 20.0) < 1e-9, "mean of 10, 20, 30 is 20");
	ok(fabs(rtp_hist_stddev(a) - 10.0) < 1e-9, "sample stddev of 10, 20, 30 is 10");
	rtp_hist_snapshot(b, a);
	ok(b->count == 3 && b->max == 30 && b->min == 10, "a snapshot copies the live figures");
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	round_trip();
	percentiles();
	merge_and_overflow();
	return tap_done();
}
