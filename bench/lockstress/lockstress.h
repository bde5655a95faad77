/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_LOCKSTRESS_H
#define RTP_LOCKSTRESS_H

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "driver.h"
#include "gate.h"
#include "hist.h"
#include "json.h"
#include "result.h"
#include "run.h"
#include "stack.h"
#include "sysinfo.h"

#define LS_TOOL "rtproof-lockstress"

/* ---- options ------------------------------------------------------------ */

enum ls_scenario {
	LS_INVERSION, LS_PICHAIN, LS_CONTENTION, LS_SPINPREEMPT, LS_PERCPU, LS_RWREC,
	LS_NSCEN
};
enum ls_protocol { LS_PROTO_NONE, LS_PROTO_INHERIT, LS_PROTO_PROTECT, LS_NPROTO };
enum ls_kind { LS_MUTEX, LS_PI_MUTEX, LS_SPIN, LS_RWLOCK, LS_RWLOCK_WRITER, LS_NKIND };
enum ls_burners { LS_BURNERS_NONE, LS_BURNERS_CPU };

extern const char *const ls_scenario_names[LS_NSCEN];
extern const char *const ls_protocol_names[LS_NPROTO];
extern const char *const ls_kind_names[LS_NKIND];

#define LS_MAX_TLIST 8

struct ls_opts {
	struct rtp_common co;		/* -D (per case), -q, --json, --load, --no-mlockall */
	int nscen;
	int scen[LS_NSCEN];		/* in the order given, no repeats */
	int nproto;
	int proto[LS_NPROTO];
	bool control;			/* --control: none must be unbounded, not judged bounded */
	int nkind;
	int kind[LS_NKIND];
	int nthr;
	int threads[LS_MAX_TLIST];	/* contention thread counts */
	uint64_t iterations;		/* inversion (per protocol) and pi-chain */
	int priority;			/* the highest RT priority used */
	int cpu;			/* the CPU of the one-CPU scenarios */
	cpu_set_t cpus;			/* contention and percpu */
	int policy;			/* contention and percpu threads */
	uint64_t hold_ns;		/* inversion/pi-chain: holder's CPU time in the lock */
	uint64_t burn_ns;		/* inversion/pi-chain: medium burner's CPU time */
	uint64_t margin_ns;		/* bound = hold + margin; 0: max(2 ms, hold / 2) */
	uint64_t cs_ns;			/* contention critical section (busy, wall time) */
	uint64_t think_ns;		/* contention think time (busy, wall time) */
	int read_share;			/* rwlocks: percent of acquisitions that read */
	int chain;			/* pi-chain: threads in the chain */
	uint64_t watchdog_ns;		/* pi-chain: a lock wait longer than this is a stall */
	uint64_t spin_timeout_ns;	/* spin-preempt: longest spin before backing off */
	uint64_t attempt_timeout_ns;	/* rwlock-recursion: bound of each attempt */
	int percpu_threads;		/* 0: two per CPU of 'cpus' */
	enum ls_burners burners;	/* --burners: the program's own CPU burners */
	/* Test-only fault injection: the checks must catch these. */
	bool break_lock;		/* contention/percpu: drop the lock before the update */
	bool plant_deadlock;		/* pi-chain: the bottom also takes the top's lock */
};

#define LS_HELP_SHOWN RTP_HELP_SHOWN
RTP_BENCH_OPTIONS_DECLARE(ls);
extern const struct rtp_bench_ops ls_ops;
/* 0, LS_HELP_SHOWN, or an exit code after printing the error. */
int ls_parse(struct ls_opts *o, int argc, char **argv);

/*
 * "a,b,c" (and "all") against a table of names: appends the indexes not
 * yet in out[] (so repeated options accumulate), returns 0 or -EINVAL
 * with *bad pointing at the offending word (copied into badbuf).
 */
int ls_parse_names(const char *s, const char *const *names, int nnames, int *out, int *nout,
		   char *badbuf, size_t badlen);
/* "2,4,8": positive integers in [min, max], at most max_n of them. */
int ls_parse_int_list(const char *s, int min, int max, int *out, int *nout, int max_n);

bool ls_needs_rt(const struct ls_opts *o);
uint64_t ls_margin_ns(const struct ls_opts *o);

/* ---- run context -------------------------------------------------------- */

struct ls_inversion;
struct ls_pichain;
struct ls_contention;
struct ls_spinpreempt;
struct ls_percpu;
struct ls_rwrec;
struct load_arg;

struct ls_ctx {
	struct ls_opts o;
	struct rtp_run *run;		/* the driver's: signals, system facts, document */
	int stop;			/* atomic: a signal asked the run to end */
	int signal;			/* the signal taken, 0 if none */
	bool attr_set;			/* set up: teardown has work */
	/* every thread on a small stack of its own (all of it is locked), freed per scenario */
	struct rtp_stack *stacks;
	int nstacks, stacks_cap;
	size_t stack_peak;		/* the deepest any thread went (stack.h) */
	int abandoned;			/* threads left stuck: exit with _exit() */
	bool start_failed;		/* atomic: a thread could not be started: exit 1 */
	uint64_t start_ns;
	cpu_set_t online;
	cpu_set_t load_cpus;		/* where the --burners run */
	struct load_arg *load_args;
	bool ran[LS_NSCEN];
	int supervisor_prio;		/* SCHED_FIFO priority of the main thread, 0: SCHED_OTHER */
	int nload;
	pthread_t *load_th;
	int load_stop;			/* atomic */
	struct ls_inversion *inv;
	struct ls_pichain *pic;
	struct ls_contention *con;
	struct ls_spinpreempt *spp;
	struct ls_percpu *pcp;
	struct ls_rwrec *rwr;
};

/* A signal asked the run to end, or a thread could not be started. */
static inline bool ls_stopped(const struct ls_ctx *c)
{
	return __atomic_load_n(&c->stop, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&c->start_failed, __ATOMIC_RELAXED);
}

/*
 * A thread's stack: measured ("stack_peak_bytes" in the document,
 * tests/integration/scale-stack.t).
 */
#define LS_STACK_BYTES (32 * 1024)

/* Initialises attr for a new thread on a fresh stack of LS_STACK_BYTES; 0 or -errno. */
int ls_thread_attr(struct ls_ctx *c, pthread_attr_t *attr);
/*
 * Unmaps the stacks from index 'from' on (ls_ctx.nstacks before the threads
 * were started), once those threads are all joined, keeping their peak: a
 * scenario that runs case after case locks one case's stacks, not them all.
 */
void ls_stacks_release(struct ls_ctx *c, int from);

/* ---- helpers (util.c) ---------------------------------------------------- */

/* Pins (cpu >= 0, else to 'set' if given) and sets the policy of the caller. */
int ls_thread_setup(int cpu, const cpu_set_t *set, int policy, int prio);
/* Consumes ns of the caller's CPU time (CLOCK_THREAD_CPUTIME_ID); stops early on *stop. */
void ls_burn_cpu(uint64_t ns, const int *stop);
/* Busy-waits ns of wall time (CLOCK_MONOTONIC). */
void ls_spin_wall(uint64_t ns);
/* Sleeps to an absolute CLOCK_MONOTONIC time. */
void ls_sleep_until(uint64_t t_ns);
/* The same, waking every 50 ms to check the flags; false when one was set. */
bool ls_sleep_until_or(uint64_t t_ns, const int *stop1, const int *stop2);
/* A CLOCK_MONOTONIC deadline timeout_ns from now, for the clock-taking pthread calls. */
struct timespec ls_deadline(uint64_t timeout_ns);
/* Timed locks on CLOCK_MONOTONIC (a wall-clock step changes nothing):
 * wait at most timeout_ns; 0 or the pthread error (ETIMEDOUT...). */
int ls_mutex_lock_for(pthread_mutex_t *m, uint64_t timeout_ns);
int ls_rwlock_rdlock_for(pthread_rwlock_t *rw, uint64_t timeout_ns);
int ls_rwlock_wrlock_for(pthread_rwlock_t *rw, uint64_t timeout_ns);
/* Opens /proc/thread-self/stat of the caller; ls_effective_prio() reads the
 * effective (boosted) RT priority from it: 1..99, 0 for non-RT, -1 on error. */
int ls_open_self_stat(void);
int ls_effective_prio(int fd);
/* Initialises a mutex with a protocol (ceiling for protect) and a type. */
int ls_mutex_init(pthread_mutex_t *m, int protocol, int ceiling, int type);
/*
 * Waits for signals or until done(arg) returns nonzero, at most until
 * until_ns; tick_ns between checks.  Returns done()'s value, 0 at the
 * deadline, -1 on a signal (the context's stop flag is then set).
 */
int ls_supervise(struct ls_ctx *c, uint64_t until_ns, uint64_t tick_ns,
		 int (*done)(void *arg), void *arg);
/*
 * Starts a scenario's thread through its start gate; when it cannot, says
 * so in one line ("SCENARIO: cannot start WHAT: ..."), marks the run
 * failed and opens the gate to leave.  0 or -errno.
 */
int ls_start(struct ls_ctx *c, struct rtp_gate *g, pthread_t *th, void *(*fn)(void *),
	     void *arg, const char *scenario, const char *what, int idx);
/* Joins th before deadline_ns (CLOCK_MONOTONIC); a thread that does not end is left, detached. */
int ls_join(struct ls_ctx *c, pthread_t th, uint64_t deadline_ns);
/* splitmix64: per-acquisition checksum values and per-thread random numbers. */
static inline uint64_t ls_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}
/* Writes one metric object: name, unit, extra fields by the callback, histogram. */
void ls_json_metric_begin(struct rtp_json *j, const char *name);
void ls_json_metric_end(struct rtp_json *j, const struct rtp_hist *h);

/* ---- scenarios ----------------------------------------------------------- */

/*
 * Each scenario: run (returns 0, or -errno when it could not set up),
 * print (the readable summary), json_metrics (entries of "metrics"),
 * json_facts (its object under "scenarios"), verdict (criteria).
 */
struct ls_scenario_ops {
	const char *name;
	int (*run)(struct ls_ctx *c);
	void (*print)(const struct ls_ctx *c);
	void (*json_metrics)(const struct ls_ctx *c, struct rtp_json *j);
	void (*json_facts)(const struct ls_ctx *c, struct rtp_json *j);
	void (*verdict)(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len);
	void (*destroy)(struct ls_ctx *c);
};

extern const struct ls_scenario_ops ls_inversion_ops;
extern const struct ls_scenario_ops ls_pichain_ops;
extern const struct ls_scenario_ops ls_contention_ops;
extern const struct ls_scenario_ops ls_spinpreempt_ops;
extern const struct ls_scenario_ops ls_percpu_ops;
extern const struct ls_scenario_ops ls_rwrec_ops;

/* The whole program; returns its exit code. */
int lockstress_main(int argc, char **argv);

#endif /* RTP_LOCKSTRESS_H */
