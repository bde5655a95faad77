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
	rtp_series_init(&h->series);
}

void rtp_hist_snapshot(struct rtp_hist *dst, const struct rtp_hist *src)
{
	unsigned i;

	dst->count = RTP_LD(&src->count);
	dst->sum = RTP_LD(&src->sum);
	dst->sumsq = 0;
	dst->min = RTP_LD(&src->min);
	dst->max = RTP_LD(&src->max);
	dst->overflow = RTP_LD(&src->overflow);
	for (i = 0; i < RTP_HIST_NBUCKETS; i++)
		dst->buckets[i] = RTP_LD(&src->buckets[i]);
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
	unsigned i;

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
	for (i = 0; i < RTP_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
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
	unsigned i;

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
	for (i = 0; i < RTP_HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			rtp_hist_bucket_range(i, &lo, &hi);
			return hi < h->max ? hi : h->max;
		}
	}
	/* The rank lies among the overflowed values: only the max is known. */
	return h->max;
}

int rtp_hist_foreach(const struct rtp_hist *h,
		     int (*fn)(uint64_t lo, uint64_t hi, uint64_t count, void *arg),
		     void *arg)
{
	uint64_t lo, hi;
	unsigned i;
	int ret;

	for (i = 0; i < RTP_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		rtp_hist_bucket_range(i, &lo, &hi);
		ret = fn(lo, hi, h->buckets[i], arg);
		if (ret)
			return ret;
	}
	return 0;
}
