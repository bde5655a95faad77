// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures: gnuplot scripts and data files written from the documents,
 * then gnuplot run on them for PNG and SVG.  Every figure's data is the
 * documents' own (histogram buckets, block series, xrun list, percentiles,
 * comparison rows); nothing is interpolated or smoothed. */
#include "plot.h"

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

/* Okabe-Ito: tells apart for most colour vision; dash types and point
 * types differ too, so a grey print reads. */
static const char *const colour[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
				      "#E69F00", "#56B4E9", "#000000", "#999999" };
#define NCOLOUR (sizeof(colour) / sizeof(colour[0]))

struct ctx {
	const struct rtp_plot_set *set;
	const char *outdir;
	char priv[4096];	/* outdir/.rtproof-plot.XXXXXX: where files are made */
	struct rtp_plot_figs *figs;
	const char *gnuplot;
	bool quiet;
};

struct fw {
	struct ctx *c;
	struct rtp_plot_fig *f;
	FILE *dat;
	FILE *gp;
	char *gpbuf;
	size_t gplen;
	int blocks;		/* data blocks written (gnuplot index) */
	int rows;		/* rows in the current block */
	int clauses;		/* plot clauses written */
	int ndata;		/* rows of data over all blocks */
	char pre[1024];		/* settings that depend on the data, before the body */
};

/* ---- small helpers ---------------------------------------------------- */

/*
 * Text into a gnuplot script: rtp_plot_text's one line (no newline ends a
 * comment or a command, no backtick), in single quotes, where gnuplot
 * expands nothing (no backtick substitution, no escapes) and a quote is
 * written twice.  Every string a script holds that is not a constant of
 * this file goes through here or gp_comment.
 */
static void gpq(FILE *f, const char *s)
{
	char t[1024];
	const char *p;

	rtp_plot_text(t, sizeof(t), s);
	fputc('\'', f);
	for (p = t; *p; p++) {
		if (*p == '\'')
			fputc('\'', f);
		fputc(*p, f);
	}
	fputc('\'', f);
}

/* a comment line of a script or a data file: "# " and the text, one line */
static void gp_comment(FILE *f, const char *s)
{
	char t[1024];

	fprintf(f, "# %s\n", rtp_plot_text(t, sizeof(t), s));
}

/* text in a label of a data file ("..." for xtic(1)): one line, no
 * double quote or backslash to end or bend the field */
static void dat_text(FILE *f, const char *s)
{
	char t[256], *p;

	rtp_plot_text(t, sizeof(t), s);
	for (p = t; *p; p++)
		if (*p == '"' || *p == '\\')
			*p = '\'';
	fputs(t, f);
}

/* a document number into a script: finite and of a size gnuplot reads */
static double gpnum(double v)
{
	return isfinite(v) ? fmax(-1e30, fmin(1e30, v)) : 0;
}

/* creates dir/name for writing; never through a link, never an old file */
static FILE *create(const char *dir, const char *name)
{
	char p[4400];
	int fd;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(p);
		errno = ENOMEM;
	}
	return f;
}

static void idsafe(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++)
		dst[i++] = (char)((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') ||
				  (*src >= '0' && *src <= '9') || *src == '.' || *src == '_' ? *src : '-');
	dst[i] = 0;
}

static double num(const json_t *o, const char *key, double dflt)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static const char *bench_title(int b)
{
	static const char *const t[RP_NBENCH] = { "rtproof-cyclic", "rtproof-irqlat", "rtproof-audio",
						   "rtproof-lockstress" };
	return t[b];
}

/* metric name -> words for a title */
static const char *metric_words(const char *name)
{
	static const struct { const char *n, *w; } t[] = {
		{ "wakeup_latency", "timer wake-up latency" },
		{ "irq_latency", "IRQ latency (expiry to hard IRQ, a->b)" },
		{ "thread_wakeup", "IRQ thread wake-up (hard IRQ to IRQ thread, b->c)" },
		{ "user_wakeup", "user wake-up (IRQ thread to reader, c->d)" },
		{ "total", "total IRQ response (expiry to user space, a->d)" },
		{ "thread_latency", "timerlat thread latency" },
		{ "rtc_interval_error", "RTC interval error" },
		{ "user_timer_wakeup", "user timer wake-up (fallback, not an IRQ figure)" },
		{ "wakeup_lateness", "audio wake-up lateness" },
		{ "buffer_margin", "audio buffer margin" },
		{ "work_time", "audio work time" },
		{ "roundtrip_latency", "audio round trip" },
		{ "inversion_wait", "priority-inversion wait" },
		{ "contention_wait", "lock contention wait" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].n, name))
			return t[i].w;
	return name;
}

static bool is_all(const json_t *v)
{
	return json_is_string(v) && !strcmp(json_string_value(v), "all");
}

/* The merged metric NAME of doc: cpu or thread "all", or the only one. */
static json_t *merged(const json_t *doc, const char *name)
{
	json_t *m, *only = NULL;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(doc, "metrics"), i, m) {
		if (strcmp(rtp_plot_str(m, "name", ""), name))
			continue;
		if (is_all(json_object_get(m, "cpu")) || is_all(json_object_get(m, "thread")))
			return m;
		only = m;
		n++;
	}
	return n == 1 ? only : NULL;
}

static long long count_of(const json_t *m)
{
	return rtp_plot_ll(num(m, "count", 0));
}

/* A run in a legend: its label, and the kernel and preemption model when
 * the label does not already say them (a ladder rung such as "rt"). */
static const char *run_legend(const struct rtp_plot_run *r, char *buf, size_t len)
{
	json_t *sys = json_object_get(rtp_plot_sysdoc(r), "system");
	const char *k = rtp_plot_str(sys, "kernel_release", NULL);

	if (!k || !strncmp(r->label, k, strlen(k)))
		return r->label;
	snprintf(buf, len, "%s: %s, preempt %s", r->label, k, rtp_plot_str(sys, "preempt", "?"));
	return buf;
}

static void run_where(const struct rtp_plot_run *r, char *buf, size_t len)
{
	char w[400], l[200];

	rtp_plot_where(r, w, sizeof(w));
	rtp_plot_load_text(r, l, sizeof(l));
	snprintf(buf, len, "%s; load %s", w, l);
}

/* Where several runs were made: what they share. */
static void set_where(const struct ctx *c, char *buf, size_t len)
{
	const struct rtp_plot_set *s = c->set;
	char first[400], other[400], l0[200], l[200];
	size_t i;
	bool same = true, sameload = true;

	if (s->nruns == 1) {
		run_where(&s->runs[0], buf, len);
		return;
	}
	rtp_plot_where(&s->runs[0], first, sizeof(first));
	rtp_plot_load_text(&s->runs[0], l0, sizeof(l0));
	for (i = 1; i < s->nruns; i++) {
		rtp_plot_where(&s->runs[i], other, sizeof(other));
		rtp_plot_load_text(&s->runs[i], l, sizeof(l));
		/* compare from the virtualisation on: kernels differ by design */
		if (strcmp(strstr(first, "virtual") ? strstr(first, "virtual") : first,
			   strstr(other, "virtual") ? strstr(other, "virtual") : other))
			same = false;
		if (strcmp(l, l0))
			sameload = false;
	}
	snprintf(buf, len, "%zu runs (named in the legend)%s%s; load %s", s->nruns, same ? ", " : "",
		 same ? (strstr(first, "virtual") ? strstr(first, "virtual") : first) : "",
		 sameload ? l0 : "differs between runs (see the report)");
}

/* ---- figure writer ------------------------------------------------------ */

static struct rtp_plot_fig *fig_add(struct ctx *c)
{
	struct rtp_plot_figs *fs = c->figs;

	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct rtp_plot_fig *v = realloc(fs->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		fs->v = v;
		fs->cap = cap;
	}
	memset(&fs->v[fs->n], 0, sizeof(fs->v[0]));
	return &fs->v[fs->n++];
}

static int fw_begin(struct fw *w, struct ctx *c, const char *id, int bench, const char *title,
		    const char *where)
{
	char path[200];

	memset(w, 0, sizeof(*w));
	w->c = c;
	w->f = fig_add(c);
	if (!w->f)
		return -ENOMEM;
	snprintf(w->f->id, sizeof(w->f->id), "%s", id);
	snprintf(w->f->bench, sizeof(w->f->bench), "%s", bench >= 0 ? rtp_plot_bench_name[bench] : "compare");
	/* what the figure shows of the documents, made safe once for every reader */
	rtp_plot_text(w->f->title, sizeof(w->f->title), title);
	rtp_plot_text(w->f->where, sizeof(w->f->where), where);
	snprintf(path, sizeof(path), "%s.dat", id);
	w->dat = create(c->priv, path);
	if (!w->dat)
		return -errno;
	fprintf(w->dat, "# rtproof-plot: %s\n# %s\n# blocks are separated by two blank lines "
		"(gnuplot 'index N', from 0)\n", w->f->title, w->f->where);
	w->gp = open_memstream(&w->gpbuf, &w->gplen);
	if (!w->gp) {
		fclose(w->dat);
		w->dat = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* starts a data block, returns its index */
static int blk(struct fw *w, const char *comment)
{
	char t[512];

	if (w->blocks)
		fputs("\n\n", w->dat);
	fprintf(w->dat, "# index %d: %s\n", w->blocks, rtp_plot_text(t, sizeof(t), comment));
	w->rows = 0;
	return w->blocks++;
}

static void row(struct fw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void row(struct fw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(w->dat, fmt, ap);
	va_end(ap);
	w->rows++;
	w->ndata++;
}

/* the style of curve i: colour, dash, point type */
static void style(FILE *f, int i)
{
	fprintf(f, "lc rgb \"%s\" dt %d lw %s", colour[i % NCOLOUR], i % 5 + 1, i % 5 == 2 ? "2.4" : "1.6");
}

/* begin/continue the plot command */
static void clause(struct fw *w)
{
	fputs(w->clauses++ ? ", \\\n     " : "plot ", w->gp);
}

/* a clause drawing block bi's first two columns as lines in style k, up to
 * its title (which the caller writes) */
static void lines_clause(struct fw *w, int bi, int k)
{
	clause(w);
	fprintf(w->gp, "datafile index %d using 1:2 with lines ", bi);
	style(w->gp, k);
	fputs(" title ", w->gp);
}

static void fw_note(struct fw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fw_note(struct fw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->f->note, sizeof(w->f->note), fmt, ap);
	va_end(ap);
}

static int run_gnuplot(struct ctx *c, const char *id)
{
	char log[4096];
	pid_t pid;
	int st, fd;
	struct stat sb;

	/* gnuplot runs in the private directory: its own `set output` opens
	 * names no one else could have planted a link at */
	snprintf(log, sizeof(log), "%s/%s.log", c->priv, id);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char gp[256];

		fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		if (chdir(c->priv))
			_exit(127);
		snprintf(gp, sizeof(gp), "%s.gp", id);
		execlp(c->gnuplot, c->gnuplot, gp, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -errno;
	if (stat(log, &sb) == 0 && sb.st_size == 0)
		unlink(log);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

static bool nonempty(const char *dir, const char *id, const char *ext)
{
	char p[4096];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/%s.%s", dir, id, ext);
	return stat(p, &sb) == 0 && sb.st_size > 0;
}

static void unlink_ext(const struct ctx *c, const char *id, const char *ext)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s.%s", c->outdir, id, ext);
	unlink(p);
}

/* Moves id.{dat,gp,png,svg,log} from the private directory into outdir:
 * rename() replaces whatever name is there, a link included, and writes
 * through nothing. */
static int move_out(const struct ctx *c, const char *id)
{
	static const char *const ext[] = { "dat", "gp", "png", "svg", "log" };
	char from[4400], to[4400];
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(from, sizeof(from), "%s/%s.%s", c->priv, id, ext[i]);
		snprintf(to, sizeof(to), "%s/%s.%s", c->outdir, id, ext[i]);
		if (rename(from, to) && errno != ENOENT && !ret)
			ret = -errno;
	}
	return ret;
}

/* Empties and removes the private directory. */
static void priv_remove(const struct ctx *c)
{
	DIR *d = opendir(c->priv);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char p[4400];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", c->priv, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(c->priv);
}

/* Breaks lines longer than width at the last space before it, so a long
 * title stays inside the image. */
static void wrap(char *s, int width)
{
	char *line = s, *p, *sp = NULL;

	for (p = s; *p; p++) {
		if (*p == '\n') {
			line = p + 1;
			sp = NULL;
			continue;
		}
		if (*p == ' ')
			sp = p;
		if (p - line >= width && sp) {
			*sp = '\n';
			line = sp + 1;
			sp = NULL;
		}
	}
}

/* Writes id.gp: the terminals, the title, then the body. */
static int fw_end(struct fw *w)
{
	struct ctx *c = w->c;
	struct rtp_plot_fig *f = w->f;
	char path[4096];
	FILE *gp;
	int ret = 0;

	fclose(w->gp);
	w->gp = NULL;
	if (fclose(w->dat)) {
		w->dat = NULL;
		free(w->gpbuf);
		return -errno;
	}
	w->dat = NULL;
	/* images of an earlier run must not stand in for this one */
	unlink_ext(c, f->id, "png");
	unlink_ext(c, f->id, "svg");
	unlink_ext(c, f->id, "log");
	if (!w->clauses || f->note[0]) {
		/* nothing to draw: no script, no data, the note says why */
		snprintf(path, sizeof(path), "%s/%s.dat", c->priv, f->id);
		unlink(path);
		unlink_ext(c, f->id, "dat");
		unlink_ext(c, f->id, "gp");
		if (!f->note[0])
			fw_note(w, "no data to draw");
		free(w->gpbuf);
		return 0;
	}
	snprintf(path, sizeof(path), "%s.gp", f->id);
	gp = create(c->priv, path);
	if (!gp) {
		ret = -errno;
		free(w->gpbuf);
		return ret;
	}
	fprintf(gp, "# rtproof-plot: %s\n", f->title);
	gp_comment(gp, f->where);
	fprintf(gp, "# data: %s.dat; gnuplot %s.gp writes %s.png and %s.svg\n", f->id, f->id, f->id, f->id);
	fputs("datafile = ", gp);
	snprintf(path, sizeof(path), "%s.dat", f->id);
	gpq(gp, path);
	fprintf(gp, "\ndo for [fmt in \"png svg\"] {\n"
		"if (fmt eq \"png\") {\n"
		"  set terminal pngcairo size 960,600 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"  set terminal svg size 960,600 noenhanced font \"sans,11\" background rgb \"white\"\n"
		"}\n"
		"set output ");
	snprintf(path, sizeof(path), "%s.", f->id);
	gpq(gp, path);
	fputs(".fmt\nset title ", gp);
	{
		/* title and where wrapped into lines, each quoted, joined by newlines */
		char t[1100], *line, *nl;

		snprintf(t, sizeof(t), "%s\n%s", f->title, f->where);
		wrap(t, 110);
		for (line = t; line; line = nl) {
			nl = strchr(line, '\n');
			if (nl)
				*nl++ = 0;
			gpq(gp, line);
			if (nl)
				fputs(".\"\\n\".", gp);
		}
	}
	fputs("\nset key inside top right vertical box opaque samplen 3 spacing 1.1\n"
	      "set grid xtics ytics mxtics mytics lc rgb \"#dddddd\" dt 1\n"
	      "set border 3\nset tics nomirror\n", gp);
	fputs(w->pre, gp);
	fwrite(w->gpbuf, 1, w->gplen, gp);
	fputs("\nset output\n}\n", gp);
	free(w->gpbuf);
	if (fclose(gp))
		return -errno;
	if (!c->gnuplot)
		return move_out(c, f->id);
	ret = run_gnuplot(c, f->id);
	if (ret || !nonempty(c->priv, f->id, "png") || !nonempty(c->priv, f->id, "svg")) {
		c->figs->failed++;
		rtp_warn("%s/%s.gp: gnuplot failed (see %s/%s.log)", c->outdir, f->id, c->outdir, f->id);
		fw_note(w, "gnuplot failed on %s.gp (see %s.log)", f->id, f->id);
		return move_out(c, f->id);
	}
	ret = move_out(c, f->id);
	f->plotted = !ret;
	return ret;
}

/* ---- data blocks from the documents ------------------------------------ */

/* Histogram steps in us: lower..upper at the bucket's count; a gap (an
 * empty bucket) breaks the line.  Isolated buckets get a point as well, in
 * a second block, so a lone outlier is seen.  Returns rows written. */
static int hist_blocks(struct fw *w, const json_t *m, const char *what, int *bi_lines, int *bi_pts)
{
	json_t *b, *bk = json_object_get(json_object_get(m, "histogram"), "buckets");
	size_t i, n = json_array_size(bk);
	double prev_hi = -2;
	int rows = 0, iso = 0;
	char cm[300];

	snprintf(cm, sizeof(cm), "%s: histogram buckets, lower_us upper_us count (as lines: lower and upper at the count)", what);
	*bi_lines = blk(w, cm);
	json_array_foreach(bk, i, b) {
		double lo = json_number_value(json_array_get(b, 0)), hi = json_number_value(json_array_get(b, 1));
		double cnt = json_number_value(json_array_get(b, 2));

		if (lo > prev_hi + 1.5 && i)
			fputs("\n", w->dat);
		row(w, "%.4f %.0f\n%.4f %.0f\n", lo / 1000.0, cnt, (hi + 1) / 1000.0, cnt);
		prev_hi = hi;
		rows++;
	}
	/* isolated buckets: no neighbour on either side */
	for (i = 0; i < n; i++) {
		json_t *p = i ? json_array_get(bk, i - 1) : NULL, *q = json_array_get(bk, i + 1);
		double lo, hi;

		b = json_array_get(bk, i);
		lo = json_number_value(json_array_get(b, 0));
		hi = json_number_value(json_array_get(b, 1));
		if ((p && json_number_value(json_array_get(p, 1)) + 1.5 > lo) ||
		    (q && json_number_value(json_array_get(q, 0)) < hi + 1.5))
			continue;
		if (!iso++) {
			snprintf(cm, sizeof(cm), "%s: isolated buckets, centre_us count", what);
			*bi_pts = blk(w, cm);
		}
		row(w, "%.4f %.0f\n", (lo + hi + 1) / 2000.0, json_number_value(json_array_get(b, 2)));
	}
	if (!iso)
		*bi_pts = -1;
	return rows;
}

static void plot_hist(struct fw *w, const json_t *m, const char *label, int i)
{
	int bl, bp;
	char t[300];
	long long ov = rtp_plot_ll(num(m, "overflow", 0));

	if (!hist_blocks(w, m, label, &bl, &bp))
		return;
	snprintf(t, sizeof(t), "%s (%s %.1f us%s)", label, strcmp(rtp_plot_str(m, "name", ""), "buffer_margin") ? "max" : "min",
		 num(m, strcmp(rtp_plot_str(m, "name", ""), "buffer_margin") ? "max" : "min", 0) / 1000.0,
		 ov ? ", overflow samples not drawn" : "");
	clause(w);
	fprintf(w->gp, "datafile index %d using 1:2 with lines ", bl);
	style(w->gp, i);
	fputs(" title ", w->gp);
	gpq(w->gp, t);
	if (bp >= 0) {
		clause(w);
		fprintf(w->gp, "datafile index %d using 1:2 with points ps 0.8 pt %d lc rgb \"%s\"", bp, (i % 7) + 4, colour[i % NCOLOUR]);
		fputs(" notitle", w->gp);
	}
}

/* Latency by percentile: x = 1/(1-p) at the bucket's cumulative count, y =
 * the bucket's upper edge capped at the exact max; a staircase.  The last
 * step runs to 1/(1-p) = 2*count (p = 1 - 1/(2 count)).  Returns count. */
static long long pct_block(struct fw *w, const json_t *m, const char *what, int *bi)
{
	json_t *b, *bk = json_object_get(json_object_get(m, "histogram"), "buckets");
	double n = num(m, "count", 0), max = num(m, "max", 0), cum = 0;
	size_t i;
	char cm[300];

	if (n <= 0 || !json_array_size(bk))
		return 0;
	snprintf(cm, sizeof(cm), "%s: x = 1/(1-p), latency_us (bucket upper edge, capped at the exact max)", what);
	*bi = blk(w, cm);
	json_array_foreach(bk, i, b) {
		double hi = json_number_value(json_array_get(b, 1));
		double c = json_number_value(json_array_get(b, 2));
		double x0 = 1.0 / (1.0 - cum / n), x1, v = hi < max ? hi : max;

		cum += c;
		x1 = cum < n ? 1.0 / (1.0 - cum / n) : 2 * n;
		row(w, "%.6g %.4f\n%.6g %.4f\n", x0, v / 1000.0, x1, v / 1000.0);
	}
	if (cum < n)	/* overflow: above the histogram, the exact max stands for them */
		row(w, "%.6g %.4f\n%.6g %.4f\n", 1.0 / (1.0 - cum / n), max / 1000.0, 2 * n, max / 1000.0);
	return rtp_plot_ll(n);
}

static void pct_axes(struct fw *w, long long maxn)
{
	double top = 100;

	while (top < 2.0 * (double)maxn && top < 1e9)
		top *= 10;
	snprintf(w->pre, sizeof(w->pre), "set logscale x\nset logscale y\nset xrange [1:%g]\n"
		"set xtics (\"0 %%%%\" 1, \"50 %%%%\" 2, \"90 %%%%\" 10, \"99 %%%%\" 100, \"99.9 %%%%\" 1000, "
		"\"99.99 %%%%\" 10000, \"99.999 %%%%\" 100000, \"99.9999 %%%%\" 1000000, \"99.99999 %%%%\" 1e7)\n"
		"set xlabel \"percentile (scale 1/(1-p))\"\nset ylabel \"latency (us)\"\n"
		"set key top left\n", top);
}

/* pct_block, then a lines clause for it in style k up to its title; the
 * largest count so far in *maxn.  Returns the count, 0 (nothing written)
 * when the metric has no samples. */
static long long pct_curve(struct fw *w, const json_t *m, const char *what, int k, long long *maxn)
{
	long long n;
	int bi;

	n = pct_block(w, m, what, &bi);
	if (!n)
		return 0;
	if (n > *maxn)
		*maxn = n;
	lines_clause(w, bi, k);
	return n;
}

/* ---- the figures -------------------------------------------------------- */

static void cpu_label(const json_t *m, char *buf, size_t len)
{
	json_t *cpu = json_object_get(m, "cpu"), *th = json_object_get(m, "thread");

	if (rtp_plot_is_int(cpu))
		snprintf(buf, len, "CPU %lld", (long long)json_number_value(cpu));
	else if (is_all(cpu) || is_all(th))
		snprintf(buf, len, "all CPUs");
	else if (json_is_string(th))
		snprintf(buf, len, "thread %s", json_string_value(th));
	else if (rtp_plot_is_int(th))
		snprintf(buf, len, "thread %lld", (long long)json_number_value(th));
	else
		snprintf(buf, len, "%s", rtp_plot_str(m, "name", "?"));
}

static void run_id(const struct ctx *c, size_t ri, char *buf, size_t len)
{
	char s[64];

	if (c->set->nruns == 1) {
		buf[0] = 0;
		return;
	}
	idsafe(s, sizeof(s), c->set->runs[ri].label);
	snprintf(buf, len, "-%zu-%s", ri + 1, s);
}

/* fw_begin for a figure of run ri: the run's id (when there are several)
 * after id, its label after the title, what and where it ran. */
static int fw_begin_run(struct fw *w, struct ctx *c, size_t ri, int bench, const char *id,
			const char *title)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	char rid[80], fid[128], t[300], where[500];

	run_id(c, ri, rid, sizeof(rid));
	snprintf(fid, sizeof(fid), "%s%s", id, rid);
	snprintf(t, sizeof(t), "%s%s%s", title, c->set->nruns > 1 ? ", run " : "",
		 c->set->nruns > 1 ? r->label : "");
	run_where(r, where, sizeof(where));
	return fw_begin(w, c, fid, bench, t, where);
}

/* fw_begin for a figure of the whole set: where is what the runs share. */
static int fw_begin_set(struct fw *w, struct ctx *c, const char *id, int bench, const char *title)
{
	char where[500];

	set_where(c, where, sizeof(where));
	return fw_begin(w, c, id, bench, title, where);
}

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
		 bench_title(bench), metric_words(name));
	ret = fw_begin_run(&w, c, ri, bench, id, title);
	if (ret)
		return ret;
	fputs(hist_axes, w.gp);
	json_array_foreach(json_object_get(r->doc[bench], "metrics"), i, m) {
		char l[64];

		if (strcmp(rtp_plot_str(m, "name", ""), name) || !has_buckets(m))
			continue;
		if (ncpu ? !rtp_plot_is_int(json_object_get(m, "cpu")) : m != merged(r->doc[bench], name))
			continue;
		cpu_label(m, l, sizeof(l));
		plot_hist(&w, m, l, n++);
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
		 bench_title(bench), metric_words(name));
	ret = fw_begin_set(&w, c, id, bench, title);
	if (ret)
		return ret;
	fputs(hist_axes, w.gp);
	for (ri = 0; ri < c->set->nruns; ri++) {
		json_t *m = merged(c->set->runs[ri].doc[bench], name);

		if (m && has_buckets(m))
			{
			char lg[300];

			plot_hist(&w, m, run_legend(&c->set->runs[ri], lg, sizeof(lg)), n);
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
	snprintf(title, sizeof(title), "%s %s by percentile%s", bench_title(bench), metric_words(name),
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
			if (c->set->nruns > 1 && m != merged(doc, name))
				continue;
			cpu_label(m, cl, sizeof(cl));
			if (c->set->nruns > 1)
				run_legend(&c->set->runs[ri], l, sizeof(l)) == l ? (void)0 :
					(void)snprintf(l, sizeof(l), "%s", c->set->runs[ri].label);
			else
				snprintf(l, sizeof(l), "%s", cl);
			n = pct_curve(&w, m, l, k, &maxn);
			if (!n)
				continue;
			snprintf(cl, sizeof(cl), " (%lld samples)", n);
			strncat(l, cl, sizeof(l) - strlen(l) - 1);
			gpq(w.gp, l);
			k++;
		}
	}
	pct_axes(&w, maxn);
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
 * where blocks are missing (no samples there).  Returns block count. */
static int series_block(struct fw *w, const json_t *m, const char *what, double scale, int *bi)
{
	json_t *s = json_object_get(m, "series"), *b;
	double t0 = num(s, "t0_s", 0), bs = num(s, "block_s", 0), prev = -1;
	size_t i;
	int n = 0;
	char cm[300];

	snprintf(cm, sizeof(cm), "%s: series blocks, start_s end_s max (block %g s, coarsened %g times)",
		 what, bs, num(s, "coarsened", 0));
	*bi = blk(w, cm);
	json_array_foreach(json_object_get(s, "blocks"), i, b) {
		double st = json_number_value(json_array_get(b, 0)) + t0;
		double mx = json_number_value(json_array_get(b, 2));

		if (prev >= 0 && st > prev + bs * 0.5)
			fputs("\n", w->dat);
		row(w, "%.6f %.4f\n%.6f %.4f\n", st, mx / scale, st + bs, mx / scale);
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
	int ret, k = 0, bi, without = 0, with = 0;

	snprintf(id, sizeof(id), "%s-%s-over-time", rtp_plot_bench_name[bench], name);
	snprintf(title, sizeof(title), "%s %s: maximum per time block over the run%s",
		 bench_title(bench), metric_words(name),
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
		percpu = cpus > 0 && (ri_only >= 0 || !has_series(merged(doc, name)));
		json_array_foreach(json_object_get(doc, "metrics"), i, m) {
			char l[200];

			if (strcmp(rtp_plot_str(m, "name", ""), name))
				continue;
			if (percpu ? !rtp_plot_is_int(json_object_get(m, "cpu")) : m != merged(doc, name))
				continue;
			if (!has_series(m)) {
				without++;
				continue;
			}
			with++;
			if (ri_only >= 0) {
				cpu_label(m, l, sizeof(l));
			} else {
				char lg[300], cl[64];

				cpu_label(m, cl, sizeof(cl));
				snprintf(l, sizeof(l), "%s%s%s", run_legend(&c->set->runs[ri], lg, sizeof(lg)),
					 percpu ? ", " : "", percpu ? cl : "");
			}
			if (!series_block(&w, m, l, 1000.0, &bi))
				continue;
			lines_clause(&w, bi, k);
			{
				char t[260];

				snprintf(t, sizeof(t), "%s (block %g s)", l,
					 num(json_object_get(m, "series"), "block_s", 0));
				gpq(w.gp, t);
			}
			k++;
		}
	}
	if (!with)
		fw_note(&w, "not drawn: the %s documents carry no block series for %s (written before "
			"the series was added, or no samples); their overall maximum is in the table",
			rtp_plot_bench_name[bench], name);
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
	bi = blk(&w, cm);
	for (ri = 0; ri < c->set->nruns; ri++) {
		const json_t *doc = c->set->runs[ri].doc[RP_IRQLAT];

		if (!doc || !merged(doc, "irq_latency"))
			continue;
		for (p = 0; p < 2; p++) {
			fputc('"', w.dat);
			if (c->set->nruns > 1) {
				dat_text(w.dat, c->set->runs[ri].label);
				fputs("\\n", w.dat);
			}
			fprintf(w.dat, "p%s\"", pc[p]);
			for (s = 0; s < 3; s++) {
				json_t *m = merged(doc, st[s]);

				fprintf(w.dat, " %.4f",
					num(json_object_get(m, "percentiles"), pc[p], NAN) / 1000.0);
			}
			row(&w, " %.4f\n", num(json_object_get(merged(doc, "total"), "percentiles"), pc[p], NAN) / 1000.0);
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
		clause(&w);
		fprintf(w.gp, "datafile index %d using %d%s lc rgb \"%s\" fs pattern %d title \"%s\"", bi, s + 2,
			s == 0 ? ":xtic(1)" : "", colour[s], s == 0 ? 0 : s == 1 ? 2 : 4, sl[s]);
	}
	clause(&w);
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

	if (!merged(r->doc[RP_IRQLAT], "irq_latency"))
		return 0;
	ret = fw_begin_run(&w, c, ri, RP_IRQLAT, "irqlat-stages-percentiles",
			   "rtproof-irqlat: each stage of the interrupt response by percentile");
	if (ret)
		return ret;
	for (s = 0; s < 4; s++) {
		json_t *m = merged(r->doc[RP_IRQLAT], st[s]);
		char l[120];

		if (!m)
			continue;
		n = pct_curve(&w, m, sl[s], k, &maxn);
		if (!n)
			continue;
		k++;
		snprintf(l, sizeof(l), "%s (%lld samples, max %.1f us)", sl[s], n, num(m, "max", 0) / 1000.0);
		gpq(w.gp, l);
	}
	pct_axes(&w, maxn);
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
	json_t *ev = json_object_get(doc, "events"), *x, *m = merged(doc, "wakeup_lateness");
	struct fw w;
	char title[300], cm[200];
	size_t i;
	int ret, bi, xbi = -1, nx = 0, k = 0;

	snprintf(title, sizeof(title), "rtproof-audio: wake-up lateness over time, xruns marked (%s backend, "
		 "%g frames x %g periods at %g Hz)",
		 rtp_plot_str(json_object_get(doc, "params"), "backend", "?"),
		 num(json_object_get(json_object_get(doc, "params"), "granted"), "period_frames", 0),
		 num(json_object_get(json_object_get(doc, "params"), "granted"), "periods", 0),
		 num(json_object_get(json_object_get(doc, "params"), "granted"), "rate", 0));
	ret = fw_begin_run(&w, c, ri, RP_AUDIO, "audio-timeline", title);
	if (ret)
		return ret;
	if (num(doc, "duration_s", 0) > 0)
		fprintf(w.gp, "set xrange [0:%g]\n", gpnum(num(doc, "duration_s", 0)));
	fputs("set logscale y\nset xlabel \"time since the stream started (s)\"\n"
	      "set ylabel \"wake-up lateness (us)\"\n", w.gp);
	/* the xruns first: their arrows go before the plot command */
	snprintf(cm, sizeof(cm), "xruns: time_s lateness_us duration_us");
	json_array_foreach(json_object_get(ev, "xrun_list"), i, x) {
		if (!nx++)
			xbi = blk(&w, cm);
		row(&w, "%.6f %.4f %.4f\n", num(x, "time_s", 0), num(x, "lateness_ns", NAN) / 1000.0,
		    num(x, "duration_ns", NAN) / 1000.0);
		if (nx <= 100)
			fprintf(w.gp, "set arrow from %.6f, graph 0 to %.6f, graph 1 nohead dt 3 lc rgb \"%s\"\n",
				gpnum(num(x, "time_s", 0)), gpnum(num(x, "time_s", 0)), colour[1]);
	}
	if (nx && !(m && has_series(m)))
		fputs("set label \"this document has no lateness series: the xruns alone\" at graph 0.02, graph 0.05\n", w.gp);
	if (m && has_series(m) && series_block(&w, m, "wakeup_lateness", 1000.0, &bi)) {
		lines_clause(&w, bi, 0);
		fputs("\"largest lateness per block\"", w.gp);
		k++;
	}
	if (nx) {
		char t[200];

		clause(&w);
		fprintf(w.gp, "datafile index %d using 1:2 with points pt 2 ps 2 lw 2 lc rgb \"%s\" title ", xbi,
			colour[1]);
		snprintf(t, sizeof(t), "xrun (%d%s; dotted line at each, point at the wake-up lateness that caused it)",
			 nx, json_is_true(json_object_get(ev, "xrun_list_truncated")) ? ", list truncated" : "");
		gpq(w.gp, t);
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
		 rtp_plot_ll(num(json_object_get(doc, "events"), "xruns", 0)));
	ret = fw_begin_run(&w, c, ri, RP_AUDIO, "audio-lateness-margin", title);
	if (ret)
		return ret;
	fputs("set logscale x\nset logscale y\nset yrange [0.7:*]\n"
	      "set xlabel \"microseconds (log-linear buckets)\"\nset ylabel \"wake-ups per bucket\"\nset key top center\n", w.gp);
	if (num(g, "period_ns", 0) > 0) {
		double x = gpnum(num(g, "period_ns", 0) / 1000);

		fprintf(w.gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb \"black\"\n"
			"set label \"period\" at %g, graph 0.6 left offset 0.5,0\n", x, x, x);
	}
	if (num(g, "buffer_ns", 0) > 0) {
		double x = gpnum(num(g, "buffer_ns", 0) / 1000);

		fprintf(w.gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 4 lc rgb \"black\"\n"
			"set label \"buffer\" at %g, graph 0.5 left offset 0.5,0\n", x, x, x);
	}
	for (k = 0; k < 3; k++) {
		json_t *m = merged(doc, names[k]);

		if (m && has_buckets(m))
			plot_hist(&w, m, words[k], k);
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

		if (num(inv, "bound_ns", 0) > bound)
			bound = num(inv, "bound_ns", 0);
		json_array_foreach(json_object_get(doc, "metrics"), i, m) {
			json_t *p = json_object_get(m, "percentiles");

			if (strcmp(rtp_plot_str(m, "name", ""), "inversion_wait") || count_of(m) <= 0)
				continue;
			if (bi < 0)
				bi = blk(&w, "label p50_ms min_ms max_ms count");
			fputc('"', w.dat);
			dat_text(w.dat, rtp_plot_str(m, "protocol", "?"));
			if (c->set->nruns > 1) {
				fputs("\\n", w.dat);
				dat_text(w.dat, c->set->runs[ri].label);
			}
			fputc('"', w.dat);
			if (num(m, "max", 0) > top)
				top = num(m, "max", 0);
			row(&w, " %.4f %.4f %.4f %lld\n", num(p, "50", NAN) / 1e6, num(m, "min", NAN) / 1e6,
			    num(m, "max", NAN) / 1e6, count_of(m));
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
	fprintf(w.gp, "set yrange [0:%g]\n", gpnum((bound > top ? bound : top) / 1e6 * 1.15));
	if (bound > 0)
		fprintf(w.gp, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead dt 2 lw 1.5 lc rgb \"black\"\n"
			"set label \"bound %.1f ms\" at graph 0.01, first %.9g offset 0,0.7\n",
			gpnum(bound / 1e6), gpnum(bound / 1e6), gpnum(bound / 1e6), gpnum(bound / 1e6));
	clause(&w);
	fprintf(w.gp, "datafile index %d using 2:3:4:xtic(1) lc rgb \"%s\" title "
		"\"median wait; error bar from the minimum to the maximum\"", bi, colour[0]);
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

		if (strcmp(rtp_plot_str(m, "name", ""), "contention_wait") || !is_all(json_object_get(m, "thread")))
			continue;
		snprintf(l, sizeof(l), "%s, %lld threads", rtp_plot_str(m, "kind", "?"),
			 rtp_plot_ll(num(m, "threads", 0)));
		if (!pct_curve(&w, m, l, k, &maxn))
			continue;
		k++;
		gpq(w.gp, l);
	}
	pct_axes(&w, maxn);
	if (!k)
		fw_note(&w, "not drawn: no contention scenario in the lockstress document");
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "For each lock kind and thread count, the wait to acquire the lock (microseconds, log) "
		 "reached by each fraction of the acquisitions (x: 1/(1-p)).");
	return fw_end(&w);
}

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
static int fig_headline(struct ctx *c)
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
		    is_all(json_object_get(rw, "cpu"))) {
			row0 = rw;
			break;
		}
	}
	if (row0) {
		bench = rtp_plot_str(row0, "bench", "?");
		metric = rtp_plot_str(row0, "metric", "?");
		cpu = json_object_get(row0, "cpu");
		snprintf(title, sizeof(title), "Comparison headline: rtproof-%s %s%s, base %s against %zu other run(s), "
			 "%g %% intervals", bench, metric_words(metric), is_all(cpu) ? " (all CPUs)" : "",
			 rtp_plot_str(json_object_get(c->set->compare, "base"), "label", "?"), nnew,
			 num(c->set->compare, "confidence", 0) * 100);
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
	bi = blk(&w, "figure, then per run: value_us low_us high_us (the interval; the value itself when none)");
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
					if (k >= 0 && num(rw, "new_index", 0) != k)
						continue;
					v = num(rw, k < 0 ? "base" : "new", NAN);
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
				json_t *m = merged(c->set->runs[ri].doc[RP_CYCLIC], "wakeup_latency");
				double v = pk ? num(json_object_get(m, "percentiles"), pk, NAN) : num(m, "max", NAN);

				if (!isnan(v))
					have++;
				fits = fits && cat_us(line, sizeof(line), &off, v) &&
				       cat_us(line, sizeof(line), &off, v) && cat_us(line, sizeof(line), &off, v);
			}
		}
		if (have && fits) {
			row(&w, "%s\n", line);
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
				snprintf(lab, sizeof(lab), "%s", run_legend(&c->set->runs[i], lab2, sizeof(lab2)));
			}
			clause(&w);
			if (row0)
				fprintf(w.gp, "datafile index %d using %zu:%zu:%zu", bi, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i);
			else
				fprintf(w.gp, "datafile index %d using %zu", bi, 2 + 3 * i);
			fprintf(w.gp, "%s lc rgb \"%s\" fs pattern %zu border rgb \"black\" title ",
				i == 0 ? ":xtic(1)" : "", colour[i % NCOLOUR], i % 7);
			gpq(w.gp, lab);
		}
	}
	snprintf(w.f->caption, sizeof(w.f->caption), "%s",
		 row0 ? "Bars: each run's figure (microseconds, log scale); error bars: the comparison's "
		 "confidence interval for it; where compare.json gives none (e.g. the maximum) the bar's cap is flat at the value." :
		 "Bars: each run's percentiles and exact maximum (microseconds, log scale) as the documents "
		 "give them; without compare.json there are no intervals.");
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
			if (!strcmp(rtp_plot_str(m, "name", ""), pref[bench][i]) && count_of(m) > 0)
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
	struct rtp_plot_fig *f = fig_add(c);
	char rid[80], t[512];

	if (!f)
		return -ENOMEM;
	run_id(c, ri, rid, sizeof(rid));
	snprintf(f->id, sizeof(f->id), "%s-not-measured%s", rtp_plot_bench_name[b], rid);
	snprintf(f->bench, sizeof(f->bench), "%s", rtp_plot_bench_name[b]);
	snprintf(t, sizeof(t), "%s%s%s", bench_title(b), c->set->nruns > 1 ? ", run " : "",
		 c->set->nruns > 1 ? c->set->runs[ri].label : "");
	rtp_plot_text(f->title, sizeof(f->title), t);
	run_where(&c->set->runs[ri], t, sizeof(t));
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

	memset(figs, 0, sizeof(*figs));
	if (mkdir(outdir, 0755) && errno != EEXIST)
		return -errno;
	/* Every file is made in a directory of our own, then renamed into
	 * outdir: a link planted in outdir is replaced, never written through. */
	if ((size_t)snprintf(c.priv, sizeof(c.priv), "%s/.rtproof-plot.XXXXXX", outdir) >= sizeof(c.priv))
		return -ENAMETOOLONG;
	if (!mkdtemp(c.priv))
		return -errno;
	c.gnuplot = rtp_plot_gnuplot();
	figs->gnuplot_missing = !c.gnuplot;

	if (multi || set->compare)
		ret = fig_headline(&c);
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
	priv_remove(&c);
	return ret;
}

void rtp_plot_figs_free(struct rtp_plot_figs *figs)
{
	free(figs->v);
	memset(figs, 0, sizeof(*figs));
}
