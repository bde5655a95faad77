// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare: the throughput row of a metric that counts work done
 * (rtproof-load's parts: ops_per_s), docs/compare.md "Throughput".
 *
 * Each run's figure is its operations per second over all its rounds; a
 * side's figure is the geometric mean of its runs'.  The ratio new/base
 * gets a t interval on the log scale.  A side's variance is the spread of
 * its runs (boot to boot, machine to machine: what a second run shows),
 * never less than what its rounds' spread alone gives.  With two runs or
 * more on both sides the two sides' run spreads are pooled (Student's t,
 * runs - 2 degrees of freedom): Welch's would fall to one degree of
 * freedom whenever one side's two runs happened to agree less, and a
 * -34 % price with a +-1 % interval could not pass Holm's correction.
 * With one run on a side its rounds speak (Welch), and a change under x2
 * stays undecided (a whole run on a shared machine moves by tens of
 * percent).  Higher is better: "worse" is less work done per second.
 */
#include "compare.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ONE_RUN_FACTOR	2.0

struct tp_side {
	size_t nruns;
	double lmean;		/* mean log throughput over the runs */
	double var;		/* of lmean */
	double run_var;		/* of one run's log throughput (runs >= 2) */
	double df;
	double lo, hi;		/* the runs' lowest and highest throughput */
	uint64_t rounds;	/* over all runs */
};

static bool tp_side(const struct side *s, const char *bench, const char *name, const char *key,
		    struct tp_side *t)
{
	double x[MAX_RUNS], within = 0, ss = 0;
	size_t r;

	memset(t, 0, sizeof(*t));
	for (r = 0; r < s->nruns; r++) {
		const struct rtp_doc *d = run_doc(&s->runs[r], bench);
		const struct rtp_doc_metric *m = d ? rtp_doc_find(d, name, key) : NULL;
		double cv;

		if (!m || !m->has_rate)
			continue;
		x[t->nruns] = log(m->ops_per_s);
		/* one round's log spread (its coefficient of variation), over the rounds */
		cv = m->stddev / m->mean;
		within += cv * cv / (double)m->count;
		t->rounds += m->count;
		if (!t->nruns || m->ops_per_s < t->lo)
			t->lo = m->ops_per_s;
		if (!t->nruns || m->ops_per_s > t->hi)
			t->hi = m->ops_per_s;
		t->lmean += x[t->nruns];
		t->nruns++;
	}
	if (!t->nruns)
		return false;
	t->lmean /= (double)t->nruns;
	within /= (double)t->nruns;		/* one run's variance of its log throughput */
	for (r = 0; r < t->nruns; r++)
		ss += (x[r] - t->lmean) * (x[r] - t->lmean);
	if (t->nruns >= 2) {
		double between = ss / (double)(t->nruns - 1);

		t->run_var = between > within ? between : within;
		t->var = t->run_var / (double)t->nruns;
		t->df = (double)(t->nruns - 1);
	} else {
		t->var = within;
		t->df = t->rounds > 1 ? (double)(t->rounds - 1) : 0;
	}
	return true;
}

/* the call at level alpha: V_WORSE (new does less), V_BETTER, V_SAME; the ratio's interval in ci */
static enum verdict tp_call(double d, double se, double df, double alpha, double t, double ci[2])
{
	double q = rtp_t_quantile(1 - alpha / 2, df);

	ci[0] = exp(d - q * se);
	ci[1] = exp(d + q * se);
	if (ci[1] * t < 1)
		return V_WORSE;
	if (ci[0] > t)
		return V_BETTER;
	return V_SAME;
}

void throughput_row(struct row *w, const struct side *bs, const struct side *ns, const char *bench,
		    const char *name, const char *key, const struct ctx *c)
{
	struct tp_side b, n;
	double t = 1 + c->o->threshold, d, se, df, num, den, q;

	w->figure = "throughput";
	w->unit = "ops/s";
	w->higher_is_worse = false;
	w->p = NAN;
	w->has_base = tp_side(bs, bench, name, key, &b);
	w->has_new = tp_side(ns, bench, name, key, &n);
	if (!w->has_base || !w->has_new) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "no throughput on a side");
		return;
	}
	w->base = exp(b.lmean);
	w->new = exp(n.lmean);
	w->ratio = w->new / w->base;
	if (b.nruns >= 2 && n.nruns >= 2) {
		w->spread = true;
		w->base_spread[0] = b.lo;
		w->base_spread[1] = b.hi;
		w->new_spread[0] = n.lo;
		w->new_spread[1] = n.hi;
	}
	snprintf(w->method, sizeof(w->method),
		 "t interval on log throughput over %zu and %zu run(s) (%s; %llu and %llu rounds)", b.nruns,
		 n.nruns, b.nruns >= 2 && n.nruns >= 2 ? "the runs' spread, rounds within" : "rounds only",
		 (unsigned long long)b.rounds, (unsigned long long)n.rounds);
	if (!(b.df > 0) || !(n.df > 0)) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "one round on a side: no spread to judge by");
		return;
	}
	d = n.lmean - b.lmean;
	if (b.nruns >= 2 && n.nruns >= 2) {
		/* pooled run spread, Student's t */
		double sp = (b.df * b.run_var + n.df * n.run_var) / (b.df + n.df);

		se = sqrt(sp * (1 / (double)b.nruns + 1 / (double)n.nruns));
		df = b.df + n.df;
	} else {
		/* Welch-Satterthwaite */
		se = sqrt(b.var + n.var);
		num = (b.var + n.var) * (b.var + n.var);
		den = b.var * b.var / b.df + n.var * n.var / n.df;
		df = den > 0 ? num / den : b.df + n.df;
	}
	q = rtp_t_quantile(1 - c->alpha / 2, b.df);
	w->base_ci[0] = exp(b.lmean - q * sqrt(b.var));
	w->base_ci[1] = exp(b.lmean + q * sqrt(b.var));
	q = rtp_t_quantile(1 - c->alpha / 2, n.df);
	w->new_ci[0] = exp(n.lmean - q * sqrt(n.var));
	w->new_ci[1] = exp(n.lmean + q * sqrt(n.var));
	w->base_ci_ok = w->new_ci_ok = true;
	if (se == 0) {
		/* every round of every run the same: no interval to speak of */
		w->ratio_ci[0] = w->ratio_ci[1] = w->ratio;
		w->ratio_ci_ok = true;
		w->v = w->ratio * t < 1 ? V_WORSE : w->ratio > t ? V_BETTER : V_SAME;
		w->tested = true;
		w->p = w->v == V_SAME ? 1 : 0;
		return;
	}
	w->v = tp_call(d, se, df, c->alpha, t, w->ratio_ci);
	w->ratio_ci_ok = true;
	w->tested = true;
	/* one-sided against the threshold in the called direction, doubled as the interval is two-sided */
	w->p = w->v == V_SAME ? 1 : fmin(1, 2 * rtp_t_sf((fabs(d) - log(t)) / se, df));
	if (w->v == V_SAME) {
		if (w->ratio * t < 1 || w->ratio > t) {
			w->v = V_UNDECIDED;
			snprintf(w->note, sizeof(w->note), "beyond the threshold in the point values only");
		} else if (w->ratio_ci[1] < 1 || w->ratio_ci[0] > 1) {
			snprintf(w->note, sizeof(w->note), "%+.1f %%, significant, within the %.3g %% threshold",
				 (w->ratio - 1) * 100, c->o->threshold * 100);
		}
		return;
	}
	w->v = spread_check(w, w->v);
	if ((w->v == V_WORSE || w->v == V_BETTER) && (b.nruns < 2 || n.nruns < 2)) {
		double near = w->v == V_WORSE ? 1 / w->ratio_ci[1] : w->ratio_ci[0];

		if (near < ONE_RUN_FACTOR) {
			w->v = V_UNDECIDED;
			snprintf(w->note, sizeof(w->note),
				 "one run a side: a change under x%.0f may be the day's, not the change (run each side twice or more)",
				 ONE_RUN_FACTOR);
		}
	}
}
