/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_DOC_H
#define RTP_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Reading result documents (schema rtproof/1) back, for rtproof compare.
 * The reader checks what it uses: the schema, the tool, every metric's
 * identity and figures, that histogram buckets are ordered with counts
 * adding up (with overflow) to the metric's count, and that series blocks
 * are ordered and within the metric.  Anything else is an error with a
 * one-line message; nothing is guessed.  Needs jansson (link -ljansson).
 */
struct rtp_doc_bucket {
	uint64_t lo, hi, count;		/* inclusive edges */
};

struct rtp_doc_block {
	double start_s;			/* from the series' origin */
	uint64_t count, max;
};

struct rtp_doc_metric {
	char name[64];
	char unit[16];
	char key[192];		/* identity beyond the name: "cpu 0 thread 0", "protocol pi" */
	uint64_t count, overflow;
	bool has_minmax;	/* false with no samples (null min/max) */
	uint64_t min, max;
	size_t nbuckets;
	struct rtp_doc_bucket *buckets;	/* NULL when the document has none */
	bool has_series;
	double t0_s, block_s;
	unsigned coarsened;
	size_t nblocks;
	struct rtp_doc_block *blocks;
	/*
	 * A throughput metric (rtproof-load's parts): its operations per
	 * second over all its rounds (has_rate), and the mean and standard
	 * deviation of one round's figure (count rounds): the spread within
	 * the run.
	 */
	bool has_rate;
	double ops_per_s, mean, stddev;
};

/* A count among the document's events ("missed", "contention.lost_updates"). */
#define RTP_DOC_MAX_EVENTS 32
struct rtp_doc_event {
	char name[64];
	uint64_t value;
};

/*
 * One culprit of events.explain.by_culprit[] (--explain), summed by kind,
 * name and kernel thread or not (a user task may call itself ktimers/0):
 * a pid is not the same task in another run.
 */
#define RTP_DOC_MAX_CULPRITS 256
struct rtp_doc_culprit {
	char kind[12];			/* "task", "irq", "vector", "softirq", "idle" */
	char name[64];			/* comm, IRQ or vector name: the traced system's text */
	int kthread;			/* a task: 1 kernel thread, 0 user task, -1 not said */
	uint64_t ns, outliers;
};

struct rtp_doc {
	char tool[64];			/* "rtproof-cyclic" */
	char bench[48];			/* "cyclic" */
	char kernel_release[128];
	char preempt[32];
	char hostname[128];
	char cmdline[1024];
	char load[64];			/* load.name, "" when absent */
	char status[16];		/* verdict.status */
	int cpus_online;		/* -1 when absent */
	bool virtualized;
	double duration_s;		/* -1 when absent */
	char *params;			/* params as compact JSON, keys sorted; NULL when absent */
	char *command;			/* argv joined by spaces */
	bool has_xruns;
	uint64_t xruns;			/* events.xruns */
	/*
	 * The non-negative integer members of events, and of its objects one
	 * level down ("object.member"), but for *_ns, *_us and *_pct figures;
	 * at most RTP_DOC_MAX_EVENTS, in document order.
	 */
	size_t nevents;
	struct rtp_doc_event events[RTP_DOC_MAX_EVENTS];
	size_t nmetrics;
	struct rtp_doc_metric *metrics;
	bool has_culprits;		/* events.explain.by_culprit[] is there (--explain ran) */
	size_t nculprits;
	struct rtp_doc_culprit *culprits;
};

/*
 * Parses a document from memory.  0, or a negative errno with a one-line
 * reason in err: -EPROTO, a JSON object of another schema (the reason
 * quotes it); -EINVAL, anything else that is not a valid rtproof/1
 * document; -ENOMEM.
 * On error *d is left empty (nothing to free).
 */
int rtp_doc_parse(struct rtp_doc *d, const char *buf, size_t len, char *err, size_t errlen);

/* Reads and parses a file; the reason then also covers open and read errors. */
int rtp_doc_load(struct rtp_doc *d, const char *path, char *err, size_t errlen);

void rtp_doc_free(struct rtp_doc *d);

/* The metric named name with identity key, or NULL. */
const struct rtp_doc_metric *rtp_doc_find(const struct rtp_doc *d, const char *name,
					  const char *key);

#endif /* RTP_DOC_H */
