/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_RESULT_H
#define RTP_RESULT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "afile.h"
#include "hist.h"
#include "json.h"
#include "sysinfo.h"
#include "verdict.h"

#define RTP_SCHEMA	"rtproof/1"
#define RTP_VERSION	"0.1.0"

/*
 * One result document, written through an rtp_afile (afile.h: replaced
 * atomically, or written through for a FIFO, a device or stdout):
 * rtp_result_open() opens it at once (so an unwritable path fails before
 * a run starts); rtp_result_commit() completes and commits it, returning
 * the first write error; rtp_result_abort() leaves no trace.
 */
struct rtp_result {
	struct rtp_afile file;
	struct rtp_json json;
};

int rtp_result_open(struct rtp_result *r, const char *path);
/* Writes schema, tool, version, command, start, system; leaves the top object open. */
void rtp_result_header(struct rtp_result *r, const char *tool, int argc, char *const argv[],
		       const struct rtp_sysinfo *si, const struct timespec *start);
/* The bench writes "params", "load", "metrics", "events" through r->json. */
int rtp_result_commit(struct rtp_result *r, double duration_s, const struct rtp_verdict *v);
void rtp_result_abort(struct rtp_result *r);

/*
 * Writes a histogram's figures into the current JSON object: count, min,
 * mean, max, stddev, percentiles, overflow and (if buckets) the non-empty
 * buckets as [lower, upper, count] with inclusive edges.
 */
void rtp_json_hist(struct rtp_json *j, const struct rtp_hist *h, bool buckets);

/* The system object alone (used by the header). */
void rtp_json_sysinfo(struct rtp_json *j, const char *key, const struct rtp_sysinfo *si);

/* "2026-12-03T08:00:00Z" from a CLOCK_REALTIME time. */
void rtp_format_utc(const struct timespec *ts, char *buf, size_t len);

#endif /* RTP_RESULT_H */
