// SPDX-License-Identifier: GPL-2.0-or-later
/* The bench driver: common options, run context, supervision, document skeleton. */
#include "driver.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "opt.h"
#include "rt.h"
#include "run.h"
#include "strbuf.h"

/* ---- the common options ---------------------------------------------------- */

static const struct rtp_common_opt {
	struct option lo;
	char letter;
	const char *arg;
	const char *help;
	unsigned take;		/* 0: every bench; else RTP_TAKES_* */
} common_opts[] = {
	{ { "duration", required_argument, NULL, 'D' }, 'D', "T",
	  "run time: 500ms, 10s, 5m, 2h, 1d; bare number = seconds", 0 },
	{ { "quiet", no_argument, NULL, 'q' }, 'q', NULL,
	  "no live display or progress lines; the summary at the end", 0 },
	{ { "json", required_argument, NULL, RTP_OPT_JSON }, 0, "FILE",
	  "write the result document (schema rtproof/1) to FILE", 0 },
	{ { "load", required_argument, NULL, RTP_OPT_LOAD }, 0, "NAME",
	  "name the load running beside this run (recorded only)", 0 },
	{ { "no-mlockall", no_argument, NULL, RTP_OPT_NOMLOCK }, 0, NULL,
	  "do not lock memory (locked with mlockall by default)", 0 },
	{ { "loops", required_argument, NULL, 'l' }, 'l', "N",
	  "stop after N wake-ups (per thread) or events (default: no limit)", RTP_TAKES_LOOPS },
	{ { "max-latency", required_argument, NULL, RTP_OPT_MAXLAT }, 0, "US",
	  "budget: verdict fail and exit 2 when the max exceeds it", RTP_TAKES_MAXLAT },
	{ { "explain", optional_argument, NULL, RTP_OPT_EXPLAIN }, 0, "[=T]",
	  "name what ran instead for each outlier above T (default 100us; tracefs)", 0 },
	{ { "help", no_argument, NULL, RTP_OPT_HELP }, 0, NULL, "this text", 0 },
	{ { "version", no_argument, NULL, RTP_OPT_VERSION }, 0, NULL, "the version", 0 },
};
#define NCOMMON (sizeof(common_opts) / sizeof(common_opts[0]))

int rtp_opt_bad(const char *opt, const char *val, const char *why)
{
	rtp_error("%s %s: %s", opt, val, why);
	return RTP_EXIT_ERROR;
}

void rtp_run_usage(const struct rtp_bench_ops *ops, FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s [options]\n\n%s\nOptions:\n%s", ops->tool, ops->synopsis, ops->help);
	for (i = 0; i < NCOMMON; i++) {
		const struct rtp_common_opt *c = &common_opts[i];
		char left[40];

		if (c->take && !(c->take & ops->takes))
			continue;
		snprintf(left, sizeof(left), "%c%c%c --%s%s%s", c->letter ? '-' : ' ',
			 c->letter ? c->letter : ' ', c->letter ? ',' : ' ', c->lo.name,
			 c->arg && c->arg[0] != '[' ? " " : "", c->arg ? c->arg : "");
		fprintf(f, "  %-22s %s\n", left, c->help);
		if (c->letter == 'D')
			fprintf(f, "  %-22s (default: %s)\n", "",
				ops->duration_help ? ops->duration_help : "until SIGINT/SIGTERM");
	}
	fprintf(f, "\n%s", ops->epilog);
}

static int common_option(const struct rtp_bench_ops *ops, struct rtp_common *co, int c,
			 const char *name, const char *arg)
{
	int ret;

	switch (c) {
	case 'D':
		ret = rtp_parse_duration_ns(arg, &co->duration_ns);
		if (ret || co->duration_ns == 0)
			return rtp_opt_bad(name, arg, ret == -ERANGE ?
					   "duration out of range (at most 100d)" :
					   "duration must be positive, like 500ms, 10s, 5m, 2h, 1d");
		co->duration_given = true;
		return 0;
	case 'q':
		co->quiet = true;
		return 0;
	case RTP_OPT_JSON:
		if (!*arg)
			return rtp_opt_bad(name, "''", "empty file name");
		co->json = arg;
		return 0;
	case RTP_OPT_LOAD:
		if (!*arg)
			return rtp_opt_bad(name, "''", "empty load name");
		co->load = arg;
		return 0;
	case RTP_OPT_EXPLAIN:
		co->explain = true;
		co->explain_ns = RTP_EXPLAIN_DEFAULT_NS;
		if (arg && (rtp_parse_us(arg, &co->explain_ns) || co->explain_ns == 0))
			return rtp_opt_bad(name, arg, "threshold must be a positive duration, like 100us or 2ms "
					   "(a bare number is microseconds)");
		return 0;
	case RTP_OPT_NOMLOCK:
		co->mlock = false;
		return 0;
	case 'l':
		if (rtp_parse_u64(arg, 1, UINT64_MAX, &co->loops))
			return rtp_opt_bad(name, arg, "loops must be a positive integer");
		return 0;
	case RTP_OPT_MAXLAT:
		if (rtp_parse_us(arg, &co->max_latency_ns) || co->max_latency_ns == 0)
			return rtp_opt_bad(name, arg, "latency budget must be a positive number of us");
		return 0;
	case RTP_OPT_HELP:
		rtp_run_usage(ops, stdout);
		return RTP_HELP_SHOWN;
	case RTP_OPT_VERSION:
		printf("%s %s\n", ops->tool, RTP_VERSION);
		return RTP_HELP_SHOWN;
	default:
		return -1;
	}
}

void rtp_common_defaults(struct rtp_common *co)
{
	memset(co, 0, sizeof(*co));
	co->load = "unspecified";
	co->mlock = true;
}

int rtp_run_parse(const struct rtp_bench_ops *ops, void *o, int argc, char **argv)
{
	struct rtp_common *co = (struct rtp_common *)((char *)o + ops->co_offset);
	struct option lo[128];
	char shortopts[128];
	size_t n = 0, i;
	int c, ret;

	ops->defaults(o);
	for (i = 0; i < NCOMMON; i++)
		if (!common_opts[i].take || (common_opts[i].take & ops->takes))
			lo[n++] = common_opts[i].lo;
	for (i = 0; ops->longopts && ops->longopts[i].name && n < 127; i++)
		lo[n++] = ops->longopts[i];
	memset(&lo[n], 0, sizeof(lo[n]));
	snprintf(shortopts, sizeof(shortopts), ":%s%s%s", RTP_COMMON_SHORTOPTS,
		 ops->takes & RTP_TAKES_LOOPS ? "l:" : "", ops->shortopts ? ops->shortopts : "");

	optind = 0;	/* glibc: full re-initialisation, so parse can run again */
	opterr = 0;
	for (;;) {
		char name[40];
		int li = -1;

		c = getopt_long(argc, argv, shortopts, lo, &li);
		if (c == -1)
			break;
		if (c == ':' || c == '?')
			return rtp_opt_fail(c, argv);
		rtp_opt_name(lo, li, c, name, sizeof(name));
		ret = common_option(ops, co, c, name, optarg);
		if (ret == -1)
			ret = ops->option(o, c, name, optarg, argc, argv);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		rtp_error("%s: unexpected argument (see --help)", argv[optind]);
		return RTP_EXIT_ERROR;
	}
	return ops->check ? ops->check(o) : 0;
}

/* ---- supervision ------------------------------------------------------------ */

void rtp_run_wake(struct rtp_run *r)
{
	uint64_t one = 1;

	if (r && r->wakefd >= 0 && write(r->wakefd, &one, sizeof(one)) < 0) {
		/* the counter is saturated: a wake-up is pending anyway */
	}
}

int rtp_run_wait(struct rtp_run *r, uint64_t timeout_ns)
{
	struct pollfd p[2] = { { r->sigfd, POLLIN, 0 }, { r->wakefd, POLLIN, 0 } };
	struct timespec ts = rtp_ns_ts(timeout_ns);
	struct signalfd_siginfo si;
	uint64_t cnt;
	int ret;

	ret = ppoll(p, 2, timeout_ns ? &ts : NULL, NULL);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (p[0].revents & POLLIN) {
		if (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
			r->signal = (int)si.ssi_signo;
			snprintf(r->stop_detail, sizeof(r->stop_detail), " (SIG%s)",
				 sigabbrev_np(r->signal));
			return r->signal;
		}
	}
	if (p[1].revents & POLLIN && read(r->wakefd, &cnt, sizeof(cnt)) < 0) {
		/* read by someone else: nothing pending */
	}
	return 0;
}

/* Only a thread's wake-up, or the timeout: signals stay pending for later. */
static void wait_wake(struct rtp_run *r, uint64_t timeout_ns)
{
	struct pollfd p = { r->wakefd, POLLIN, 0 };
	struct timespec ts = rtp_ns_ts(timeout_ns);
	uint64_t cnt;

	if (ppoll(&p, 1, &ts, NULL) > 0 && read(r->wakefd, &cnt, sizeof(cnt)) < 0) {
		/* nothing pending after all */
	}
}

const char *rtp_run_supervise(struct rtp_run *r, const struct rtp_watch *w)
{
	for (;;) {
		uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), next = UINT64_MAX, wait;
		const char *why = NULL;

		if (w->check)
			why = w->check(r, w->arg, now, &next);
		if (why) {
			r->stopped_by = why;
			return why;
		}
		if (w->deadline_ns && now >= w->deadline_ns) {
			r->stopped_by = "duration";
			return r->stopped_by;
		}
		if (w->deadline_ns && w->deadline_ns < next)
			next = w->deadline_ns;
		if (w->tick_ns && now + w->tick_ns < next)
			next = now + w->tick_ns;
		wait = next == UINT64_MAX ? 0 : next > now ? next - now : 1;
		if (rtp_run_wait(r, wait) > 0) {
			r->stopped_by = "signal";
			return r->stopped_by;
		}
	}
}

void rtp_run_stop_threads(struct rtp_run *r, int n, int sig,
			  pthread_t (*thread)(void *arg, int i), bool (*done)(void *arg, int i),
			  void *arg)
{
	for (;;) {
		int i, left = 0;

		for (i = 0; i < n; i++) {
			if (done(arg, i))
				continue;
			pthread_kill(thread(arg, i), sig);
			left++;
		}
		if (!left)
			return;
		/* A thread that ends wakes us; otherwise signal again in 1 ms. */
		wait_wake(r, 1000000);
	}
}

static void noop_handler(int sig)
{
	(void)sig;
}

void rtp_run_interrupt_signal(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = noop_handler;	/* no SA_RESTART: sleeps return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* ---- the run ------------------------------------------------------------------ */

static void json_resources(struct rtp_run *r, struct rtp_json *j)
{
	rtp_json_begin_object(j, "resources");
	rtp_json_double(j, "cpu_user_s", (double)r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6);
	rtp_json_double(j, "cpu_sys_s", (double)r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6);
	rtp_json_int(j, "max_rss_kib", r->ru.ru_maxrss);
	if (r->first_ns > r->enter_ns) {
		/* main() to the first release; the last sample to this document */
		rtp_json_double(j, "startup_s", (double)(r->first_ns - r->enter_ns) / 1e9);
		if (r->last_ns)
			rtp_json_double(j, "teardown_s",
					(double)(rtp_now_ns(CLOCK_MONOTONIC) - r->last_ns) / 1e9);
	}
	if (r->ops->resources)
		r->ops->resources(r, j);
	rtp_json_end_object(j);
}

/* events.restored[]: what dead runs had left changed, put back at the start. */
static void json_restored(struct rtp_run *r, struct rtp_json *j)
{
	static const char *const what[] = {
		[RTP_STATE_RESTORED] = "restored", [RTP_STATE_REMOVED] = "removed",
		[RTP_STATE_FAILED] = "failed", [RTP_STATE_REFUSED] = "refused",
		[RTP_STATE_LIVE] = "live",
	};
	int i;

	rtp_json_begin_array(j, "restored");
	for (i = 0; i < r->nrestored; i++) {
		const struct rtp_run_restored *x = &r->restored[i];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "action", what[x->what]);
		rtp_json_string(j, "path", x->path);
		if (x->what == RTP_STATE_RESTORED || (x->what == RTP_STATE_FAILED && x->value[0]))
			rtp_json_string(j, "value", x->value);
		if (x->pid > 0)
			rtp_json_int(j, "pid", x->pid);
		if (x->err)
			rtp_json_string(j, "error", strerror(-x->err));
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
}

/* The document skeleton; the bench fills each part. */
static int write_document(struct rtp_run *r, const struct rtp_verdict *v)
{
	const struct rtp_bench_ops *ops = r->ops;
	struct rtp_json *j = &r->res.json;

	rtp_result_header(&r->res, ops->tool, r->argc, r->argv, &r->si, &r->wall_start);
	rtp_json_begin_object(j, "params");
	if (ops->params)
		ops->params(r, j);
	rtp_json_end_object(j);
	rtp_json_begin_object(j, "load");
	rtp_json_string(j, "name", r->co->load);
	if (ops->load)
		ops->load(r, j);
	rtp_json_end_object(j);
	rtp_json_begin_array(j, "metrics");
	if (ops->metrics)
		ops->metrics(r, j);
	rtp_json_end_array(j);
	rtp_json_begin_object(j, "events");
	if (ops->events)
		ops->events(r, j);
	if (r->ex)
		rtp_explain_json(r->ex, j, r->first_ns ? r->first_ns : r->enter_ns);
	else if (r->co->explain)
		rtp_explain_json_unavailable(j, r->co->explain_ns, r->explain_why);
	if (r->nrestored)
		json_restored(r, j);
	rtp_json_string(j, "stopped_by", r->stopped_by ? r->stopped_by : "error");
	if (r->signal)
		rtp_json_string(j, "signal", sigabbrev_np(r->signal));
	rtp_json_end_object(j);
	if (ops->extra)
		ops->extra(r, j);
	json_resources(r, j);
	r->have_json = false;
	return rtp_result_commit(&r->res, r->duration_s, v);
}

/*
 * The document of a run that could not measure here: the header, the
 * params the bench gives, the load label, no metrics, verdict skip with
 * why as its reason.  Returns RTP_EXIT_SKIP; a write failure is said.
 */
static int skip(struct rtp_run *r, const char *why)
{
	struct rtp_verdict v = { .status = RTP_SKIP };
	struct rtp_json *j = &r->res.json;
	int ret;

	if (!r->have_json)
		return RTP_EXIT_SKIP;
	r->have_json = false;
	snprintf(v.reason, sizeof(v.reason), "%s", why);
	rtp_result_header(&r->res, r->ops->tool, r->argc, r->argv, &r->si, &r->wall_start);
	rtp_json_begin_object(j, "params");
	if (r->ops->skip_params)
		r->ops->skip_params(r, j);
	rtp_json_end_object(j);
	rtp_json_begin_object(j, "load");
	rtp_json_string(j, "name", r->co->load);
	rtp_json_end_object(j);
	rtp_json_begin_array(j, "metrics");
	rtp_json_end_array(j);
	ret = rtp_result_commit(&r->res, 0, &v);
	if (ret) {
		/* A skip document that cannot be written is an error (docs/reliability.md). */
		rtp_error("--json %s: cannot write: %s", r->co->json, strerror(-ret));
		return RTP_EXIT_ERROR;
	}
	return RTP_EXIT_SKIP;
}

/* One thing the stale-state pass did: said on stderr, kept for the document. */
static void restored_said(void *arg, const struct rtp_state_event *e)
{
	struct rtp_run *r = arg;
	struct rtp_run_restored *x;
	char line[1024];

	if (e->what == RTP_STATE_LIVE)
		return;		/* another run's, alive: none of ours */
	rtp_state_event_line(e, line, sizeof(line));
	if (e->what == RTP_STATE_RESTORED || e->what == RTP_STATE_REMOVED)
		fprintf(stderr, "%s: %s\n", r->ops->tool, line);
	else
		rtp_warn("%s", line);
	if (r->nrestored == RTP_RUN_RESTORED_MAX)
		return;
	x = &r->restored[r->nrestored++];
	x->what = e->what;
	x->pid = e->pid;
	x->err = e->err;
	snprintf(x->path, sizeof(x->path), "%s", e->path ? e->path : e->file ? e->file : "");
	snprintf(x->value, sizeof(x->value), "%s", e->value ? e->value : "");
}

/*
 * The system as a dead run left it is repaired before this one measures
 * (docs/security.md), then this run's journal is opened.  Root only:
 * nobody else could have changed what the journal covers.
 */
static void state_begin(struct rtp_run *r)
{
	int ret;

	if (geteuid() != 0)
		return;
	ret = rtp_state_restore_stale(NULL, restored_said, r);
	if (ret < 0 && ret != -EPERM)
		rtp_warn("%s: cannot read the state left by earlier runs: %s", RTP_STATE_DIR,
			 strerror(-ret));
	if (rtp_state_open(&r->state, NULL))
		r->state = NULL;
}

static int begin(struct rtp_run *r)
{
	if (rtp_run_begin(&r->sigs, &r->si, &r->wall_start, &r->res, r->co->json))
		return RTP_EXIT_ERROR;
	state_begin(r);
	r->have_json = r->co->json != NULL;
	r->sigfd = signalfd(-1, &r->sigs, SFD_CLOEXEC | SFD_NONBLOCK);
	r->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->sigfd < 0 || r->wakefd < 0) {
		rtp_error("cannot watch for signals: %s", strerror(errno));
		return RTP_EXIT_ERROR;
	}
	return 0;
}

/*
 * --explain: the tracer on the bench's measured CPUs.  Where it cannot
 * run, it says why and the run goes on (the document says why too).
 */
static void start_explain(struct rtp_run *r)
{
	const char *why;
	cpu_set_t cpus;

	r->explain_ns = UINT64_MAX;
	if (!r->co->explain)
		return;
	if (!r->ops->explain_cpus) {
		snprintf(r->explain_why, sizeof(r->explain_why), "%s has no outliers to explain",
			 r->ops->tool);
	} else {
		CPU_ZERO(&cpus);
		why = r->ops->explain_cpus(r, &cpus);
		if (why || !CPU_COUNT(&cpus))
			snprintf(r->explain_why, sizeof(r->explain_why), "%s",
				 why ? why : "no measured CPU known");
		else if (!rtp_explain_start(&r->ex, &cpus, r->co->explain_ns, r->state,
					    r->explain_why, sizeof(r->explain_why)))
			r->explain_ns = r->co->explain_ns;
	}
	if (!r->ex)
		rtp_warn("--explain: cannot trace here: %s; the run goes on without it", r->explain_why);
}

/* rtp_explain_attribute's callback: the bench's own */
static uint64_t explain_base(void *arg, int tid, const char *what)
{
	struct rtp_run *r = arg;

	return r->ops->explain_base(r, tid, what);
}

/*
 * How long the run was against how long a confident answer needs
 * (docs/driver.md, rtp_none_seen_rate_h in verdict.h): after a pass, the
 * budgets with no miss (a max within its limit, no xrun).  A miss is an
 * answer by itself: nothing is printed then.
 */
static void print_how_long(const struct rtp_run *r, const struct rtp_verdict *v)
{
	char what[256] = "";
	int i, n = 0;

	if (v->status != RTP_PASS || !(r->duration_s > 0))
		return;
	for (i = 0; i < v->ncriteria; i++) {
		const struct rtp_criterion *c = &v->criteria[i];

		if (!c->pass || !((!strncmp(c->name, "max ", 4) && !strcmp(c->op, "<=")) ||
				  (!strcmp(c->name, "xruns") && !strcmp(c->op, "==") && c->limit == 0)))
			continue;
		if (c->limit == 0)
			rtp_appendf(what, sizeof(what), "%sno %s", n++ ? ", " : "", c->name);
		else
			rtp_appendf(what, sizeof(what), "%s%s <= %.1f %s", n++ ? ", " : "", c->name, c->limit,
				    c->unit);
	}
	if (!n)
		return;
	printf("how long: %s in %.1f s: at 95 %% confidence fewer than %.3g misses an hour; "
	       "fewer than one an hour needs %.1f h with none\n", what, r->duration_s,
	       rtp_none_seen_rate_h(r->duration_s), rtp_none_seen_h());
}

static int measure(struct rtp_run *r)
{
	const struct rtp_bench_ops *ops = r->ops;
	struct rtp_verdict v;
	char why[1024] = "";
	int ret, prio;

	if (ops->probe) {
		ret = ops->probe(r, why, sizeof(why));
		if (ret == RTP_EXIT_SKIP)
			return skip(r, why);	/* probe() said why itself */
		if (ret)
			return ret;
	}
	prio = ops->rt_prio ? ops->rt_prio(r) : 0;
	if (prio > 0 && !rtp_can_rt(prio, why, sizeof(why))) {
		rtp_error("cannot measure here: %s", why);
		return skip(r, why);
	}
	if (ops->setup) {
		ret = ops->setup(r, why, sizeof(why));
		if (ret == RTP_EXIT_SKIP) {
			rtp_error("cannot measure here: %s", why);
			return skip(r, why);
		}
		if (ret)
			return ret;
	}
	start_explain(r);
	if (r->co->mlock) {
		ret = rtp_mlock_all(256 * 1024);
		if (ret)
			rtp_warn("mlockall: %s; page faults may add latency", strerror(-ret));
		r->mlocked = !ret;
	}
	ret = ops->run(r);
	if (ret)
		return ret;
	getrusage(RUSAGE_SELF, &r->ru);
	rtp_explain_finish(r->ex);	/* after the run: what waited is read now */

	memset(&v, 0, sizeof(v));
	v.status = RTP_PASS;
	ops->decide(r, &v);
	if (r->ex && ops->explain_base)
		rtp_explain_attribute(r->ex, explain_base, r);
	ops->summary(r, &v);
	if (r->ex)
		rtp_explain_print(r->ex, stdout);
	printf("verdict: %s: %s\n", rtp_status_name(v.status), v.reason);
	if (!r->co->quiet)
		print_how_long(r, &v);
	if (ops->outputs && ops->outputs(r))
		v.status = RTP_ERROR;
	if (r->have_json) {
		uint64_t t0 = rtp_now_ns(CLOCK_MONOTONIC);

		ret = write_document(r, &v);
		if (ret) {
			rtp_error("--json %s: cannot write: %s", r->co->json, strerror(-ret));
			v.status = RTP_ERROR;
		} else if (!r->co->quiet && strcmp(r->co->json, "-")) {
			double ms = (double)(rtp_now_ns(CLOCK_MONOTONIC) - t0) / 1e6;
			struct stat st;

			/* all of it: serialised, written, fsynced and renamed into place */
			if (!stat(r->co->json, &st) && S_ISREG(st.st_mode))
				printf("document: %s, %lld bytes, written in %.1f ms\n", r->co->json,
				       (long long)st.st_size, ms);
			else
				printf("document: %s written in %.1f ms\n", r->co->json, ms);
		}
	}
	fflush(stdout);
	return rtp_status_exit(v.status);
}

/*
 * RTPROOF_OUT (the step protocol of rtproof bisect, docs/options.md): with
 * it set and no --json, the document goes to $RTPROOF_OUT/<bench>.json.
 * A document already there is refused, not replaced: one per bench and
 * directory, as rtproof compare reads a directory.  Unset or empty: as
 * before, no document without --json.
 */
static int json_from_env(struct rtp_run *r)
{
	const char *dir = getenv("RTPROOF_OUT"), *name = r->ops->tool;
	struct stat st;
	int n;

	if (r->co->json || !dir || !*dir)
		return 0;
	if (!strncmp(name, "rtproof-", 8))
		name += 8;
	n = snprintf(r->json_default, sizeof(r->json_default), "%s/%s.json", dir, name);
	if (n < 0 || (size_t)n >= sizeof(r->json_default))
		return rtp_opt_bad("RTPROOF_OUT", dir, "path too long");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return rtp_opt_bad("RTPROOF_OUT", dir, "not a directory");
	if (!lstat(r->json_default, &st)) {
		rtp_error("RTPROOF_OUT %s: %s exists; give --json FILE for another document", dir,
			  r->json_default);
		return RTP_EXIT_ERROR;
	}
	r->co->json = r->json_default;
	return 0;
}

int rtp_run_tool(const struct rtp_bench_ops *ops, int argc, char **argv)
{
	struct rtp_run *r;
	int code;

	r = calloc(1, sizeof(*r));
	if (!r) {
		rtp_error("out of memory");
		return RTP_EXIT_ERROR;
	}
	r->enter_ns = rtp_now_ns(CLOCK_MONOTONIC);
	r->b = aligned_alloc(64, (ops->state_size + 63) & ~(size_t)63);
	if (!r->b) {
		rtp_error("out of memory");
		free(r);
		return RTP_EXIT_ERROR;
	}
	memset(r->b, 0, ops->state_size);
	r->ops = ops;
	r->argc = argc;
	r->argv = argv;
	r->sigfd = r->wakefd = -1;
	r->explain_ns = UINT64_MAX;
	r->o = (char *)r->b + ops->opts_offset;
	r->co = (struct rtp_common *)((char *)r->o + ops->co_offset);
	code = rtp_run_parse(ops, r->o, argc, argv);
	if (!code)
		code = json_from_env(r);
	if (code) {
		code = code == RTP_HELP_SHOWN ? RTP_EXIT_PASS : code;
		goto out;
	}
	code = begin(r);
	if (!code)
		code = measure(r);
	r->code = code;
	if (ops->teardown)
		ops->teardown(r);
	rtp_explain_free(r->ex);
	rtp_state_close(r->state);	/* restored by teardown(): the file goes */
	if (r->have_json)
		rtp_result_abort(&r->res);
out:
	if (r->sigfd >= 0)
		close(r->sigfd);
	if (r->wakefd >= 0)
		close(r->wakefd);
	free(r->b);
	free(r);
	return code;
}
