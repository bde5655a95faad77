// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare's rates.  --budget BENCH.METRIC=LIMIT: the rate of episodes above
 * a latency limit on each side, per hour with an exact Poisson interval,
 * their ratio with a conditional-binomial (Clopper-Pearson) interval,
 * and how long a run would bound the rate.  Counted events (missed
 * periods, busy, dropped) as rates the same way; lost updates as a
 * correctness check.
 */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"
#include "stats.h"

int cmp_budget_parse(const char *arg, struct budget *b)
{
	const char *eq = strchr(arg, '='), *dot, *whole = arg;
	size_t l;
	int ret;

	if (!eq || eq == arg || !eq[1]) {
		rtp_error("--budget %s: want BENCH.METRIC=LIMIT or METRIC=LIMIT, e.g. cyclic.wakeup_latency=100us",
			  arg);
		return -EINVAL;
	}
	l = (size_t)(eq - arg);
	dot = memchr(arg, '.', l);
	b->bench[0] = 0;
	if (dot) {
		if ((size_t)(dot - arg) >= sizeof(b->bench) || dot == arg) {
			rtp_error("--budget %s: the bench name is empty or too long", arg);
			return -EINVAL;
		}
		snprintf(b->bench, sizeof(b->bench), "%.*s", (int)(dot - arg), arg);
		l -= (size_t)(dot - arg) + 1;
		arg = dot + 1;
	}
	if (!l || l >= sizeof(b->metric)) {
		rtp_error("--budget %s: the metric name is empty or too long", whole);
		return -EINVAL;
	}
	snprintf(b->metric, sizeof(b->metric), "%.*s", (int)l, arg);
	ret = rtp_parse_us(eq + 1, &b->limit_ns);
	if (ret || !b->limit_ns) {
		rtp_error("--budget %s: LIMIT %s: %s", whole, eq + 1,
			  ret ? rtp_opt_strerror(ret) : "must be above 0");
		return -EINVAL;
	}
	snprintf(b->figure, sizeof(b->figure), ">%s", eq + 1);
	return 0;
}

/* P(X <= k) for X ~ Poisson(lambda), summed in log space. */
static double pois_cdf(uint64_t k, double lambda)
{
	double lt = -lambda, s = 0;
	uint64_t i;

	if (lambda <= 0)
		return 1;
	for (i = 0; i <= k; i++) {
		if (i)
			lt += log(lambda) - log((double)i);
		s += exp(lt);
	}
	return s > 1 ? 1 : s;
}

/* Exact (Garwood) interval for a Poisson mean with k observed: each tail a / 2. */
void cmp_poisson_ci(uint64_t k, double conf, double ci[2])
{
	double a = (1 - conf) / 2, lo, hi, mid;
	int i;

	ci[0] = 0;
	if (k) {
		/* lower: P(X >= k; lambda) = a */
		lo = 0, hi = (double)k + 10 * sqrt((double)k) + 10;
		for (i = 0; i < 200; i++) {
			mid = (lo + hi) / 2;
			if (1 - pois_cdf(k - 1, mid) < a)
				lo = mid;
			else
				hi = mid;
		}
		ci[0] = lo;
	}
	/* upper: P(X <= k; lambda) = a */
	lo = (double)k, hi = (double)k + 20 * sqrt((double)k + 1) + 20;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (pois_cdf(k, mid) > a)
			lo = mid;
		else
			hi = mid;
	}
	ci[1] = hi;
}

/* Clopper-Pearson interval for a binomial proportion, k of n. */
static void binom_ci(uint64_t k, uint64_t n, double conf, double ci[2])
{
	double a = (1 - conf) / 2, lo, hi, mid;
	int i;

	ci[0] = 0;
	ci[1] = 1;
	if (k) {
		lo = 0, hi = 1;
		for (i = 0; i < 100; i++) {
			mid = (lo + hi) / 2;
			if (1 - rtp_binom_cdf(k - 1, n, mid) < a)
				lo = mid;
			else
				hi = mid;
		}
		ci[0] = lo;
	}
	if (k < n) {
		lo = 0, hi = 1;
		for (i = 0; i < 100; i++) {
			mid = (lo + hi) / 2;
			if (rtp_binom_cdf(k, n, mid) > a)
				lo = mid;
			else
				hi = mid;
		}
		ci[1] = hi;
	}
}

/* Episodes above limit: runs of consecutive blocks of one run above it. */
static size_t episodes_above(const struct pooled *p, double limit)
{
	size_t i, k = 0;

	for (i = 0; i < p->nbmax; i++)
		if (p->bmax[i] > limit && (!i || p->bmax[i - 1] <= limit || p->brun[i] != p->brun[i - 1]))
			k++;
	return k;
}

void budget_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct budget *bg,
		const struct ctx *c)
{
	double t = 1 + c->o->threshold, hb, hn, ci[2], pci[2];
	uint64_t kb, kn;
	double pg, pl, p;

	w->higher_is_worse = true;
	w->p = NAN;
	snprintf(w->method, sizeof(w->method),
		 "episodes above %.1f us per hour: exact Poisson intervals, conditional binomial ratio",
		 (double)bg->limit_ns / 1000);
	if (!b->have_series || !n->have_series || !(b->duration_s > 0) || !(n->duration_s > 0)) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "no time series in a document: episodes cannot be told");
		return;
	}
	kb = episodes_above(b, (double)bg->limit_ns);
	kn = episodes_above(n, (double)bg->limit_ns);
	hb = b->duration_s / 3600;
	hn = n->duration_s / 3600;
	w->has_base = w->has_new = true;
	w->base = (double)kb / hb;
	w->new = (double)kn / hn;
	cmp_poisson_ci(kb, c->c1, ci);
	w->base_ci[0] = ci[0] / hb, w->base_ci[1] = ci[1] / hb;
	cmp_poisson_ci(kn, c->c1, ci);
	w->new_ci[0] = ci[0] / hn, w->new_ci[1] = ci[1] / hn;
	w->base_ci_ok = w->new_ci_ok = true;
	w->ratio = kb ? w->new / w->base : (kn ? INFINITY : 1);
	w->v = V_SAME;
	if (kb + kn) {
		/* kn of kb + kn ~ Bin(K, q), q = r_n h_n / (r_n h_n + r_b h_b); q0 under equal rates */
		double q0 = hn / (hb + hn);

		pg = kn ? 1 - rtp_binom_cdf(kn - 1, kb + kn, q0) : 1;
		pl = rtp_binom_cdf(kn, kb + kn, q0);
		p = fmin(1, 2 * fmin(pg, pl));
		w->p = p;
		w->tested = true;
		binom_ci(kn, kb + kn, 1 - c->alpha, pci);
		/* the rate ratio's interval from q's: (q / (1 - q)) * (h_b / h_n) */
		w->ratio_ci[0] = pci[0] < 1 ? pci[0] / (1 - pci[0]) * hb / hn : INFINITY;
		w->ratio_ci[1] = pci[1] < 1 ? pci[1] / (1 - pci[1]) * hb / hn : INFINITY;
		w->ratio_ci_ok = true;
		snprintf(w->note, sizeof(w->note), "%llu vs %llu episodes in %.0f s vs %.0f s; rate ratio in [%.3g, %.3g], p %.2g",
			 (unsigned long long)kb, (unsigned long long)kn, b->duration_s, n->duration_s,
			 w->ratio_ci[0], w->ratio_ci[1], p);
		if (w->ratio_ci[0] > t)
			w->v = V_WORSE;
		else if (w->ratio_ci[1] * t < 1)
			w->v = V_BETTER;
		else if (w->ratio > t)
			w->v = V_UNDECIDED;
	} else {
		snprintf(w->note, sizeof(w->note), "no episode above the limit on either side (%.0f s vs %.0f s)",
			 b->duration_s, n->duration_s);
	}
	/* how long to bound the new side's rate below 1/h (none seen meanwhile) */
	if (!kn) {
		w->decide_s = -log(c->alpha) * 3600;
		snprintf(w->advice, sizeof(w->advice),
			 "to bound spikes above %.1f us below 1/h at %.3g: %.1f h with none (this run: %.3g h, bound %.3g/h)",
			 (double)bg->limit_ns / 1000, c->o->confidence, -log(c->alpha), hn, w->new_ci[1]);
	} else if ((w->v == V_UNDECIDED || w->v == V_SAME) && kb != kn) {
		/* runs f times as long, at the rates seen: when would the test decide? */
		double f;

		for (f = 2; f <= 4096; f *= 2) {
			uint64_t eb = (uint64_t)llround((double)kb * f), en = (uint64_t)llround((double)kn * f);
			double q0 = hn / (hb + hn);
			double pf = en * hb > eb * hn ? (en ? 1 - rtp_binom_cdf(en - 1, eb + en, q0) : 1)
						  : rtp_binom_cdf(en, eb + en, q0);

			if (pf <= c->alpha / 2)
				break;
		}
		if (f <= 4096) {
			w->decide_s = hn * f * 3600;
			snprintf(w->advice, sizeof(w->advice),
				 "at the rates seen, runs of %.3g h a side (%gx these) would decide at %.3g",
				 hn * f, f, c->o->confidence);
		}
	}
}

/* The run's document of bench with a duration and the event's count: NULL when absent. */
static const struct rtp_doc *run_event(const struct run *run, const char *bench, const char *event,
				       uint64_t *count)
{
	const struct rtp_doc *d = run_doc(run, bench);
	size_t e;

	if (!d || !(d->duration_s > 0))
		return NULL;
	for (e = 0; e < d->nevents; e++)
		if (!strcmp(d->events[e].name, event)) {
			*count = d->events[e].value;
			return d;
		}
	return NULL;
}

static bool side_event(const struct side *s, const char *bench, const char *event, uint64_t *k, double *dur)
{
	const struct rtp_doc *d;
	uint64_t count;
	size_t r;
	bool any = false;

	*k = 0;
	*dur = 0;
	for (r = 0; r < s->nruns; r++)
		if ((d = run_event(&s->runs[r], bench, event, &count))) {
			*k += count;
			*dur += d->duration_s;
			any = true;
		}
	return any;
}

/* Each run's rate per hour into v (room for MAX_RUNS); returns how many. */
static size_t run_rates(const struct side *s, const char *bench, const char *event, double *v)
{
	const struct rtp_doc *d;
	uint64_t count;
	size_t r, n = 0;

	for (r = 0; r < s->nruns; r++)
		if ((d = run_event(&s->runs[r], bench, event, &count)))
			v[n++] = (double)count / (d->duration_s / 3600);
	return n;
}

/*
 * The runs' rates: spread, and the Mann-Whitney test on them (runs
 * exchangeable under no change).  false with one run on a side.
 */
static bool event_runs_test(struct row *w, const struct side *bs, const struct side *ns, const char *bench,
			    const char *event, const struct ctx *c)
{
	double vb[MAX_RUNS], vn[MAX_RUNS], pg, pl, auc;
	size_t nb = run_rates(bs, bench, event, vb), nn = run_rates(ns, bench, event, vn), i;

	w->spread = nb > 1 && nn > 1;
	if (!w->spread || rtp_mann_whitney(vb, nb, vn, nn, &pg, &pl, &auc)) {
		w->spread = false;
		return false;
	}
	w->base_spread[0] = w->new_spread[0] = INFINITY;
	w->base_spread[1] = w->new_spread[1] = -INFINITY;
	for (i = 0; i < nb; i++) {
		w->base_spread[0] = fmin(w->base_spread[0], vb[i]);
		w->base_spread[1] = fmax(w->base_spread[1], vb[i]);
	}
	for (i = 0; i < nn; i++) {
		w->new_spread[0] = fmin(w->new_spread[0], vn[i]);
		w->new_spread[1] = fmax(w->new_spread[1], vn[i]);
	}
	w->p = fmin(1, 2 * fmin(pg, pl));
	w->tested = true;
	snprintf(w->method, sizeof(w->method),
		 "rate per hour: exact Poisson intervals; Mann-Whitney on the %zu vs %zu runs' rates", nb, nn);
	if (pg * 2 <= c->alpha && w->ratio > 1 + c->o->threshold)
		w->v = V_WORSE;
	else if (pl * 2 <= c->alpha && w->ratio * (1 + c->o->threshold) < 1)
		w->v = V_BETTER;
	return true;
}

static bool is_correctness(const char *event)
{
	size_t l = strlen(event);

	return (l >= 12 && !strcmp(event + l - 12, "lost_updates")) ||
	       (l >= 10 && !strcmp(event + l - 10, "torn_reads"));
}

void event_row(struct row *w, const struct side *bs, const struct side *ns, const char *bench,
	       const char *event, const struct ctx *c)
{
	double t = 1 + c->o->threshold, db, dn, ci[2], pg, pl;
	uint64_t kb, kn;

	w->higher_is_worse = true;
	w->p = NAN;
	w->has_base = side_event(bs, bench, event, &kb, &db);
	w->has_new = side_event(ns, bench, event, &kn, &dn);
	if (is_correctness(event)) {
		w->unit = "count";
		w->figure = "count";
		w->base = (double)kb;
		w->new = (double)kn;
		w->ratio = kb ? (double)kn / (double)kb : (kn ? INFINITY : 1);
		snprintf(w->method, sizeof(w->method), "correctness: any on the new side fails");
		if (!w->has_new) {
			w->v = V_NED;
			snprintf(w->note, sizeof(w->note), "not in the new side's documents");
		} else if (kn) {
			w->v = V_WORSE;
			snprintf(w->note, sizeof(w->note), "%llu in the new side: a correctness failure, not a rate",
				 (unsigned long long)kn);
		} else {
			w->v = V_SAME;
		}
		return;
	}
	w->unit = "/h";
	w->figure = "rate";
	snprintf(w->method, sizeof(w->method), "rate per hour: exact Poisson intervals, conditional binomial test");
	if (!w->has_base || !w->has_new) {
		w->v = V_NED;
		w->ratio = NAN;
		snprintf(w->note, sizeof(w->note), "no count or no duration in a document");
		w->has_base = w->has_new = false;
		return;
	}
	w->base = (double)kb / (db / 3600);
	w->new = (double)kn / (dn / 3600);
	cmp_poisson_ci(kb, c->c1, ci);
	w->base_ci[0] = ci[0] / (db / 3600), w->base_ci[1] = ci[1] / (db / 3600);
	cmp_poisson_ci(kn, c->c1, ci);
	w->new_ci[0] = ci[0] / (dn / 3600), w->new_ci[1] = ci[1] / (dn / 3600);
	w->base_ci_ok = w->new_ci_ok = true;
	w->ratio = kb ? w->new / w->base : (kn ? INFINITY : 1);
	w->v = V_SAME;
	if (kb + kn == 0) {
		snprintf(w->note, sizeof(w->note), "none on either side (%.0f s vs %.0f s)", db, dn);
		return;
	}
	pg = kn ? 1 - rtp_binom_cdf(kn - 1, kb + kn, dn / (db + dn)) : 1;
	pl = rtp_binom_cdf(kn, kb + kn, dn / (db + dn));
	/* shown, but no verdict rests on it: clustered counts make it no valid p-value */
	snprintf(w->note, sizeof(w->note), "%llu in %.0f s vs %llu in %.0f s, p as if independent %.2g", (unsigned long long)kb, db,
		 (unsigned long long)kn, dn, fmin(1, 2 * fmin(pg, pl)));
	/*
	 * The counts carry no times: one stall misses many periods, so the
	 * test above treats a cluster as many events.  Runs are the unit that
	 * can tell: the rank test on the runs' rates (exact for few runs),
	 * whose p enters the Holm family.  With one run a side no call is made.
	 */
	w->v = V_SAME;
	if (!event_runs_test(w, bs, ns, bench, event, c)) {
		if (w->ratio > t && pg < c->alpha / 2) {
			w->v = V_UNDECIDED;
			strncat(w->note, "; events come in clusters and one run a side cannot tell",
				sizeof(w->note) - strlen(w->note) - 1);
		}
		return;
	}
	if (w->v == V_SAME && w->ratio > t)
		w->v = V_UNDECIDED;
	w->v = spread_check(w, w->v);
}
