/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_DRIVER_H
#define RTP_DRIVER_H

#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "explain/explain.h"
#include "json.h"
#include "result.h"
#include "state.h"
#include "sysinfo.h"

/*
 * One bench driver for every program: rtp_run_tool() parses the common
 * options and the bench's own, starts the run (signals, system facts,
 * --json opened early), checks real-time privilege (skip, exit 4), locks
 * memory, hands over to the bench's run(), then decides, prints and
 * writes the document skeleton through the bench's callbacks:
 *
 *   header, params{}, load{name, ...}, metrics[], events{..., stopped_by},
 *   extra objects (series, lists), resources{cpu, rss, ...}, duration_s, verdict
 *
 * A bench keeps its own options, its measuring threads, its verdict and
 * its metrics; the rest is here.  The shape is rtla's run_tool(tool_ops).
 */

/* ---- the common options (one table, docs/options.md) ---------------------- */
struct rtp_common {
	uint64_t duration_ns;		/* -D/--duration; 0: not given */
	bool duration_given;
	const char *json;		/* --json FILE */
	const char *load;		/* --load NAME: a label, recorded only */
	bool quiet;			/* -q/--quiet */
	bool mlock;			/* --no-mlockall clears it */
	bool explain;			/* --explain[=THRESHOLD] (docs/explain.md) */
	uint64_t explain_ns;		/* its threshold */
	/* Taken by the benches that ask (ops->takes): */
	uint64_t loops;			/* -l/--loops N; 0: no limit (RTP_TAKES_LOOPS) */
	uint64_t max_latency_ns;	/* --max-latency US; 0: no budget (RTP_TAKES_MAXLAT) */
};

/* The common options a bench takes besides the ones every bench takes. */
#define RTP_TAKES_LOOPS		1u
#define RTP_TAKES_MAXLAT	2u

/* getopt codes of the common long-only options: benches use codes below 1000. */
enum { RTP_OPT_JSON = 1000, RTP_OPT_LOAD, RTP_OPT_NOMLOCK, RTP_OPT_HELP, RTP_OPT_VERSION,
       RTP_OPT_MAXLAT, RTP_OPT_EXPLAIN };
/* The common short options: cyclictest's letters. */
#define RTP_COMMON_SHORTOPTS "D:q"
/* What the parser returns after --help or --version. */
#define RTP_HELP_SHOWN 5

struct rtp_run;

struct rtp_bench_ops {
	const char *tool;		/* "rtproof-cyclic" */
	const char *synopsis;		/* the --help text above the options */
	const char *help;		/* the bench's own options, one per line */
	const char *epilog;		/* the text after the common options (exit codes) */
	const char *duration_help;	/* what -D does when not given; NULL: until a signal */
	const char *shortopts;		/* the bench's own, getopt syntax, no leading ':' */
	unsigned takes;			/* RTP_TAKES_*: the optional common options it takes */
	const struct option *longopts;	/* the bench's own, NULL-terminated */
	size_t state_size;		/* the bench's state, zeroed, 64-byte aligned */
	size_t opts_offset;		/* where its options are in the state */
	size_t co_offset;		/* where the struct rtp_common is in the options */

	/*
	 * Options, o being the bench's options struct: defaults (they call
	 * rtp_common_defaults), one option (0 or an exit code), the checks once
	 * all are read.
	 */
	void (*defaults)(void *o);
	int (*option)(void *o, int c, const char *name, const char *arg, int argc, char **argv);
	int (*check)(void *o);

	/* Before the privilege check: 0, RTP_EXIT_SKIP with why, or an exit code. */
	int (*probe)(struct rtp_run *r, char *why, size_t len);
	/* The real-time priority the run needs; 0: none (no privilege check). */
	int (*rt_prio)(struct rtp_run *r);
	/* After the check, before mlockall: 0, RTP_EXIT_SKIP with why, or an exit code. */
	int (*setup)(struct rtp_run *r, char *why, size_t len);
	/* Starts, supervises and joins the measuring threads; sets r->duration_s. */
	int (*run)(struct rtp_run *r);
	/* The verdict, then the human summary (the driver prints the verdict line). */
	void (*decide)(struct rtp_run *r, struct rtp_verdict *v);
	void (*summary)(struct rtp_run *r, const struct rtp_verdict *v);
	/* Outputs besides the document (histfile...): 0 or -errno, the error printed. */
	int (*outputs)(struct rtp_run *r);
	/* Undoes setup(), whatever happened; also after a failed setup(). */
	void (*teardown)(struct rtp_run *r);

	/* The document, inside the named object or array; NULL: left empty. */
	void (*params)(struct rtp_run *r, struct rtp_json *j);
	void (*skip_params)(struct rtp_run *r, struct rtp_json *j);	/* for a skip document */
	void (*load)(struct rtp_run *r, struct rtp_json *j);		/* besides "name" */
	void (*metrics)(struct rtp_run *r, struct rtp_json *j);
	void (*events)(struct rtp_run *r, struct rtp_json *j);	/* besides "stopped_by" */
	void (*extra)(struct rtp_run *r, struct rtp_json *j);	/* top-level series and lists */
	void (*resources)(struct rtp_run *r, struct rtp_json *j);	/* besides CPU time and RSS */
	/*
	 * --explain: fills the CPUs the measuring threads run on (after setup())
	 * and returns NULL, or why this run cannot be explained; NULL callback:
	 * the bench has no outliers to explain.  Its threads then call
	 * rtp_explain_note(r->ex, ...) when a figure is above r->explain_ns.
	 */
	const char *(*explain_cpus)(struct rtp_run *r, cpu_set_t *set);
	/*
	 * --explain, after the run: the p50 in ns of the figure what
	 * ("wakeup_latency") of the thread tid, as rtp_explain_note() gave
	 * them; an outlier is attributed when one culprit covers half its time
	 * above it.  0 or a NULL callback: not known, the whole window counts.
	 */
	uint64_t (*explain_base)(struct rtp_run *r, int tid, const char *what);
};

/*
 * The options part of a bench's ops from its names: PFX_synopsis, _help,
 * _epilog, _shortopts, _longopts, _defaults, _option and _check, its state
 * type STATE holding its options as member o, of type OPTS holding the
 * common ones as member co.
 */
#define RTP_BENCH_OPTIONS(pfx, STATE, OPTS)						\
	.synopsis = pfx##_synopsis, .help = pfx##_help, .epilog = pfx##_epilog,		\
	.shortopts = pfx##_shortopts, .longopts = pfx##_longopts,			\
	.state_size = sizeof(STATE), .opts_offset = offsetof(STATE, o),			\
	.co_offset = offsetof(OPTS, co), .defaults = pfx##_defaults,			\
	.option = pfx##_option, .check = pfx##_check

/* The declarations RTP_BENCH_OPTIONS needs, in a bench's header. */
#define RTP_BENCH_OPTIONS_DECLARE(pfx)								\
	void pfx##_defaults(void *o);								\
	int pfx##_option(void *o, int c, const char *name, const char *arg, int argc,		\
			 char **argv);								\
	int pfx##_check(void *o);								\
	extern const struct option pfx##_longopts[];						\
	extern const char pfx##_shortopts[], pfx##_synopsis[], pfx##_help[], pfx##_epilog[]

/* The run context: what every bench holds, no globals. */
struct rtp_run {
	const struct rtp_bench_ops *ops;
	void *b;			/* the bench's state */
	int argc;
	char **argv;
	void *o;			/* the bench's options, inside b */
	struct rtp_common *co;		/* the common ones, inside o */
	int code;			/* the exit code, known before teardown() */
	sigset_t sigs;			/* SIGINT, SIGTERM, SIGHUP: blocked everywhere */
	int sigfd;			/* signalfd of sigs */
	int wakefd;			/* eventfd: a thread ended (rtp_run_wake) */
	struct rtp_sysinfo si;
	struct timespec wall_start;	/* CLOCK_REALTIME */
	struct rtp_result res;
	bool have_json;
	char json_default[4096];	/* $RTPROOF_OUT/<bench>.json when no --json */
	bool mlocked;
	const char *stopped_by;		/* "signal", "duration", "loops", ... */
	int signal;			/* the signal that stopped the run, 0: none */
	char stop_detail[32];		/* " (SIGINT)" or "" */
	double duration_s;		/* set by the bench's run() */
	/*
	 * The driver's own cost, CLOCK_MONOTONIC: main() entered, the first
	 * release and the last sample (set by the bench's run(); 0: unknown).
	 * The document's resources give startup_s and teardown_s from them.
	 */
	uint64_t enter_ns, first_ns, last_ns;
	struct rusage ru;		/* taken after run() */
	/* --explain: the tracer (NULL: off or unavailable), its threshold (UINT64_MAX: off) */
	struct rtp_explain *ex;
	uint64_t explain_ns;
	char explain_why[256];		/* why it is unavailable */
	/*
	 * The state journal (lib/state.h; NULL: none, not root): what setup()
	 * changes is recorded there first.  What dead runs left was restored
	 * at the start, kept for events.restored[].
	 */
	struct rtp_state *state;
#define RTP_RUN_RESTORED_MAX 16
	struct rtp_run_restored {
		enum rtp_state_what what;
		int pid;
		int err;
		char path[256];
		char value[64];
	} restored[RTP_RUN_RESTORED_MAX];
	int nrestored;
};

/* The whole program: returns its exit code. */
int rtp_run_tool(const struct rtp_bench_ops *ops, int argc, char **argv);

/*
 * The options alone (also for unit tests and fuzz targets): fills the
 * bench's options o; returns 0, RTP_HELP_SHOWN, or an exit code after the
 * one-line error.
 */
int rtp_run_parse(const struct rtp_bench_ops *ops, void *o, int argc, char **argv);
void rtp_common_defaults(struct rtp_common *co);
void rtp_run_usage(const struct rtp_bench_ops *ops, FILE *f);

/* "OPT VAL: why" as the one-line error; returns RTP_EXIT_ERROR. */
int rtp_opt_bad(const char *opt, const char *val, const char *why);

/* ---- supervision ------------------------------------------------------------ */
/* A measuring thread ended (or has news): wakes rtp_run_supervise() at once. */
void rtp_run_wake(struct rtp_run *r);

/*
 * Waits for a stop signal, a wake-up or a timeout (ns, 0: none).  Returns
 * the signal (and records it as the stop), 0 for a wake-up or the timeout.
 */
int rtp_run_wait(struct rtp_run *r, uint64_t timeout_ns);

struct rtp_watch {
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC; 0: none ("duration") */
	uint64_t tick_ns;		/* calls check() at least this often; 0: only on wakes */
	/*
	 * Called first, after every wake-up and tick: returns why the run stops
	 * ("loops", "error"...), or NULL to go on; may move *next_ns earlier.
	 */
	const char *(*check)(struct rtp_run *r, void *arg, uint64_t now, uint64_t *next_ns);
	void *arg;
};

/* The one supervise loop: returns why it stopped, also kept in r->stopped_by. */
const char *rtp_run_supervise(struct rtp_run *r, const struct rtp_watch *w);

/*
 * Stops threads promptly whatever they sleep on: sends sig to each one
 * whose done(arg, i) is false, again every millisecond until all are done,
 * so a thread that was about to block when the first signal came is not
 * left sleeping for a whole interval.  *stop must be set before.
 */
void rtp_run_stop_threads(struct rtp_run *r, int n, int sig,
			  pthread_t (*thread)(void *arg, int i), bool (*done)(void *arg, int i),
			  void *arg);

/* SIGUSR1 with a handler that does nothing and no SA_RESTART: sleeps return EINTR. */
void rtp_run_interrupt_signal(int sig);

#endif /* RTP_DRIVER_H */
