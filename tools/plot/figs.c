// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures: gnuplot scripts and data files written from the documents,
 * then gnuplot run on them for PNG and SVG.  Every figure's data is the
 * documents' own (histogram buckets, block series, xrun list, percentiles,
 * comparison rows); nothing is interpolated or smoothed.  The writer
 * under them is figwrite.c, the headline headline.c (figs.h). */
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

/* ---- the figures -------------------------------------------------------- */

/* the axes of a histogram figure */
static const char hist_axes[] = "set logscale x\nset logscale y\nset yrange [0.7:*]\n"
	"set xlabel \"latency (us; log-linear buckets, each at most 0.8 % wide)\"\n"
	"set ylabel \"samples per bucket\"\n";

static bool has_buckets(const json_t *m)
{
	return json_array_size(json_object_get(json_object_get(m, "histogram"), "buckets")) > 0;
}

/* Per-CPU histogram of one run's metric NAME (OSADL style, log-y). */
static int fig_hist_cpus(struct ctx *c, size_t ri, int bench, const char *name, bool always)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	json_t *m;
	size_t i;
	int n = 0, ncpu = 0, ret;
	struct fw w;
	char id[128], title[300];

	json_array_foreach(json_object_get(r->doc[bench], "metrics"), i, m)
		if (!strcmp(rtp_plot_str(m, "name", ""), name) && rtp_plot_is_int(json_object_get(m, "cpu")) &&
		    has_buckets(m))
			ncpu++;
	if (!ncpu && !always)
		return 0;
	if (ncpu < 2 && !always)
		return 0;
	snprintf(id, sizeof(id), "%s-%s-hist", rtp_plot_bench_name[bench], name);
	snprintf(title, sizeof(title), "%s %s: samples per histogram bucket, one curve per CPU",
		 fw_bench_title(bench), fw_metric_words(name));
	ret = fw_begin_run(&w, c, ri, bench, id, title);
	if (ret)
		return ret;
	fputs(hist_axes, w.gp);
	json_array_foreach(json_object_get(r->doc[bench], "metrics"), i, m) {
		char l[64];

		if (strcmp(rtp_plot_str(m, "name", ""), name) || !has_buckets(m))
			continue;
		if (ncpu ? !rtp_plot_is_int(json_object_get(m, "cpu")) : m != fw_merged(r->doc[bench], name))
			continue;
		fw_cpu_label(m, l, sizeof(l));
		fw_plot_hist(&w, m, l, n++);
	}
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Each curve is one CPU's histogram as the document holds it: samples per bucket "
		 "(log scale) against latency in microseconds (log scale); a lone bucket is marked "
		 "with a point. The legend gives each CPU's exact maximum.");
	return fw_end(&w);
}

/* Histogram overlay: the merged metric of every run. */
static int fig_hist_overlay(struct ctx *c, int bench, const char *name)
{
	struct fw w;
	char id[128], title[300];
	size_t ri;
	int ret, n = 0;

	snprintf(id, sizeof(id), "%s-%s-hist", rtp_plot_bench_name[bench], name);
	snprintf(title, sizeof(title), "%s %s: samples per histogram bucket, one curve per run",
		 fw_bench_title(bench), fw_metric_words(name));
	ret = fw_begin_set(&w, c, id, bench, title);
	if (ret)
		return ret;
	fputs(hist_axes, w.gp);
	for (ri = 0; ri < c->set->nruns; ri++) {
		json_t *m = fw_merged(c->set->runs[ri].doc[bench], name);

		if (m && has_buckets(m))
			{
			char lg[300];

			fw_plot_hist(&w, m, fw_run_legend(&c->set->runs[ri], lg, sizeof(lg)), n);
		}
		n++;
	}
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Each run's histogram of all its CPUs together, samples per bucket (log) against "
		 "latency (log). The legend gives each run's exact maximum.");
	return fw_end(&w);
}

/* Latency by percentile: one run -> a curve per CPU and the merge; several
 * -> one curve per run. */
static int fig_pct(struct ctx *c, int bench, const char *name)
{
	struct fw w;
	char id[128], title[300];
	size_t ri, i;
	long long maxn = 0, n;
	int ret, k = 0;

	snprintf(id, sizeof(id), "%s-%s-percentiles", rtp_plot_bench_name[bench], name);
	snprintf(title, sizeof(title), "%s %s by percentile%s", fw_bench_title(bench), fw_metric_words(name),
		 c->set->nruns > 1 ? ", one curve per run" : "");
	ret = fw_begin_set(&w, c, id, bench, title);
	if (ret)
		return ret;
	for (ri = 0; ri < c->set->nruns; ri++) {
		const json_t *doc = c->set->runs[ri].doc[bench];
		json_t *m;

		if (!doc)
			continue;
		json_array_foreach(json_object_get(doc, "metrics"), i, m) {
			char l[200], cl[64];

			if (strcmp(rtp_plot_str(m, "name", ""), name))
				continue;
			if (c->set->nruns > 1 && m != fw_merged(doc, name))
				continue;
			fw_cpu_label(m, cl, sizeof(cl));
			if (c->set->nruns > 1)
				fw_run_legend(&c->set->runs[ri], l, sizeof(l)) == l ? (void)0 :
					(void)snprintf(l, sizeof(l), "%s", c->set->runs[ri].label);
			else
				snprintf(l, sizeof(l), "%s", cl);
			n = fw_pct_curve(&w, m, l, k, &maxn);
			if (!n)
				continue;
			snprintf(cl, sizeof(cl), " (%lld samples)", n);
			strncat(l, cl, sizeof(l) - strlen(l) - 1);
			fw_gpq(w.gp, l);
			k++;
		}
	}
	fw_pct_axes(&w, maxn);
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Latency (log scale, microseconds) reached by each fraction of the samples: the "
		 "x axis is 1/(1-p), so 99 %% is ten times further right than 90 %%. Values are the "
		 "histogram bucket's upper edge capped at the exact maximum, so they never understate; "
		 "a curve ends at 1-1/(2 count), the last place its samples resolve.");
	return fw_end(&w);
}

static bool has_series(const json_t *m)
{
	return json_array_size(json_object_get(json_object_get(m, "series"), "blocks")) > 0;
}

/* Writes a series' blocks as steps: (t, max) to (t + block, max), a gap
 * where blocks are missing (no samples there) and where a block's max is 0
 * (a log axis has no place for it: counted in *zero).  Returns the blocks
 * drawn. */
static int series_block(struct fw *w, const json_t *m, const char *what, double scale, int *bi, int *zero)
{
	json_t *s = json_object_get(m, "series"), *b;
	double t0 = fw_num(s, "t0_s", 0), bs = fw_num(s, "block_s", 0), prev = -1;
	size_t i;
	int n = 0;
	char cm[300];

	snprintf(cm, sizeof(cm), "%s: series blocks, start_s end_s max (block %g s, coarsened %g times)",
		 what, bs, fw_num(s, "coarsened", 0));
	*bi = fw_blk(w, cm);
	json_array_foreach(json_object_get(s, "blocks"), i, b) {
		double st = json_number_value(json_array_get(b, 0)) + t0;
		double mx = json_number_value(json_array_get(b, 2));

		if (!(mx > 0)) {
			(*zero)++;
			continue;
		}
		if (prev >= 0 && st > prev + bs * 0.5)
			fputs("\n", w->dat);
		fw_row(w, "%.6f %.4f\n%.6f %.4f\n", st, mx / scale, st + bs, mx / scale);
		prev = st + bs;
		n++;
	}
	return n;
}

/* Max per block over time: one run's CPUs (or several runs' merges). */
static int fig_series(struct ctx *c, long ri_only, int bench, const char *name)
{
	struct fw w;
	char id[128], title[300];
	size_t ri, i;
	int ret, k = 0, bi, without = 0, with = 0, zero = 0;

	snprintf(id, sizeof(id), "%s-%s-over-time", rtp_plot_bench_name[bench], name);
	snprintf(title, sizeof(title), "%s %s: maximum per time block over the run%s",
		 fw_bench_title(bench), fw_metric_words(name),
		 ri_only < 0 && c->set->nruns > 1 ? ", one curve per run" : "");
	if (ri_only >= 0)
		ret = fw_begin_run(&w, c, (size_t)ri_only, bench, id, title);
	else
		ret = fw_begin_set(&w, c, id, bench, title);
	if (ret)
		return ret;
	fputs("set logscale y\nset xlabel \"time since the run started (s)\"\n"
	      "set ylabel \"maximum latency in the block (us)\"\n", w.gp);
	for (ri = 0; ri < c->set->nruns; ri++) {
		const json_t *doc = c->set->runs[ri].doc[bench];
		json_t *m;
		int cpus = 0;
		bool percpu;

		if (!doc || (ri_only >= 0 && ri != (size_t)ri_only))
			continue;
		json_array_foreach(json_object_get(doc, "metrics"), i, m)
			if (!strcmp(rtp_plot_str(m, "name", ""), name) && rtp_plot_is_int(json_object_get(m, "cpu")))
				cpus++;
		/* one run: its CPUs; several: each run's merge, or its CPUs when only they
		 * carry a series */
		percpu = cpus > 0 && (ri_only >= 0 || !has_series(fw_merged(doc, name)));
		json_array_foreach(json_object_get(doc, "metrics"), i, m) {
			char l[200];

			if (strcmp(rtp_plot_str(m, "name", ""), name))
				continue;
			if (percpu ? !rtp_plot_is_int(json_object_get(m, "cpu")) : m != fw_merged(doc, name))
				continue;
			if (!has_series(m)) {
				without++;
				continue;
			}
			with++;
			if (ri_only >= 0) {
				fw_cpu_label(m, l, sizeof(l));
			} else {
				char lg[300], cl[64];

				fw_cpu_label(m, cl, sizeof(cl));
				snprintf(l, sizeof(l), "%s%s%s", fw_run_legend(&c->set->runs[ri], lg, sizeof(lg)),
					 percpu ? ", " : "", percpu ? cl : "");
			}
			if (!series_block(&w, m, l, 1000.0, &bi, &zero))
				continue;
			fw_lines_clause(&w, bi, k);
			{
				char t[260];

				snprintf(t, sizeof(t), "%s (block %g s)", l,
					 fw_num(json_object_get(m, "series"), "block_s", 0));
				fw_gpq(w.gp, t);
			}
			k++;
		}
	}
	if (!with)
		fw_note(&w, "not drawn: the %s documents carry no block series for %s (written before "
			"the series was added, or no samples); their overall maximum is in the table",
			rtp_plot_bench_name[bench], name);
	else if (!k)
		fw_note(&w, "not drawn: every block's maximum is 0 us (%d blocks), which a log axis "
			"cannot show; the table has the figures", zero);
	else if (zero)
		snprintf(w.f->caption, sizeof(w.f->caption),
			 "The largest latency in each time block (log scale, microseconds) against time. "
			 "%d block(s) whose maximum is 0 us are gaps: a log axis cannot show 0.", zero);
	else if (without)
		snprintf(w.f->caption, sizeof(w.f->caption),
			 "The largest latency in each time block (log scale, microseconds) against time. "
			 "%d of the series asked for are absent from the documents and not drawn.", without);
	else
		snprintf(w.f->caption, sizeof(w.f->caption),
			 "The largest latency in each time block (log scale, microseconds) against the "
			 "time since the run started: when the outliers came. A gap is a block without samples.");
	return fw_end(&w);
}

/* irqlat: the stages stacked per kernel, medians and p99s. */
static int fig_irq_stages(struct ctx *c)
{
	static const char *const st[] = { "irq_latency", "thread_wakeup", "user_wakeup" };
	static const char *const sl[] = { "a->b hard IRQ", "b->c IRQ thread", "c->d user space" };
	static const char *const pc[] = { "50", "99" };
	struct fw w;
	char cm[200];
	size_t ri;
	int ret, s, p, rows = 0, bi;

	ret = fw_begin_set(&w, c, "irqlat-stages", RP_IRQLAT,
			   "rtproof-irqlat: interrupt response by stage (the module's four timestamps), stacked per kernel");
	if (ret)
		return ret;
	snprintf(cm, sizeof(cm), "label, then per stage a->b b->c c->d: the stage's percentile in us; then total's");
	bi = fw_blk(&w, cm);
	for (ri = 0; ri < c->set->nruns; ri++) {
		const json_t *doc = c->set->runs[ri].doc[RP_IRQLAT];

		if (!doc || !fw_merged(doc, "irq_latency"))
			continue;
		for (p = 0; p < 2; p++) {
			fputc('"', w.dat);
			if (c->set->nruns > 1) {
				fw_dat_text(w.dat, c->set->runs[ri].label);
				fputs("\\n", w.dat);
			}
			fprintf(w.dat, "p%s\"", pc[p]);
			for (s = 0; s < 3; s++) {
				json_t *m = fw_merged(doc, st[s]);

				fprintf(w.dat, " %.4f",
					fw_num(json_object_get(m, "percentiles"), pc[p], NAN) / 1000.0);
			}
			fw_row(&w, " %.4f\n", fw_num(json_object_get(fw_merged(doc, "total"), "percentiles"), pc[p], NAN) / 1000.0);
			rows++;
		}
	}
	if (!rows) {
		fw_note(&w, "not drawn: no irqlat document measured the stages (the rtproof_irqlat module "
			"source gives them; timerlat, rtc and the fallback give one figure)");
		return fw_end(&w);
	}
	fputs("set bmargin 5\n", w.gp);
	fputs("set style data histograms\nset style histogram rowstacked\nset boxwidth 0.6\n"
	      "set style fill pattern 1 border rgb \"black\"\nset yrange [0:*]\n"
	      "set ylabel \"latency (us)\"\nset xtics rotate by 0\n", w.gp);
	for (s = 0; s < 3; s++) {
		fw_clause(&w);
		fprintf(w.gp, "datafile index %d using %d%s lc rgb \"%s\" fs pattern %d title \"%s\"", bi, s + 2,
			s == 0 ? ":xtic(1)" : "", fw_colour[s], s == 0 ? 0 : s == 1 ? 2 : 4, sl[s]);
	}
	fw_clause(&w);
	fprintf(w.gp, "datafile index %d using ($0):5 with points pt 9 ps 1.6 lc rgb \"black\" "
		"title \"total a->d, same percentile\"", bi);
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Each bar stacks the stages' own percentile (p50, then p99) in microseconds: expiry "
		 "to hard IRQ, hard IRQ to the IRQ thread, IRQ thread to the reader in user space. "
		 "Percentiles of stages do not add up exactly to the total's, drawn as a triangle.");
	return fw_end(&w);
}

/* irqlat: every stage of one run by percentile. */
static int fig_irq_stage_pct(struct ctx *c, size_t ri)
{
	static const char *const st[] = { "irq_latency", "thread_wakeup", "user_wakeup", "total" };
	static const char *const sl[] = { "a->b hard IRQ", "b->c IRQ thread", "c->d user space", "total a->d" };
	const struct rtp_plot_run *r = &c->set->runs[ri];
	struct fw w;
	long long maxn = 0, n;
	int ret, s, k = 0;

	if (!fw_merged(r->doc[RP_IRQLAT], "irq_latency"))
		return 0;
	ret = fw_begin_run(&w, c, ri, RP_IRQLAT, "irqlat-stages-percentiles",
			   "rtproof-irqlat: each stage of the interrupt response by percentile");
	if (ret)
		return ret;
	for (s = 0; s < 4; s++) {
		json_t *m = fw_merged(r->doc[RP_IRQLAT], st[s]);
		char l[120];

		if (!m)
			continue;
		n = fw_pct_curve(&w, m, sl[s], k, &maxn);
		if (!n)
			continue;
		k++;
		snprintf(l, sizeof(l), "%s (%lld samples, max %.1f us)", sl[s], n, fw_num(m, "max", 0) / 1000.0);
		fw_gpq(w.gp, l);
	}
	fw_pct_axes(&w, maxn);
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Each stage of the module's interrupt path (expiry to hard IRQ, hard IRQ to the IRQ "
		 "thread, IRQ thread to the reader) and the total, latency (microseconds, log) reached by "
		 "each fraction of the interrupts (x: 1/(1-p)): which stage makes the tail.");
	return fw_end(&w);
}

/* audio: lateness over time with the xruns marked. */
static int fig_audio_timeline(struct ctx *c, size_t ri)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	const json_t *doc = r->doc[RP_AUDIO];
	json_t *ev = json_object_get(doc, "events"), *x, *m = fw_merged(doc, "wakeup_lateness");
	struct fw w;
	char title[300], cm[200];
	size_t i;
	int ret, bi, xbi = -1, nx = 0, k = 0, zero = 0;

	snprintf(title, sizeof(title), "rtproof-audio: wake-up lateness over time, xruns marked (%s backend, "
		 "%g frames x %g periods at %g Hz)",
		 rtp_plot_str(json_object_get(doc, "params"), "backend", "?"),
		 fw_num(json_object_get(json_object_get(doc, "params"), "granted"), "period_frames", 0),
		 fw_num(json_object_get(json_object_get(doc, "params"), "granted"), "periods", 0),
		 fw_num(json_object_get(json_object_get(doc, "params"), "granted"), "rate", 0));
	ret = fw_begin_run(&w, c, ri, RP_AUDIO, "audio-timeline", title);
	if (ret)
		return ret;
	if (fw_num(doc, "duration_s", 0) > 0)
		fprintf(w.gp, "set xrange [0:%g]\n", fw_gpnum(fw_num(doc, "duration_s", 0)));
	fputs("set logscale y\nset xlabel \"time since the stream started (s)\"\n"
	      "set ylabel \"wake-up lateness (us)\"\n", w.gp);
	/* the xruns first: their arrows go before the plot command */
	snprintf(cm, sizeof(cm), "xruns: time_s lateness_us duration_us");
	json_array_foreach(json_object_get(ev, "xrun_list"), i, x) {
		if (!nx++)
			xbi = fw_blk(&w, cm);
		fw_row(&w, "%.6f %.4f %.4f\n", fw_num(x, "time_s", 0), fw_num(x, "lateness_ns", NAN) / 1000.0,
		    fw_num(x, "duration_ns", NAN) / 1000.0);
		if (nx <= 100)
			fprintf(w.gp, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 3 lc rgb \"%s\"\n",
				fw_gpnum(fw_num(x, "time_s", 0)), fw_gpnum(fw_num(x, "time_s", 0)), fw_colour[1]);
	}
	if (nx && !(m && has_series(m)))
		fputs("set label \"this document has no lateness series: the xruns alone\" at graph 0.02, graph 0.05\n", w.gp);
	if (m && has_series(m) && series_block(&w, m, "wakeup_lateness", 1000.0, &bi, &zero)) {
		fw_lines_clause(&w, bi, 0);
		fputs("\"largest lateness per block\"", w.gp);
		k++;
	}
	if (nx) {
		char t[200];

		fw_clause(&w);
		fprintf(w.gp, "datafile index %d using 1:2 with points pt 2 ps 2 lw 2 lc rgb \"%s\" title ", xbi,
			fw_colour[1]);
		snprintf(t, sizeof(t), "xrun (%d%s; dotted line at each, point at the wake-up lateness that caused it)",
			 nx, json_is_true(json_object_get(ev, "xrun_list_truncated")) ? ", list truncated" : "");
		fw_gpq(w.gp, t);
	}
	if (!k && !nx)
		fw_note(&w, "not drawn: this audio document holds no block series and no xrun: nothing "
			"happened over time that the document records (its distribution is in the next figure)");
	else if (!k)
		snprintf(w.f->caption, sizeof(w.f->caption),
			 "The document has no block series (written before the series was added): only "
			 "the xruns are drawn, at their time, with the wake-up lateness that caused each.");
	else
		snprintf(w.f->caption, sizeof(w.f->caption),
			 "The largest wake-up lateness per time block (log scale, microseconds) over the "
			 "run; each xrun is a dotted vertical line and a cross at its lateness.");
	return fw_end(&w);
}

/* audio: distribution of lateness and margin against the period and buffer. */
static int fig_audio_dist(struct ctx *c, size_t ri)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	const json_t *doc = r->doc[RP_AUDIO];
	json_t *g = json_object_get(json_object_get(doc, "params"), "granted");
	static const char *const names[] = { "wakeup_lateness", "buffer_margin", "work_time" };
	static const char *const words[] = { "wake-up lateness", "buffer margin (left before the buffer ran dry)",
					      "work time (wake-up to the last period written)" };
	struct fw w;
	char title[300];
	int ret, k;

	snprintf(title, sizeof(title), "rtproof-audio: wake-up lateness and buffer margin, %lld xrun(s)",
		 rtp_plot_ll(fw_num(json_object_get(doc, "events"), "xruns", 0)));
	ret = fw_begin_run(&w, c, ri, RP_AUDIO, "audio-lateness-margin", title);
	if (ret)
		return ret;
	fputs("set logscale x\nset logscale y\nset yrange [0.7:*]\n"
	      "set xlabel \"microseconds (log-linear buckets)\"\nset ylabel \"wake-ups per bucket\"\nset key top center\n", w.gp);
	if (fw_num(g, "period_ns", 0) > 0) {
		double x = fw_gpnum(fw_num(g, "period_ns", 0) / 1000);

		fprintf(w.gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb \"black\"\n"
			"set label \"period\" at %g, graph 0.6 left offset 0.5,0\n", x, x, x);
	}
	if (fw_num(g, "buffer_ns", 0) > 0) {
		double x = fw_gpnum(fw_num(g, "buffer_ns", 0) / 1000);

		fprintf(w.gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 4 lc rgb \"black\"\n"
			"set label \"buffer\" at %g, graph 0.5 left offset 0.5,0\n", x, x, x);
	}
	for (k = 0; k < 3; k++) {
		json_t *m = fw_merged(doc, names[k]);

		if (m && has_buckets(m))
			fw_plot_hist(&w, m, words[k], k);
	}
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Histograms of the wake-up lateness (how long after a period became free the thread ran) "
		 "and the buffer margin (how much queued audio was left), with the work time per wake-up, in "
		 "microseconds, against the period and the buffer length. A margin near zero is an xrun about to happen.");
	return fw_end(&w);
}

/* lockstress: inversion wait per protocol (and per run). */
static int fig_lock_inversion(struct ctx *c)
{
	struct fw w;
	size_t ri, i;
	int ret, rows = 0, bi = -1;
	double bound = 0;
	double top = 0;

	ret = fw_begin_set(&w, c, "lockstress-inversion", RP_LOCKSTRESS,
			   "rtproof-lockstress: the high-priority thread's wait in the inversion scenario, per protocol");
	if (ret)
		return ret;
	for (ri = 0; ri < c->set->nruns; ri++) {
		const json_t *doc = c->set->runs[ri].doc[RP_LOCKSTRESS];
		json_t *m, *inv = json_object_get(json_object_get(doc, "scenarios"), "inversion");

		if (fw_num(inv, "bound_ns", 0) > bound)
			bound = fw_num(inv, "bound_ns", 0);
		json_array_foreach(json_object_get(doc, "metrics"), i, m) {
			json_t *p = json_object_get(m, "percentiles");

			if (strcmp(rtp_plot_str(m, "name", ""), "inversion_wait") || fw_count_of(m) <= 0)
				continue;
			if (bi < 0)
				bi = fw_blk(&w, "label p50_ms min_ms max_ms count");
			fputc('"', w.dat);
			fw_dat_text(w.dat, rtp_plot_str(m, "protocol", "?"));
			if (c->set->nruns > 1) {
				fputs("\\n", w.dat);
				fw_dat_text(w.dat, c->set->runs[ri].label);
			}
			fputc('"', w.dat);
			if (fw_num(m, "max", 0) > top)
				top = fw_num(m, "max", 0);
			fw_row(&w, " %.4f %.4f %.4f %lld\n", fw_num(p, "50", NAN) / 1e6, fw_num(m, "min", NAN) / 1e6,
			    fw_num(m, "max", NAN) / 1e6, fw_count_of(m));
			rows++;
		}
	}
	if (!rows) {
		fw_note(&w, "not drawn: no lockstress document with an inversion scenario");
		return fw_end(&w);
	}
	fputs("set style data histograms\nset style histogram errorbars gap 2 lw 1.5\nset boxwidth 0.8\n"
	      "set style fill pattern 2 border rgb \"black\"\n"
	      "set ylabel \"wait of the high-priority thread (ms)\"\n", w.gp);
	fprintf(w.gp, "set yrange [0:%g]\n", fw_gpnum((bound > top ? bound : top) / 1e6 * 1.15));
	if (bound > 0)
		fprintf(w.gp, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead dt 2 lw 1.5 lc rgb \"black\"\n"
			"set label \"bound %.1f ms\" at graph 0.01, first %.9g offset 0,0.7\n",
			fw_gpnum(bound / 1e6), fw_gpnum(bound / 1e6), fw_gpnum(bound / 1e6), fw_gpnum(bound / 1e6));
	fw_clause(&w);
	fprintf(w.gp, "datafile index %d using 2:3:4:xtic(1) lc rgb \"%s\" title "
		"\"median wait; error bar from the minimum to the maximum\"", bi, fw_colour[0]);
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Per protocol: the median wait of the high-priority thread for the lock a low-priority "
		 "holder keeps while a medium-priority spinner runs, in milliseconds, with the range "
		 "from the shortest to the longest round. The dashed line is the scenario's bound: "
		 "inheritance and ceiling keep the wait under it; without them it is unbounded.");
	return fw_end(&w);
}

/* lockstress: contention wait by lock kind, one run. */
static int fig_lock_contention(struct ctx *c, size_t ri)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	struct fw w;
	size_t i;
	json_t *m;
	long long maxn = 0;
	int ret, k = 0;

	ret = fw_begin_run(&w, c, ri, RP_LOCKSTRESS, "lockstress-contention",
			   "rtproof-lockstress: wait to acquire a contended lock, by kind and "
			   "thread count, by percentile");
	if (ret)
		return ret;
	json_array_foreach(json_object_get(r->doc[RP_LOCKSTRESS], "metrics"), i, m) {
		char l[100];

		if (strcmp(rtp_plot_str(m, "name", ""), "contention_wait") || !fw_is_all(json_object_get(m, "thread")))
			continue;
		snprintf(l, sizeof(l), "%s, %lld threads", rtp_plot_str(m, "kind", "?"),
			 rtp_plot_ll(fw_num(m, "threads", 0)));
		if (!fw_pct_curve(&w, m, l, k, &maxn))
			continue;
		k++;
		fw_gpq(w.gp, l);
	}
	fw_pct_axes(&w, maxn);
	if (!k)
		fw_note(&w, "not drawn: no contention scenario in the lockstress document");
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "For each lock kind and thread count, the wait to acquire the lock (microseconds, log) "
		 "reached by each fraction of the acquisitions (x: 1/(1-p)).");
	return fw_end(&w);
}

/* ---- what to draw --------------------------------------------------------- */

/* The metric a bench's general figures are drawn for. */
static const char *primary(const json_t *doc, int bench)
{
	static const char *const pref[RP_NBENCH][6] = {
		{ "wakeup_latency" },
		{ "total", "thread_latency", "rtc_interval_error", "user_timer_wakeup" },
		{ "wakeup_lateness" },
		{ NULL },
	};
	int i;

	for (i = 0; i < 6 && pref[bench][i]; i++) {
		json_t *m;
		size_t k;

		json_array_foreach(json_object_get(doc, "metrics"), k, m)
			if (!strcmp(rtp_plot_str(m, "name", ""), pref[bench][i]) && fw_count_of(m) > 0)
				return pref[bench][i];
	}
	return NULL;
}

static bool measured(const json_t *doc)
{
	const char *s = rtp_plot_str(json_object_get(doc, "verdict"), "status", "");

	return doc && strcmp(s, "skip") && json_array_size(json_object_get(doc, "metrics")) > 0;
}

static int skipped_note(struct ctx *c, size_t ri, int b)
{
	const json_t *doc = c->set->runs[ri].doc[b];
	struct rtp_plot_fig *f = fw_fig_add(c);
	char rid[80], t[512];

	if (!f)
		return -ENOMEM;
	fw_run_id(c, ri, rid, sizeof(rid));
	snprintf(f->id, sizeof(f->id), "%s-not-measured%s", rtp_plot_bench_name[b], rid);
	snprintf(f->bench, sizeof(f->bench), "%s", rtp_plot_bench_name[b]);
	snprintf(t, sizeof(t), "%s%s%s", fw_bench_title(b), c->set->nruns > 1 ? ", run " : "",
		 c->set->nruns > 1 ? c->set->runs[ri].label : "");
	rtp_plot_text(f->title, sizeof(f->title), t);
	fw_run_where(&c->set->runs[ri], t, sizeof(t));
	rtp_plot_text(f->where, sizeof(f->where), t);
	snprintf(t, sizeof(t), "nothing to draw: %s (%s)",
		 rtp_plot_str(json_object_get(doc, "verdict"), "status", "no verdict"),
		 rtp_plot_str(json_object_get(doc, "verdict"), "reason", "no reason given"));
	rtp_plot_text(f->note, sizeof(f->note), t);
	return 0;
}

const char *rtp_plot_gnuplot(void)
{
	static char found[4096];
	const char *e = getenv("RTPROOF_GNUPLOT"), *path = getenv("PATH");

	if (e)
		return e[0] && access(e, X_OK) == 0 ? e : NULL;
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t l = colon ? (size_t)(colon - path) : strlen(path);

		snprintf(found, sizeof(found), "%.*s/gnuplot", (int)l, path);
		if (l && access(found, X_OK) == 0)
			return found;
		path = colon ? colon + 1 : NULL;
	}
	return NULL;
}

int rtp_plot_all(const struct rtp_plot_set *set, const char *outdir, struct rtp_plot_figs *figs,
		 bool quiet)
{
	struct ctx c = { .set = set, .outdir = outdir, .figs = figs, .quiet = quiet };
	size_t ri;
	int b, ret = 0;
	bool multi = set->nruns > 1;
	struct stat lst;

	memset(figs, 0, sizeof(*figs));
	if (mkdir(outdir, 0755) && errno != EEXIST)
		return -errno;
	/* a plots link someone else planted (DIR/plots in their result
	 * directory) never steers where the figures go */
	if (!lstat(outdir, &lst) && S_ISLNK(lst.st_mode) && lst.st_uid != geteuid())
		return -EACCES;
	/* Every file is made in a directory of our own, then renamed into
	 * outdir: a link planted in outdir is replaced, never written through. */
	if ((size_t)snprintf(c.priv, sizeof(c.priv), "%s/.rtproof-plot.XXXXXX", outdir) >= sizeof(c.priv))
		return -ENAMETOOLONG;
	if (!mkdtemp(c.priv))
		return -errno;
	fw_stop_begin();
	c.gnuplot = rtp_plot_gnuplot();
	figs->gnuplot_missing = !c.gnuplot;

	if (multi || set->compare)
		ret = fig_headline(&c);
	if (!ret && set->compare)
		ret = fig_pareto(&c);
	for (b = 0; b < RP_NBENCH && !ret; b++) {
		const char *name = NULL;
		bool any = false;

		for (ri = 0; ri < set->nruns && !ret; ri++) {
			const json_t *doc = set->runs[ri].doc[b];

			if (!doc)
				continue;
			if (!measured(doc)) {
				ret = skipped_note(&c, ri, b);
				continue;
			}
			any = true;
			if (!name)
				name = primary(doc, b);
		}
		if (!any || ret)
			continue;
		if (name && b == RP_AUDIO) {
			/* its histograms and time line are the audio figures below */
			ret = fig_pct(&c, b, name);
		} else if (name) {
			/* per run, per CPU; then what the runs share */
			for (ri = 0; ri < set->nruns && !ret; ri++)
				if (measured(set->runs[ri].doc[b]))
					ret = fig_hist_cpus(&c, ri, b, name, !multi);
			if (!ret && multi)
				ret = fig_hist_overlay(&c, b, name);
			if (!ret)
				ret = fig_pct(&c, b, name);
			if (!multi)
				ret = ret ? ret : fig_series(&c, 0, b, name);
			else if (!ret)
				ret = fig_series(&c, -1, b, name);
		}
		if (!ret && b == RP_IRQLAT)
			ret = fig_irq_stages(&c);
		if (b == RP_IRQLAT)
			for (ri = 0; ri < set->nruns && !ret; ri++)
				if (measured(set->runs[ri].doc[b]))
					ret = fig_irq_stage_pct(&c, ri);
		if (b == RP_AUDIO)
			for (ri = 0; ri < set->nruns && !ret; ri++)
				if (measured(set->runs[ri].doc[b])) {
					ret = fig_audio_timeline(&c, ri);
					ret = ret ? ret : fig_audio_dist(&c, ri);
				}
		if (!ret && b == RP_LOCKSTRESS) {
			ret = fig_lock_inversion(&c);
			for (ri = 0; ri < set->nruns && !ret; ri++)
				if (measured(set->runs[ri].doc[b]))
					ret = fig_lock_contention(&c, ri);
		}
	}
	if (!ret && fw_stopped())
		ret = -EINTR;
	fw_priv_remove(&c);
	fw_stop_end();
	return ret;
}

void rtp_plot_figs_free(struct rtp_plot_figs *figs)
{
	free(figs->v);
	memset(figs, 0, sizeof(*figs));
}
