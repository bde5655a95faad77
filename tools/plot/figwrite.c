// SPDX-License-Identifier: GPL-2.0-or-later
/* The figure writer: one figure's data file and gnuplot script, written
 * from the documents, then gnuplot run on them for PNG and SVG and the
 * files moved into the output directory (figs.h). */
#include "figs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"

const char *const fw_colour[NCOLOUR] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7",
					 "#E69F00", "#56B4E9", "#000000", "#999999" };

/* ---- small helpers ---------------------------------------------------- */

/*
 * Text into a gnuplot script: rtp_plot_text's one line (no newline ends a
 * comment or a command, no backtick), in single quotes, where gnuplot
 * expands nothing (no backtick substitution, no escapes).  A quote in the
 * text becomes U+2019: gnuplot 5.4 reads a doubled quote as one only after
 * an ordinary character, so four quotes in a row, or one first, ended the
 * string and the script stopped (every figure of a document whose
 * kernel_release was quoted was lost).  Every string a script holds that
 * is not a constant of this file goes through here or gp_comment.
 */
void fw_gpq(FILE *f, const char *s)
{
	char t[1024];
	const char *p;

	rtp_plot_text(t, sizeof(t), s);
	fputc('\'', f);
	for (p = t; *p; p++) {
		if (*p == '\'')
			fputs("\xe2\x80\x99", f);
		else
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
void fw_dat_text(FILE *f, const char *s)
{
	char t[256], *p;

	rtp_plot_text(t, sizeof(t), s);
	for (p = t; *p; p++)
		if (*p == '"' || *p == '\\')
			*p = '\'';
	fputs(t, f);
}

/* a document number into a script: finite and of a size gnuplot reads */
double fw_gpnum(double v)
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

static void fw_idsafe(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < len; src++)
		dst[i++] = (char)((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') ||
				  (*src >= '0' && *src <= '9') || *src == '.' || *src == '_' ? *src : '-');
	dst[i] = 0;
}

double fw_num(const json_t *o, const char *key, double dflt)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *fw_bench_title(int b)
{
	static const char *const t[RP_NBENCH] = { "rtproof-cyclic", "rtproof-irqlat", "rtproof-audio",
						   "rtproof-lockstress" };
	return t[b];
}

/* metric name -> words for a title */
const char *fw_metric_words(const char *name)
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

bool fw_is_all(const json_t *v)
{
	return json_is_string(v) && !strcmp(json_string_value(v), "all");
}

/* The merged metric NAME of doc: cpu or thread "all", or the only one. */
json_t *fw_merged(const json_t *doc, const char *name)
{
	json_t *m, *only = NULL;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(doc, "metrics"), i, m) {
		if (strcmp(rtp_plot_str(m, "name", ""), name))
			continue;
		if (fw_is_all(json_object_get(m, "cpu")) || fw_is_all(json_object_get(m, "thread")))
			return m;
		only = m;
		n++;
	}
	return n == 1 ? only : NULL;
}

long long fw_count_of(const json_t *m)
{
	return rtp_plot_ll(fw_num(m, "count", 0));
}

/* A run in a legend: its label, and the kernel and preemption model when
 * the label does not already say them (a ladder rung such as "rt"). */
const char *fw_run_legend(const struct rtp_plot_run *r, char *buf, size_t len)
{
	json_t *sys = json_object_get(rtp_plot_sysdoc(r), "system");
	const char *k = rtp_plot_str(sys, "kernel_release", NULL);

	if (!k || !strncmp(r->label, k, strlen(k)))
		return r->label;
	snprintf(buf, len, "%s: %s, preempt %s", r->label, k, rtp_plot_str(sys, "preempt", "?"));
	return buf;
}

void fw_run_where(const struct rtp_plot_run *r, char *buf, size_t len)
{
	char w[400], l[200];

	rtp_plot_where(r, w, sizeof(w));
	rtp_plot_load_text(r, l, sizeof(l));
	snprintf(buf, len, "%s; load %s", w, l);
}

/* Where several runs were made: what they share. */
static void fw_set_where(const struct ctx *c, char *buf, size_t len)
{
	const struct rtp_plot_set *s = c->set;
	char first[400], other[400], l0[200], l[200];
	size_t i;
	bool same = true, sameload = true;

	if (s->nruns == 1) {
		fw_run_where(&s->runs[0], buf, len);
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

struct rtp_plot_fig *fw_fig_add(struct ctx *c)
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
	w->f = fw_fig_add(c);
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
int fw_blk(struct fw *w, const char *comment)
{
	char t[512];

	if (w->blocks)
		fputs("\n\n", w->dat);
	fprintf(w->dat, "# index %d: %s\n", w->blocks, rtp_plot_text(t, sizeof(t), comment));
	w->rows = 0;
	return w->blocks++;
}

void fw_row(struct fw *w, const char *fmt, ...)
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
	fprintf(f, "lc rgb \"%s\" dt %d lw %s", fw_colour[i % NCOLOUR], i % 5 + 1, i % 5 == 2 ? "2.4" : "1.6");
}

/* begin/continue the plot command */
void fw_clause(struct fw *w)
{
	fputs(w->clauses++ ? ", \\\n     " : "plot ", w->gp);
}

/* a clause drawing block bi's first two columns as lines in style k, up to
 * its title (which the caller writes) */
void fw_lines_clause(struct fw *w, int bi, int k)
{
	fw_clause(w);
	fprintf(w->gp, "datafile index %d using 1:2 with lines ", bi);
	style(w->gp, k);
	fputs(" title ", w->gp);
}

void fw_note(struct fw *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->f->note, sizeof(w->f->note), fmt, ap);
	va_end(ap);
}

/*
 * SIGINT, SIGTERM, SIGHUP while the figures are made (fw_stop_begin to
 * fw_stop_end): the gnuplot running is ended, the private directory
 * removed, and the tool exits with one error line: nothing half-made
 * stays, no gnuplot runs on.
 */
static volatile sig_atomic_t stop_sig;
static struct sigaction old_int, old_term, old_hup;

static void on_stop(int sig)
{
	stop_sig = sig;
}

void fw_stop_begin(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: waitpid returns EINTR */
	sigemptyset(&sa.sa_mask);
	stop_sig = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
}

void fw_stop_end(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

bool fw_stopped(void)
{
	return stop_sig != 0;
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
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		if (stop_sig) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			return -EINTR;
		}
	}
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
void fw_priv_remove(const struct ctx *c)
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
int fw_end(struct fw *w)
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
	fw_gpq(gp, path);
	fprintf(gp, "\ndo for [fmt in \"png svg\"] {\n"
		"if (fmt eq \"png\") {\n"
		"  set terminal pngcairo size 960,600 noenhanced font \"sans,10\" background rgb \"white\"\n"
		"} else {\n"
		"  set terminal svg size 960,600 noenhanced font \"sans,11\" background rgb \"white\"\n"
		"}\n"
		"set output ");
	snprintf(path, sizeof(path), "%s.", f->id);
	fw_gpq(gp, path);
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
			fw_gpq(gp, line);
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
	if (ret == -EINTR || stop_sig)
		return -EINTR;
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
	*bi_lines = fw_blk(w, cm);
	json_array_foreach(bk, i, b) {
		double lo = json_number_value(json_array_get(b, 0)), hi = json_number_value(json_array_get(b, 1));
		double cnt = json_number_value(json_array_get(b, 2));

		if (lo > prev_hi + 1.5 && i)
			fputs("\n", w->dat);
		fw_row(w, "%.4f %.0f\n%.4f %.0f\n", lo / 1000.0, cnt, (hi + 1) / 1000.0, cnt);
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
			*bi_pts = fw_blk(w, cm);
		}
		fw_row(w, "%.4f %.0f\n", (lo + hi + 1) / 2000.0, json_number_value(json_array_get(b, 2)));
	}
	if (!iso)
		*bi_pts = -1;
	return rows;
}

void fw_plot_hist(struct fw *w, const json_t *m, const char *label, int i)
{
	int bl, bp;
	char t[300];
	long long ov = rtp_plot_ll(fw_num(m, "overflow", 0));

	if (!hist_blocks(w, m, label, &bl, &bp))
		return;
	snprintf(t, sizeof(t), "%s (%s %.1f us%s)", label, strcmp(rtp_plot_str(m, "name", ""), "buffer_margin") ? "max" : "min",
		 fw_num(m, strcmp(rtp_plot_str(m, "name", ""), "buffer_margin") ? "max" : "min", 0) / 1000.0,
		 ov ? ", overflow samples not drawn" : "");
	fw_clause(w);
	fprintf(w->gp, "datafile index %d using 1:2 with lines ", bl);
	style(w->gp, i);
	fputs(" title ", w->gp);
	fw_gpq(w->gp, t);
	if (bp >= 0) {
		fw_clause(w);
		fprintf(w->gp, "datafile index %d using 1:2 with points ps 0.8 pt %d lc rgb \"%s\"", bp, (i % 7) + 4, fw_colour[i % NCOLOUR]);
		fputs(" notitle", w->gp);
	}
}

/* Latency by percentile: x = 1/(1-p) at the bucket's cumulative count, y =
 * the bucket's upper edge capped at the exact max; a staircase.  The last
 * step runs to 1/(1-p) = 2*count (p = 1 - 1/(2 count)).  Returns count. */
static long long pct_block(struct fw *w, const json_t *m, const char *what, int *bi)
{
	json_t *b, *bk = json_object_get(json_object_get(m, "histogram"), "buckets");
	double n = fw_num(m, "count", 0), max = fw_num(m, "max", 0), cum = 0;
	size_t i;
	char cm[300];

	if (n <= 0 || !json_array_size(bk))
		return 0;
	snprintf(cm, sizeof(cm), "%s: x = 1/(1-p), latency_us (bucket upper edge, capped at the exact max)", what);
	*bi = fw_blk(w, cm);
	json_array_foreach(bk, i, b) {
		double hi = json_number_value(json_array_get(b, 1));
		double c = json_number_value(json_array_get(b, 2));
		double x0 = 1.0 / (1.0 - cum / n), x1, v = hi < max ? hi : max;

		cum += c;
		x1 = cum < n ? 1.0 / (1.0 - cum / n) : 2 * n;
		fw_row(w, "%.6g %.4f\n%.6g %.4f\n", x0, v / 1000.0, x1, v / 1000.0);
	}
	if (cum < n)	/* overflow: above the histogram, the exact max stands for them */
		fw_row(w, "%.6g %.4f\n%.6g %.4f\n", 1.0 / (1.0 - cum / n), max / 1000.0, 2 * n, max / 1000.0);
	return rtp_plot_ll(n);
}

void fw_pct_axes(struct fw *w, long long maxn)
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
long long fw_pct_curve(struct fw *w, const json_t *m, const char *what, int k, long long *maxn)
{
	long long n;
	int bi;

	n = pct_block(w, m, what, &bi);
	if (!n)
		return 0;
	if (n > *maxn)
		*maxn = n;
	fw_lines_clause(w, bi, k);
	return n;
}

/* ---- starting a figure ---------------------------------------------------- */

void fw_cpu_label(const json_t *m, char *buf, size_t len)
{
	json_t *cpu = json_object_get(m, "cpu"), *th = json_object_get(m, "thread");

	if (rtp_plot_is_int(cpu))
		snprintf(buf, len, "CPU %lld", (long long)json_number_value(cpu));
	else if (fw_is_all(cpu) || fw_is_all(th))
		snprintf(buf, len, "all CPUs");
	else if (json_is_string(th))
		snprintf(buf, len, "thread %s", json_string_value(th));
	else if (rtp_plot_is_int(th))
		snprintf(buf, len, "thread %lld", (long long)json_number_value(th));
	else
		snprintf(buf, len, "%s", rtp_plot_str(m, "name", "?"));
}

void fw_run_id(const struct ctx *c, size_t ri, char *buf, size_t len)
{
	char s[64];

	if (c->set->nruns == 1) {
		buf[0] = 0;
		return;
	}
	fw_idsafe(s, sizeof(s), c->set->runs[ri].label);
	snprintf(buf, len, "-%zu-%s", ri + 1, s);
}

/* fw_begin for a figure of run ri: the run's id (when there are several)
 * after id, its label after the title, what and where it ran. */
int fw_begin_run(struct fw *w, struct ctx *c, size_t ri, int bench, const char *id,
		 const char *title)
{
	const struct rtp_plot_run *r = &c->set->runs[ri];
	char rid[80], fid[128], t[300], where[500];

	fw_run_id(c, ri, rid, sizeof(rid));
	snprintf(fid, sizeof(fid), "%s%s", id, rid);
	snprintf(t, sizeof(t), "%s%s%s", title, c->set->nruns > 1 ? ", run " : "",
		 c->set->nruns > 1 ? r->label : "");
	fw_run_where(r, where, sizeof(where));
	return fw_begin(w, c, fid, bench, t, where);
}

/* fw_begin for a figure of the whole set: where is what the runs share. */
int fw_begin_set(struct fw *w, struct ctx *c, const char *id, int bench, const char *title)
{
	char where[500];

	fw_set_where(c, where, sizeof(where));
	return fw_begin(w, c, id, bench, title, where);
}
