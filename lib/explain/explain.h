/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_EXPLAIN_H
#define RTP_EXPLAIN_H

/*
 * --explain: what ran instead, for each outlier (docs/explain.md).
 *
 * A tracing instance of its own keeps a bounded per-CPU ring of the
 * events that can take a CPU from a real-time thread, on the measured
 * CPUs only.  A measuring thread that sees an outlier hands it over with
 * rtp_explain_note() (a lock-free queue slot and an eventfd write: no
 * lock, no allocation); the reader thread, off the measured CPUs, swaps
 * the instance's snapshot buffer (the trace goes on), reads it and cuts
 * the window from the intended release to the wake-up into culprits.
 * When every CPU is measured, the reader only swaps once (at SCHED_IDLE)
 * and reads after the run.
 */

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "culprits.h"
#include "json.h"

struct rtp_explain;
struct rtp_state;

/* Keep the first RTP_EXPLAIN_FIRST outliers, then the largest of each RTP_EXPLAIN_EVERY. */
#define RTP_EXPLAIN_FIRST 16
#define RTP_EXPLAIN_EVERY 16
#define RTP_EXPLAIN_KEEP 256		/* explanations kept at most */
#define RTP_EXPLAIN_DEFAULT_NS 100000	/* --explain without a threshold: 100 us */

/*
 * Creates the instance on the measured CPUs and starts the reader.
 * Returns 0, or -errno with why (one line) when this system cannot trace:
 * the run goes on without it.  The instance is recorded in st (NULL:
 * none) before it is made, so a dead run's is removed (lib/state.h).
 */
int rtp_explain_start(struct rtp_explain **out, const cpu_set_t *measured, uint64_t threshold_ns,
		      struct rtp_state *st, char *why, size_t len);

/*
 * An outlier (the caller compared it with the threshold): the thread tid
 * (0: the caller) on cpu (-1: the caller's) was due at release_ns and ran
 * at wake_ns (CLOCK_MONOTONIC); what names the figure ("wakeup_latency").
 * Safe from any thread; never blocks.
 */
void rtp_explain_note(struct rtp_explain *ex, int cpu, int tid, uint64_t release_ns,
		      uint64_t wake_ns, const char *what);

/* After the run: stops the reader, explains what waited, removes the instance. */
void rtp_explain_finish(struct rtp_explain *ex);

/*
 * Attributes the outliers again, above each thread's own p50: fn(arg,
 * tid, metric) gives it in ns (0: not known).  After rtp_explain_finish;
 * without it the whole window counts.
 */
void rtp_explain_attribute(struct rtp_explain *ex, rtp_xbase_fn fn, void *arg);

/* One line per kept explanation ("2.04 ms late on CPU 1: rtp-spin[1234] (FIFO 99, user) ran 2.01 ms"). */
void rtp_explain_print(const struct rtp_explain *ex, FILE *f);

/* "explain": {...} and "explained": [...] inside the events object; t0_ns: time_s origin. */
void rtp_explain_json(const struct rtp_explain *ex, struct rtp_json *j, uint64_t t0_ns);

/* What a run without tracing writes: "explain": {"status": "unavailable", "reason": why}. */
void rtp_explain_json_unavailable(struct rtp_json *j, uint64_t threshold_ns, const char *why);

/* Finishes if needed and frees; NULL is fine. */
void rtp_explain_free(struct rtp_explain *ex);

#endif /* RTP_EXPLAIN_H */
