/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_VERDICT_H
#define RTP_VERDICT_H

#include <math.h>
#include <stdbool.h>

/* Exit codes shared by every program. */
enum {
	RTP_EXIT_PASS = 0,
	RTP_EXIT_ERROR = 1,
	RTP_EXIT_FAIL = 2,
	RTP_EXIT_INCONCLUSIVE = 3,	/* the data cannot decide (compare --strict, bisect) */
	RTP_EXIT_SKIP = 4,
};

/*
 * RTP_FIGURES: measured, but no budget was given, so nothing was judged
 * ("figures only"; exit 0 as a pass, never called one: docs/results.md).
 */
enum rtp_status { RTP_PASS, RTP_FAIL, RTP_SKIP, RTP_ERROR, RTP_FIGURES };
const char *rtp_status_name(enum rtp_status s);
int rtp_status_exit(enum rtp_status s);

#define RTP_MAX_CRITERIA 32
struct rtp_criterion {
	char name[64];		/* e.g. "max wakeup_latency" */
	char op[4];		/* "<=", "==", ">=" */
	double limit;
	double observed;
	char unit[16];
	bool pass;
};

struct rtp_verdict {
	enum rtp_status status;
	char reason[512];
	int ncriteria;
	struct rtp_criterion criteria[RTP_MAX_CRITERIA];
};

/* Appends a criterion and folds its outcome into v->status. */
void rtp_verdict_check(struct rtp_verdict *v, const char *name, const char *op,
		       double limit, double observed, const char *unit);

/* A run that had no budget to meet: a pass becomes RTP_FIGURES (a
 * failed check, a skip or an error stays what it is). */
void rtp_verdict_figures_only(struct rtp_verdict *v);

/*
 * How long a run is against how long a confident answer needs (the "how
 * long" lines of the benches and the report): no miss in T seconds bounds
 * the rate of misses below rtp_none_seen_rate_h(T) an hour at 95 %
 * confidence (Poisson, none seen: -ln(0.05) / T); fewer than one an hour
 * needs rtp_none_seen_h() = 3.0 hours with none.
 */
static inline double rtp_none_seen_h(void)
{
	return -log(0.05);
}

static inline double rtp_none_seen_rate_h(double secs)
{
	return rtp_none_seen_h() / secs * 3600;
}

#endif /* RTP_VERDICT_H */
