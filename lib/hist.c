// SPDX-License-Identifier: GPL-2.0-or-later
#include "hist.h"

#include <math.h>
#include <string.h>

const double rtp_pct_values[RTP_NPCT] = { 50, 90, 99, 99.9, 99.99, 99.999 };
const char *const rtp_pct_names[RTP_NPCT] = { "50", "90", "99", "99.9", "99.99", "99.999" };

void rtp_hist_init(struct rtp_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
	h->cap = RTP_HIST_POOL;
	rtp_series_init(&h->series);
}

void rtp_hist_init_wide(struct rtp_hist_wide *w)
{
	memset(w->more, 0, sizeof(w->more));
	rtp_hist_init(&w->h);
	w->h.cap = RTP_HIST_NPAGES;
	w->h.ext = w->more;
}

/* Page pg's fine counts go into its coarse count; it keeps no slot. */
static void to_coarse(struct rtp_hist *h, unsigned pg)
{
	uint32_t *b = rtp_hist_slot_counts(h, h->slot[pg]);
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < RTP_HIST_SUB; i++) {
		sum += b[i];
		RTP_ST(&b[i], 0);
	}
	RTP_ST(&h->coarse[pg], RTP_LD(&h->coarse[pg]) + sum);
	RTP_ST(&h->slot[pg], 0);
}

void rtp_hist_add(struct rtp_hist *h, unsigned idx, uint64_t n)
{
	unsigned pg = idx >> RTP_HIST_SUB_BITS, s = h->slot[pg];

	if (!n)
		return;
	/* A page once coarse stays coarse: a page is either fine or coarse. */
	if (!s && !h->coarse[pg] && h->used < h->cap) {
		s = ++h->used;
		RTP_ST(&h->slot[pg], (uint8_t)s);
	}
	if (s) {
		uint32_t *b = rtp_hist_slot_counts(h, s) + (idx & (RTP_HIST_SUB - 1));

		if (n <= UINT32_MAX - *b) {
			RTP_ST(b, (uint32_t)(*b + n));
			return;
		}
		to_coarse(h, pg);
	}
	RTP_ST(&h->coarse[pg], RTP_LD(&h->coarse[pg]) + n);
}

void rtp_hist_snapshot(struct rtp_hist *dst, const struct rtp_hist *src)
{
	unsigned pg, i, s, used = RTP_LD(&src->used);

	dst->count = RTP_LD(&src->count);
	dst->sum = RTP_LD(&src->sum);
	dst->sumsq = 0;
	dst->min = RTP_LD(&src->min);
	dst->max = RTP_LD(&src->max);
	dst->overflow = RTP_LD(&src->overflow);
	dst->used = (uint8_t)(used < dst->cap ? used : dst->cap);
	for (pg = 0; pg < RTP_HIST_NPAGES; pg++) {
		dst->coarse[pg] = RTP_LD(&src->coarse[pg]);
		s = RTP_LD(&src->slot[pg]);
		/* a slot given out after 'used' was read: its counts are not copied */
		dst->slot[pg] = (uint8_t)(s <= dst->used ? s : 0);
	}
	for (s = 1; s <= dst->used; s++) {
		const uint32_t *from = rtp_hist_slot_counts(src, s);
		uint32_t *to = rtp_hist_slot_counts(dst, s);

		for (i = 0; i < RTP_HIST_SUB; i++)
			to[i] = RTP_LD(&from[i]);
	}
}

void rtp_hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *hi)
{
	unsigned shift;
	uint64_t mant;

	if (idx < 2 * RTP_HIST_SUB) {
		*lo = *hi = idx;
		return;
	}
	shift = idx / RTP_HIST_SUB - 1;
	mant = idx - (uint64_t)shift * RTP_HIST_SUB;
	*lo = mant << shift;
	*hi = ((mant + 1) << shift) - 1;
}

void rtp_hist_merge(struct rtp_hist *dst, const struct rtp_hist *src)
{
	unsigned pg, i;

	if (!src->count)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	dst->overflow += src->overflow;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (pg = 0; pg < RTP_HIST_NPAGES; pg++) {
		if (src->slot[pg]) {
			const uint32_t *c = rtp_hist_slot_counts(src, src->slot[pg]);

			for (i = 0; i < RTP_HIST_SUB; i++)
				if (c[i])
					rtp_hist_add(dst, pg * RTP_HIST_SUB + i, c[i]);
		}
		if (src->coarse[pg]) {
			if (dst->slot[pg])
				to_coarse(dst, pg);
			dst->coarse[pg] += src->coarse[pg];
		}
	}
	rtp_series_merge(&dst->series, &src->series);
}

double rtp_hist_mean(const struct rtp_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double rtp_hist_stddev(const struct rtp_hist *h)
{
	long double n, mean, var;

	if (h->count < 2)
		return 0.0;
	n = (long double)h->count;
	mean = (long double)h->sum / n;
	/* Population variance from exact sums, then Bessel's correction. */
	var = ((long double)h->sumsq - n * mean * mean) / (n - 1);
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

uint64_t rtp_hist_percentile(const struct rtp_hist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi;
	long double want;
	unsigned pg, i;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	want = (long double)p / 100.0L * (long double)h->count;
	rank = (uint64_t)ceill(want - 1e-9L);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (pg = 0; pg < RTP_HIST_NPAGES; pg++) {
		if (h->slot[pg]) {
			const uint32_t *c = rtp_hist_slot_counts(h, h->slot[pg]);

			for (i = 0; i < RTP_HIST_SUB; i++) {
				seen += c[i];
				if (c[i] && seen >= rank) {
					rtp_hist_bucket_range(pg * RTP_HIST_SUB + i, &lo, &hi);
					return hi < h->max ? hi : h->max;
				}
			}
		} else if (h->coarse[pg]) {
			seen += h->coarse[pg];
			if (seen >= rank) {
				/* known to the power of two: its upper edge */
				rtp_hist_bucket_range(pg * RTP_HIST_SUB + RTP_HIST_SUB - 1, &lo, &hi);
				return hi < h->max ? hi : h->max;
			}
		}
	}
	/* The rank lies among the overflowed values: only the max is known. */
	return h->max;
}

int rtp_hist_foreach(const struct rtp_hist *h,
		     int (*fn)(uint64_t lo, uint64_t hi, uint64_t count, void *arg),
		     void *arg)
{
	uint64_t lo, hi, lo2;
	unsigned pg, i;
	int ret;

	for (pg = 0; pg < RTP_HIST_NPAGES; pg++) {
		if (h->slot[pg]) {
			const uint32_t *c = rtp_hist_slot_counts(h, h->slot[pg]);

			for (i = 0; i < RTP_HIST_SUB; i++) {
				if (!c[i])
					continue;
				rtp_hist_bucket_range(pg * RTP_HIST_SUB + i, &lo, &hi);
				ret = fn(lo, hi, c[i], arg);
				if (ret)
					return ret;
			}
		} else if (h->coarse[pg]) {
			rtp_hist_bucket_range(pg * RTP_HIST_SUB, &lo, &hi);
			rtp_hist_bucket_range(pg * RTP_HIST_SUB + RTP_HIST_SUB - 1, &lo2, &hi);
			ret = fn(lo, hi, h->coarse[pg], arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

uint64_t rtp_hist_coarse(const struct rtp_hist *h)
{
	uint64_t n = 0;
	unsigned pg;

	for (pg = 0; pg < RTP_HIST_NPAGES; pg++)
		n += h->coarse[pg];
	return n;
}
