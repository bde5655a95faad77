// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare: BASE against NEW [NEW2 ...], figure by figure, with
 * distribution-free statistics and a verdict (docs/compare.md).
 */
#include "compare.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "stats.h"
#include "verdict.h"

/* The headline measures of each bench (issue 15). */
static const char *const headline[] = {
	"cyclic:wakeup_latency",
	"irqlat:irq_latency", "irqlat:thread_wakeup", "irqlat:user_wakeup", "irqlat:total",
	"irqlat:thread_latency", "irqlat:rtc_interval_error", "irqlat:user_timer_wakeup",
	"audio:wakeup_lateness", "audio:buffer_margin",
	"lockstress:inversion_wait",
	"load:ns_per_op",
};

/* a new row, zeroed but for what names it; NULL when out of memory */
static struct row *row_add(const char *bench, const char *metric, const char *key, const char *unit,
			   size_t new_index)
{
	struct row *w;
	static size_t cmp_cap_rows;

	if (cmp_nrows == cmp_cap_rows) {
		size_t nc = cmp_cap_rows ? cmp_cap_rows * 2 : 256;
		struct row *nr = realloc(cmp_rows, nc * sizeof(*cmp_rows));

		if (!nr)
			return NULL;
		cmp_rows = nr;
		cmp_cap_rows = nc;
	}
	w = &cmp_rows[cmp_nrows++];
	memset(w, 0, sizeof(*w));
	w->bench = bench;
	w->metric = metric;
	w->key = key;
	w->unit = unit;
	w->new_index = new_index;
	return w;
}

static struct estimate *est_add(void)
{
	static size_t cmp_cap_ests;

	if (cmp_nests == cmp_cap_ests) {
		size_t nc = cmp_cap_ests ? cmp_cap_ests * 2 : 64;
		struct estimate *ne = realloc(cmp_ests, nc * sizeof(*cmp_ests));

		if (!ne)
			return NULL;
		cmp_ests = ne;
		cmp_cap_ests = nc;
	}
	memset(&cmp_ests[cmp_nests], 0, sizeof(cmp_ests[0]));
	return &cmp_ests[cmp_nests++];
}

/* ---- the comparison ---------------------------------------------------- */

static bool metric_selected(const char *bench, const char *name, const struct opts *o)
{
	char bn[160];
	size_t i;

	snprintf(bn, sizeof(bn), "%s:%s", bench, name);
	if (o->metrics) {
		const char *p = o->metrics;
		size_t ln = strlen(name), lb = strlen(bn);

		if (!strcmp(p, "all"))
			return true;
		while (*p) {
			size_t l = strcspn(p, ",");

			if ((l == ln && !strncmp(p, name, l)) || (l == lb && !strncmp(p, bn, l)))
				return true;
			p += l + (p[l] == ',');
		}
		return false;
	}
	for (i = 0; i < sizeof(headline) / sizeof(headline[0]); i++)
		if (!strcmp(headline[i], bn))
			return true;
	return false;
}

static void add_estimate(const struct pooled *p, const struct rtp_doc_metric *m, const char *bench,
			 const char *label, int new_index)
{
	struct rtp_gumbel g;
	struct estimate *e;
	double *v;
	char thr[32];

	key_field(m->key, "thread", thr, sizeof(thr));
	if (thr[0] && strcmp(thr, "all"))
		return;			/* per-thread series: the merge carries the estimate */
	if (!p->have_series || p->nbmax < 16 || !(p->block_samples > 0))
		return;
	v = malloc(p->nbmax * sizeof(double));
	if (!v)
		return;
	memcpy(v, p->bmax, p->nbmax * sizeof(double));
	if (rtp_gumbel_fit(v, p->nbmax, &g)) {
		free(v);
		return;
	}
	free(v);
	e = est_add();
	if (!e)
		return;
	e->bench = bench;
	e->metric = m->name;
	e->key = m->key;
	e->side_label = label;
	e->new_index = new_index;
	e->value = rtp_gumbel_quantile(&g, p->block_samples * 1e-9);
	e->ppcc = g.ppcc;
	e->ks = g.ks;
	e->blocks = g.n;
	e->block_s = p->block_s;
	e->block_samples = p->block_samples;
}

/* How many per-thread metrics an aggregate ("... all") metric of the document merges. */
static size_t components(const struct rtp_doc *d, const struct rtp_doc_metric *m)
{
	char cpu[32], thr[32], c2[32], t2[32];
	size_t i, n = 0;

	key_field(m->key, "thread", thr, sizeof(thr));
	key_field(m->key, "cpu", cpu, sizeof(cpu));
	if (strcmp(thr, "all"))
		return 1;
	for (i = 0; i < d->nmetrics; i++) {
		if (strcmp(d->metrics[i].name, m->name))
			continue;
		key_field(d->metrics[i].key, "thread", t2, sizeof(t2));
		key_field(d->metrics[i].key, "cpu", c2, sizeof(c2));
		if (!t2[0] || !strcmp(t2, "all"))
			continue;
		if (strcmp(cpu, "all") && strcmp(cpu, c2))
			continue;
		n++;
	}
	return n ? n : 1;
}

/*
 * A thread that shares its CPU with others of the document (cyclic -t 192
 * on 2 CPUs): its place in the CPU's wake-up order is the run's own, so
 * one thread's figures move between two runs of one machine by x2 and
 * more (idle pairs here: 40 to 80 such rows "worse" in each).  Its rows
 * are not compared; the CPU-wide ones are.
 */
static bool shares_cpu(const struct rtp_doc *d, const struct rtp_doc_metric *m)
{
	char cpu[32], thr[32], c2[32], t2[32];
	size_t i;

	key_field(m->key, "thread", thr, sizeof(thr));
	key_field(m->key, "cpu", cpu, sizeof(cpu));
	if (!thr[0] || !strcmp(thr, "all") || !cpu[0] || !strcmp(cpu, "all"))
		return false;
	for (i = 0; i < d->nmetrics; i++) {
		if (&d->metrics[i] == m || strcmp(d->metrics[i].name, m->name))
			continue;
		key_field(d->metrics[i].key, "thread", t2, sizeof(t2));
		key_field(d->metrics[i].key, "cpu", c2, sizeof(c2));
		if (t2[0] && strcmp(t2, "all") && strcmp(t2, thr) && !strcmp(c2, cpu))
			return true;
	}
	return false;
}

static int compare_side(const struct side *base, const struct side *nw, int ni, const struct ctx *c,
			size_t *matched, size_t *unmatched, char *first_unmatched, size_t fulen)
{
	const struct run *rb = &base->runs[0];
	size_t i, k;

	for (i = 0; i < rb->ndocs; i++) {
		const struct rtp_doc *bd = &rb->docs[i];
		bool xruns_done = false, bench_compared = false;
		size_t shared = 0;	/* threads that share a CPU: not compared (shares_cpu) */

		for (k = 0; k < bd->nmetrics; k++) {
			const struct rtp_doc_metric *m = &bd->metrics[k];
			struct pooled pb, pn;
			bool margin = !strcmp(m->name, "buffer_margin");
			static const double qs[] = { 0.50, 0.99, 0.999, 0.9999 };
			static const char *const qn[] = { "p50", "p99", "p99.9", "p99.99" };
			size_t f;
			int ret;

			if (!metric_selected(bd->bench, m->name, c->o))
				continue;
			if (shares_cpu(bd, m)) {
				shared++;
				continue;
			}
			if (m->has_rate) {
				/* work done (rtproof-load): one throughput row, not latency rows */
				struct row *w = row_add(bd->bench, m->name, m->key, "ops/s", ni);

				if (!w)
					return -ENOMEM;
				throughput_row(w, base, nw, bd->bench, m->name, m->key, c);
				if (!w->has_new) {
					if (!*unmatched)
						snprintf(first_unmatched, fulen, "%s %s %s", bd->bench, m->name, m->key);
					(*unmatched)++;
					cmp_nrows--;
					continue;
				}
				(*matched)++;
				bench_compared = true;
				continue;
			}
			ret = pool(&pb, base, bd->bench, m->name, m->key, 0);
			if (ret) {
				pooled_free(&pb);
				return ret == -ENOENT ? 0 : ret;
			}
			ret = pool(&pn, nw, bd->bench, m->name, m->key, pb.block_s);
			if (ret == -ENOENT) {
				if (!*unmatched)
					snprintf(first_unmatched, fulen, "%s %s %s", bd->bench, m->name, m->key);
				(*unmatched)++;
				pooled_free(&pb);
				pooled_free(&pn);
				continue;
			}
			if (ret) {
				pooled_free(&pb);
				pooled_free(&pn);
				return ret;
			}
			/* both at the coarser block length */
			if (pn.block_s > pb.block_s * 1.001) {
				pooled_free(&pb);
				ret = pool(&pb, base, bd->bench, m->name, m->key, pn.block_s);
				if (ret) {
					pooled_free(&pb);
					pooled_free(&pn);
					return ret;
				}
			}
			(*matched)++;
			bench_compared = true;
			pb.components = pn.components = components(bd, m);
			for (f = 0; f < (margin ? 2u : 5u); f++) {
				struct row *w = row_add(bd->bench, m->name, m->key, m->unit, ni);

				if (!w) {
					pooled_free(&pb);
					pooled_free(&pn);
					return -ENOMEM;
				}
				if (margin) {
					w->figure = f == 0 ? "p1" : "min";
					if (f == 0)
						quantile_row(w, &pb, &pn, 0.01, true, c);
					else
						min_row(w, &pb, &pn, c);
				} else if (f < 4) {
					w->figure = qn[f];
					quantile_row(w, &pb, &pn, qs[f], false, c);
				} else {
					w->figure = "max";
					max_row(w, &pb, &pn, c);
				}
			}
			if (!margin) {
				struct row *w = row_add(bd->bench, m->name, m->key, "/h", ni);

				if (!w) {
					pooled_free(&pb);
					pooled_free(&pn);
					return -ENOMEM;
				}
				w->figure = "peaks";
				peaks_row(w, &pb, &pn, c);
			}
			for (f = 0; f < c->o->nbudgets && !margin && !strcmp(m->unit, "ns"); f++) {
				const struct budget *bg = &c->o->budgets[f];
				struct row *w;

				if (strcmp(bg->metric, m->name) || (bg->bench[0] && strcmp(bg->bench, bd->bench)))
					continue;
				w = row_add(bd->bench, m->name, m->key, "/h", ni);
				if (!w) {
					pooled_free(&pb);
					pooled_free(&pn);
					return -ENOMEM;
				}
				w->figure = bg->figure;
				budget_row(w, &pb, &pn, bg, c);
			}
			if (!margin && !strcmp(m->unit, "ns")) {
				if (ni == 0)
					add_estimate(&pb, m, bd->bench, base->label, -1);
				add_estimate(&pn, m, bd->bench, nw->label, ni);
			}
			pooled_free(&pb);
			pooled_free(&pn);
		}
		if (shared && ni == 0)
			warn_add("%s: %zu threads share their CPUs: a thread's place in its CPU's wake-up order is the run's own, so their own rows are not compared (the CPU-wide ones are)",
				 bd->bench, shared);
		for (k = 0; k < bd->nevents && bench_compared; k++) {
			struct row *w;

			if (!strcmp(bd->events[k].name, "xruns"))
				continue;	/* its own row, below */
			w = row_add(bd->bench, bd->events[k].name, "", NULL, ni);
			if (!w)
				return -ENOMEM;
			event_row(w, base, nw, bd->bench, bd->events[k].name, c);
		}
		if (bd->has_xruns && !xruns_done && metric_selected(bd->bench, "wakeup_lateness", c->o)) {
			struct row *w = row_add(bd->bench, "xruns", "", "xruns", ni);

			if (!w)
				return -ENOMEM;
			xruns_done = true;
			w->figure = "count";
			xrun_row(w, base, nw, c);
			if (w->has_new)
				(*matched)++;
		}
	}
	return 0;
}

/* ---- main -------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: rtproof compare [options] BASE NEW [NEW2 ...]\n"
	      "       rtproof compare [options] LADDER\n"
	      "Compares result documents figure by figure: percentiles (p50, p99, p99.9,\n"
	      "p99.99) with order-statistic intervals on effective sample counts (the\n"
	      "clustering measured on the time series), the max with a distribution-free\n"
	      "test on episodes (declustered time blocks above the other side's max),\n"
	      "counted events (missed periods, xruns, ...) as rates per hour, lost updates\n"
	      "as a correctness check; with several runs per side, changes within the\n"
	      "run-to-run spread are not called; with one run on a side, a percentile\n"
	      "that moved by less than x2 is undecided.  Over all figures of one\n"
	      "comparison the chance of any false call is held at 1 - confidence (Holm).\n"
	      "Each argument is a result document, a suite directory (rtproof run) or\n"
	      "several of either joined by commas (runs of one side).  A compare-kernels\n"
	      "directory alone compares each rung against its rt rung.\n"
	      "\n"
	      "  --confidence C   family-wise confidence (default 0.95; 0.5 < C < 1)\n"
	      "  --threshold T    smaller changes are not called (default 10%; 10% or 0.1)\n"
	      "  --metric LIST    metric names or bench:name, comma list, or all (default:\n"
	      "                   the headline measure of each bench)\n"
	      "  --json OUT       also write the comparison as JSON (rtproof-compare/1)\n"
	      "  --allow-unfair   compare despite different loads, CPU counts or commands\n"
	      "  --budget BENCH.METRIC=LIMIT  episodes above LIMIT (100us, 2ms; a bare\n"
	      "                   number is us) per hour on each side with intervals, their\n"
	      "                   ratio and a verdict; repeatable (cyclic.wakeup_latency=100us)\n"
	      "  --strict         an undecided figure (worse in its point value, or a max\n"
	      "                   5x apart, that the data cannot confirm) exits 3\n"
	      "  -q, --quiet      no table, only the verdict line\n"
	      "\n"
	      "Exit: 0 no significant regression, 2 a significant regression beyond the\n"
	      "threshold (each is named), 3 inconclusive (--strict and an undecided\n"
	      "figure, each named), 1 error.  See docs/compare.md.\n", f);
}

static int parse_fraction(const char *opt, const char *s, double *out, bool pct_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v)) {
		rtp_error("%s %s: not a number", opt, s);
		return -EINVAL;
	}
	if (pct_ok && *end == '%') {
		v /= 100;
		end++;
	}
	if (*end) {
		rtp_error("%s %s: not a number%s", opt, s, pct_ok ? " (like 10% or 0.1)" : "");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* The rows that make or may make the verdict, a line each. */
static void verdict_rows(FILE *f, const struct side *sides, int nsides)
{
	size_t k;

	for (k = 0; k < cmp_nrows; k++) {
		char buf[512];

		if (cmp_rows[k].v != V_WORSE && cmp_rows[k].v != V_UNDECIDED)
			continue;
		regression_text(&cmp_rows[k], sides, nsides, buf, sizeof(buf));
		fprintf(f, "  %s: %s\n", cmp_rows[k].v == V_WORSE ? "regression" : "undecided", buf);
	}
}

/*
 * The answer first (docs/compare.md): the verdict in one sentence, the
 * rows that make it, and the longest run a figure left open would need;
 * the tables follow, the verdict line closes them as before.
 */
static void answer_text(FILE *f, const struct side *sides, int nsides, const char *status,
			size_t nworse, size_t nund)
{
	const struct row *need = NULL;
	char who[300];
	size_t k;

	if (nsides > 2)
		snprintf(who, sizeof(who), "the new sides");
	else
		snprintf(who, sizeof(who), "the new side (%s)", sides[1].label);
	if (nworse)
		fprintf(f, "answer: FAIL: %s is worse than the base (%s) in %zu figure%s\n", who,
			sides[0].label, nworse, nworse == 1 ? "" : "s");
	else if (nund)
		fprintf(f, "answer: %s: no figure of %s is confirmed worse than the base (%s); %zu undecided\n",
			!strcmp(status, "pass") ? "PASS" : "INCONCLUSIVE", who, sides[0].label, nund);
	else
		fprintf(f, "answer: PASS: no figure of %s is worse than the base (%s)\n", who, sides[0].label);
	verdict_rows(f, sides, nsides);
	for (k = 0; k < cmp_nrows; k++)
		if (cmp_rows[k].v != V_WORSE && cmp_rows[k].v != V_BETTER && cmp_rows[k].decide_s > 0 &&
		    (!need || cmp_rows[k].decide_s > need->decide_s))
			need = &cmp_rows[k];
	if (need)
		fprintf(f, "  still open: %s%s%s%s %s%s%s %s: %s\n", nsides > 2 ? "[" : "",
			nsides > 2 ? sides[need->new_index + 1].label : "", nsides > 2 ? "] " : "",
			need->bench, need->metric, *need->key ? " " : "", need->key, need->figure,
			need->advice);
	fputc('\n', f);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "threshold", required_argument, NULL, 't' },
		{ "metric", required_argument, NULL, 'm' },
		{ "json", required_argument, NULL, 'j' },
		{ "allow-unfair", no_argument, NULL, 'u' },
		{ "strict", no_argument, NULL, 's' },
		{ "budget", required_argument, NULL, 'b' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .confidence = 0.95, .threshold = 0.10 };
	static struct side sides[MAX_SIDES];
	struct ctx c = { .o = &o };
	int nsides = 0, opt, i, s, ret = RTP_EXIT_ERROR;
	size_t matched = 0, unmatched = 0, k, nworse = 0, nbetter = 0, nsame = 0, nned = 0, nund = 0;
	const char *status;
	char first_unmatched[320] = "";
	bool quiet = false, fail;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":q", lopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (parse_fraction("--confidence", optarg, &o.confidence, false))
				return RTP_EXIT_ERROR;
			if (!(o.confidence > 0.5 && o.confidence < 1)) {
				rtp_error("--confidence %s: must be between 0.5 and 1 (e.g. 0.95)", optarg);
				return RTP_EXIT_ERROR;
			}
			break;
		case 't':
			if (parse_fraction("--threshold", optarg, &o.threshold, true))
				return RTP_EXIT_ERROR;
			if (!(o.threshold >= 0 && o.threshold < 10)) {
				rtp_error("--threshold %s: must be 0 %% or more (and under 1000 %%)", optarg);
				return RTP_EXIT_ERROR;
			}
			break;
		case 'm':
			if (!*optarg) {
				rtp_error("--metric '': empty list");
				return RTP_EXIT_ERROR;
			}
			o.metrics = optarg;
			break;
		case 'j':
			if (!*optarg) {
				rtp_error("--json '': empty path");
				return RTP_EXIT_ERROR;
			}
			o.json = optarg;
			break;
		case 'u':
			o.allow_unfair = true;
			break;
		case 's':
			o.strict = true;
			break;
		case 'b':
			if (o.nbudgets == MAX_BUDGETS) {
				rtp_error("--budget %s: at most %d budgets", optarg, MAX_BUDGETS);
				return RTP_EXIT_ERROR;
			}
			if (cmp_budget_parse(optarg, &o.budgets[o.nbudgets]))
				return RTP_EXIT_ERROR;
			o.nbudgets++;
			break;
		case 'q':
			quiet = true;
			break;
		case 'H':
			usage(stdout);
			return RTP_EXIT_PASS;
		case ':':
			rtp_error("%s: option needs a value (see --help)", argv[optind - 1]);
			return RTP_EXIT_ERROR;
		default:
			rtp_error("%s: unknown option (see --help)", argv[optind - 1]);
			return RTP_EXIT_ERROR;
		}
	}
	c.alpha = 1 - o.confidence;
	c.c1 = 1 - c.alpha / 2;
	if (argc - optind < 1) {
		rtp_error("BASE and NEW needed (see --help)");
		return RTP_EXIT_ERROR;
	}
	if (argc - optind == 1) {
		if (!cmp_is_ladder(argv[optind])) {
			struct stat st;

			if (stat(argv[optind], &st))
				rtp_error("%s: %s", argv[optind], strerror(errno));
			else if (S_ISDIR(st.st_mode) && !cmp_is_ladder(argv[optind]))
				rtp_error("%s: one argument must be a compare-kernels directory (with rung subdirectories); otherwise give BASE and NEW",
					  argv[optind]);
			else
				rtp_error("%s: NEW missing: give BASE and NEW (or a compare-kernels directory)",
					  argv[optind]);
			return RTP_EXIT_ERROR;
		}
		if (cmp_load_ladder(sides, &nsides, argv[optind]))
			goto out;
	} else {
		if (argc - optind > MAX_SIDES) {
			rtp_error("at most %d arguments", MAX_SIDES);
			return RTP_EXIT_ERROR;
		}
		for (i = optind; i < argc; i++) {
			if (cmp_is_ladder(argv[i])) {
				rtp_error("%s: a compare-kernels directory compares alone (rtproof compare %s)",
					  argv[i], argv[i]);
				goto out;
			}
			if (cmp_load_side(&sides[nsides++], argv[i]))
				goto out;
		}
	}
	for (s = 0; s < nsides; s++) {
		size_t r;

		for (r = 0; r < sides[s].nruns; r++)
			if (!sides[s].runs[r].ndocs) {
				rtp_error("%s: no result documents", sides[s].runs[r].path);
				goto out;
			}
	}
	for (s = 1; s < nsides; s++)
		if (check_fair(&sides[0], &sides[s], &o))
			goto out;
	for (s = 1; s < nsides; s++) {
		size_t m0 = matched, u0 = unmatched;

		if (compare_side(&sides[0], &sides[s], s - 1, &c, &matched, &unmatched, first_unmatched,
				 sizeof(first_unmatched))) {
			rtp_error("out of memory");
			goto out;
		}
		if (matched == m0) {
			rtp_error("%s against %s: no metric matches (bench, name, cpu, thread)%s%s", sides[0].label,
				  sides[s].label, unmatched > u0 ? "; e.g. " : "", unmatched > u0 ? first_unmatched : "");
			goto out;
		}
	}
	for (k = 0; k < o.nbudgets; k++) {
		size_t r;

		for (r = 0; r < cmp_nrows && cmp_rows[r].figure != o.budgets[k].figure; r++)
			;
		if (r == cmp_nrows) {
			rtp_error("--budget %s%s%s=%s: no such latency metric in the documents (see --metric)",
				  o.budgets[k].bench, o.budgets[k].bench[0] ? "." : "", o.budgets[k].metric,
				  o.budgets[k].figure + 1);
			goto out;
		}
	}
	if (unmatched)
		warn_add("%zu metrics of %s have no match on a new side (e.g. %s)", unmatched, sides[0].label,
			 first_unmatched);
	/* family-wise: Holm over the tested rows of each new side against the base */
	for (s = 1; s < nsides; s++) {
		size_t a = 0, b;

		while (a < cmp_nrows && cmp_rows[a].new_index != s - 1)
			a++;
		for (b = a; b < cmp_nrows && cmp_rows[b].new_index == s - 1; b++)
			;
		cmp_holm(cmp_rows + a, b - a, c.alpha);
	}
	for (k = 0; k < cmp_nrows; k++) {
		switch (cmp_rows[k].v) {
		case V_WORSE: nworse++; break;
		case V_BETTER: nbetter++; break;
		case V_SAME: nsame++; break;
		case V_UNDECIDED: nund++; break;
		default: nned++; break;
		}
	}
	fail = nworse > 0;
	status = fail ? "fail" : o.strict && nund ? "inconclusive" : "pass";
	if (o.json && write_json(o.json, sides, nsides, &c, status))
		goto out;
	if (!quiet) {
		answer_text(stdout, sides, nsides, status, nworse, nund);
		print_text(stdout, sides, nsides, &c);
		cmp_culprits_text(stdout, sides, nsides);
	}
	printf("\nverdict: %s: %zu figures: %zu worse, %zu undecided, %zu better, %zu no significant difference, %zu not enough data\n",
	       status, cmp_nrows, nworse, nund, nbetter, nsame, nned);
	verdict_rows(stdout, sides, nsides);
	ret = fail ? RTP_EXIT_FAIL : o.strict && nund ? RTP_EXIT_INCONCLUSIVE : RTP_EXIT_PASS;
out:
	for (s = 0; s < nsides; s++) {
		size_t r, d;

		for (r = 0; r < sides[s].nruns; r++) {
			for (d = 0; d < sides[s].runs[r].ndocs; d++)
				rtp_doc_free(&sides[s].runs[r].docs[d]);
			free(sides[s].runs[r].docs);
		}
	}
	free(cmp_rows);
	free(cmp_ests);
	return ret;
}
