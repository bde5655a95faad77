// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first screen of a comparison (answer.c, docs/plots.md "First
 * screen").  A kernel ladder (RT base, stock rungs) is a trade, not a
 * regression test: per bench and rung, the worst case (p99.9, max) better
 * or worse by how much and the typical cost (p50) in us, each with the
 * confidence compare.json gives it; a worst case 5x or more apart is said
 * at the top.  Any other comparison (before/after) keeps PASS/FAIL: there
 * a regression is a failure.
 */
#include "plot.h"
#include "price.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The comparison sets stock kernels against an RT base (a kernel ladder,
 * as compare-kernels makes it). */
bool rtp_plot_rt_against_stock(const json_t *cmp)
{
	const json_t *n;
	size_t i;

	if (strcmp(rtp_plot_str(json_object_get(cmp, "base"), "preempt", ""), "rt"))
		return false;
	/* a ladder may hold RT rungs too (6.12's rt-full): stock ones make it a trade */
	json_array_foreach(json_object_get(cmp, "new"), i, n)
		if (strcmp(rtp_plot_str(n, "preempt", ""), "rt"))
			return true;
	return false;
}

bool rtp_plot_new_is_stock(const json_t *cmp, const json_t *row)
{
	double ix = json_number_value(json_object_get(row, "new_index"));	/* 0 when absent */
	const json_t *n = ix >= 0 && ix < 1e6 ? json_array_get(json_object_get(cmp, "new"), (size_t)ix) : NULL;

	return n && strcmp(rtp_plot_str(n, "preempt", "rt"), "rt");
}

/* The other way round: a stock base against RT only. */
bool rtp_plot_stock_against_rt(const json_t *cmp)
{
	const json_t *n;
	size_t i;

	if (!strcmp(rtp_plot_str(json_object_get(cmp, "base"), "preempt", "rt"), "rt") ||
	    !json_array_size(json_object_get(cmp, "new")))
		return false;
	json_array_foreach(json_object_get(cmp, "new"), i, n)
		if (strcmp(rtp_plot_str(n, "preempt", ""), "rt"))
			return false;
	return true;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* how much a row's identity says "every CPU, every thread" */
static int all_score(const json_t *r)
{
	return 2 * !strcmp(rtp_plot_str(r, "cpu", "all"), "all") + !strcmp(rtp_plot_str(r, "thread", "all"), "all");
}

static bool same_id(const json_t *a, const json_t *b)
{
	char x[64], y[64];

	rtp_plot_scalar(json_object_get(a, "cpu"), x, sizeof(x));
	rtp_plot_scalar(json_object_get(b, "cpu"), y, sizeof(y));
	if (strcmp(x, y))
		return false;
	rtp_plot_scalar(json_object_get(a, "thread"), x, sizeof(x));
	rtp_plot_scalar(json_object_get(b, "thread"), y, sizeof(y));
	return !strcmp(x, y) && !strcmp(rtp_plot_str(a, "key", ""), rtp_plot_str(b, "key", ""));
}

/* a value with its unit: ns shown in us */
static void val(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v))
		snprintf(buf, len, "none");
	else if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.1f us", v / 1e3);
	else
		snprintf(buf, len, "%g %s", v, unit);
}

/* RT's and stock's figure of a row: rt_base says which side is RT */
static double rt_of(const json_t *r, bool rt_base)
{
	return num(r, rt_base ? "base" : "new");
}

static double stock_of(const json_t *r, bool rt_base)
{
	return num(r, rt_base ? "new" : "base");
}

/* the row's confidence, as compare.json gives it */
static void conf(char *buf, size_t len, const json_t *r, double level, bool rt_base)
{
	const char *v = rtp_plot_str(r, "verdict", "");
	const json_t *ci = json_object_get(r, "ratio_ci");
	int o;

	o = snprintf(buf, len, "%s", !strcmp(v, "worse") || !strcmp(v, "better") ? "significant" :
		     !strcmp(v, "same") ? "no significant difference" : !strcmp(v, "undecided") ? "undecided" :
		     "not enough data");
	if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)))
		snprintf(buf + o, len - (size_t)o, ", %g %% CI of %s %.2f-%.2f", level * 100,
			 rt_base ? "stock/RT" : "RT/stock",
			 json_number_value(json_array_get(ci, 0)), json_number_value(json_array_get(ci, 1)));
	else if (json_is_number(json_object_get(r, "p_holm")))
		snprintf(buf + o, len - (size_t)o, ", p %.3g (Holm)", num(r, "p_holm"));
}

/* "RT 71.1x better" from stock/RT */
static void by(char *buf, size_t len, double ratio)
{
	if (isnan(ratio) || ratio <= 0)
		snprintf(buf, len, "no ratio");
	else if (ratio >= 1)
		snprintf(buf, len, "RT %.1fx better", ratio);
	else
		snprintf(buf, len, "RT %.1fx worse", 1 / ratio);
}

static const char *const pref[] = { "wakeup_latency", "total", "wakeup_lateness", "inversion_wait" };

/* The primary metric of bench in the rows: a preferred one, else the first. */
static const char *primary(const json_t *rows, const char *bench)
{
	const json_t *r;
	const char *first = NULL;
	size_t i, p;

	for (p = 0; p < sizeof(pref) / sizeof(pref[0]); p++)
		json_array_foreach(rows, i, r)
			if (!strcmp(rtp_plot_str(r, "bench", ""), bench) &&
			    !strcmp(rtp_plot_str(r, "metric", ""), pref[p]))
				return pref[p];
	json_array_foreach(rows, i, r)
		if (!strcmp(rtp_plot_str(r, "bench", ""), bench) && !first)
			first = rtp_plot_str(r, "metric", NULL);
	return first;
}

static const json_t *row_of(const json_t *rows, const json_t *id, const char *fig)
{
	const json_t *r;
	size_t i;

	json_array_foreach(rows, i, r)
		if (num(r, "new_index") == num(id, "new_index") && !strcmp(rtp_plot_str(r, "bench", ""),
		    rtp_plot_str(id, "bench", "")) && !strcmp(rtp_plot_str(r, "metric", ""),
		    rtp_plot_str(id, "metric", "")) && same_id(r, id) && !strcmp(rtp_plot_str(r, "figure", ""), fig))
			return r;
	return NULL;
}

const json_t *rtp_plot_trade_row(const json_t *rows, const char *bench, size_t k, const char *figure)
{
	const char *metric = primary(rows, bench);
	const json_t *r, *id = NULL;
	size_t i;
	int best = -1;

	if (!metric)
		return NULL;
	json_array_foreach(rows, i, r)
		if (num(r, "new_index") == (double)k && !strcmp(rtp_plot_str(r, "bench", ""), bench) &&
		    !strcmp(rtp_plot_str(r, "metric", ""), metric) && all_score(r) > best) {
			best = all_score(r);
			id = r;
		}
	return id ? row_of(rows, id, figure) : NULL;
}

static void worst_head(struct rtp_plot_answer *a, size_t l, const char *rtbig, const char *stbig);

static void before_after(const struct rtp_plot_set *set, struct rtp_plot_answer *a)
{
	const json_t *v = json_object_get(set->compare, "verdict"), *r;
	char t[300];
	size_t i;

	if (!strcmp(rtp_plot_str(v, "status", ""), "pass")) {
		snprintf(a->word, sizeof(a->word), "PASS");
		snprintf(a->cls, sizeof(a->cls), "pass");
		snprintf(a->head, sizeof(a->head), "no regression beyond the %g %% threshold.",
			 num(set->compare, "threshold") * 100);
		return;
	}
	snprintf(a->word, sizeof(a->word), "%s", !strcmp(rtp_plot_str(v, "status", ""), "fail") ? "FAIL" : "UNDECIDED");
	snprintf(a->cls, sizeof(a->cls), "fail");
	snprintf(a->head, sizeof(a->head), "%zu regression(s) beyond the %g %% threshold.",
		 json_array_size(json_object_get(v, "regressions")), num(set->compare, "threshold") * 100);
	json_array_foreach(json_object_get(v, "regressions"), i, r)
		rtp_plot_answer_add(a, "Regression: %s", rtp_plot_text(t, sizeof(t), json_string_value(r)));
}

void rtp_plot_trade(const struct rtp_plot_set *set, struct rtp_plot_answer *a)
{
	const json_t *cmp = set->compare, *rows = json_object_get(cmp, "rows"), *nw, *r;
	char rtbig[400] = "", stbig[400] = "", t[300];
	double level = num(cmp, "confidence");
	size_t k, i, b, l;
	bool rt_base = rtp_plot_rt_against_stock(cmp);

	if (!rt_base && !rtp_plot_stock_against_rt(cmp)) {
		before_after(set, a);
		return;
	}
	json_array_foreach(json_object_get(cmp, "new"), k, nw) {
		char rung[96];

		/* RT against RT (rt-full against rt) is not the trade: its rows are in the tables */
		if (rt_base && !strcmp(rtp_plot_str(nw, "preempt", "rt"), "rt"))
			continue;
		/* the stock rung of this pair */
		rtp_plot_text(rung, sizeof(rung), rtp_plot_str(rt_base ? nw : json_object_get(cmp, "base"), "label", "?"));
		for (b = 0; b < RP_NBENCH; b++) {
			const char *bench = rtp_plot_bench_name[b], *metric = primary(rows, bench);
			const json_t *id = NULL, *w[3];
			static const char *const figs[3] = { "max", "p99.9", "p50" };
			char line[sizeof(a->line[0])], x[64], y[64], c[160], d[48];
			const char *unit;
			int f, off, best = -1;
			bool named = false;

			if (!metric)
				continue;
			json_array_foreach(rows, i, r)
				if (num(r, "new_index") == (double)k && !strcmp(rtp_plot_str(r, "bench", ""), bench) &&
				    !strcmp(rtp_plot_str(r, "metric", ""), metric) && all_score(r) > best) {
					best = all_score(r);
					id = r;
				}
			if (!id)
				continue;
			for (f = 0; f < 3; f++)
				w[f] = row_of(rows, id, figs[f]);
			unit = rtp_plot_str(id, "unit", "");
			off = snprintf(line, sizeof(line), "%s %s, RT against %s: worst case", bench,
				       rtp_plot_text(t, 64, metric), rung);
			for (f = 0; f < 2; f++) {
				double ratio;

				if (!w[f])
					continue;
				ratio = stock_of(w[f], rt_base) / rt_of(w[f], rt_base);
				val(x, sizeof(x), rt_of(w[f], rt_base), unit);
				val(y, sizeof(y), stock_of(w[f], rt_base), unit);
				by(d, sizeof(d), ratio);
				conf(c, sizeof(c), w[f], level, rt_base);
				off += snprintf(line + off, sizeof(line) - (size_t)off, "%s %s RT %s against %s (%s; %s)",
						f && w[0] ? "," : "", figs[f], x, y, d, c);
				if ((size_t)off >= sizeof(line))
					break;
				if (named)
					continue;
				named = ratio >= 5 || (ratio > 0 && ratio <= 0.2);	/* one bench, one rung: once */
				c[strcspn(c, ",")] = 0;	/* the verdict word alone at the top */
				if (ratio >= 5 && strlen(rtbig) + 160 < sizeof(rtbig))
					snprintf(rtbig + strlen(rtbig), sizeof(rtbig) - strlen(rtbig),
						 "%s%s %.1fx against %s (%s; %s)", rtbig[0] ? "; " : "", bench, ratio,
						 rung, figs[f], c);
				else if (ratio > 0 && ratio <= 0.2 && strlen(stbig) + 160 < sizeof(stbig))
					snprintf(stbig + strlen(stbig), sizeof(stbig) - strlen(stbig),
						 "%s%s %.1fx against RT (%s, %s; %s)", stbig[0] ? "; " : "", bench,
						 1 / ratio, rung, figs[f], c);
			}
			if (!w[0] && !w[1] && (size_t)off < sizeof(line))
				off += snprintf(line + off, sizeof(line) - (size_t)off, " not compared");
			if (w[2] && (size_t)off < sizeof(line)) {
				double cost = rt_of(w[2], rt_base) - stock_of(w[2], rt_base);

				val(x, sizeof(x), rt_of(w[2], rt_base), unit);
				val(y, sizeof(y), stock_of(w[2], rt_base), unit);
				val(d, sizeof(d), fabs(cost), unit);
				conf(c, sizeof(c), w[2], level, rt_base);
				snprintf(line + off, sizeof(line) - (size_t)off, "; typical p50: RT %s %s (%s against %s; %s)",
					 fabs(cost) < 50 && !strcmp(unit, "ns") ? "costs about" : cost > 0 ? "costs" : "saves",
					 fabs(cost) < 50 && !strcmp(unit, "ns") ? "nothing" : d, x, y, c);
			}
			rtp_plot_answer_add(a, "%s.", line);
		}
		rtp_plot_price_line(set, a, k);	/* the other side of the trade: work done */
	}
	snprintf(a->cls, sizeof(a->cls), "trade");
	snprintf(a->word, sizeof(a->word), "RT AGAINST STOCK");
	l = 0;
	if (set->nfailed) {
		snprintf(a->cls, sizeof(a->cls), "error");
		snprintf(a->word, sizeof(a->word), "ERROR");
		for (i = 0; i < set->nfailed; i++)
			l += (size_t)snprintf(a->head + l, l < sizeof(a->head) ? sizeof(a->head) - l : 0, "%s%s",
					      i ? ", " : "", rtp_plot_text(t, 96, set->failed[i]));
		if (l < sizeof(a->head))
			l += (size_t)snprintf(a->head + l, sizeof(a->head) - l, ": no result document (the rung's run failed). ");
	}
	if (l < sizeof(a->head))
		worst_head(a, l, rtbig, stbig);
	rtp_plot_price_head(set, a);
}

/* the head from the worst cases 5x or more apart (at a->head + l) */
static void worst_head(struct rtp_plot_answer *a, size_t l, const char *rtbig, const char *stbig)
{
	if (rtbig[0] && stbig[0])
		snprintf(a->head + l, sizeof(a->head) - l, "The worst case differs 5x or more both ways: RT's is "
			 "better on %s; stock's is better on %s.", rtbig, stbig);
	else if (rtbig[0])
		snprintf(a->head + l, sizeof(a->head) - l, "RT's worst case is 5x or more better than stock's: %s.", rtbig);
	else if (stbig[0])
		snprintf(a->head + l, sizeof(a->head) - l, "Stock's worst case is 5x or more better than RT's: %s.", stbig);
	else
		snprintf(a->head + l, sizeof(a->head) - l, "No worst case differs by 5x or more between RT and stock; "
			 "the trade per bench and rung follows.");
}
