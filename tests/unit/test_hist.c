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
	struct rtp_hist_wide *w = malloc(sizeof(*w));
	struct rtp_hist *h = &w->h;	/* wide: the log-uniform values span 34 powers of two */
	uint64_t *v = malloc(sizeof(uint64_t) * 100003);
	bool never_under = true, tight = true, minmax = true;
	size_t s, i, k;
	int dist;

	for (dist = 0; dist < 3; dist++) {
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			size_t n = (size_t)sizes[s];

			rtp_hist_init_wide(w);
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
	rtp_hist_init_wide(w);
	is_u64(rtp_hist_percentile(h, 99), 0, "an empty histogram's percentile is 0");
	rtp_hist_record(h, 123456789);
	is_u64(rtp_hist_percentile(h, 50), 123456789, "a single sample: p50 is that sample (capped at max)");
	free(v);
	free(w);
}

struct bucket_list {
	uint64_t v[3 * RTP_HIST_NBUCKETS];
	size_t n;
	uint64_t total, prev_hi;
	bool ordered;
};

static int collect(uint64_t lo, uint64_t hi, uint64_t count, void *arg)
{
	struct bucket_list *l = arg;

	if (l->n && lo <= l->prev_hi)
		l->ordered = false;
	l->prev_hi = hi;
	l->v[l->n++] = lo;
	l->v[l->n++] = hi;
	l->v[l->n++] = count;
	l->total += count;
	return 0;
}

static bool same_buckets(const struct rtp_hist *a, const struct rtp_hist *b)
{
	static struct bucket_list x, y;

	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	x.ordered = y.ordered = true;
	rtp_hist_foreach(a, collect, &x);
	rtp_hist_foreach(b, collect, &y);
	return x.ordered && y.ordered && x.n == y.n && !memcmp(x.v, y.v, x.n * sizeof(x.v[0]));
}

/* The compact histogram: pages of buckets on demand, coarse past its pool. */
static void compact(void)
{
	struct rtp_hist *h = malloc(sizeof(*h)), *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct rtp_hist_wide *w = malloc(sizeof(*w)), *w2 = malloc(sizeof(*w2));
	static struct bucket_list l;
	static uint64_t v[40000];
	uint64_t seed = 5, x, lo, hi;
	bool never_under = true;
	size_t i, n = 0;
	unsigned k;

	ok(sizeof(struct rtp_hist) < 12 * 1024, "a thread's histogram is %zu bytes (pages of 32-bit counts)",
	   sizeof(struct rtp_hist));
	/* 1 us to 4 ms: 12 powers of two, all at full resolution */
	rtp_hist_init(h);
	rtp_hist_init_wide(w);
	for (i = 0; i < 30000; i++) {
		x = 1024 + rnd(&seed) % (4096 * 1024 - 1024);
		rtp_hist_record(h, x);
		rtp_hist_record(&w->h, x);
	}
	ok(rtp_hist_coarse(h) == 0 && same_buckets(h, &w->h),
	   "12 powers of two: every value in its bucket, as in a wide histogram (%u pages)", h->used);

	/* 100 ns to 10 s: more powers of two than the pool holds */
	rtp_hist_init(h);
	for (i = 0; i < 40000; i++) {
		v[n] = 100 + (uint64_t)exp((double)(rnd(&seed) >> 11) / 9007199254740992.0 * log(1e8));
		rtp_hist_record(h, v[n++]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	memset(&l, 0, sizeof(l));
	l.ordered = true;
	rtp_hist_foreach(h, collect, &l);
	ok(rtp_hist_coarse(h) > 0 && h->count == n && h->min == v[0] && h->max == v[n - 1],
	   "past the pool: %llu values coarse, count, min and max still exact",
	   (unsigned long long)rtp_hist_coarse(h));
	ok(l.ordered && l.total == n, "its buckets ascend without overlap and hold every value");
	for (k = 1; k <= 1000; k++) {
		double p = k / 10.0;
		size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

		if (rtp_hist_percentile(h, p) < v[(rank ? rank : 1) - 1])
			never_under = false;
	}
	ok(never_under, "its percentiles never understate (p0.1 to p100)");

	/* merging compact histograms into a wide one is exact */
	rtp_hist_init(a);
	rtp_hist_init(b);
	rtp_hist_init_wide(w);
	rtp_hist_init_wide(w2);
	for (i = 0; i < 20000; i++) {
		x = (i % 2 ? 1000 : 1000000) + rnd(&seed) % (i % 2 ? 200000 : 60000000);
		rtp_hist_record(i % 2 ? a : b, x);
		rtp_hist_record(&w2->h, x);
	}
	rtp_hist_merge(&w->h, a);
	rtp_hist_merge(&w->h, b);
	ok(rtp_hist_coarse(a) == 0 && rtp_hist_coarse(b) == 0 && rtp_hist_coarse(&w->h) == 0 &&
	   w->h.used > RTP_HIST_POOL && same_buckets(&w->h, &w2->h) && w->h.count == w2->h.count,
	   "two compact histograms merge exactly into a wide one (%u pages)", w->h.used);

	/* a count that would pass 2^32 - 1: its page goes coarse, nothing is lost */
	rtp_hist_init(h);
	rtp_hist_record(h, 5000);
	rtp_hist_add(h, rtp_hist_index(5000), UINT32_MAX - 1);
	rtp_hist_record(h, 5000);
	rtp_hist_record(h, 5100);
	memset(&l, 0, sizeof(l));
	l.ordered = true;
	rtp_hist_foreach(h, collect, &l);
	rtp_hist_bucket_range(rtp_hist_index(4096), &lo, &hi);
	ok(l.n == 3 && l.v[0] == lo && l.v[2] == (uint64_t)UINT32_MAX + 2 && l.v[1] == 8191,
	   "a full 32-bit count: the page is counted whole, [%llu, %llu] x %llu",
	   (unsigned long long)l.v[0], (unsigned long long)l.v[1], (unsigned long long)l.v[2]);
	free(h);
	free(a);
	free(b);
	free(w);
	free(w2);
}

/* Total of foreach's buckets (ordered, without overlap) in l, or UINT64_MAX when not ordered. */
static uint64_t bucket_total(const struct rtp_hist *h, struct bucket_list *l)
{
	memset(l, 0, sizeof(*l));
	l->ordered = true;
	rtp_hist_foreach(h, collect, l);
	return l->ordered ? l->total : UINT64_MAX;
}

/* Every percentile p0.1..p100 of h at or above the exact one of the sorted v[0..n). */
static bool never_understates(const struct rtp_hist *h, const uint64_t *v, size_t n)
{
	unsigned k;

	for (k = 1; k <= 1000; k++) {
		double p = k / 10.0;
		size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);
		uint64_t got = rtp_hist_percentile(h, p);

		if (got < v[(rank ? rank : 1) - 1] || got > v[n - 1]) {
			tap_diag("p%g: %llu, exact %llu, max %llu", p, (unsigned long long)got,
				 (unsigned long long)v[(rank ? rank : 1) - 1], (unsigned long long)v[n - 1]);
			return false;
		}
	}
	return true;
}

/* Compact into compact past the destination's pool; 32-bit counts that fill up in a merge. */
static void compact_merge(void)
{
	struct rtp_hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *s = malloc(sizeof(*s));
	struct rtp_hist_wide *w = malloc(sizeof(*w));
	static struct bucket_list l;
	static uint64_t v[60000];
	uint64_t seed = 77, x, sum = 0, lo, hi, big = (uint64_t)UINT32_MAX - 1;
	size_t i, n = 0;
	unsigned pg, idx = rtp_hist_index(5000);

	/* a: 2^8 to 2^20 ns (12 pages); b: 2^20 to 2^32 ns (12 others), and the overflow */
	rtp_hist_init(a);
	rtp_hist_init(b);
	rtp_hist_init_wide(w);
	for (i = 0; i < 50000; i++) {
		x = (uint64_t)1 << (8 + i % 24);
		x += rnd(&seed) % x;
		v[n++] = x;
		sum += x;
		rtp_hist_record(i % 24 < 12 ? a : b, x);
		rtp_hist_record(&w->h, x);
	}
	v[n++] = RTP_HIST_LIMIT + 7;
	sum += RTP_HIST_LIMIT + 7;
	rtp_hist_record(b, RTP_HIST_LIMIT + 7);
	rtp_hist_record(&w->h, RTP_HIST_LIMIT + 7);
	qsort(v, n, sizeof(*v), cmp_u64);
	ok(a->used == RTP_HIST_POOL && b->used == RTP_HIST_POOL && !rtp_hist_coarse(a) && !rtp_hist_coarse(b),
	   "two compact histograms of 12 pages each, every value fine");
	rtp_hist_merge(a, b);
	ok(a->count == n && a->sum == sum && a->min == v[0] && a->max == v[n - 1] && a->overflow == 1,
	   "merged into a compact one: count, sum, min, max and overflow exact");
	ok(rtp_hist_coarse(a) > 0 && bucket_total(a, &l) + a->overflow == a->count,
	   "the pages without a slot are coarse (%llu values), every value in a bucket once",
	   (unsigned long long)rtp_hist_coarse(a));
	ok(never_understates(a, v, n), "its percentiles never understate, p100 is the max");
	for (pg = 0; pg < RTP_HIST_NPAGES; pg++) {
		uint64_t fa = 0, fw = 0;
		unsigned k;

		for (k = 0; k < RTP_HIST_SUB; k++) {
			fa += a->slot[pg] ? rtp_hist_slot_counts(a, a->slot[pg])[k] : 0;
			fw += w->h.slot[pg] ? rtp_hist_slot_counts(&w->h, w->h.slot[pg])[k] : 0;
		}
		if (fa + a->coarse[pg] != fw + w->h.coarse[pg] || (a->slot[pg] && a->coarse[pg]))
			break;
	}
	ok(pg == RTP_HIST_NPAGES, "each power of two holds as many values as recording all in a wide one");
	rtp_hist_snapshot(s, a);
	ok(s->count == a->count && same_buckets(s, a), "a snapshot of it has the same buckets");

	/* a merge that would take a fine count past 2^32 - 1: the page goes coarse, exactly */
	rtp_hist_init(a);
	rtp_hist_init(b);
	rtp_hist_record(a, 5000);
	rtp_hist_record(a, 4200);
	rtp_hist_add(a, idx, big);	/* 4 294 967 294 more values of bucket 5000, by the inside way */
	a->count += big;
	a->sum += big * 5000;
	for (i = 0; i < 3; i++)
		rtp_hist_record(b, 5000);
	rtp_hist_record(b, 8000);
	rtp_hist_record(b, 20000);
	rtp_hist_merge(a, b);
	rtp_hist_bucket_range(rtp_hist_index(4096), &lo, &hi);
	bucket_total(a, &l);
	ok(l.n == 6 && l.v[0] == lo && l.v[1] == 8191 && l.v[2] == big + 6 && l.v[5] == 1,
	   "a merged count past 2^32 - 1: [%llu, %llu] x %llu (want %llu), then the other page's bucket",
	   (unsigned long long)l.v[0], (unsigned long long)l.v[1], (unsigned long long)l.v[2],
	   (unsigned long long)(big + 6));
	ok(a->count == big + 7 && rtp_hist_percentile(a, 50) == 8191 && rtp_hist_percentile(a, 100) == 20000,
	   "count, and percentiles at the coarse page's upper edge");

	/* a coarse source page into a fine destination page: all of it coarse */
	rtp_hist_init(b);
	rtp_hist_record(b, 4500);
	rtp_hist_record(b, 6000);
	rtp_hist_merge(b, a);
	bucket_total(b, &l);
	ok(l.n == 6 && l.v[2] == big + 8 && l.v[5] == 1 && !b->slot[idx >> RTP_HIST_SUB_BITS],
	   "a coarse page merged into a fine one: [%llu, %llu] x %llu (want %llu)",
	   (unsigned long long)l.v[0], (unsigned long long)l.v[1], (unsigned long long)l.v[2],
	   (unsigned long long)(big + 8));
	rtp_hist_record(b, 5000);
	bucket_total(b, &l);
	ok(l.n == 6 && l.v[2] == big + 9 && b->used == 2, "a page once coarse stays coarse (%u slots used)",
	   b->used);

	/* in a wide histogram too */
	rtp_hist_init_wide(w);
	rtp_hist_record(&w->h, 5000);
	rtp_hist_add(&w->h, idx, big);
	rtp_hist_record(&w->h, 5000);
	rtp_hist_record(&w->h, 5000);
	rtp_hist_record(&w->h, 300);
	bucket_total(&w->h, &l);
	ok(l.n == 6 && l.v[2] == 1 && l.v[5] == big + 3, "a wide histogram's full count goes coarse too");
	free(a);
	free(b);
	free(s);
	free(w);
}

static void merge_and_overflow(void)
{
	struct rtp_hist_wide *aw = malloc(sizeof(*aw)), *bw = malloc(sizeof(*bw)), *allw = malloc(sizeof(*allw));
	struct rtp_hist *a = &aw->h, *b = &bw->h, *all = &allw->h;
	uint64_t seed = 99, x;
	int i;

	rtp_hist_init_wide(aw);
	rtp_hist_init_wide(bw);
	rtp_hist_init_wide(allw);
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
	   same_buckets(a, all), "merge equals recording everything in one");
	is_u64(all->overflow, 1, "a value past the limit is counted as overflow");
	is_u64(all->max, RTP_HIST_LIMIT + 5, "and still sets the exact max");
	is_u64(rtp_hist_percentile(all, 100), RTP_HIST_LIMIT + 5, "p100 in the overflow reports the exact max");

	rtp_hist_init_wide(aw);
	rtp_hist_record(a, 10);
	rtp_hist_record(a, 20);
	rtp_hist_record(a, 30);
	ok(fabs(rtp_hist_mean(a) - 20.0) < 1e-9, "mean of 10, 20, 30 is 20");
	ok(fabs(rtp_hist_stddev(a) - 10.0) < 1e-9, "sample stddev of 10, 20, 30 is 10");
	rtp_hist_snapshot(b, a);
	ok(b->count == 3 && b->max == 30 && b->min == 10, "a snapshot copies the live figures");

	/*
	 * One snapshot buffer for several threads (cyclic's live lines): the
	 * owner gives a page slot 2 between the reader's load of 'used' (1)
	 * and its load of the page's slot.  The slot's counts were not copied:
	 * the snapshot must not show what the buffer's slot 2 held before (a
	 * page of another histogram).
	 */
	{
		struct rtp_hist *o = malloc(sizeof(*o)), *c = malloc(sizeof(*c)), *d = malloc(sizeof(*d));
		static struct bucket_list l;

		rtp_hist_init(o);
		rtp_hist_record(o, 100000);
		rtp_hist_record(o, 1000);	/* other's page of 1000 ns: its slot 2 */
		rtp_hist_init(d);
		rtp_hist_snapshot(d, o);	/* the buffer's slot 2: 1000 ns */
		rtp_hist_init(c);
		rtp_hist_record(c, 5000);
		rtp_hist_record(c, 9000000);	/* slot 2 */
		c->used = 1;			/* as the reader saw it */
		rtp_hist_snapshot(d, c);
		memset(&l, 0, sizeof(l));
		l.ordered = true;
		rtp_hist_foreach(d, collect, &l);
		{
			bool only_own = l.total <= d->count;
			size_t k;

			for (k = 0; k < l.n; k += 3) {
				bool has5 = l.v[k] <= 5000 && 5000 <= l.v[k + 1];
				bool has9 = l.v[k] <= 9000000 && 9000000 <= l.v[k + 1];

				if (!has5 && !has9) {
					tap_diag("bucket [%llu, %llu] x %llu holds neither value",
						 (unsigned long long)l.v[k], (unsigned long long)l.v[k + 1],
						 (unsigned long long)l.v[k + 2]);
					only_own = false;
				}
			}
			ok(only_own, "a snapshot never shows counts of a page it did not copy (%zu buckets)",
			   l.n / 3);
		}
		free(o);
		free(c);
		free(d);
	}
	free(aw);
	free(bw);
	free(allw);
}

int main(void)
{
	round_trip();
	percentiles();
	compact();
	compact_merge();
	merge_and_overflow();
	return tap_done();
}
