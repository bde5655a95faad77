/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_FIGS_H
#define RTP_PLOT_FIGS_H

/*
 * Inside the figures: figs.c draws each figure and chooses what to draw,
 * headline.c draws the comparison's headline, and figwrite.c is the
 * figure writer under both (one figure's data file and gnuplot script,
 * gnuplot run on them, the files moved out); price.c draws the ladder's
 * Pareto figure.  Calls go one way: figs.c -> headline.c, price.c ->
 * figwrite.c.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot.h"

/* Okabe-Ito: tells apart for most colour vision; dash types and point
 * types differ too, so a grey print reads. */
extern const char *const fw_colour[];
#define NCOLOUR 8

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

/* ---- figwrite.c ----------------------------------------------------------- */

/*
 * Text into a gnuplot script: rtp_plot_text's one line (no newline ends a
 * comment or a command, no backtick), in single quotes, where gnuplot
 * expands nothing (no backtick substitution, no escapes) and a quote is
 * written twice.  Every string a script holds that is not a constant of
 * this file goes through here or gp_comment.
 */
void fw_gpq(FILE *f, const char *s);

/* text in a label of a data file ("..." for xtic(1)): one line, no
 * double quote or backslash to end or bend the field */
void fw_dat_text(FILE *f, const char *s);

/* a document number into a script: finite and of a size gnuplot reads */
double fw_gpnum(double v);

double fw_num(const json_t *o, const char *key, double dflt);

const char *fw_bench_title(int b);

/* metric name -> words for a title */
const char *fw_metric_words(const char *name);

bool fw_is_all(const json_t *v);

/* The merged metric NAME of doc: cpu or thread "all", or the only one. */
json_t *fw_merged(const json_t *doc, const char *name);

long long fw_count_of(const json_t *m);

/* A run in a legend: its label, and the kernel and preemption model when
 * the label does not already say them (a ladder rung such as "rt"). */
const char *fw_run_legend(const struct rtp_plot_run *r, char *buf, size_t len);

void fw_run_where(const struct rtp_plot_run *r, char *buf, size_t len);

struct rtp_plot_fig *fw_fig_add(struct ctx *c);

/* starts a data block, returns its index */
int fw_blk(struct fw *w, const char *comment);

void fw_row(struct fw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* begin/continue the plot command */
void fw_clause(struct fw *w);

/* a clause drawing block bi's first two columns as lines in style k, up to
 * its title (which the caller writes) */
void fw_lines_clause(struct fw *w, int bi, int k);

void fw_note(struct fw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Empties and removes the private directory. */
void fw_priv_remove(const struct ctx *c);
/* SIGINT/SIGTERM/SIGHUP while figures are made: the gnuplot running ends
 * and rtp_plot_all returns -EINTR (begin installs, end restores) */
void fw_stop_begin(void);
void fw_stop_end(void);
bool fw_stopped(void);

/* Writes id.gp: the terminals, the title, then the body. */
int fw_end(struct fw *w);

void fw_plot_hist(struct fw *w, const json_t *m, const char *label, int i);

void fw_pct_axes(struct fw *w, long long maxn);

/* pct_block, then a lines clause for it in style k up to its title; the
 * largest count so far in *maxn.  Returns the count, 0 (nothing written)
 * when the metric has no samples. */
long long fw_pct_curve(struct fw *w, const json_t *m, const char *what, int k, long long *maxn);

void fw_cpu_label(const json_t *m, char *buf, size_t len);

void fw_run_id(const struct ctx *c, size_t ri, char *buf, size_t len);

/* fw_begin for a figure of run ri: the run's id (when there are several)
 * after id, its label after the title, what and where it ran. */
int fw_begin_run(struct fw *w, struct ctx *c, size_t ri, int bench, const char *id,
		 const char *title);

/* fw_begin for a figure of the whole set: where is what the runs share. */
int fw_begin_set(struct fw *w, struct ctx *c, const char *id, int bench, const char *title);

/* ---- headline.c ----------------------------------------------------------- */

/* The comparison's headline: the primary measure's percentiles per run,
 * with the intervals compare.json gives; without compare.json, the
 * documents' own percentiles (no intervals). */
int fig_headline(struct ctx *c);

/* ---- price.c -------------------------------------------------------------- */

/* A kernel ladder with throughput rows: each rung's worst case per bench
 * against its work per second relative to the fastest stock rung
 * (trade-pareto).  Nothing without throughput rows. */
int fig_pareto(struct ctx *c);

#endif /* RTP_PLOT_FIGS_H */
