// SPDX-License-Identifier: GPL-2.0-or-later
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double rtp_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

#define LENTZ_TINY 1e-300

/* One step of the modified Lentz recurrence with coefficient aa: updates
 * c and d; returns the factor d * c. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
	const double eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 200000; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(m * (b - m) * x / ((a - 1 + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* Regularised incomplete beta I_x(a, b). */
static double betai(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * betacf(a, b, x) / a;
	return 1 - exp(lbt) * betacf(b, a, 1 - x) / b;
}

double rtp_t_sf(double t, double df)
{
	double p;

	if (!(df > 0) || isnan(t))
		return NAN;
	p = 0.5 * betai(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? p : 1 - p;
}

double rtp_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -rtp_t_quantile(1 - p, df);
	while (rtp_t_sf(hi, df) > 1 - p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (rtp_t_sf(mid, df) > 1 - p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double rtp_binom_cdf(uint64_t k, uint64_t n, double p)
{
	if (k >= n)
		return 1;
	if (p <= 0)
		return 1;
	if (p >= 1)
		return 0;
	/* P(X <= k) = I_{1-p}(n - k, k + 1) */
	return betai((double)(n - k), (double)k + 1, 1 - p);
}

/* Smallest k in [0, n] with F(k) >= target (n when none below). */
static uint64_t binom_inv(uint64_t n, double q, double target)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (rtp_binom_cdf(mid, n, q) >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void rtp_quantile_ranks(uint64_t n, double q, double conf, uint64_t *lo, uint64_t *hi)
{
	double a = (1 - conf) / 2;
	uint64_t k;

	/*
	 * B = #samples <= x_q ~ Bin(n, q).  X_(l) <= x_q iff B >= l, and
	 * X_(u) >= x_q iff B <= u - 1: pick the largest l with
	 * P(B <= l - 1) <= a and the smallest u with P(B <= u - 1) >= 1 - a.
	 */
	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	k = binom_inv(n, q, a);		/* smallest k with F(k) >= a */
	if (rtp_binom_cdf(k, n, q) > a)
		*lo = k;		/* F(k - 1) < a <= ... so l - 1 = k - 1 */
	else
		*lo = k + 1;
	if (*lo > n)
		*lo = n;
	k = binom_inv(n, q, 1 - a);	/* smallest k with F(k) >= 1 - a */
	*hi = k + 1;
	if (rtp_binom_cdf(n - 1, n, q) < 1 - a)
		*hi = n + 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double rtp_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct mw_item {
	double v;
	int side;
};

static int cmp_item(const void *a, const void *b)
{
	return cmp_double(&((const struct mw_item *)a)->v, &((const struct mw_item *)b)->v);
}

/* Exact P(U <= u) for sizes m, n without ties: counts by recursion over sizes. */
static double mw_exact_le(size_t m, size_t n, double u)
{
	size_t maxu = m * n, i, j, k;
	double total = 0, below = 0;
	/* f(i, j, u): arrangements of i y's and j x's with U = u; table by j rolling. */
	double *tab = calloc((m + 1) * (n + 1) * (maxu + 1), sizeof(double));

	if (!tab)
		return NAN;
#define F(i, j, u) tab[((i) * (n + 1) + (j)) * (maxu + 1) + (u)]
	for (i = 0; i <= m; i++)
		for (j = 0; j <= n; j++)
			for (k = 0; k <= i * j; k++) {
				if (!i || !j) {
					F(i, j, k) = k == 0;
					continue;
				}
				/* the largest value is a y (adds j to U) or an x */
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) + F(i, j - 1, k);
			}
	for (k = 0; k <= maxu; k++) {
		total += F(m, n, k);
		if ((double)k <= u + 1e-9)
			below += F(m, n, k);
	}
#undef F
	free(tab);
	return below / total;
}

int rtp_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
		     double *p_greater, double *p_less, double *auc)
{
	size_t n = nx + ny, i, j;
	struct mw_item *it;
	double ry = 0, ties = 0, u, mean, var, sd;

	if (!nx || !ny)
		return -EINVAL;
	it = malloc(n * sizeof(*it));
	if (!it)
		return -ENOMEM;
	for (i = 0; i < nx; i++)
		it[i] = (struct mw_item){ x[i], 0 };
	for (i = 0; i < ny; i++)
		it[nx + i] = (struct mw_item){ y[i], 1 };
	qsort(it, n, sizeof(*it), cmp_item);
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && it[j].v == it[i].v; j++)
			;
		rank = (double)(i + 1 + j) / 2;	/* midrank of positions i+1..j */
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (it[k].side)
				ry += rank;
	}
	free(it);
	u = ry - (double)ny * (double)(ny + 1) / 2;	/* pairs (x, y) with y > x, ties half */
	*auc = u / ((double)nx * (double)ny);
	mean = (double)nx * (double)ny / 2;
	if ((nx < 10 || ny < 10) && nx * ny <= 400) {
		*p_less = mw_exact_le(ny, nx, u);
		*p_greater = mw_exact_le(ny, nx, (double)nx * (double)ny - u);
		return 0;
	}
	var = (double)nx * (double)ny / 12 * ((double)n + 1 - ties / ((double)n * (double)(n - 1)));
	if (var <= 0) {
		*p_greater = *p_less = 1;
		return 0;
	}
	sd = sqrt(var);
	*p_greater = 1 - rtp_norm_cdf((u - mean - 0.5) / sd);
	*p_less = rtp_norm_cdf((u - mean + 0.5) / sd);
	return 0;
}

int rtp_gumbel_fit(double *v, size_t n, struct rtp_gumbel *g)
{
	const double euler = 0.5772156649015329;
	double b0 = 0, b1 = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, ks = 0;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (n < 8)
		return -EINVAL;
	qsort(v, n, sizeof(*v), cmp_double);
	if (v[n - 1] <= v[0])
		return -EINVAL;
	/* Probability-weighted moments (Hosking): beta = l2 / ln 2, mu = l1 - euler beta. */
	for (i = 0; i < n; i++) {
		b0 += v[i];
		b1 += v[i] * (double)i / (double)(n - 1);
	}
	b0 /= (double)n;
	b1 /= (double)n;
	g->beta = (2 * b1 - b0) / M_LN2;
	g->mu = b0 - euler * g->beta;
	g->n = n;
	if (!(g->beta > 0))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		double pp = ((double)i + 1 - 0.35) / (double)n;
		double qx = g->mu - g->beta * log(-log(pp));
		double f = exp(-exp(-(v[i] - g->mu) / g->beta));
		double d1 = fabs(f - (double)(i + 1) / (double)n), d2 = fabs(f - (double)i / (double)n);

		sx += qx;
		sy += v[i];
		sxx += qx * qx;
		syy += v[i] * v[i];
		sxy += qx * v[i];
		if (d1 > ks)
			ks = d1;
		if (d2 > ks)
			ks = d2;
	}
	g->ks = ks;
	{
		double cov = sxy - sx * sy / (double)n;
		double vx = sxx - sx * sx / (double)n, vy = syy - sy * sy / (double)n;

		g->ppcc = vx > 0 && vy > 0 ? cov / sqrt(vx * vy) : 0;
	}
	return 0;
}

double rtp_gumbel_quantile(const struct rtp_gumbel *g, double p_exceed)
{
	/* F(x) = exp(-exp(-(x - mu) / beta)) = 1 - p */
	return g->mu - g->beta * log(-log1p(-p_exceed));
}
