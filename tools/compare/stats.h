/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_STATS_H
#define RTP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Distribution-free statistics for rtproof compare (docs/compare.md).
 */

/* P(X <= k) for X ~ Binomial(n, p). */
double rtp_binom_cdf(uint64_t k, uint64_t n, double p);

/* Student's t: P(T > t) with df degrees of freedom (df > 0, not only whole). */
double rtp_t_sf(double t, double df);
/* Its quantile: the t with P(T <= t) = p (0 < p < 1). */
double rtp_t_quantile(double p, double df);

/* Standard normal distribution function. */
double rtp_norm_cdf(double z);

/*
 * Order-statistic confidence interval for the q-quantile (0 < q < 1) of
 * n samples: ranks lo <= hi (1-based) with P(X_(lo) <= x_q <= X_(hi)) >= conf
 * for any continuous distribution.  A side with no rank at that level
 * (too few samples) is 0 (lo) or n + 1 (hi).
 */
void rtp_quantile_ranks(uint64_t n, double q, double conf, uint64_t *lo, uint64_t *hi);

/*
 * Mann-Whitney U test of y against x: the probability under "same
 * distribution" of a rank sum at least as large as y's (p_greater) and at
 * least as small (p_less).  Normal approximation with tie correction and
 * continuity correction when both sides have 10 values or more; exact
 * (no ties assumed, midranks used) below.  Returns -EINVAL with an empty
 * side.  auc: P(Y > X) + P(Y = X) / 2, the effect size.
 */
int rtp_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		     double *p_greater, double *p_less, double *auc);

/* Median of v (sorted in place). */
double rtp_median(double *v, size_t n);

/*
 * Gumbel fit of block maxima by probability-weighted moments, with its
 * quality: ppcc, the correlation of the sorted maxima with the Gumbel
 * quantiles at plotting positions (i - 0.35) / n (1 is a perfect fit), and
 * ks, the Kolmogorov-Smirnov distance.  -EINVAL with fewer than 8 values
 * or no spread.
 */
struct rtp_gumbel {
	double mu, beta;
	double ppcc, ks;
	size_t n;
};
int rtp_gumbel_fit(double *v, size_t n, struct rtp_gumbel *g);
/* The value a block maximum exceeds with probability p. */
double rtp_gumbel_quantile(const struct rtp_gumbel *g, double p_exceed);

#endif /* RTP_STATS_H */
