/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CYCLIC_H
#define RTP_CYCLIC_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "gate.h"
#include "hist.h"
#include "stack.h"

enum cyclic_timer { CYCLIC_NANOSLEEP, CYCLIC_TIMERFD };

struct cyclic_opts {
	struct rtp_common co;		/* -D, -q, --json, --load, --no-mlockall */
	int priority;
	bool prio_given;
	int policy;
	uint64_t interval_ns;
	uint64_t distance_ns;		/* cyclictest's -d: thread n's interval is interval + n * distance */
	uint64_t offset_ns;		/* thread n's first release n * offset after the start */
	int nthreads;			/* 0: one per CPU of 'cpus' */
	cpu_set_t cpus;			/* threads are pinned round-robin over these */
	bool main_affinity_set;
	cpu_set_t main_affinity;
	int dma_latency_us;		/* -1: leave /dev/cpu_dma_latency alone */
	bool nsecs;
	uint64_t histogram_us;		/* 0: no text histogram */
	const char *histfile;
	uint64_t breaktrace_ns;		/* 0: off */
	bool tracemark;
	uint64_t spike_ns;		/* 0: off */
	enum cyclic_timer timer;
	bool relative;
	bool test_stop_race;		/* test only: let the first stop signal land before a sleep */
};

/* Returns 0, or an exit code (1 bad usage) after printing the error; 5 = help shown. */
#define CYCLIC_HELP_SHOWN RTP_HELP_SHOWN
int cyclic_parse(struct cyclic_opts *o, int argc, char **argv);
RTP_BENCH_OPTIONS_DECLARE(cyclic);
extern const struct rtp_bench_ops cyclic_ops;

#define CYCLIC_MAX_SPIKES 64
/*
 * The exceedance record: each thread keeps its largest samples with their
 * times (cold memory; the hot loop compares against the smallest kept).
 */
#define CYCLIC_TOP 128

struct cyclic_spike {
	uint64_t when_ns;	/* since the common start */
	uint64_t lat_ns;
};

struct cyclic_shared;

/*
 * One per measuring thread, in an array: each starts on its own cache
 * line (the type is 64-byte aligned, so its size is a multiple of 64 and
 * aligned_alloc(64) places every element on a line), so the threads'
 * hot counters never share a line.
 */
struct __attribute__((aligned(64))) cyclic_thread {
	struct rtp_hist hist;		/* first: large */
	int id;
	int cpu;
	pthread_t th;
	int tid;
	int err;			/* setup error (-errno), reported by main */
	const char *err_what;
	uint64_t missed;		/* periods passed over entirely (relaxed atomic) */
	uint64_t early;			/* wake-ups before the release time (never expected) */
	uint64_t *us_hist;		/* text histogram, opts.histogram_us buckets */
	uint64_t us_overflow;
	uint64_t spikes_total;
	int nspikes;
	struct cyclic_spike *spikes;	/* CYCLIC_MAX_SPIKES, with --spike only (cold) */
	struct cyclic_spike *top;	/* CYCLIC_TOP largest samples, any order */
	int ntop, top_lo;		/* kept; the slot of the smallest once full */
	uint64_t top_min;		/* a sample above this is kept (0 until full) */
	uint64_t interval_ns;		/* its own: interval + id * distance */
	uint64_t first_release_ns;
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the last sample, 0: none */
	uint64_t last_handled_ns;	/* the last release sampled or counted missed, 0: none */
	uint64_t releases;		/* releases on the grid from the first to that one,
					 * counted apart from samples, missed and early
					 * (0 in relative mode: no grid) */
	bool done;			/* atomic: the thread has finished */
	bool ended_by_duration;		/* it reached the end of the duration */
	struct cyclic_shared *sh;
	struct rtp_stack stack;		/* its own, sized by measurement (CYCLIC_STACK_BYTES) */
};

/*
 * A measuring thread's stack.  Measured (tests/integration/scale-stack.t,
 * "stack_peak_bytes" in every document): the thread uses about a quarter
 * of it, a signal frame included.
 */
#define CYCLIC_STACK_BYTES (32 * 1024)

struct cyclic_shared {
	const struct cyclic_opts *o;
	struct rtp_run *run;		/* woken when a thread ends */
	uint64_t explain_ns;		/* --explain's threshold; UINT64_MAX: off */
	struct rtp_gate gate;		/* set up, then start_ns written, then go */
	uint64_t start_ns;		/* CLOCK_MONOTONIC release of the first period */
	uint64_t end_ns;		/* no release after this (0: no duration) */
	int stop;			/* relaxed atomic: workers poll it */
	int broke;			/* breaktrace fired (atomic) */
	uint64_t break_lat_ns;
	int break_thread;
	int trace_marker_fd;		/* -1 unless --tracemark */
	int tracing_on_fd;
};

void *cyclic_thread_main(void *arg);

/* The whole program; returns its exit code. */
int cyclic_main(int argc, char **argv);

#endif /* RTP_CYCLIC_H */
