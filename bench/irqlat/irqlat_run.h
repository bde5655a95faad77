/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_IRQLAT_RUN_H
#define RTP_IRQLAT_RUN_H

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "irqlat.h"
#include "runlock.h"
#include "stack.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"

/* One run of rtproof-irqlat: everything the program holds, no globals. */
#define IRQLAT_WHY 256
struct irqlat_run {
	struct irqlat_stats st;		/* first: large */
	struct irqlat_opts o;
	struct rtp_run *run;		/* the driver's: system facts, stop, wake-ups */
	enum irqlat_source src;
	char why[SRC_N][IRQLAT_WHY];	/* "" when the source can run */
	char err[512];			/* set-up error, one line */
	char tracefs[PATH_MAX];
	int fd;

	/* the reader thread */
	pthread_t reader_th;
	struct rtp_stack reader_stack;	/* IRQLAT_STACK_BYTES, painted (stack.h) */
	size_t reader_stack_peak;	/* measured after the join */
	int stop;			/* atomic */
	int reader_done;		/* atomic */
	uint64_t events;		/* atomic: records so far */
	int reader_err;
	const char *reader_err_what;
	uint64_t start_ns, end_ns;
	bool set_up;			/* the source was set up: teardown undoes it */
	bool prio_set;			/* the IRQ thread's priority was changed */

	/* module */
	int irq;
	struct rtp_irqlat_info mod_start, mod_end;
	bool mod_have_end;
	bool mod_have_saved;
	uint64_t mod_saved_delay_us;
	uint64_t mod_hold_us;		/* hold_us parameter at the start (truth tests) */

	/* timerlat */
	bool tl_locked;			/* tl_lock held: one rtproof run on the tracer */
	struct rtp_runlock tl_lock;
	bool tl_touched;
	bool tl_user_offered;
	/* timerlat_fd (6.8+): one user-space thread per measured CPU, as
	 * rtla timerlat -u; the kernel's own timerlat/N threads stay off. */
#define IRQLAT_TL_MAX_USER 64
#define IRQLAT_TL_USER_PRIO 95
	/* their stack: a read() loop and a 600-byte path (locked whole by mlockall) */
#define IRQLAT_TL_USER_STACK (32 * 1024)
	bool tl_user;			/* user threads ran: the user-return stage */
	int tl_nuser;
	int tl_user_err;		/* first error of a user thread (negative errno) */
	pthread_t tl_user_thr[IRQLAT_TL_MAX_USER];
	int tl_user_cpu[IRQLAT_TL_MAX_USER];
	int tl_user_tid[IRQLAT_TL_MAX_USER];	/* published once set up; -1: failed */
	char tl_saved_options[512];
	uint64_t tl_lost_lines;
	char tl_saved_tracer[64], tl_saved_on[8], tl_saved_period[32], tl_saved_cpus[256];
	/* --osnoise: the noise events, per CPU, beside the latencies */
#define IRQLAT_NOISE_CPUS 64
	bool osn_on;			/* all the events are enabled for this run: recorded */
	int osn_set;			/* how many were enabled (in order): put back at the end */
	char osn_saved[NOISE_N][4];	/* their "enable" before the run */
	char osn_why[200];		/* why not recorded */
	struct irqlat_noise {
		uint64_t count[NOISE_N], total_ns[NOISE_N], max_ns[NOISE_N];
		char max_what[NOISE_N][48];
	} osn[IRQLAT_NOISE_CPUS];
	uint64_t osn_other_cpus;	/* events of a CPU past IRQLAT_NOISE_CPUS */

	/* rtc */
	unsigned long rtc_hz;
	uint64_t rtc_period_ns;
	uint64_t rtc_missed;
	uint64_t rtc_drained;		/* reads before the first blocked one */
	bool rtc_pie_on;

	/* user */
	uint64_t user_missed;

	/* the thread that handles the interrupt (or measures, for timerlat) */
	struct irqlat_thread thr;
	const char *thr_note;
	const char *threading;
};

/*
 * A source, like audio's backends and lockstress's scenarios: one file
 * each (src_module.c, src_timerlat.c, src_rtc.c, src_user.c).
 */
struct rtp_json;
struct irqlat_source_ops {
	/* Why it cannot run here, into why; left "" when it can. */
	void (*probe)(struct irqlat_run *r, char *why, size_t len);
	/* Set-up (0 or -errno with r->err filled) and its undoing; NULL: none. */
	int (*setup)(struct irqlat_run *r);
	void (*teardown)(struct irqlat_run *r);
	/* The reader's loop, on the reader thread, set up already. */
	void *(*reader)(void *arg);
	/* Its lines of the summary, its facts in "params" and in "events". */
	void (*summary)(const struct irqlat_run *r);
	void (*json_params)(const struct irqlat_run *r, struct rtp_json *j);
	void (*json_events)(const struct irqlat_run *r, struct rtp_json *j);
};
extern const struct irqlat_source_ops irqlat_module_ops, irqlat_timerlat_ops, irqlat_rtc_ops,
	irqlat_user_ops;
extern const struct irqlat_source_ops *const irqlat_sources[SRC_N];

void irqlat_probe(struct irqlat_run *r);
/* timerlat_fd: r->thr from the suite's own timerlatu/N thread (src_timerlat.c). */
void irqlat_timerlat_user_thread(struct irqlat_run *r);
void *irqlat_reader_main(void *arg);

#endif /* RTP_IRQLAT_RUN_H */
