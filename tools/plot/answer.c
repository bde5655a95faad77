// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first screen (plot.h, docs/plots.md "First screen"): what a person
 * reads before stopping.  One run: suitable or not for the profile the
 * run was judged by and the figure why, the worst culprit --explain named,
 * the failed check that most likely explains it, and what was measured and
 * what was not.  Without a budget nothing is judged: "figures only".  A
 * kernel ladder (RT base against stock rungs): the trade per bench and
 * rung (trade.c).  Plain text; report.c escapes it for the page.
 */
#include "plot.h"
#include "strbuf.h"
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void rtp_plot_answer_add(struct rtp_plot_answer *a, const char *fmt, ...)
{
	va_list ap;

	if (a->n >= RTP_ANSWER_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(a->line[a->n++], sizeof(a->line[0]), fmt, ap);
	va_end(ap);
}

/* document text, one line, cut at n bytes */
static const char *txt(char *buf, size_t len, const char *s)
{
	return rtp_plot_text(buf, len, s ? s : "");
}

/* the price beside a run (rtproof run's load.json): each part's work per second */
static void price_line(const json_t *load, struct rtp_plot_answer *a)
{
	char s[sizeof(a->line[0])] = "", buf[64];
	const json_t *m;
	size_t i, n = 0;

	json_array_foreach(json_object_get(load, "metrics"), i, m) {
		const json_t *r = json_object_get(m, "ops_per_s");

		if (!json_is_number(r) || !isfinite(json_number_value(r)) || json_number_value(r) <= 0)
			continue;
		rtp_appendf(s, sizeof(s), "%s%s %.0f ops/s", n++ ? ", " : "", txt(buf, 32, rtp_plot_str(m, "part", "?")),
			    json_number_value(r));
	}
	if (n)
		rtp_plot_answer_add(a, "The price in work done (rtproof-load, run alone): %s; rtproof compare "
				    "sets two kernels' runs side by side.", s);
}

/*
 * What a failed check of rtproof check most likely affects, most likely
 * first (docs/plots.md keeps the same table).  The first failed check
 * whose figures include the one that failed is named.
 */
enum { F_WAKE = 1, F_IRQ = 2, F_XRUN = 4, F_MEASURE = 8 };
static const struct {
	const char *id;
	unsigned figs;
} check_figs[] = {
	{ "preempt", F_WAKE | F_IRQ | F_XRUN },
	{ "rt_throttle", F_WAKE | F_XRUN },
	{ "threadirqs", F_IRQ | F_WAKE },
	{ "cstates", F_WAKE | F_IRQ | F_XRUN },
	{ "dma_latency", F_WAKE | F_IRQ },
	{ "virt", F_WAKE | F_IRQ | F_XRUN },
	{ "smt", F_WAKE },
	{ "isolation", F_WAKE },
	{ "irq_affinity", F_WAKE | F_IRQ },
	{ "irqbalance", F_WAKE | F_IRQ },
	{ "timer_migration", F_WAKE },
	{ "nohz", F_WAKE },
	{ "hrtimers", F_WAKE },
	{ "governor", F_WAKE },
	{ "boost", F_WAKE },
	{ "mitigations", F_WAKE },
	{ "clocksource", F_WAKE | F_IRQ },
	{ "thp", F_WAKE },
	{ "ksm", F_WAKE },
	{ "numa_balancing", F_WAKE },
	{ "swappiness", F_WAKE },
	{ "sound_irq", F_XRUN },
	{ "irq_prio", F_XRUN },
	{ "usb_autosuspend", F_XRUN },
	{ "sound_cards", F_XRUN },
	{ "rtprio", F_MEASURE },
	{ "memlock", F_MEASURE | F_WAKE },
	{ "limits_files", F_MEASURE },
	{ "audio_group", F_MEASURE },
};

/* The failed check that most likely explains figures of kind figs, or NULL. */
static const json_t *likely_check(const json_t *check, unsigned figs)
{
	size_t t, i;
	const json_t *c;

	for (t = 0; t < sizeof(check_figs) / sizeof(check_figs[0]); t++) {
		if (!(check_figs[t].figs & figs))
			continue;
		json_array_foreach(json_object_get(json_object_get(check, "verdict"), "criteria"), i, c)
			if (!strcmp(rtp_plot_str(c, "name", ""), check_figs[t].id) &&
			    !strcmp(rtp_plot_str(c, "status", ""), "fail"))
				return c;
	}
	return NULL;
}

/* the figure a bench's verdict criterion is about */
static unsigned criterion_figs(int b, const char *name)
{
	if (b == RP_AUDIO)
		return strstr(name, "lateness") ? F_WAKE : F_XRUN;
	return b == RP_IRQLAT ? F_IRQ | F_WAKE : F_WAKE;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A bench's worst figure, for "measured: ...": "max 4260.0 us". */
static void worst_figure(int b, const json_t *d, char *buf, size_t len)
{
	const json_t *m;
	double max = NAN;
	size_t i;
	const char *want = b == RP_CYCLIC ? "wakeup_latency" : b == RP_AUDIO ? "wakeup_lateness" :
			   b == RP_IRQLAT ? NULL : "";

	buf[0] = 0;
	if (b == RP_LOCKSTRESS)
		return;
	json_array_foreach(json_object_get(d, "metrics"), i, m) {
		const char *n = rtp_plot_str(m, "name", "");

		if (want ? strcmp(n, want) : (strcmp(n, "total") && strcmp(n, "thread_latency")))
			continue;
		if (isnan(max) || num(m, "max") > max)
			max = num(m, "max");
	}
	if (b == RP_IRQLAT && isnan(max))	/* another source: its first metric */
		max = num(json_array_get(json_object_get(d, "metrics"), 0), "max");
	if (!isnan(max))
		snprintf(buf, len, "worst %s %.1f us", b == RP_IRQLAT ? "IRQ-to-task" : "wake-up", max / 1e3);
	if (b == RP_AUDIO && json_is_number(json_object_get(json_object_get(d, "events"), "xruns")))
		rtp_appendf(buf, len, "%s%.0f xrun%s", buf[0] ? ", " : "", num(json_object_get(d, "events"), "xruns"),
		    num(json_object_get(d, "events"), "xruns") == 1 ? "" : "s");
}

/* "cyclic's max wakeup_latency was 4260.0 us, over the 100 us budget" */
static void criterion_text(int b, const json_t *c, char *buf, size_t len)
{
	char n[96], u[24];
	const char *name = txt(n, sizeof(n), rtp_plot_str(c, "name", "?"));

	txt(u, sizeof(u), rtp_plot_str(c, "unit", ""));
	if (!strcmp(u, "count")) {
		size_t l = strlen(name);

		if (num(c, "observed") == 1 && l > 1 && name[l - 1] == 's')
			n[l - 1] = 0;	/* 1 xrun */
		snprintf(buf, len, "%s had %.0f %s (%s%.0f allowed)", rtp_plot_bench_name[b], num(c, "observed"),
			 name, rtp_plot_str(c, "op", "")[0] == '=' ? "" : "at most ", num(c, "limit"));
	}
	else
		snprintf(buf, len, "%s's %s was %.1f %s, %s the %g %s budget", rtp_plot_bench_name[b], name,
			 num(c, "observed"), u, json_is_true(json_object_get(c, "pass")) ? "within" : "over",
			 num(c, "limit"), u);
}

/* The worst explained outlier's first culprit, over every document. */
static void culprit(const struct rtp_plot_set *set, struct rtp_plot_answer *a)
{
	const json_t *best = NULL, *e;
	int bb = 0;
	size_t ri, i;
	int b;
	char name[96], pol[24], kind[24];

	for (ri = 0; ri < set->nruns; ri++)
		for (b = 0; b < RP_NBENCH; b++)
			json_array_foreach(json_object_get(json_object_get(set->runs[ri].doc[b], "events"),
							   "explained"), i, e)
				if (json_array_size(json_object_get(e, "culprits")) &&
				    (!best || num(e, "latency_ns") > num(best, "latency_ns"))) {
					best = e;
					bb = b;
				}
	if (!best)
		return;
	e = json_array_get(json_object_get(best, "culprits"), 0);
	txt(name, sizeof(name), rtp_plot_str(e, "name", "?"));
	txt(pol, sizeof(pol), rtp_plot_str(e, "policy", ""));
	txt(kind, sizeof(kind), rtp_plot_str(e, "kind", "?"));
	rtp_plot_answer_add(a, "Worst culprit (--explain): %s %s%s%s%s held the CPU for %.1f us of %s's worst "
		       "explained wake-up (%.1f us, CPU %.0f, %.3f s into the run).",
		       kind, name, pol[0] ? " (" : "", pol, pol[0] ? ")" : "",
		       num(e, "ns") / 1e3, rtp_plot_bench_name[bb], num(best, "latency_ns") / 1e3,
		       num(best, "cpu"), num(best, "time_s"));
}

static void check_line(const json_t *check, unsigned figs, bool judged, struct rtp_plot_answer *a)
{
	const json_t *c = likely_check(check, figs);
	char seen[300], title[96], name[64];

	if (!c)
		return;
	txt(seen, sizeof(seen), rtp_plot_str(c, "seen", ""));
	txt(title, sizeof(title), rtp_plot_str(c, "title", ""));
	rtp_plot_answer_add(a, "The failed check that most likely explains %s: %s (%s): %s", judged ? "it" : "these figures",
		       txt(name, sizeof(name), rtp_plot_str(c, "name", "?")), title, seen);
}

/*
 * How long the runs were against how long a confident answer needs: no
 * miss in T seconds bounds the rate of misses below -ln(0.05) / T at 95 %
 * confidence (Poisson, none seen: the "rule of three"); fewer than one an
 * hour needs -ln(0.05) = 3.0 hours with none.  The shortest run decides.
 */
static void run_length(struct rtp_plot_answer *a, const char *lasted, double tmin)
{
	rtp_plot_answer_add(a, "How long: %s. No budget missed in %.0f s bounds misses below %.3g an hour "
			    "(95 %% confidence); fewer than one an hour needs %.1f h a bench with none.",
			    lasted, tmin, rtp_none_seen_rate_h(tmin), rtp_none_seen_h());
}

void rtp_plot_answer(const struct rtp_plot_set *set, struct rtp_plot_answer *a)
{
	char measured[1024] = "", notm[1024] = "", failed[512] = "", because[512] = "", within[512] = "";
	char others[512] = "", lasted[300] = "", buf[300], r[200];
	double tmin = INFINITY;
	const json_t *profile = NULL, *check = NULL, *worst_c = NULL;
	double worst_ratio = -1;
	int worst_b = 0, nmeasured = 0, nfail = 0, nerror = 0;
	size_t ri, i;
	int b;
	bool multi = set->nruns > 1;

	memset(a, 0, sizeof(*a));
	if (set->compare)
		rtp_plot_trade(set, a);	/* the ladder's head and lines */
	for (ri = 0; ri < set->nruns; ri++) {
		const struct rtp_plot_run *run = &set->runs[ri];

		if (!profile && json_is_object(json_object_get(run->suite, "profile")))
			profile = json_object_get(run->suite, "profile");
		if (!check && run->check)
			check = run->check;
		for (b = 0; b < RP_NBENCH; b++) {
			const json_t *d = run->doc[b], *v = json_object_get(d, "verdict"), *c;
			const char *st = rtp_plot_str(v, "status", "");
			char who[160];

			if (!d)
				continue;
			snprintf(who, sizeof(who), "%s%s%s", multi ? txt(buf, 96, run->label) : "", multi ? " " : "",
				 rtp_plot_bench_name[b]);
			if (strcmp(st, "pass") && strcmp(st, "fail") && strcmp(st, "figures only")) {
				nerror += strcmp(st, "skip") != 0;
				rtp_appendf(notm, sizeof(notm), "%s%s (%s: %s)", notm[0] ? "; " : "", who,
				    st[0] ? txt(buf, 32, st) : "no verdict", txt(r, sizeof(r), rtp_plot_str(v, "reason", "")));
				continue;
			}
			nmeasured++;
			worst_figure(b, d, r, sizeof(r));
			rtp_appendf(measured, sizeof(measured), "%s%s%s%s%s", measured[0] ? ", " : "", who,
			    r[0] ? " (" : "", r, r[0] ? ")" : "");
			json_array_foreach(json_object_get(v, "criteria"), i, c) {
				double lim = num(c, "limit"), obs = num(c, "observed");
				double ratio = lim > 0 ? obs / lim : obs > 0 ? INFINITY : 0;
				bool budget = b != RP_LOCKSTRESS && strcmp(rtp_plot_str(c, "name", ""), "suspends");

				if (!budget)
					continue;
				if (!json_is_true(json_object_get(c, "pass")) && ratio > worst_ratio) {
					worst_ratio = ratio;
					worst_c = c;
					worst_b = b;
				} else if (json_is_true(json_object_get(c, "pass")) && !strstr(within, rtp_plot_bench_name[b])) {
					criterion_text(b, c, r, sizeof(r));
					rtp_appendf(within, sizeof(within), "%s%s", within[0] ? "; " : "", r);
					if (num(d, "duration_s") > 0) {
						rtp_appendf(lasted, sizeof(lasted), "%s%s %.0f s", lasted[0] ? ", " : "",
							    who, num(d, "duration_s"));
						if (num(d, "duration_s") < tmin)
							tmin = num(d, "duration_s");
					}
				}
			}
			if (!strcmp(st, "fail")) {
				nfail++;
				rtp_appendf(failed, sizeof(failed), "%s%s", failed[0] ? ", " : "", who);
				if (!worst_c || b == RP_LOCKSTRESS)
					rtp_appendf(others, sizeof(others), "%s%s: %s", others[0] ? "; " : "", who,
					    txt(r, sizeof(r), rtp_plot_str(v, "reason", "")));
			}
		}
	}
	for (ri = 0; ri < set->nfailed; ri++) {
		nerror++;
		rtp_appendf(notm, sizeof(notm), "%s%s (no result document: the run failed)", notm[0] ? "; " : "",
		    txt(buf, 200, set->failed[ri]));
	}
	if (worst_c)
		criterion_text(worst_b, worst_c, because, sizeof(because));
	/* the other budgets missed, one a bench, after the worst */
	for (ri = 0; ri < set->nruns && worst_c; ri++)
		for (b = 0; b < RP_NBENCH; b++) {
			const json_t *c;

			json_array_foreach(json_object_get(json_object_get(set->runs[ri].doc[b], "verdict"), "criteria"), i, c)
				if (c != worst_c && b != worst_b && b != RP_LOCKSTRESS &&
				    !json_is_true(json_object_get(c, "pass"))) {
					criterion_text(b, c, r, sizeof(r));
					rtp_appendf(because, sizeof(because), "; %s", r);
					break;
				}
		}
	if (!a->head[0]) {
		const char *pn = rtp_plot_str(profile, "name", NULL);
		char what[160];

		if (pn && !strcmp(pn, "audio"))
			snprintf(what, sizeof(what), "audio at %.0f x %.0f frames / %.0f kHz", num(profile, "period_frames"),
				 num(profile, "periods"), num(profile, "rate_hz") / 1e3);
		else
			snprintf(what, sizeof(what), "%s", pn ? txt(buf, 64, pn) : "");
		if (worst_c && profile) {
			snprintf(a->word, sizeof(a->word), "%s", pn ? "NOT SUITABLE" : "FAIL");
			snprintf(a->cls, sizeof(a->cls), "unsuitable");
			snprintf(a->head, sizeof(a->head), "%s%s because %s.", pn ? "not suitable for " : "over budget",
				 what, because);
		} else if (profile && nmeasured && !nfail && !nerror) {
			snprintf(a->word, sizeof(a->word), "%s", pn ? "SUITABLE" : "PASS");
			snprintf(a->cls, sizeof(a->cls), "suitable");
			snprintf(a->head, sizeof(a->head), "%s%s in this run: %s.", pn ? "suitable for " : "within budget",
				 what, within[0] ? within : "every budget met");
		} else if (profile && nmeasured && !nfail) {
			snprintf(a->word, sizeof(a->word), "CANNOT TELL");
			snprintf(a->cls, sizeof(a->cls), "error");
			snprintf(a->head, sizeof(a->head), "cannot say whether it is suitable for %s: what was measured "
				 "met its budgets (%s), but not everything could measure.", what[0] ? what : "the budget",
				 within[0] ? within : "no budget reached");
		} else if (nfail) {
			snprintf(a->word, sizeof(a->word), "FAIL");
			snprintf(a->cls, sizeof(a->cls), "fail");
			snprintf(a->head, sizeof(a->head), "%s failed: %s.", failed, because[0] ? because : others);
		} else if (nerror) {
			snprintf(a->word, sizeof(a->word), "ERROR");
			snprintf(a->cls, sizeof(a->cls), "error");
			snprintf(a->head, sizeof(a->head), "%s", notm);
		} else if (nmeasured && within[0]) {
			/* budgets given on the benches' command lines, all met */
			snprintf(a->word, sizeof(a->word), "PASS");
			snprintf(a->cls, sizeof(a->cls), "pass");
			snprintf(a->head, sizeof(a->head), "every budget given was met: %s.", within);
		} else if (nmeasured) {
			snprintf(a->word, sizeof(a->word), "FIGURES ONLY");
			snprintf(a->cls, sizeof(a->cls), "figures");
			snprintf(a->head, sizeof(a->head), "no budget was given, so nothing was judged "
				 "(rtproof run --profile latency or audio sets one).");
		} else {
			snprintf(a->word, sizeof(a->word), "NOTHING MEASURED");
			snprintf(a->cls, sizeof(a->cls), "none");
			snprintf(a->head, sizeof(a->head), "every bench skipped.");
		}
		if (others[0] && worst_c && profile)
			rtp_plot_answer_add(a, "Also failed: %s.", others);
		if (!worst_c && !nfail && isfinite(tmin))
			run_length(a, lasted, tmin);
		culprit(set, a);
		if (check && (worst_c || !profile))
			check_line(check, worst_c ? criterion_figs(worst_b, rtp_plot_str(worst_c, "name", "")) :
				   F_WAKE | F_IRQ | F_XRUN, worst_c != NULL, a);
	}
	/* the one sentence of what was measured and what was not */
	{
		char s[sizeof(a->line[0])] = "";

		rtp_appendf(s, sizeof(s), "Measured: %s.", measured[0] ? measured : "nothing");
		if (notm[0])
			rtp_appendf(s, sizeof(s), " Not measured: %s.", notm);
		if (check) {
			char f[400] = "";
			const json_t *c;

			json_array_foreach(json_object_get(json_object_get(check, "verdict"), "criteria"), i, c)
				if (!strcmp(rtp_plot_str(c, "status", ""), "fail"))
					rtp_appendf(f, sizeof(f), "%s%s", f[0] ? ", " : "", txt(buf, 64, rtp_plot_str(c, "name", "?")));
			rtp_appendf(s, sizeof(s), f[0] ? " rtproof check failed: %s." : " rtproof check: no failed check%s.", f);
		}
		rtp_plot_answer_add(a, "%s", s);
	}
	if (set->nruns == 1 && set->runs[0].load)
		price_line(set->runs[0].load, a);
}
