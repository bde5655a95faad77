// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics for compare: binomial, order-statistic ranks, Mann-Whitney, Gumbel. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats.h"
#include "tap.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static double unif(uint64_t *s)
{
	return ((double)(rnd(s) >> 11) + 0.5) / 9007199254740992.0;
}

static void binomial(void)
{
	/* exact sums */
	ok(fabs(rtp_binom_cdf(2, 10, 0.5) - 56.0 / 1024) < 1e-12, "P(Bin(10, .5) <= 2) = 56/1024");
	ok(fabs(rtp_binom_cdf(0, 5, 0.1) - pow(0.9, 5)) < 1e-12, "P(Bin(5, .1) = 0) = .9^5");
	ok(rtp_binom_cdf(10, 10, 0.3) == 1, "P(X <= n) = 1");
	ok(fabs(rtp_binom_cdf(500000, 1000000, 0.5) - 0.5004) < 1e-3, "large n near the mean");
}

static void ranks(void)
{
	uint64_t lo, hi, seed = 7, n = 1000, trials = 2000, cover = 0, t, i;

	/* median of 100: the textbook 95 % interval is X(40)..X(61) */
	rtp_quantile_ranks(100, 0.5, 0.95, &lo, &hi);
	ok(lo == 40 && hi == 61, "median of 100 at 95 %%: ranks %llu..%llu (want 40..61)",
	   (unsigned long long)lo, (unsigned long long)hi);
	rtp_quantile_ranks(10000, 0.9999, 0.95, &lo, &hi);
	ok(hi == 10001, "p99.99 of 10^4 has no upper rank at 95 %%");
	/* coverage by simulation: uniform samples, q = 0.99 */
	for (t = 0; t < trials; t++) {
		double *v = malloc(n * sizeof(double)), xq = 0.99;
		uint64_t below_lo = 0, below_hi = 0;

		rtp_quantile_ranks(n, 0.99, 0.95, &lo, &hi);
		for (i = 0; i < n; i++) {
			v[i] = unif(&seed);
			below_lo += v[i] < xq;
		}
		/* X(lo) <= xq <= X(hi) iff #below >= lo and #below <= hi - 1 */
		below_hi = below_lo;
		cover += below_lo >= lo && below_hi <= hi - 1;
		free(v);
	}
	ok(cover >= 0.94 * (double)trials, "p99 interval covers the true quantile in %.1f %% of %llu trials",
	   100.0 * (double)cover / (double)trials, (unsigned long long)trials);
}

static void mann_whitney(void)
{
	double x[40], y[40], pg = 1, pl = 1, auc = 0;
	uint64_t seed = 3;
	int i, fp = 0, t;

	for (i = 0; i < 40; i++) {
		x[i] = unif(&seed);
		y[i] = unif(&seed) + 0.5;
	}
	ok(!rtp_mann_whitney(x, 40, y, 40, &pg, &pl, &auc) && pg < 1e-6 && pl > 0.99,
	   "a shift of half the range: p %.2g (greater), auc %.2f", pg, auc);
	for (t = 0; t < 400; t++) {
		for (i = 0; i < 40; i++) {
			x[i] = unif(&seed);
			y[i] = unif(&seed);
		}
		rtp_mann_whitney(x, 40, y, 40, &pg, &pl, &auc);
		fp += pg < 0.025;
	}
	ok(fp <= 20, "same distribution: p < 0.025 in %d of 400 (expect ~10)", fp);
	{
		double a[3] = { 1, 2, 3 }, b[3] = { 4, 5, 6 };

		rtp_mann_whitney(a, 3, b, 3, &pg, &pl, &auc);
		ok(fabs(pg - 0.05) < 1e-9, "exact: 3 against 3 fully separated: p = 1/20 (%g)", pg);
	}
}

static void gumbel(void)
{
	double v[2000];
	uint64_t seed = 11;
	struct rtp_gumbel g = { 0 };
	int i;

	for (i = 0; i < 2000; i++)
		v[i] = 100 - 10 * log(-log(unif(&seed)));	/* Gumbel(100, 10) */
	ok(!rtp_gumbel_fit(v, 2000, &g) && fabs(g.mu - 100) < 2 && fabs(g.beta - 10) < 1,
	   "fit of Gumbel(100, 10): mu %.1f beta %.2f", g.mu, g.beta);
	ok(g.ppcc > 0.99 && g.ks < 0.05, "fit quality: ppcc %.4f, KS %.3f", g.ppcc, g.ks);
	ok(fabs(rtp_gumbel_quantile(&g, 1e-3) - (g.mu - g.beta * log(-log(1 - 1e-3)))) < 1e-9,
	   "quantile formula");
}

static void student_t(void)
{
	/* textbook quantiles */
	ok(fabs(rtp_t_quantile(0.975, 1) - 12.7062) < 1e-3, "t(0.975, 1) = %.4f (12.7062)", rtp_t_quantile(0.975, 1));
	ok(fabs(rtp_t_quantile(0.975, 2) - 4.3027) < 1e-3, "t(0.975, 2) = %.4f (4.3027)", rtp_t_quantile(0.975, 2));
	ok(fabs(rtp_t_quantile(0.975, 30) - 2.0423) < 1e-3, "t(0.975, 30) = %.4f (2.0423)", rtp_t_quantile(0.975, 30));
	ok(fabs(rtp_t_quantile(0.995, 1e6) - 2.5758) < 1e-3, "t(0.995, 1e6) = normal's 2.5758");
	ok(fabs(rtp_t_quantile(0.025, 5) + rtp_t_quantile(0.975, 5)) < 1e-9, "symmetric");
	ok(fabs(rtp_t_sf(0, 3) - 0.5) < 1e-12 && fabs(rtp_t_sf(2.3534, 3) - 0.05) < 1e-4,
	   "P(T > 0) = .5, P(T3 > 2.3534) = .05");
	ok(isnan(rtp_t_quantile(1, 3)) && isnan(rtp_t_sf(1, 0)), "out of range: NAN");
}

int main(void)
{
	binomial();
	student_t();
	ranks();
	mann_whitney();
	gumbel();
	return tap_done();
}
