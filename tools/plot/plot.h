/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_H
#define RTP_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/*
 * rtproof-plot and rtproof-report: figures and one HTML page from result
 * documents (schema rtproof/1) and a comparison (rtproof-compare/1).
 *
 * A "run" is the documents of one suite run (a results directory, one rung
 * of a kernel ladder, or a single document).  A "set" is what was asked
 * for: one run, several runs, or a ladder directory with its compare.json.
 */

enum rtp_plot_bench { RP_CYCLIC, RP_IRQLAT, RP_AUDIO, RP_LOCKSTRESS, RP_NBENCH };

struct rtp_plot_run {
	char *label;			/* legend text: rung name or kernel release */
	char *dir;			/* directory the documents came from */
	json_t *doc[RP_NBENCH];		/* NULL when absent */
	char *path[RP_NBENCH];
	json_t *vm;			/* vm.json beside the documents, or NULL */
	json_t *suite;			/* rtproof run's suite.json (rtproof-suite/1), or NULL */
	json_t *check;			/* rtproof check's check.json, or NULL */
	json_t *load;			/* rtproof-load's load.json (the price), or NULL */
};

struct rtp_plot_set {
	struct rtp_plot_run *runs;
	size_t nruns;
	json_t *compare;		/* rtproof-compare/1, or NULL */
	char *compare_path;
	char *warnings[16];		/* things read but not understood */
	size_t nwarnings;
	char *failed[16];		/* run directories without a readable document */
	size_t nfailed;
};

struct rtp_plot_fig {
	char id[128];			/* file stem in the output directory */
	char bench[16];
	char title[512];		/* what was measured */
	char where[512];		/* kernel, preempt, virtualised, time base, load */
	char caption[1024];
	char note[512];			/* set when there is no image: why */
	bool plotted;			/* id.png and id.svg exist */
};

struct rtp_plot_figs {
	struct rtp_plot_fig *v;
	size_t n, cap;
	bool gnuplot_missing;
	int failed;			/* gnuplot runs that failed */
};

extern const char *const rtp_plot_bench_name[RP_NBENCH];

/* Loads RESULT arguments (documents, result directories, ladder
 * directories, compare.json files) into set.  0 or a negative errno; on
 * error msg (size len) says what and which path. */
int rtp_plot_load(struct rtp_plot_set *set, char *const *args, int nargs, char *msg, size_t len);
void rtp_plot_set_free(struct rtp_plot_set *set);

/*
 * A document with more per-thread metrics of one name than this is shown
 * per CPU: rtp_plot_per_cpu() replaces them in doc by one metric per CPU,
 * merged exactly from its threads ("thread": "merged", "threads": n).
 * 0, or -1 out of memory (doc unchanged).
 */
#define RTP_PLOT_MAX_THREADS 32
int rtp_plot_per_cpu(json_t *doc);

/* Writes NAME.dat, NAME.gp and (when gnuplot runs) NAME.png and NAME.svg
 * into outdir for every figure the set supports.  0 or a negative errno. */
int rtp_plot_all(const struct rtp_plot_set *set, const char *outdir, struct rtp_plot_figs *figs,
		 bool quiet);
void rtp_plot_figs_free(struct rtp_plot_figs *figs);

/* The gnuplot program to run, or NULL when there is none (RTPROOF_GNUPLOT
 * overrides the PATH search). */
const char *rtp_plot_gnuplot(void);

/*
 * Document text is untrusted (docs/security.md, "Plots and report"): every
 * string a document gives passes through rtp_plot_text before it reaches a
 * figure (gnuplot script, data file, title) or the terminal.  The result
 * is one line of valid UTF-8: control characters (newline, CR, tab, ESC,
 * DEL, C1) become spaces, bytes that are not UTF-8 '?', a backtick an
 * apostrophe; at most len - 1 bytes, never a cut character, "..." when
 * cut.  Returns dst.
 */
char *rtp_plot_text(char *dst, size_t len, const char *src);

/*
 * A document string as HTML text or a double-quoted attribute value (the
 * report and its culprit table): markup characters as entities, control
 * bytes as spaces; a string longer than max bytes is cut at a character
 * boundary and says how many bytes it does not show.
 */
void rtp_plot_html(FILE *f, const char *s, size_t max);

/* A document number as an integer: clamped to long long, NaN as 0 (a
 * plain cast of 1.7e308 is undefined behaviour). */
long long rtp_plot_ll(double v);

/* Text helpers shared with the report. */
bool rtp_plot_is_int(const json_t *v);
void rtp_plot_scalar(const json_t *v, char *buf, size_t len);
const char *rtp_plot_str(const json_t *o, const char *key, const char *dflt);
json_t *rtp_plot_sysdoc(const struct rtp_plot_run *r);	/* first document with a system */
void rtp_plot_where(const struct rtp_plot_run *r, char *buf, size_t len);
void rtp_plot_load_text(const struct rtp_plot_run *r, char *buf, size_t len);

/*
 * The first screen (answer.c, trade.c; docs/plots.md "First screen"):
 * word and head are the overall verdict and its one sentence, line[] what
 * follows (the culprit, the check, what was and was not measured; for a
 * kernel ladder the trade per bench and rung).  Plain text, document
 * strings already through rtp_plot_text; the page escapes it again.
 */
#define RTP_ANSWER_LINES 24
struct rtp_plot_answer {
	char cls[16];			/* suitable, unsuitable, figures, fail, error, none, trade, pass */
	char word[24];			/* SUITABLE, NOT SUITABLE, FIGURES ONLY, FAIL, ... */
	char head[1024];
	size_t n;
	char line[RTP_ANSWER_LINES][1024];
};
void rtp_plot_answer(const struct rtp_plot_set *set, struct rtp_plot_answer *a);
void rtp_plot_answer_add(struct rtp_plot_answer *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rtp_plot_trade(const struct rtp_plot_set *set, struct rtp_plot_answer *a);
bool rtp_plot_rt_against_stock(const json_t *cmp);	/* RT base, stock rungs (compare-kernels) */
bool rtp_plot_new_is_stock(const json_t *cmp, const json_t *row);	/* the row's new side is not RT */
bool rtp_plot_stock_against_rt(const json_t *cmp);	/* a stock base against RT only */
/* The row of figure (max, p99.9, p50) of bench's primary measure for new
 * rung k, as the trade weighs it (merged CPUs preferred), or NULL. */
const json_t *rtp_plot_trade_row(const json_t *rows, const char *bench, size_t k, const char *figure);

/* The report: writes html (a self-contained page) for set and figs, whose
 * images are in figdir (relative links from the page's directory: figrel). */
int rtp_report_write(const struct rtp_plot_set *set, const struct rtp_plot_figs *figs,
		     const char *figdir, const char *figrel, const char *html, const char *title);

#endif /* RTP_PLOT_H */
