/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtproof-load: the price of a kernel's latency in work done.  A fixed set
 * of parts, each what a real-time kernel changes (wake-ups and context
 * switches, PI-futex handoff, system calls, loopback networking through
 * softirqs, fork and exec), run in short rounds one after the other at
 * SCHED_OTHER, no measuring RT thread beside them.  A round's figure is
 * the time per operation (ns, higher is worse), so rtproof compare reads
 * a document of this bench as it reads any other.  docs/load.md.
 */
#ifndef RTP_LOAD_H
#define RTP_LOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "driver.h"
#include "hist.h"

#define TOOL "rtproof-load"

enum load_part { LP_CTXSW, LP_FUTEX_PI, LP_SYSCALL, LP_LOOPBACK, LP_SPAWN, LP_N };

extern const char *const load_part_names[LP_N];
extern const char *const load_part_ops[LP_N];	/* what one operation is */

struct load_opts {
	struct rtp_common co;
	unsigned parts;			/* bit per enum load_part */
	uint64_t rounds;		/* rounds of each part */
	uint64_t round_ns;		/* each round's length */
	int cpu;			/* the CPU the parts run on; -1: the first allowed */
};

struct load_part_state {
	struct rtp_hist hist;		/* ns per operation, a sample a round */
	uint64_t ops, ns;		/* all rounds (hist.count of them) */
	int err;			/* the part could not run: -errno */
	char why[128];
};

struct load_run {
	struct load_opts o;
	struct rtp_run *run;
	struct load_part_state p[LP_N];
	atomic_bool stop;
	atomic_bool done;
	pthread_t worker;
	int cpu;
};

RTP_BENCH_OPTIONS_DECLARE(load);
/*
 * One round of part: runs it for round_ns (or until *stop), counts its
 * operations in *ops over *ns (CLOCK_MONOTONIC, from the first operation
 * to the last clock read); 0 or -errno with why.
 */
int load_part_round(enum load_part part, uint64_t round_ns, int cpu, atomic_bool *stop, uint64_t *ops,
		    uint64_t *ns, char *why, size_t len);
int load_parse(struct load_opts *o, int argc, char **argv);
int load_main(int argc, char **argv);

#endif /* RTP_LOAD_H */
