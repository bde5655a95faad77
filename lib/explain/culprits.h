/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CULPRITS_H
#define RTP_CULPRITS_H

/*
 * --explain over the whole run: every outlier whose window the trace
 * covers is cut (lib/explain/tracecut.c) and summed here, per culprit
 * (events.explain.by_culprit[]), and attributed to its largest named
 * culprit when that one covers at least half the window's time above the
 * thread's own p50.  Full windows are kept apart, for a sample only
 * (lib/explain/explain.c).  Used by the reader thread and after the run,
 * never by a measuring thread.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "tracecut.h"

/* One culprit over the run. */
struct rtp_xrow {
	struct rtp_culprit c;	/* identity, policy, kthread; c.ns the total, c.stretch_ns the longest */
	uint64_t worst_ns;	/* its most in one window */
	unsigned outliers;	/* windows it held the CPU in */
	unsigned attributed;	/* windows attributed to it */
};

/* One covered outlier, as much as the attribution needs. */
struct rtp_xout {
	int tid;
	const char *what;	/* the metric ("wakeup_latency"): a string of the bench's */
	uint64_t lat_ns;	/* release to wake-up */
	uint64_t top_ns;	/* its largest named culprit's time in the window */
	uint64_t self_ns, unacc_ns;
	int top;		/* that culprit's row; -1: none (the table was full, or nothing ran) */
	uint8_t cause;		/* after rtp_xrun_attribute: enum rtp_xcause */
};

/* Why a covered outlier is not attributed (rtp_xcause_name). */
enum rtp_xcause {
	RTP_XC_ATTRIBUTED,
	RTP_XC_UNACCOUNTED,	/* the trace names nobody for half of it */
	RTP_XC_SELF,		/* the thread itself ran half of it */
	RTP_XC_NO_MAJORITY,	/* named culprits, none with half */
	RTP_XC_N
};
const char *rtp_xcause_name(int cause);

#define RTP_XROWS_MAX 4096	/* distinct culprits kept; the rest summed in lost_ns */

struct rtp_xrun {
	struct rtp_xrow *row;
	int nrow, caprow;
	struct rtp_xout *out;
	size_t nout, capout;
	uint64_t lost_ns;	/* culprits past RTP_XROWS_MAX, and windows' "others" */
	uint64_t nomem;		/* outliers not recorded: out of memory */
	uint64_t cause[RTP_XC_N];	/* after rtp_xrun_attribute */
	bool base_known;	/* the bench gave the threads' p50 */
	int *slot;		/* the rows' hash (row + 1; 0: empty) */
	int *order;		/* after rtp_xrun_attribute: the rows by time taken */
	int norder;
};

/*
 * Adds one covered window (policies filled): its culprits into the table,
 * the outlier into the list.  Returns 0 or -ENOMEM (counted in nomem).
 */
int rtp_xrun_add(struct rtp_xrun *r, const struct rtp_tracecut *x, int tid, const char *what);

/*
 * The thread's own p50 for a metric, ns (0: not known, the whole window
 * counts); arg is the caller's.
 */
typedef uint64_t (*rtp_xbase_fn)(void *arg, int tid, const char *what);

/*
 * Attributes every recorded outlier: to its largest named culprit when
 * that one held the CPU for at least half of (latency - base); base from
 * fn (NULL: 0).  Fills cause[], the rows' attributed, and their order by
 * time taken.  Repeatable (the driver calls it again with the p50s).
 */
void rtp_xrun_attribute(struct rtp_xrun *r, rtp_xbase_fn fn, void *arg);

/* The table for the console, at most max rows ("  ... N more in the document"). */
void rtp_xrun_print(const struct rtp_xrun *r, FILE *f, int max);

/* "by_culprit": [...] (inside the explain object). */
void rtp_xrun_json(const struct rtp_xrun *r, struct rtp_json *j);
/* a culprit's identity fields into the open object (pid, policy, prio, kthread, irq/vec) */
void rtp_culprit_json_who(struct rtp_json *j, const struct rtp_culprit *u);

void rtp_xrun_free(struct rtp_xrun *r);

#endif /* RTP_CULPRITS_H */
