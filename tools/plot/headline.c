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

/* The comparison's headline: the primary measure's percentiles per run,
 * with the intervals compare.json gives; without compare.json, the
 * documents' own percentiles (no intervals). */
int fig_headline(struct ctx *c)
{
	static const char *const figs[] = { "p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "max" };
	struct fw w;
	char title[400];
	json_t *rows = json_object_get(c->set->compare, "rows"), *row0 = NULL, *rw;
	const char *bench = NULL, *metric = NULL;
	size_t i, f, nnew = json_array_size(json_object_get(c->set->compare, "new"));
	size_t nruns = c->set->nruns < HEADLINE_MAX_RUNS ? c->set->nruns : HEADLINE_MAX_RUNS;
	int ret, bi, nrows = 0, k;
	json_t *cpu = NULL;

	if (nnew > HEADLINE_MAX_RUNS - 1)
		nnew = HEADLINE_MAX_RUNS - 1;
	/* the first bench and metric in the comparison, merged CPUs preferred */
	json_array_foreach(rows, i, rw) {
		if (!row0)
			row0 = rw;
		if (row0 && !strcmp(rtp_plot_str(rw, "bench", ""), rtp_plot_str(row0, "bench", "")) &&
		    !strcmp(rtp_plot_str(rw, "metric", ""), rtp_plot_str(row0, "metric", "")) &&
		    fw_is_all(json_object_get(rw, "cpu"))) {
			row0 = rw;
			break;
		}
	}
	if (row0) {
		bench = rtp_plot_str(row0, "bench", "?");
		metric = rtp_plot_str(row0, "metric", "?");
		cpu = json_object_get(row0, "cpu");
		snprintf(title, sizeof(title), "Comparison headline: rtproof-%s %s%s, base %s against %zu other run(s), "
			 "%g %% intervals", bench, fw_metric_words(metric), fw_is_all(cpu) ? " (all CPUs)" : "",
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
	for (f = 0; f < sizeof(figs) / sizeof(figs[0]); f++) {
		char line[2048];
		size_t off = 0;
		int have = 0;
		bool fits = cat(line, sizeof(line), &off, "\"%s\"", figs[f]);
		if (row0) {
			/* base, then each new run, from the rows of this figure */
			for (k = -1; k < (int)nnew; k++) {
				double v = NAN, lo = NAN, hi = NAN;

				json_array_foreach(rows, i, rw) {
					json_t *ci;

					if (strcmp(rtp_plot_str(rw, "bench", ""), bench) ||
					    strcmp(rtp_plot_str(rw, "metric", ""), metric) ||
					    !json_equal(json_object_get(rw, "cpu"), cpu) ||
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
		 row0 ? "Bars: each run's figure (microseconds, log scale); error bars: the comparison's "
		 "confidence interval for it; where compare.json gives none (e.g. the maximum) the bar's cap is flat at the value." :
		 "Bars: each run's percentiles and exact maximum (microseconds, log scale) as the documents "
		 "give them; without compare.json there are no intervals.");
	return fw_end(&w);
}
