// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --explain: a tracing instance, its snapshot buffer and a reader off the
 * measured CPUs.  tracefs is driven through its files (docs/explain.md
 * says why not libtracefs).
 */
#include "explain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctlfile.h"
#include "culprits.h"
#include "log.h"
#include "opt.h"
#include "rt.h"
#include "run.h"
#include "state.h"
#include "sysinfo.h"
#include "tracecut.h"

#include "explain_int.h"

/* ---- tracefs files ---------------------------------------------------------------- */

/* "%*pb": 32-bit hex groups, most significant first */
static void cpumask_str(const cpu_set_t *s, int maxcpu, char *buf, size_t len)
{
	int groups = maxcpu / 32 + 1, g, b;
	size_t off = 0;

	buf[0] = 0;
	for (g = groups - 1; g >= 0 && off < len; g--) {
		uint32_t w = 0;

		for (b = 0; b < 32; b++)
			if (g * 32 + b < CPU_SETSIZE && CPU_ISSET(g * 32 + b, s))
				w |= 1u << b;
		off += (size_t)snprintf(buf + off, len - off, "%s%08x", g == groups - 1 ? "" : ",", w);
	}
}

static const char *const core_events[] = {
	"sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new",
	"irq/irq_handler_entry", "irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit",
	/* not timer/hrtimer_expire_entry: the attribution does not use it, and every wake-up wrote one */
};
/* whole systems, where the kernel has them */
static const char *const extra_systems[] = { "osnoise" };
/*
 * irq_vectors (x86: reschedule and call-function IPIs, irq_work...), all
 * but the local timer: its entry and exit were two of the five events a
 * timer wake-up wrote, 1.2 us of the 3.0 us --explain added to cyclic's p50
 * in the icount guest (docs/explain.md "What it costs").  The wake-up's
 * hard-IRQ flag still names it as the waker (tracecut.c, untraced_vector).
 */
#define VEC_SYSTEM "irq_vectors"
#define VEC_UNTRACED "local_timer"

/* Enables irq_vectors' events but the untraced vector's; returns how many. */
static int enable_vectors(struct rtp_explain *ex)
{
	char dir[384], path[512];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/events/" VEC_SYSTEM, ex->inst);
	dp = opendir(dir);
	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || !strncmp(d->d_name, VEC_UNTRACED "_", sizeof(VEC_UNTRACED)))
			continue;
		snprintf(path, sizeof(path), "%s/enable", d->d_name);
		if (rtp_ctl_exists(dir, path) && !rtp_ctl_write_at(dir, path, "1"))
			n++;
	}
	closedir(dp);
	snprintf(path, sizeof(path), VEC_UNTRACED "_entry/enable");
	if (rtp_ctl_exists(dir, path))
		snprintf(ex->untraced, sizeof(ex->untraced), VEC_UNTRACED);
	return n;
}

/* some trace array other than ours has events enabled (its set_event is not empty) */
static bool others_trace(const struct rtp_explain *ex)
{
	const char *ours = strrchr(ex->inst, '/') + 1;
	char dir[384], path[640], buf[8];
	struct dirent *d;
	DIR *dp;
	bool busy = false;

	snprintf(path, sizeof(path), "%s/set_event", ex->dir);
	if (!rtp_read_file(path, buf, sizeof(buf)) && buf[0])
		return true;
	snprintf(dir, sizeof(dir), "%s/instances", ex->dir);
	dp = opendir(dir);
	if (!dp)
		return true;	/* cannot tell: assume so */
	while (!busy && (d = readdir(dp))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, ours))
			continue;
		snprintf(path, sizeof(path), "%s/%s/set_event", dir, d->d_name);
		busy = !rtp_read_file(path, buf, sizeof(buf)) && buf[0];
	}
	closedir(dp);
	return busy;
}

static int find_tracefs(struct rtp_explain *ex, char *why, size_t len)
{
	static const char *const need[] = { "instances", "trace", NULL };

	if (!rtp_tracefs_root(need, ex->dir, sizeof(ex->dir)))
		return 0;
	snprintf(why, len, "no tracefs mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing "
		 "(mount -t tracefs nodev /sys/kernel/tracing; the kernel needs CONFIG_FTRACE)");
	return -ENOENT;
}

static int setup_instance(struct rtp_explain *ex, char *why, size_t len)
{
	char path[256], mask[256], kb[32];
	size_t i, off = 0;
	int ret;

	for (i = 0; i < sizeof(core_events) / sizeof(core_events[0]); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", core_events[i]);
		if (!rtp_ctl_exists(ex->dir, path) && strcmp(core_events[i], "sched/sched_wakeup_new")) {
			snprintf(why, len, "the kernel has no %s trace event", core_events[i]);
			return -ENOENT;
		}
	}
	snprintf(ex->inst, sizeof(ex->inst), "%s/instances/" RTP_STATE_INSTANCE_PREFIX "explain-%d",
		 ex->dir, (int)getpid());
	ret = rtp_state_record_rmdir(ex->st, ex->inst);
	if (ret)
		rtp_warn("--explain: cannot record %s in the state journal: %s; a killed run leaves it",
			 ex->inst, strerror(-ret));
	if (mkdir(ex->inst, 0700)) {
		ret = -errno;
		rtp_state_forget(ex->st, ex->inst);
		snprintf(why, len, "cannot create the tracing instance %s: %s", ex->inst, strerror(errno));
		ex->inst[0] = 0;
		return ret;
	}
	if (!rtp_ctl_exists(ex->inst, "snapshot")) {
		snprintf(why, len, "the kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT)");
		return -ENOENT;
	}
	cpumask_str(&ex->measured, ex->maxcpu, mask, sizeof(mask));
	ex->buffer_kb = BUFFER_KB;
	if (ex->deferred) {
		int n = CPU_COUNT(&ex->measured);

		ex->buffer_kb = n * BUFFER_KB_AFTER <= BUFFER_KB_AFTER_ALL ? BUFFER_KB_AFTER :
				BUFFER_KB_AFTER_ALL / n < BUFFER_KB_AFTER_MIN ? BUFFER_KB_AFTER_MIN :
				BUFFER_KB_AFTER_ALL / n;
	}
	snprintf(kb, sizeof(kb), "%d", ex->buffer_kb);
	if ((ret = rtp_ctl_write_at(ex->inst, "tracing_on", "0")) ||
	    (ret = rtp_ctl_write_at(ex->inst, "tracing_cpumask", mask)) ||
	    (ret = rtp_ctl_write_at(ex->inst, "buffer_size_kb", kb)) ||
	    (ret = rtp_ctl_write_at(ex->inst, "trace_clock", "mono"))) {
		snprintf(why, len, "cannot set up the tracing instance %s: %s", ex->inst, strerror(-ret));
		return ret;
	}
	/* the snapshot buffer now, not at the first outlier: swap once, then clear */
	if ((ret = rtp_ctl_write_at(ex->inst, "snapshot", "1")) || (ret = rtp_ctl_write_at(ex->inst, "snapshot", "2"))) {
		snprintf(why, len, "cannot allocate the snapshot buffer of %s: %s", ex->inst, strerror(-ret));
		return ret;
	}
	/*
	 * The flags column (hard-IRQ context) in the text; and no comm cache:
	 * with it on, every sched_switch and sched_wakeup also saved comms
	 * (0.5 us of the p50 in the icount guest), which the events carry
	 * anyway.  The kernel's switch for it walks the enabled events of every
	 * trace array, so it is left alone when another one has events enabled.
	 */
	rtp_ctl_write_at(ex->inst, "trace_options", "irq-info");
	ex->record_cmd = others_trace(ex) || rtp_ctl_write_at(ex->inst, "trace_options", "norecord-cmd");
	for (i = 0; i < sizeof(core_events) / sizeof(core_events[0]); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", core_events[i]);
		if (!rtp_ctl_exists(ex->inst, path))
			continue;
		ret = rtp_ctl_write_at(ex->inst, path, "1");
		if (ret) {
			snprintf(why, len, "cannot enable %s: %s", core_events[i], strerror(-ret));
			return ret;
		}
		off += (size_t)snprintf(ex->events + off, sizeof(ex->events) - off, "%s%s",
					off ? " " : "", strchr(core_events[i], '/') + 1);
	}
	for (i = 0; i < sizeof(extra_systems) / sizeof(extra_systems[0]); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", extra_systems[i]);
		if (rtp_ctl_exists(ex->inst, path) && !rtp_ctl_write_at(ex->inst, path, "1") && off < sizeof(ex->events))
			off += (size_t)snprintf(ex->events + off, sizeof(ex->events) - off, " %s:*",
						extra_systems[i]);
	}
	if (enable_vectors(ex) && off < sizeof(ex->events))
		off += (size_t)snprintf(ex->events + off, sizeof(ex->events) - off, " " VEC_SYSTEM ":*%s",
					ex->untraced[0] ? " but " VEC_UNTRACED "_*" : "");
	rtp_ctl_write_at(ex->inst, "trace", "");	/* from empty */
	ret = rtp_ctl_write_at(ex->inst, "tracing_on", "1");
	if (ret)
		snprintf(why, len, "cannot start tracing in %s: %s", ex->inst, strerror(-ret));
	return ret;
}

static void remove_instance(struct rtp_explain *ex)
{
	if (!ex->inst[0])
		return;
	rtp_ctl_write_at(ex->inst, "tracing_on", "0");
	rtp_ctl_write_at(ex->inst, "events/enable", "0");
	if (rmdir(ex->inst))
		rtp_warn("--explain: cannot remove %s: %s", ex->inst, strerror(errno));
	else
		rtp_state_forget(ex->st, ex->inst);
	ex->inst[0] = 0;
}

/* ---- reading a CPU's events ---------------------------------------------------------- */

static int cpuev_push(struct cpuev *c, const struct rtp_xev *e)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4096;
		struct rtp_xev *p = realloc(c->ev, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->ev = p;
		c->cap = cap;
	}
	c->ev[c->n++] = *e;
	return 0;
}

/* Appends the events of one per-CPU file (snapshot or trace), in time order. */
static int read_cpu(struct rtp_explain *ex, int cpu, const char *file)
{
	struct cpuev *c = &ex->cpu[cpu];
	char path[384], *line = NULL;
	size_t cap = 0;
	struct rtp_xev e;
	uint64_t last = c->n ? c->ev[c->n - 1].ts : 0, in = 0, written = 0;
	const char *h;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/%s", ex->inst, cpu, file);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	c->nprev = c->n;
	c->gap = false;
	while (getline(&line, &cap, f) > 0) {
		/* "# entries-in-buffer/entries-written: 2871/3000": the ring overflowed */
		if (line[0] == '#' && (h = strstr(line, "entries-written:")) &&
		    sscanf(h + 16, " %" SCNu64 "/%" SCNu64, &in, &written) == 2 && in < written && c->n)
			c->gap = true;
		if (rtp_xev_parse(line, &e) != 1 || e.ts < last)
			continue;	/* a comment, or older than what we hold */
		ret = cpuev_push(c, &e);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* Keeps the events of the newest read only, for the window that straddles the next swap. */
static void cpuev_keep_last(struct cpuev *c)
{
	size_t keep = c->n - c->nprev;

	memmove(c->ev, c->ev + c->nprev, keep * sizeof(*c->ev));
	c->n = keep;
	c->nprev = 0;
	c->gap = false;
}

/* ---- sampling and analysis --------------------------------------------------------- */

static int analyse(struct rtp_explain *ex, struct kept *k)
{
	struct cpuev *c = &ex->cpu[k->n.cpu];
	const struct rtp_xev *ev = c->ev;
	size_t n = c->n;
	int ret;

	memset(&k->x, 0, sizeof(k->x));
	k->x.cpu = k->n.cpu;
	k->x.tid = k->n.tid;
	k->x.release_ns = k->n.release_ns;
	k->x.wake_ns = k->n.wake_ns;
	if (c->gap && c->nprev > 0 && c->nprev < c->n) {
		/* the events lost between the two reads: a window there is not covered */
		uint64_t from = c->ev[c->nprev - 1].ts, to = c->ev[c->nprev].ts;

		if (k->n.release_ns < to && k->n.wake_ns > from)
			return -ENODATA;
		if (k->n.release_ns >= to) {
			ev += c->nprev;
			n -= c->nprev;
		} else {
			n = c->nprev;
		}
	}
	k->x.soft_in_task = ex->rt;
	k->x.untraced_vector = ex->untraced;
	{
		size_t from = rtp_tracecut_from(ev, n, k->n.release_ns);

		ret = rtp_tracecut_analyse(ev + from, n - from, &k->x);
	}
	if (!ret)
		rtp_tracecut_policies(&k->x);
	return ret;
}

/*
 * Decides for one covered outlier whether its full window is kept: the
 * first RTP_EXPLAIN_FIRST are, then of each RTP_EXPLAIN_EVERY the largest.
 * Returns the slot to fill, or NULL.  (Every covered outlier is in the
 * culprit table whatever this decides.)
 */
static struct kept *decide(struct rtp_explain *ex, const struct note *n, bool *replaces)
{
	uint64_t i = ex->covered - 1, lat = n->wake_ns - n->release_ns, g;

	*replaces = false;
	if (i >= RTP_EXPLAIN_FIRST) {
		g = (i - RTP_EXPLAIN_FIRST) / RTP_EXPLAIN_EVERY + 1;
		if (g != ex->group) {
			ex->group = g;
			ex->group_max = 0;
			ex->group_slot = -1;
		}
		if (ex->group_slot >= 0) {
			if (lat <= ex->group_max) {
				ex->sampled_out++;
				return NULL;
			}
			*replaces = true;
			return &ex->kept[ex->group_slot];
		}
	}
	if (ex->nkept == RTP_EXPLAIN_KEEP) {
		ex->over_cap++;
		return NULL;
	}
	return &ex->kept[ex->nkept];
}

static void accept(struct rtp_explain *ex, struct kept *slot, bool replaces, uint64_t lat)
{
	if (replaces) {
		ex->sampled_out++;	/* the one it replaces */
	} else {
		ex->nkept++;
	}
	if (ex->covered > RTP_EXPLAIN_FIRST) {
		ex->group_slot = (int)(slot - ex->kept);
		ex->group_max = lat;
	}
}

static void swap_snapshot(struct rtp_explain *ex)
{
	int ret = rtp_ctl_write_at(ex->inst, "snapshot", "1");

	if (ret) {
		snprintf(ex->err, sizeof(ex->err), "cannot take a snapshot: %s", strerror(-ret));
		return;
	}
	ex->snapshots++;
}

/*
 * One outlier, with the events loaded: cut it (the culprit table), and
 * keep the whole window when decide() says so.
 */
static void explain_one(struct rtp_explain *ex, const struct note *n)
{
	struct kept tmp, *slot;
	bool replaces;

	memset(&tmp, 0, sizeof(tmp));
	tmp.n = *n;
	if (analyse(ex, &tmp)) {
		ex->not_covered++;
		return;
	}
	ex->covered++;
	rtp_xrun_add(&ex->run, &tmp.x, n->tid, n->what);
	slot = decide(ex, n, &replaces);
	if (!slot)
		return;
	tmp.state = KEPT_DONE;
	*slot = tmp;
	accept(ex, slot, replaces, n->wake_ns - n->release_ns);
}

/* Now, off the measured CPUs: snapshot, read the measured CPUs, explain every outlier of the batch. */
static void explain_now(struct rtp_explain *ex, struct note *batch, int nb)
{
	int i, cpu;

	if (!nb)
		return;
	/* the windows ended before the notes: the snapshot holds all of them */
	swap_snapshot(ex);
	for (cpu = 0; cpu <= ex->maxcpu; cpu++) {
		if (!CPU_ISSET(cpu, &ex->measured))
			continue;
		if (read_cpu(ex, cpu, "snapshot"))
			ex->failed++;
	}
	for (i = 0; i < nb; i++) {
		ex->outliers++;
		explain_one(ex, &batch[i]);
	}
	rtp_ctl_write_at(ex->inst, "snapshot", "2");	/* the spare, empty for the next swap */
	for (cpu = 0; cpu <= ex->maxcpu; cpu++)
		if (CPU_ISSET(cpu, &ex->measured))
			cpuev_keep_last(&ex->cpu[cpu]);
}

/* Every CPU is measured: swap once, keep the outliers for after the run. */
static void explain_later(struct rtp_explain *ex, struct note *batch, int nb)
{
	int i;

	for (i = 0; i < nb; i++) {
		ex->outliers++;
		if (ex->npend == ex->cappend) {
			size_t cap = ex->cappend ? ex->cappend * 2 : QLEN;
			struct note *p = realloc(ex->pend, cap * sizeof(*p));

			if (!p) {
				ex->failed++;
				ex->not_covered++;
				continue;
			}
			ex->pend = p;
			ex->cappend = cap;
		}
		ex->pend[ex->npend++] = batch[i];
	}
	if (nb && !ex->snapped && !__atomic_load_n(&ex->stop, __ATOMIC_ACQUIRE)) {
		swap_snapshot(ex);
		ex->snapped = true;
		/* from now on nothing of ours runs on the measured CPUs until the run ends */
		__atomic_store_n(&ex->quiet, 1, __ATOMIC_RELEASE);
	}
}

static int take(struct rtp_explain *ex, struct note *out)
{
	struct slot *s = &ex->q[ex->tail % QLEN];

	if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != ex->tail + 1)
		return 0;
	*out = s->n;
	__atomic_store_n(&s->seq, ex->tail + QLEN, __ATOMIC_RELEASE);
	ex->tail++;
	return 1;
}

/* Takes what waits in the queue; returns how many. */
static int drain(struct rtp_explain *ex, struct note *batch)
{
	int nb = 0;

	while (nb < QLEN && take(ex, &batch[nb]))
		nb++;
	return nb;
}

static void *reader(void *arg)
{
	struct rtp_explain *ex = arg;
	struct note *batch = ex->batch;

	pthread_setname_np(pthread_self(), "rtp-explain");
	for (;;) {
		struct pollfd p = { ex->efd, POLLIN, 0 };
		bool stop = __atomic_load_n(&ex->stop, __ATOMIC_ACQUIRE);
		bool quiet = __atomic_load_n(&ex->quiet, __ATOMIC_ACQUIRE);
		uint64_t cnt;
		int nb = quiet ? 0 : drain(ex, batch);

		if (nb) {
			if (ex->deferred)
				explain_later(ex, batch, nb);
			else
				explain_now(ex, batch, nb);
			continue;
		}
		if (stop)
			break;
		/* quiet: asleep until the run ends (rtp_explain_finish writes the eventfd) */
		if (poll(&p, 1, quiet ? -1 : 100) > 0 && read(ex->efd, &cnt, sizeof(cnt)) < 0) {
			/* taken by nobody else: nothing pending */
		}
	}
	return NULL;
}

/* ---- the API -------------------------------------------------------------------------- */

int rtp_explain_start(struct rtp_explain **out, const cpu_set_t *measured, uint64_t threshold_ns,
		      struct rtp_state *st, char *why, size_t len)
{
	struct rtp_explain *ex;
	cpu_set_t allowed, readers;
	pthread_attr_t attr;
	int ret, i;

	*out = NULL;
	ex = calloc(1, sizeof(*ex));
	if (!ex) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	ex->threshold_ns = threshold_ns;
	ex->st = st;
	ex->efd = -1;
	ex->group_slot = -1;
	ex->measured = *measured;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, measured))
			ex->maxcpu = i;
	for (i = 0; i < QLEN; i++)
		ex->q[i].seq = (unsigned long)i;
	ex->kept = calloc(RTP_EXPLAIN_KEEP, sizeof(*ex->kept));
	ex->cpu = calloc((size_t)ex->maxcpu + 1, sizeof(*ex->cpu));
	ex->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!ex->kept || !ex->cpu || ex->efd < 0) {
		ret = ex->efd < 0 ? -errno : -ENOMEM;
		snprintf(why, len, "cannot set up: %s", strerror(-ret));
		goto fail;
	}
	ret = find_tracefs(ex, why, len);
	if (ret)
		goto fail;
	/* the reader's CPUs: the allowed ones nobody measures */
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	CPU_ZERO(&readers);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &allowed) && !CPU_ISSET(i, measured))
			CPU_SET(i, &readers);
	ex->deferred = CPU_COUNT(&readers) == 0;
	{
		char rt[16] = "";

		/* PREEMPT_RT kernels have /sys/kernel/realtime (1) */
		ex->rt = !rtp_read_file("/sys/kernel/realtime", rt, sizeof(rt)) && rt[0] == '1';
	}
	if (ex->deferred)
		snprintf(ex->reader_cpus, sizeof(ex->reader_cpus), "none");
	else
		rtp_format_cpulist(&readers, ex->reader_cpus, sizeof(ex->reader_cpus));
	ret = setup_instance(ex, why, len);
	if (ret)
		goto fail;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	{
		/* SCHED_OTHER whatever the caller runs at: below every real-time thread */
		struct sched_param sp = { 0 };

		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
	}
	ret = -pthread_create(&ex->th, &attr, reader, ex);
	pthread_attr_destroy(&attr);
	if (ret) {
		snprintf(why, len, "cannot start the trace reader: %s", strerror(-ret));
		goto fail;
	}
	ex->started = true;
	/*
	 * After-run mode: on a measured CPU, SCHED_OTHER below the real-time
	 * threads; one swap, then asleep.  (SCHED_IDLE was starved for seconds
	 * under hackbench: the swap came too late for the window.)
	 */
	if (!ex->deferred)
		pthread_setaffinity_np(ex->th, sizeof(readers), &readers);
	*out = ex;
	return 0;
fail:
	remove_instance(ex);
	rtp_explain_free(ex);
	return ret;
}

void rtp_explain_note(struct rtp_explain *ex, int cpu, int tid, uint64_t release_ns,
		      uint64_t wake_ns, const char *what)
{
	unsigned long pos = __atomic_load_n(&ex->head, __ATOMIC_RELAXED);
	uint64_t one = 1;
	struct slot *s;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || cpu > ex->maxcpu || !CPU_ISSET(cpu, &ex->measured)) {
		__atomic_fetch_add(&ex->dropped, 1, __ATOMIC_RELAXED);
		return;
	}
	for (;;) {
		unsigned long seq;

		s = &ex->q[pos % QLEN];
		seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq == pos) {
			if (__atomic_compare_exchange_n(&ex->head, &pos, pos + 1, true,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				break;
		} else if (seq < pos) {
			__atomic_fetch_add(&ex->dropped, 1, __ATOMIC_RELAXED);	/* full */
			return;
		} else {
			pos = __atomic_load_n(&ex->head, __ATOMIC_RELAXED);
		}
	}
	s->n.cpu = cpu;
	s->n.tid = tid ? tid : rtp_gettid();
	s->n.release_ns = release_ns;
	s->n.wake_ns = wake_ns;
	s->n.what = what;
	__atomic_store_n(&s->seq, pos + 1, __ATOMIC_RELEASE);
	if (!__atomic_load_n(&ex->quiet, __ATOMIC_RELAXED) && write(ex->efd, &one, sizeof(one)) < 0) {
		/* saturated: the reader is awake anyway */
	}
}

void rtp_explain_finish(struct rtp_explain *ex)
{
	int i, cpu;
	uint64_t one = 1;

	if (!ex || ex->finished)
		return;
	ex->finished = true;
	if (ex->started) {
		__atomic_store_n(&ex->stop, 1, __ATOMIC_RELEASE);
		if (write(ex->efd, &one, sizeof(one)) < 0) {
			/* it polls every 100 ms anyway */
		}
		pthread_join(ex->th, NULL);
	}
	/* what waited in the queue (after-run mode: all since the swap) */
	for (;;) {
		int nb = drain(ex, ex->batch);

		if (!nb)
			break;
		if (ex->deferred)
			explain_later(ex, ex->batch, nb);
		else
			explain_now(ex, ex->batch, nb);
	}
	if (ex->inst[0]) {
		rtp_ctl_write_at(ex->inst, "tracing_on", "0");
		/* after the run: every outlier, from the snapshot and the ring as it stands */
		if (ex->npend) {
			for (cpu = 0; cpu <= ex->maxcpu; cpu++) {
				if (!CPU_ISSET(cpu, &ex->measured))
					continue;
				if ((ex->snapped && read_cpu(ex, cpu, "snapshot")) ||
				    read_cpu(ex, cpu, "trace"))
					ex->failed++;
			}
		}
	} else {
		ex->not_covered += ex->npend;	/* no trace to read */
		ex->npend = 0;
	}
	for (i = 0; i < (int)ex->npend; i++)
		explain_one(ex, &ex->pend[i]);
	ex->npend = 0;
	rtp_xrun_attribute(&ex->run, NULL, NULL);	/* the driver gives the p50s: rtp_explain_attribute */
	remove_instance(ex);
}

void rtp_explain_free(struct rtp_explain *ex)
{
	int cpu;

	if (!ex)
		return;
	rtp_explain_finish(ex);
	if (ex->efd >= 0)
		close(ex->efd);
	if (ex->cpu)
		for (cpu = 0; cpu <= ex->maxcpu; cpu++)
			free(ex->cpu[cpu].ev);
	free(ex->cpu);
	free(ex->kept);
	free(ex->pend);
	rtp_xrun_free(&ex->run);
	free(ex);
}
