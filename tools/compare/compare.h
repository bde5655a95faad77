/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_COMPARE_H
#define RTP_COMPARE_H

/*
 * rtproof-compare's shared types: the sides and their runs (load.c), a
 * metric pooled over a side (rows.c), the rows and their verdicts (rows.c,
 * wctest.c), the output (output.c) and main (compare.c).
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doc.h"
#include "histmerge.h"

#define MAX_SIDES	16
#define MAX_RUNS	64
#define TAIL_SAMPLES	10	/* n (1 - q) below this: not enough data */
#define GAP_UNDECIDED	5.0	/* a max ratio this large is never "same" */

struct run {
	char path[PATH_MAX];
	struct rtp_doc *docs;
	size_t ndocs;
	bool has_suite;			/* suite.json of rtproof run */
	char suite_load[64], suite_duration[32];
	int suite_cpus;
};

struct side {
	char label[128];
	char path[PATH_MAX];
	struct run runs[MAX_RUNS];
	size_t nruns;
};

#define MAX_BUDGETS	16
struct budget {
	char bench[48];		/* "" for any bench */
	char metric[64];
	uint64_t limit_ns;
	char figure[32];	/* the row's figure: ">100us" */
};

struct opts {
	double confidence;
	double threshold;
	const char *metrics;	/* NULL: the headline ones */
	const char *json;
	bool allow_unfair;
	bool strict;
	struct budget budgets[MAX_BUDGETS];
	size_t nbudgets;
};

enum verdict { V_SAME, V_WORSE, V_BETTER, V_NED, V_UNDECIDED };
extern const char *const cmp_vname[];
extern const char *const cmp_vtext[];

struct row {
	const char *bench, *metric, *key, *figure, *unit;
	int new_index;
	bool higher_is_worse;		/* the row's direction */
	bool has_base, has_new;
	double base, new;
	bool base_ci_ok, new_ci_ok;
	double base_ci[2], new_ci[2];
	bool spread;			/* several runs on both sides, or halves */
	bool spread_halves;		/* one run a side: its two halves stand in for runs */
	double base_spread[2], new_spread[2];
	double ratio;
	bool ratio_ci_ok;
	double ratio_ci[2];
	enum verdict v;
	/*
	 * p-value of the row's test in the direction it calls (NAN: no test),
	 * before the family-wise (Holm) adjustment; p_adj after it.
	 */
	double p, p_adj;
	bool tested;
	char method[160];
	char note[200];
	char advice[200];		/* how long a run would decide it */
	double decide_s;		/* that length in seconds a side (0: none given) */
	/* the max row's episode test */
	int episodes_new, episodes_base;	/* above the other side's max */
	double episode_s;
};

/* One metric of one side, pooled over the side's runs. */
struct pooled {
	uint64_t count, min, max;
	size_t nbuckets;
	struct rtp_span *b;		/* merged, ordered, disjoint */
	bool have_hist;
	double *bmax;			/* block maxima, all runs, common block length */
	size_t nbmax;
	size_t *brun;			/* the run index of each block maximum */
	double block_s, block_samples;
	double duration_s;		/* sum over runs of the series' span */
	bool have_series;
	const struct rtp_doc_metric *per_run[MAX_RUNS];
	size_t nruns;
	/*
	 * An aggregate ("thread all") over this many per-thread metrics: it
	 * counts as one thread's worth of independent samples, since CPUs
	 * stall together (1: not an aggregate).
	 */
	size_t components;
};

struct ctx {
	const struct opts *o;
	double alpha;		/* 1 - confidence */
	double c1;		/* level of each side's interval: both hold with >= confidence */
};

/* ---- globals of the one comparison (compare.c) ---- */
extern struct row *cmp_rows;
extern size_t cmp_nrows;
extern char cmp_warnings[64][320];
extern int cmp_nwarnings;
__attribute__((format(printf, 1, 2))) void warn_add(const char *fmt, ...);

struct estimate {
	const char *bench, *metric, *key, *side_label;
	int new_index;			/* -1: base */
	double value, ppcc, ks, block_s, block_samples;
	size_t blocks;
};
extern struct estimate *cmp_ests;
extern size_t cmp_nests;

/* ---- culprits.c ---- */
/* The --explain culprits that appeared, grew, shrank or vanished (text; nothing without --explain). */
void cmp_culprits_text(FILE *f, const struct side *sides, int nsides);

/* ---- load.c ---- */
int cmp_load_side(struct side *s, const char *arg);
int cmp_load_ladder(struct side *sides, int *nsides, const char *dir);
bool cmp_is_ladder(const char *path);
const struct rtp_doc *run_doc(const struct run *r, const char *bench);
int check_fair(const struct side *base, const struct side *nw, const struct opts *o);

/* ---- rows.c ---- */
/* Pools the given metrics (one per run, NULLs skipped) at block length >= block_s. */
int pool_metrics(struct pooled *p, const struct rtp_doc_metric *const *ms, size_t n, double block_s);
int pool(struct pooled *p, const struct side *s, const char *bench, const char *name,
	 const char *key, double block_s);
void pooled_free(struct pooled *p);
/* Block maxima at block_s (every non-empty block kept); the median block count in *samples. */
size_t block_maxima(const struct rtp_doc_metric *m, double block_s, double *out, double *samples);
/* A run's point values separate in the row's worse (or better) direction, else V_SAME. */
enum verdict spread_check(struct row *w, enum verdict v);
/* One run on a side: a percentile change under x2 is undecided (run-to-run spread unknown). */
enum verdict one_run_check(struct row *w, const struct pooled *b, const struct pooled *n, enum verdict v);
void quantile_row(struct row *w, const struct pooled *b, const struct pooled *n, double q,
		  bool lower_worse, const struct ctx *c);
void max_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c);
/* Episodes above the other side's third highest, per hour: the worst case's frequency. */
void peaks_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c);
void min_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c);
void xrun_row(struct row *w, const struct side *bs, const struct side *ns, const struct ctx *c);
/* Value bounds of the sample of rank r (1-based) in the pooled histogram. */
void rank_value(const struct pooled *p, uint64_t r, double *lo, double *hi);

/* ---- throughput.c ---- */
/* A throughput metric's row (ops_per_s in every run): the ratio of work per second, higher better. */
void throughput_row(struct row *w, const struct side *bs, const struct side *ns, const char *bench,
		    const char *name, const char *key, const struct ctx *c);

/* ---- wctest.c: tests on episodes and blocks, family-wise control ---- */
/*
 * Declusters a series of block maxima (in time order, run boundaries in
 * run[]) into episodes above level: consecutive blocks of one run above
 * the level are one episode, its value their max.  Writes the episode
 * values to out (room for n), returns their number.
 */
size_t cmp_episodes(const double *bmax, const size_t *run, size_t n, double level, double *out);
/*
 * The exceedance (precedence) test: of m base and n new exchangeable
 * units, the probability that the k largest of all are new ones:
 * C(n, k) / C(m + n, k).  Distribution-free.
 */
double cmp_top_k_p(size_t m, size_t n, size_t k);
/*
 * Its generalisation: the probability that j or more new ones rank above
 * the (r+1)-th largest base one (r = 0: cmp_top_k_p(m, n, j)).
 */
double cmp_above_rth_p(size_t m, size_t n, size_t j, size_t r);
/*
 * Holm's step-down over the tested rows (row->tested, row->p): a row
 * keeps its worse or better verdict only when its p passes its Holm
 * level; p_adj gets the adjusted p.  Returns how many were demoted.
 */
size_t cmp_holm(struct row *rows, size_t n, double alpha);
/*
 * The extremal index of the samples above level x by the blocks
 * estimator: the reciprocal of the mean number of exceedances per block
 * with any (1: exceedances come alone; 0.1: in clusters of ten).  NAN
 * when it cannot be told (no exceedance, or every block has one).
 */
double cmp_extremal_index(const struct pooled *p, double x);

/* ---- budget.c: --budget BENCH.METRIC=LIMIT ---- */
/* Parses one --budget value; a one-line error and -EINVAL when malformed. */
int cmp_budget_parse(const char *arg, struct budget *b);
/* Exact (Garwood) interval for a Poisson mean with k events, at level conf. */
void cmp_poisson_ci(uint64_t k, double conf, double ci[2]);
void budget_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct budget *bg,
		const struct ctx *c);

/*
 * A counted event (a document's events: missed periods, busy, dropped...)
 * as a rate per hour on each side, or, for lost updates and torn reads,
 * a correctness check: any on the new side fails.
 */
void event_row(struct row *w, const struct side *bs, const struct side *ns, const char *bench,
	       const char *event, const struct ctx *c);

/* ---- output.c ---- */
void print_text(FILE *f, const struct side *sides, int nsides, const struct ctx *c);
void regression_text(const struct row *w, const struct side *sides, int nsides, char *buf, size_t len);
int write_json(const char *path, const struct side *sides, int nsides, const struct ctx *c,
	       const char *status);
void key_field(const char *key, const char *field, char *out, size_t len);

#endif /* RTP_COMPARE_H */
