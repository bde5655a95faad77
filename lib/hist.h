/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_HIST_H
#define RTP_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "series.h"

/*
 * Log-linear latency histogram (the fio "plat" / HdrHistogram scheme).
 *
 * Values below 2^(B+1) get a bucket each.  Above, every power of two
 * [2^k, 2^(k+1)) is split into 2^B equal sub-buckets, so a bucket is at
 * most 2^-B of its lower edge wide.  With B = RTP_HIST_SUB_BITS = 7 the
 * upper edge overstates a value by less than 0.79 %.
 *
 * Values at or above 2^(RTP_HIST_MAX_MSB+1) ns (~68.7 s) are counted in
 * 'overflow'; they still take part in count, sum, min and max, which are
 * exact.  The struct is of fixed size (no allocation) and is meant to be
 * owned by one thread; merge after the threads have stopped.
 *
 * Compact (docs/scale.md): the 2^B buckets of one power of two make a
 * page (RTP_HIST_NPAGES of them); a page gets one of RTP_HIST_POOL slots
 * of 32-bit counts when its first value comes, so a thread's histogram
 * holds the powers of two its values span (12 of them: 1 us to 4 ms, say)
 * in 6 KiB instead of 30 pages of 64-bit counts in 30 KiB.  A page that
 * finds no free slot, or whose bucket would pass 2^32 - 1, is counted
 * whole in 'coarse' (64-bit): its values are then known to the power of
 * two, reported as one bucket spanning it, and a percentile falling in it
 * is its upper edge (capped at the max: still never understated).  A
 * wide histogram (struct rtp_hist_wide, for merges such as "all") has a
 * slot for every page, so merging exact histograms into it stays exact.
 */
#define RTP_HIST_SUB_BITS	7
#define RTP_HIST_SUB		(1u << RTP_HIST_SUB_BITS)
#define RTP_HIST_MAX_MSB	35
#define RTP_HIST_NBUCKETS	((RTP_HIST_MAX_MSB - RTP_HIST_SUB_BITS + 2) * RTP_HIST_SUB)
#define RTP_HIST_NPAGES		(RTP_HIST_NBUCKETS / RTP_HIST_SUB)
#define RTP_HIST_POOL		12
#define RTP_HIST_LIMIT		(UINT64_C(1) << (RTP_HIST_MAX_MSB + 1))

struct rtp_hist {
	uint64_t count;		/* every recorded value, overflow included */
	uint64_t min;		/* exact; UINT64_MAX while empty */
	uint64_t max;		/* exact */
	uint64_t sum;		/* exact sum of values */
	unsigned __int128 sumsq;	/* exact sum of squares, for stddev */
	uint64_t overflow;	/* values >= RTP_HIST_LIMIT */
	uint8_t slot[RTP_HIST_NPAGES];	/* page -> 1 + its slot; 0: none */
	uint8_t used;		/* slots given out */
	uint8_t cap;		/* slots there are: RTP_HIST_POOL, or RTP_HIST_NPAGES when wide */
	uint64_t coarse[RTP_HIST_NPAGES];	/* values of pages without a slot */
	uint32_t (*ext)[RTP_HIST_SUB];	/* a wide histogram's slots past the pool */
	uint32_t pool[RTP_HIST_POOL][RTP_HIST_SUB];
	struct rtp_series series;	/* count and max per block of time (series.h) */
};

/* A histogram with a slot for every page: exact whatever is merged into it. */
struct rtp_hist_wide {
	struct rtp_hist h;
	uint32_t more[RTP_HIST_NPAGES - RTP_HIST_POOL][RTP_HIST_SUB];
};

void rtp_hist_init(struct rtp_hist *h);
/* Initialises w; use &w->h with every rtp_hist_* call (do not copy or move w). */
void rtp_hist_init_wide(struct rtp_hist_wide *w);

static inline unsigned rtp_hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * RTP_HIST_SUB)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - RTP_HIST_SUB_BITS;
	return shift * RTP_HIST_SUB + (unsigned)(v >> shift);
}

/*
 * The hot path: a handful of instructions.  The owner is the only writer;
 * its stores are relaxed atomics (plain moves on x86) so that another
 * thread may read a live view with rtp_hist_snapshot() without a data
 * race.  sumsq is the owner's alone.
 */
#define RTP_LD(p)	__atomic_load_n((p), __ATOMIC_RELAXED)
#define RTP_ST(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* a running max/min one thread writes and another may read (relaxed) */
static inline void rtp_relaxed_max(uint64_t *p, uint64_t v)
{
	if (v > RTP_LD(p))
		RTP_ST(p, v);
}

static inline void rtp_relaxed_min(uint64_t *p, uint64_t v)
{
	if (v < RTP_LD(p))
		RTP_ST(p, v);
}

/* The counts of slot s (1-based, as in h->slot). */
static inline uint32_t *rtp_hist_slot_counts(const struct rtp_hist *h, unsigned s)
{
	return s <= RTP_HIST_POOL ? (uint32_t *)h->pool[s - 1] : h->ext[s - 1 - RTP_HIST_POOL];
}

/* n more values in bucket idx, off the fast path (a new page, or a full count). */
void rtp_hist_add(struct rtp_hist *h, unsigned idx, uint64_t n);

static inline void rtp_hist_record(struct rtp_hist *h, uint64_t v)
{
	RTP_ST(&h->count, RTP_LD(&h->count) + 1);
	RTP_ST(&h->sum, RTP_LD(&h->sum) + v);
	h->sumsq += (unsigned __int128)v * v;
	if (v < RTP_LD(&h->min))
		RTP_ST(&h->min, v);
	if (v > RTP_LD(&h->max))
		RTP_ST(&h->max, v);
	if (__builtin_expect(v >= RTP_HIST_LIMIT, 0)) {
		RTP_ST(&h->overflow, RTP_LD(&h->overflow) + 1);
	} else {
		unsigned idx = rtp_hist_index(v), s = RTP_LD(&h->slot[idx >> RTP_HIST_SUB_BITS]);

		if (__builtin_expect(s != 0, 1)) {
			uint32_t *b = rtp_hist_slot_counts(h, s) + (idx & (RTP_HIST_SUB - 1)), c = RTP_LD(b);

			if (__builtin_expect(c != UINT32_MAX, 1)) {
				RTP_ST(b, c + 1);
				return;
			}
		}
		rtp_hist_add(h, idx, 1);
	}
}

/*
 * rtp_hist_record() plus the sample's time (CLOCK_MONOTONIC ns, e.g. the
 * release or the wake-up) in the block series written beside the
 * histogram.  The series is the owner's alone, like sumsq.
 */
static inline void rtp_hist_record_at(struct rtp_hist *h, uint64_t v, uint64_t t_ns)
{
	rtp_hist_record(h, v);
	rtp_series_record(&h->series, v, t_ns);
}

/*
 * A live copy of a histogram another thread is recording into (all but
 * sumsq, which reads as 0, and the series, left as it was); dst must not be
 * smaller than src (a wide src needs a wide dst).  Figures may be a few samples apart from each
 * other; use it for progress displays, never for the final result.
 */
void rtp_hist_snapshot(struct rtp_hist *dst, const struct rtp_hist *src);

/* Inclusive value range [*lo, *hi] covered by bucket idx. */
void rtp_hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi);

/* dst += src: exact when dst has room for src's pages (always when dst is wide). */
void rtp_hist_merge(struct rtp_hist *dst, const struct rtp_hist *src);

double rtp_hist_mean(const struct rtp_hist *h);
double rtp_hist_stddev(const struct rtp_hist *h);

/*
 * The p-th percentile (0 < p <= 100): the upper edge of the bucket holding
 * the ceil(p/100 * count)-th smallest value, capped at the exact maximum.
 * It never understates the true percentile.  0 on an empty histogram.
 */
uint64_t rtp_hist_percentile(const struct rtp_hist *h, double p);

/*
 * Calls fn for every non-empty bucket in ascending order (a coarse page as
 * one bucket spanning its power of two); stops on nonzero.
 */
int rtp_hist_foreach(const struct rtp_hist *h,
		     int (*fn)(uint64_t lo, uint64_t hi, uint64_t count, void *arg),
		     void *arg);

/* Values counted in coarse pages (0 while every value has its bucket). */
uint64_t rtp_hist_coarse(const struct rtp_hist *h);

/* Standard percentile set reported everywhere. */
#define RTP_NPCT 6
extern const double rtp_pct_values[RTP_NPCT];
extern const char *const rtp_pct_names[RTP_NPCT];

#endif /* RTP_HIST_H */
