// SPDX-License-Identifier: GPL-2.0-or-later
/* The comparison's headline figure (figs.h). */
#include "figs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

/* The headline draws this many runs at most (base and new ones): its rows
 * are built in a fixed buffer, and more bars than this do not read. */
#define HEADLINE_MAX_RUNS 32

/* Appends to line (size len) at *off, never past its end; false (and
 * nothing more appended) once it would not fit. */
static bool cat(char *line, size_t len, size_t *off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool cat(char *line, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return false;
	va_start(ap, fmt);
	n = vsnprintf(line + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off) {
		line[*off] = 0;
		*off = len;
		return false;
	}
	*off += (size_t)n;
	return true;
}

/* a value in microseconds as a data column: at most 14 characters,
 * whatever the document says (1.7e308 is 309 digits in %f) */
static bool cat_us(char *line, size_t len, size_t *off, double ns)
{
	double v = ns / 1000;

	return fabs(v) < 1e9 ? cat(line, len, off, " %.4f", v) : cat(line, len, off, " %.6e", v);
}

/* The primary measure of a bench in the comparison's rows (the one the
 * first screen's trade uses, trade.c), merged CPUs preferred: its first
 * row, or NULL. */
static json_t *primary_row(json_t *rows, const char *bench)
{
	static const char *const pref[] = { "wakeup_latency", "total", "wakeup_lateness", "inversion_wait", NULL };
	json_t *rw, *first = NULL;
	size_t i, p;

	for (p = 0; p < sizeof(pref) / sizeof(pref[0]) && !first; p++)
		json_array_foreach(rows, i, rw) {
			if (strcmp(rtp_plot_str(rw, "bench", ""), bench) ||
			    (pref[p] && strcmp(rtp_plot_str(rw, "metric", ""), pref[p])))
				continue;
			if (!first)
				first = rw;
			if (fw_is_all(json_object_get(rw, "cpu")))
				return rw;
		}
	return first;
}

/* The comparison's headline: every bench's primary measure (p50, p99,
 * p99.9, max) per run, with the intervals compare.json gives; without
 * compare.json, cyclic's percentiles from the documents (no intervals). */
int fig_headline(struct ctx *c)
{
	static const char *const figs_one[] = { "p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "max" };
	static const char *const figs_cmp[] = { "p50", "p99", "p99.9", "max" };
	const char *const *figs = figs_one;
	size_t nfigs = sizeof(figs_one) / sizeof(figs_one[0]);
	struct fw w;
	char title[400];
	json_t *rows = json_object_get(c->set->compare, "rows"), *row0 = NULL, *rw, *prim[RP_NBENCH] = { NULL };
	const char *bench = NULL, *metric = NULL;
	size_t i, f, nnew = json_array_size(json_object_get(c->set->compare, "new"));
	size_t nruns = c->set->nruns < HEADLINE_MAX_RUNS ? c->set->nruns : HEADLINE_MAX_RUNS;
	int ret, bi, nrows = 0, k, b, nb = 0;
	json_t *cpu = NULL;

	if (nnew > HEADLINE_MAX_RUNS - 1)
		nnew = HEADLINE_MAX_RUNS - 1;
	for (b = 0; b < RP_NBENCH; b++) {
		prim[b] = primary_row(rows, rtp_plot_bench_name[b]);
		if (prim[b] && !row0)
			row0 = prim[b];
		nb += prim[b] != NULL;
	}
	if (row0) {
		char list[200] = "";

		figs = figs_cmp;
		nfigs = sizeof(figs_cmp) / sizeof(figs_cmp[0]);
		for (b = 0; b < RP_NBENCH; b++)
			if (prim[b])
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", list[0] ? ", " : "",
					 rtp_plot_bench_name[b]);
		snprintf(title, sizeof(title), "Comparison headline: %s, each bench's primary measure, base %s "
			 "against %zu other run(s), %g %% intervals", list,
			 rtp_plot_str(json_object_get(c->set->compare, "base"), "label", "?"), nnew,
			 fw_num(c->set->compare, "confidence", 0) * 100);
	} else {
		snprintf(title, sizeof(title), "Headline: rtproof-cyclic timer wake-up latency (all CPUs) per run, "
			 "straight from the documents (no compare.json: no intervals)");
	}
	ret = fw_begin_set(&w, c, "headline", -1, title);
	if (ret)
		return ret;
	fprintf(w.gp, "set style data histograms\nset style histogram %s\nset boxwidth 0.9\n",
		row0 ? "errorbars gap 1 lw 1.2" : "clustered gap 1");
	fputs("set logscale y\nset ylabel \"latency (us)\"\nset xlabel \"figure\"\n"
	      "set key top left\n", w.gp);
	bi = fw_blk(&w, "figure, then per run: value_us low_us high_us (the interval; the value itself when none)");
	if (row0 && nb > 1)
		fputs("set xtics rotate by -30\n", w.gp);
	for (b = 0; b < (row0 ? RP_NBENCH : 1); b++)
	for (f = 0; f < nfigs; f++) {
		char line[2048];
		size_t off = 0;
		int have = 0;
		bool fits;

		if (row0 && !prim[b])
			continue;
		if (row0) {
			bench = rtp_plot_bench_name[b];
			metric = rtp_plot_str(prim[b], "metric", "?");
			cpu = json_object_get(prim[b], "cpu");
		}
		fits = row0 ? cat(line, sizeof(line), &off, "\"%s %s\"", bench, figs[f]) :
		       cat(line, sizeof(line), &off, "\"%s\"", figs[f]);
		if (row0) {
			/* base, then each new run, from the rows of this figure */
			for (k = -1; k < (int)nnew; k++) {
				double v = NAN, lo = NAN, hi = NAN;

				json_array_foreach(rows, i, rw) {
					json_t *ci;

					if (strcmp(rtp_plot_str(rw, "bench", ""), bench) ||
					    strcmp(rtp_plot_str(rw, "metric", ""), metric) ||
					    (cpu ? !json_equal(json_object_get(rw, "cpu"), cpu) : !!json_object_get(rw, "cpu")) ||
					    strcmp(rtp_plot_str(rw, "figure", ""), figs[f]))
						continue;
					if (k >= 0 && fw_num(rw, "new_index", 0) != k)
						continue;
					v = fw_num(rw, k < 0 ? "base" : "new", NAN);
					ci = json_object_get(rw, k < 0 ? "base_ci" : "new_ci");
					lo = json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) ?
						json_number_value(json_array_get(ci, 0)) : v;
					hi = json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 1)) ?
						json_number_value(json_array_get(ci, 1)) : v;
					break;
				}
				if (!isnan(v))
					have++;
				fits = fits && cat_us(line, sizeof(line), &off, v) &&
				       cat_us(line, sizeof(line), &off, lo) && cat_us(line, sizeof(line), &off, hi);
			}
		} else {
			size_t ri;
			const char *pk = figs[f][0] == 'p' ? figs[f] + 1 : NULL;

			for (ri = 0; ri < nruns; ri++) {
				json_t *m = fw_merged(c->set->runs[ri].doc[RP_CYCLIC], "wakeup_latency");
				double v = pk ? fw_num(json_object_get(m, "percentiles"), pk, NAN) : fw_num(m, "max", NAN);

				if (!isnan(v))
					have++;
				fits = fits && cat_us(line, sizeof(line), &off, v) &&
				       cat_us(line, sizeof(line), &off, v) && cat_us(line, sizeof(line), &off, v);
			}
		}
		if (have && fits) {
			fw_row(&w, "%s\n", line);
			nrows++;
		}
	}
	if (!nrows) {
		fw_note(&w, row0 ? "not drawn: the comparison has no rows for its first measure" :
			"not drawn: no cyclic documents to compare");
		return fw_end(&w);
	}
	{
		size_t nr = row0 ? nnew + 1 : nruns;

		for (i = 0; i < nr; i++) {
			char lab[400], lab2[300];

			if (row0) {
				json_t *o = i == 0 ? json_object_get(c->set->compare, "base") :
					json_array_get(json_object_get(c->set->compare, "new"), i - 1);

				snprintf(lab, sizeof(lab), "%s: %s, preempt %s%s", rtp_plot_str(o, "label", "?"),
					 rtp_plot_str(o, "kernel_release", "?"), rtp_plot_str(o, "preempt", "?"),
					 i == 0 ? " (base)" : "");
			} else {
				snprintf(lab, sizeof(lab), "%s", fw_run_legend(&c->set->runs[i], lab2, sizeof(lab2)));
			}
			fw_clause(&w);
			if (row0)
				fprintf(w.gp, "datafile index %d using %zu:%zu:%zu", bi, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i);
			else
				fprintf(w.gp, "datafile index %d using %zu", bi, 2 + 3 * i);
			fprintf(w.gp, "%s lc rgb \"%s\" fs pattern %zu border rgb \"black\" title ",
				i == 0 ? ":xtic(1)" : "", fw_colour[i % NCOLOUR], i % 7);
			fw_gpq(w.gp, lab);
		}
	}
	snprintf(w.f->caption, sizeof(w.f->caption), "%s",
		 row0 ? "Bars: each run's figure of each bench's primary measure (cyclic wake-up latency, irqlat total, "
		 "audio wake-up lateness, lockstress inversion wait; microseconds, log scale); error bars: the comparison's "
		 "confidence interval for it; where compare.json gives none (e.g. the maximum) the bar's cap is flat at the value." :
		 "Bars: each run's percentiles and exact maximum (microseconds, log scale) as the documents "
		 "give them; without compare.json there are no intervals.");
	return fw_end(&w);
}
