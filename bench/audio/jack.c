// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JACK backend: a client of a running jackd (jack2), libjack loaded
 * with dlopen so that the ALSA bench and a machine without JACK keep
 * working.  JACK calls the client once per cycle on its own real-time
 * thread; at each call this backend records:
 *
 * - wake-up lateness: from the cycle's start, when the server's driver
 *   began it, to the call: jack_frames_since_cycle_start(), which jack2
 *   counts on its own clock (CLOCK_MONOTONIC_RAW, never mixed with
 *   CLOCK_MONOTONIC) from that start, in whole frames rounded down; the
 *   lateness is the frame's upper edge (one frame more), never less than
 *   the truth and at most a frame (20.8 us at 48 kHz) above it.  Not
 *   jack_get_cycle_times(): its current_usecs is a delay-locked loop's
 *   estimate (1/8 Hz bandwidth) that takes seconds to lock again after a
 *   server xrun re-anchors the driver, and is off by milliseconds
 *   meanwhile (a 5 s run in the guest: 14.7 ms "late" with no xrun);
 *   how far off it was is kept (filter_off_max_ns);
 * - the margin: from the call to the next cycle's start (the start plus a
 *   period);
 * - its own work: from the call to the end of its work (DSP, buffers);
 * - missed cycles: jack_last_frame_time() moving by more than a period.
 *
 * The server's xrun callback counts the xruns.  jack2 names no culprit
 * there; with --start-server the server's log does, and each xrun is put
 * down to this client's own lateness or work, another client by name, or
 * the server.  Cycle figures are JACK's microseconds, recorded in ns.
 */
#include "audio.h"
#include "jack.h"

#include <alsa/asoundlib.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "explain/explain.h"
#include "json.h"
#include "log.h"
#include "rt.h"
#include "run.h"

/* ---- libjack's ABI, as <jack/jack.h> declares it (no build dependency) ---- */
typedef uint32_t jack_nframes_t;
typedef uint64_t jack_time_t;
#define JACK_NO_START_SERVER	0x01
#define JACK_SERVER_NAME	0x04
#define JACK_PORT_IS_INPUT	0x1
#define JACK_PORT_IS_OUTPUT	0x2
#define JACK_AUDIO_TYPE		"32 bit float mono audio"

struct jack_fns {
	void *(*client_open)(const char *name, int options, int *status, ...);
	int (*client_close)(void *client);
	char *(*get_client_name)(void *client);
	jack_nframes_t (*get_sample_rate)(void *client);
	jack_nframes_t (*get_buffer_size)(void *client);
	int (*set_process_callback)(void *client, int (*cb)(jack_nframes_t, void *), void *arg);
	int (*set_xrun_callback)(void *client, int (*cb)(void *), void *arg);
	void (*on_info_shutdown)(void *client, void (*cb)(int, const char *, void *), void *arg);
	void *(*port_register)(void *client, const char *name, const char *type,
			       unsigned long flags, unsigned long size);
	void *(*port_get_buffer)(void *port, jack_nframes_t n);
	int (*activate)(void *client);
	int (*deactivate)(void *client);
	int (*get_cycle_times)(const void *client, jack_nframes_t *frames, jack_time_t *cur,
			       jack_time_t *next, float *period_usecs);
	jack_time_t (*get_time)(void);
	jack_nframes_t (*last_frame_time)(const void *client);
	jack_nframes_t (*frames_since_cycle_start)(const void *client);
	float (*cpu_load)(void *client);
	int (*is_realtime)(void *client);
	int (*client_real_time_priority)(void *client);
	pthread_t (*client_thread_id)(void *client);
	void (*set_error_function)(void (*f)(const char *));
	void (*set_info_function)(void (*f)(const char *));
};

#define JACK_MAX_PORTS 64
#define OV_RING 256			/* this client's own late cycles, kept for the attribution */
#define XR_RING 1024			/* the server's xrun callbacks */
#define NAMES 64			/* log lines naming a client, not yet matched */

/* A cycle this client did not finish by its deadline. */
struct jack_overrun {
	jack_time_t start_us, wake_us, end_us, deadline_us;
	uint64_t lateness_ns;		/* with the missed cycles it was woken for */
	uint64_t margin_ns;		/* to its deadline at the call (0: woken past it) */
	enum audio_xrun_cause cause;	/* late-wakeup or work-overran-margin */
	uint32_t missed;		/* cycles skipped before it (frame time) */
};

struct jack_named {
	char name[64];
	int rank;			/* audio_jackd_parse_xrun() */
};

/* An xrun whose log lines and own late cycle may still be coming. */
struct jack_pend {
	jack_time_t at_us;		/* the first callback */
	unsigned ncb;			/* callbacks: one per unfinished client */
	int idx;			/* c->xrun[]; -1: not kept */
};
#define PENDS 64

struct jack_dev {
	void *lib;
	struct jack_fns f;
	void *client;
	void *port[JACK_MAX_PORTS];
	unsigned nports;
	char name[64];			/* this client's name, as the server granted it */
	char server[64];
	bool started;			/* --start-server: srv is ours */
	bool log_read;			/* --start-server or --server-log: srv.log_fd is the server's log */
	struct audio_jackd srv;
	int rt_priority;		/* the process thread's, as JACK set it; -1: not RT */
	bool realtime;
	bool activated;
	int go;				/* atomic: the process thread records */
	int pinned;			/* atomic: -a/--plant-stall: the process thread was pinned */
	int pin_err;

	/* written by the process thread */
	bool have_frame;
	jack_nframes_t last_frame;
	struct audio_prev_call prev;	/* the previous call (audio_judge_call) */
	bool have_start;
	jack_time_t prev_start_us;	/* the previous call's cycle start */
	uint64_t server_late;		/* atomic: cycles the server's driver began late */
	uint64_t server_late_max_ns;	/* atomic: by how much, at worst */
	uint64_t missed_cycles;		/* atomic */
	uint64_t cycle_errors;		/* jack_get_cycle_times() failed */
	uint64_t filter_off_max_ns;	/* atomic: the filtered cycle start's worst distance from the real one */
	uint64_t ov_seq;		/* atomic: overruns written */
	struct jack_overrun ov[OV_RING];

	/* written by JACK's notification thread */
	uint64_t xr_seq;		/* atomic */
	jack_time_t xr_at[XR_RING];
	int gone;			/* atomic: the server shut the client down */
	char gone_reason[160];

	/* the audio thread (supervising) */
	uint64_t xr_done;		/* callbacks attributed */
	uint64_t callbacks;		/* the server's xrun callbacks, all */
	struct jack_pend pend[PENDS];
	unsigned pend_head, pend_tail;
	struct jack_named named[NAMES];
	unsigned named_head, named_tail;
	uint64_t log_lines_xrun;	/* engine xrun lines read */
	double load_sum, load_max;
	uint64_t load_n;
};

static void jack_quiet(const char *msg)
{
	(void)msg;
}

static int jack_load(struct jack_dev *d, char *why, size_t len)
{
	static const struct audio_dl_sym syms[] = {
#define S(m, n) { offsetof(struct jack_fns, m), n }
		S(client_open, "jack_client_open"), S(client_close, "jack_client_close"),
		S(get_client_name, "jack_get_client_name"),
		S(get_sample_rate, "jack_get_sample_rate"), S(get_buffer_size, "jack_get_buffer_size"),
		S(set_process_callback, "jack_set_process_callback"),
		S(set_xrun_callback, "jack_set_xrun_callback"),
		S(on_info_shutdown, "jack_on_info_shutdown"), S(port_register, "jack_port_register"),
		S(port_get_buffer, "jack_port_get_buffer"), S(activate, "jack_activate"),
		S(deactivate, "jack_deactivate"), S(get_cycle_times, "jack_get_cycle_times"),
		S(get_time, "jack_get_time"), S(last_frame_time, "jack_last_frame_time"),
		S(frames_since_cycle_start, "jack_frames_since_cycle_start"),
		S(cpu_load, "jack_cpu_load"), S(is_realtime, "jack_is_realtime"),
		S(client_real_time_priority, "jack_client_real_time_priority"),
		S(client_thread_id, "jack_client_thread_id"),
		S(set_error_function, "jack_set_error_function"),
		S(set_info_function, "jack_set_info_function"),
#undef S
	};

	return audio_dl_load(&d->lib, "libjack.so.0", "libjack", "libjack-jackd2-0",
			     "not jack2's libjack.so.0?", &d->f, syms, sizeof(syms) / sizeof(syms[0]), why, len);
}

/* ---- the process thread ---------------------------------------------------- */

static int jack_process(jack_nframes_t n, void *arg)
{
	struct audio_ctx *c = arg;
	struct jack_dev *d = c->dev;
	jack_time_t now = d->f.get_time(), cur, end, fcur, fnext;
	jack_nframes_t since = d->f.frames_since_cycle_start(d->client);
	jack_nframes_t frames, lf = d->f.last_frame_time(d->client);
	uint64_t mono = rtp_now_ns(CLOCK_MONOTONIC);	/* the series' time axis only */
	uint64_t lat, units, skipped = 0, srv_late = 0;
	const uint64_t period_ns = audio_frames_ns(n, c->cfg.rate);
	const jack_time_t period_us = period_ns / 1000;
	struct audio_call k;
	struct audio_step *s;
	float per;
	unsigned i;

	for (i = 0; i < d->nports; i++) {
		float *b = d->f.port_get_buffer(d->port[i], n);

		if (b && !c->o->capture)
			memset(b, 0, (size_t)n * sizeof(float));
		else if (b)
			memcpy(c->silence, b, (size_t)(n < c->cfg.period ? n : c->cfg.period) * sizeof(float));
	}
	if (!__atomic_load_n(&d->go, __ATOMIC_ACQUIRE))
		return 0;
	if (d->f.get_cycle_times(d->client, &frames, &fcur, &fnext, &per)) {
		d->cycle_errors++;
		return 0;
	}
	/* the cycle's start: at the earliest, `since` + 1 frames before now */
	lat = audio_frames_ns((uint64_t)since + 1, c->cfg.rate);
	cur = now - lat / 1000;
	{
		uint64_t off = (fcur > cur ? fcur - cur : cur - fcur) * 1000;

		if (off > RTP_LD(&d->filter_off_max_ns))
			RTP_ST(&d->filter_off_max_ns, off);
	}
	(void)fnext;
	if (d->have_frame && lf - d->last_frame > n) {
		skipped = (lf - d->last_frame) / n - 1 + ((lf - d->last_frame) % n != 0);
		RTP_ST(&d->missed_cycles, RTP_LD(&d->missed_cycles) + skipped);
	}
	d->have_frame = true;
	d->last_frame = lf;
	/*
	 * The server's own lateness: its driver began this cycle more than half
	 * a period after the previous cycle's start plus the periods between
	 * (its cycles are a period apart; a frame's rounding and the driver's
	 * jitter stay under half of one).  On one CPU a stall holds the driver
	 * as well as this client: then the cycle was late before it began.
	 */
	if (d->have_start && cur > d->prev_start_us + (skipped + 1) * period_us + period_us / 2) {
		srv_late = (cur - d->prev_start_us - (skipped + 1) * period_us) * 1000;
		RTP_ST(&d->server_late, RTP_LD(&d->server_late) + 1);
		if (srv_late > RTP_LD(&d->server_late_max_ns))
			RTP_ST(&d->server_late_max_ns, srv_late);
	}
	d->have_start = true;
	d->prev_start_us = cur;
	s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
	units = __atomic_load_n(&c->dsp_units, __ATOMIC_RELAXED);
	audio_dsp_run(&c->dsp, units);
	end = d->f.get_time();

	audio_judge_call(&d->prev, cur * 1000, now * 1000, end * 1000, period_ns, skipped, lat, &k);
	/* --explain: from when the cycle was due, the server's part with it */
	if (__builtin_expect(k.lat + srv_late > c->run->explain_ns, 0))
		rtp_explain_note(c->run->ex, -1, 0, mono > k.lat + srv_late ? mono - k.lat - srv_late : 0, mono,
				 srv_late ? "server late" : "lateness");
	audio_record_call(c, s, k.lat, k.margin, k.work, mono);
	if (__builtin_expect(k.overran, 0)) {
		uint64_t q = RTP_LD(&d->ov_seq);
		struct jack_overrun *o = &d->ov[q % OV_RING];

		o->start_us = cur;
		o->wake_us = now;
		o->end_us = end;
		o->deadline_us = cur + period_ns / 1000;
		o->missed = (uint32_t)skipped;
		o->lateness_ns = k.lat;
		o->margin_ns = k.margin;
		o->cause = k.cause;
		if (!k.backlog && o->cause == AUDIO_CAUSE_LATE_WAKEUP && srv_late > k.lat) {
			/* the server began the cycle late, more than this client woke late */
			o->cause = AUDIO_CAUSE_SERVER;
			o->lateness_ns = k.lat + srv_late;
		}
		d->prev.cause = o->cause;
		__atomic_store_n(&d->ov_seq, q + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

static int jack_xrun_cb(void *arg)
{
	struct audio_ctx *c = arg;
	struct jack_dev *d = c->dev;
	uint64_t q = RTP_LD(&d->xr_seq);

	d->xr_at[q % XR_RING] = d->f.get_time();
	__atomic_store_n(&d->xr_seq, q + 1, __ATOMIC_RELEASE);
	return 0;
}

static void jack_shutdown_cb(int code, const char *reason, void *arg)
{
	struct audio_ctx *c = arg;
	struct jack_dev *d = c->dev;

	(void)code;
	snprintf(d->gone_reason, sizeof(d->gone_reason), "%s", reason ? reason : "no reason given");
	__atomic_store_n(&d->gone, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
}

/* ---- open ------------------------------------------------------------------ */

static int jack_connect_client(struct jack_dev *d, const char *server)
{
	int status = 0;

	d->client = d->f.client_open("rtproof-audio", JACK_NO_START_SERVER | JACK_SERVER_NAME,
				     &status, server);
	return d->client ? 0 : status ? status : -1;
}

static int jack_open(struct audio_ctx *c, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	struct jack_dev *d;
	const char *env = getenv("JACK_DEFAULT_SERVER");
	unsigned rate, period, i;
	int ret, status, tries;

	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	c->dev = d;
	d->srv.pid = -1;
	d->srv.log_fd = -1;
	ret = jack_load(d, why, len);
	if (ret) {
		c->cannot_open = true;
		return ret;
	}
	d->f.set_error_function(jack_quiet);
	d->f.set_info_function(jack_quiet);
	snprintf(d->server, sizeof(d->server), "%s",
		 o->jack_server ? o->jack_server : env && *env ? env : "default");
	if (o->start_server) {
		ret = audio_jackd_start(&d->srv, o->rate, o->period, why, len);
		if (ret)
			return ret;
		d->started = true;
		d->log_read = d->srv.log_fd >= 0;
		snprintf(d->server, sizeof(d->server), "%s", d->srv.name);
		/* Up to 10 s for the server to come up. */
		for (tries = 0; tries < 200; tries++) {
			struct timespec ts = { 0, 50000000 };

			if (!jack_connect_client(d, d->server))
				break;
			if (!audio_jackd_alive(&d->srv)) {
				char last[200];

				audio_jackd_last_line(&d->srv, last, sizeof(last));
				snprintf(why, len, "--start-server: jackd exited: %s", last);
				return -EIO;
			}
			nanosleep(&ts, NULL);
		}
		if (!d->client) {
			snprintf(why, len, "--start-server: jackd '%s' did not accept a client within 10 s",
				 d->server);
			return -ETIMEDOUT;
		}
	} else {
		if (o->server_log) {
			/* The server's log as data: only the lines it writes from now on. */
			d->srv.log_fd = open(o->server_log, O_RDONLY | O_CLOEXEC);
			if (d->srv.log_fd < 0 || lseek(d->srv.log_fd, 0, SEEK_END) < 0) {
				snprintf(why, len, "--server-log %s: cannot read it: %s", o->server_log,
					 strerror(errno));
				return -EIO;
			}
			d->log_read = true;
		}
		status = jack_connect_client(d, d->server);
		if (status) {
			snprintf(why, len, "no JACK server '%s' running (jack_client_open status 0x%x)",
				 d->server, (unsigned)status);
			c->cannot_open = true;
			return -ECONNREFUSED;
		}
	}
	snprintf(d->name, sizeof(d->name), "%s", d->f.get_client_name(d->client));
	rate = d->f.get_sample_rate(d->client);
	period = d->f.get_buffer_size(d->client);
	if (o->rate_given && rate != o->rate) {
		snprintf(why, len, "--rate %u: the JACK server '%s' runs at %u Hz (a client cannot "
			 "change it; drop --rate, or restart jackd with -r %u)", o->rate, d->server,
			 rate, o->rate);
		return -EINVAL;
	}
	if (o->period_given && period != o->period) {
		snprintf(why, len, "--period %u: the JACK server '%s' runs %u-frame periods (drop "
			 "--period, or restart jackd with -p %u)", o->period, d->server, period,
			 o->period);
		return -EINVAL;
	}
	if (!rate || !period) {
		snprintf(why, len, "the JACK server '%s' reports %u Hz and %u-frame periods",
			 d->server, rate, period);
		return -EINVAL;
	}
	d->nports = o->channels < JACK_MAX_PORTS ? o->channels : JACK_MAX_PORTS;
	for (i = 0; i < d->nports; i++) {
		char pn[32];

		snprintf(pn, sizeof(pn), "%s_%u", o->capture ? "in" : "out", i + 1);
		d->port[i] = d->f.port_register(d->client, pn, JACK_AUDIO_TYPE,
						o->capture ? JACK_PORT_IS_INPUT : JACK_PORT_IS_OUTPUT, 0);
		if (!d->port[i]) {
			snprintf(why, len, "JACK server '%s': cannot register port %s", d->server, pn);
			return -EIO;
		}
	}
	if (d->f.set_process_callback(d->client, jack_process, c) ||
	    d->f.set_xrun_callback(d->client, jack_xrun_cb, c)) {
		snprintf(why, len, "JACK server '%s': cannot set the callbacks", d->server);
		return -EIO;
	}
	d->f.on_info_shutdown(d->client, jack_shutdown_cb, c);
	c->cfg.rate = rate;
	c->cfg.channels = d->nports;
	c->cfg.format = SND_PCM_FORMAT_FLOAT_LE;	/* JACK's one sample format */
	c->cfg.period = period;
	c->cfg.periods = 0;	/* the server's own; a client has one cycle */
	c->cfg.buffer = period;
	c->cfg.access = "jack";
	snprintf(c->cfg.pcm_name, sizeof(c->cfg.pcm_name), "%s", d->name);
	snprintf(c->cfg.card, sizeof(c->cfg.card), "JACK server '%s'%s", d->server,
		 d->started ? " (started by this run: jackd -R -d dummy)" : "");
	return 0;
}

static void jack_close(struct audio_ctx *c)
{
	struct jack_dev *d = c->dev;

	if (!d)
		return;
	if (d->client) {
		if (d->activated && !__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE))
			d->f.deactivate(d->client);
		d->f.client_close(d->client);
	}
	if (d->started)
		audio_jackd_stop(&d->srv);
	else if (d->srv.log_fd >= 0)
		close(d->srv.log_fd);
	if (d->lib)
		dlclose(d->lib);
	free(d);
	c->dev = NULL;
}

/* ---- the attribution (the audio thread, between polls) ------------------------- */

static void log_line(void *arg, const char *l)
{
	struct jack_dev *d = arg;
	struct jack_named *n;
	char name[64];
	int rank = audio_jackd_parse_xrun(l, name, sizeof(name));

	if (!rank)
		return;
	d->log_lines_xrun++;
	if (d->named_tail - d->named_head >= NAMES)
		return;		/* lines no callback came for: dropped, not matched */
	n = &d->named[d->named_tail++ % NAMES];
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->rank = rank;
}

/*
 * This client's own late cycle that the xrun at t_us reports, or NULL: one
 * whose wake-up was due before the callback (plus a cycle) and that ended
 * at most 4 cycles before it, the worst of them (callbacks can come late,
 * in a burst; a wake-up held back for many cycles covers each of them).
 */
static const struct jack_overrun *own_overrun(struct jack_dev *d, jack_time_t t_us,
					      jack_time_t period_us)
{
	uint64_t q = __atomic_load_n(&d->ov_seq, __ATOMIC_ACQUIRE), k;
	const struct jack_overrun *best = NULL;

	for (k = q > OV_RING ? q - OV_RING : 0; k < q; k++) {
		const struct jack_overrun *o = &d->ov[k % OV_RING];
		uint64_t w = o->lateness_ns + (o->end_us - o->wake_us) * 1000;

		/* The cycle it was woken for began before the callback (plus a cycle). */
		jack_time_t due_us = o->wake_us - o->lateness_ns / 1000;

		if (due_us > t_us + period_us || o->end_us + 4 * period_us < t_us)
			continue;
		if (!best || w > best->lateness_ns + (best->end_us - best->wake_us) * 1000)
			best = o;
	}
	return best;
}

/* An xrun (one cycle's callbacks) is complete: its culprit and cause. */
static void close_xrun(struct audio_ctx *c, struct jack_dev *d, const struct jack_pend *p,
		       unsigned lines)
{
	jack_time_t period_us = audio_frames_ns(c->cfg.period, c->cfg.rate) / 1000;
	const struct jack_overrun *o = own_overrun(d, p->at_us, period_us);
	struct audio_xrun *x = p->idx >= 0 ? &c->xrun[p->idx] : NULL;
	const struct jack_named *best = NULL;
	enum audio_xrun_cause cause;
	unsigned i;

	/* Its log lines, one per callback: the client that was running is the culprit. */
	for (i = 0; i < lines; i++) {
		const struct jack_named *n = &d->named[d->named_head++ % NAMES];

		if (!best || n->rank > best->rank)
			best = n;
	}
	if (best && strcmp(best->name, d->name)) {
		cause = AUDIO_CAUSE_OTHER_CLIENT;
	} else if (best) {
		/*
		 * This client: its own late call says which (the server's
		 * "Triggered" also covers a client still busy with the previous
		 * cycle); without one, triggered but not running is a late wake-up.
		 */
		cause = o ? o->cause : best->rank == 1 ? AUDIO_CAUSE_LATE_WAKEUP : AUDIO_CAUSE_WORK;
	} else if (o) {
		cause = o->cause;
	} else {
		/*
		 * This client was in time and no client was named: with the
		 * server's log read, the server itself (its driver's cycle); without
		 * it, another client or the server: jack2's callback says no more.
		 */
		cause = d->log_read ? AUDIO_CAUSE_SERVER : AUDIO_CAUSE_OTHER_CLIENT;
	}
	if (x) {
		x->cause = cause;
		if (best && cause != AUDIO_CAUSE_SERVER)	/* the server held this client back */
			snprintf(x->culprit, sizeof(x->culprit), "%s", best->name);
		if (o) {
			x->lateness_ns = o->lateness_ns;
			x->margin_ns = o->margin_ns;
			x->work_ns = o->end_us > o->wake_us ? (o->end_us - o->wake_us) * 1000 : 0;
			x->gap_ns = o->end_us > o->deadline_us ? (o->end_us - o->deadline_us) * 1000 : 0;
		}
	}
	c->xrun_causes[cause]++;
}

/* Do the next n log lines name this client as the one to blame? */
static bool names_self(const struct jack_dev *d, unsigned n)
{
	const struct jack_named *best = NULL;
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct jack_named *x = &d->named[(d->named_head + i) % NAMES];

		if (!best || x->rank > best->rank)
			best = x;
	}
	return best && !strcmp(best->name, d->name);
}

/*
 * The server's log is written by its own thread, after the callbacks went
 * out: an xrun is closed when its lines are in (or LINE_WAIT_US passed),
 * and, to see this client's late cycle end, no sooner than 4 cycles after.
 */
#define LINE_WAIT_US 500000

static void attribute(struct audio_ctx *c, struct jack_dev *d, bool final)
{
	jack_time_t period_us = audio_frames_ns(c->cfg.period, c->cfg.rate) / 1000;
	uint64_t q = __atomic_load_n(&d->xr_seq, __ATOMIC_ACQUIRE);
	jack_time_t now = d->f.get_time();

	if (d->log_read)
		audio_jackd_read(&d->srv, log_line, d);
	if (q - d->xr_done > XR_RING)
		d->xr_done = q - XR_RING;	/* not reached at one poll per 10 ms */
	for (; d->xr_done < q; d->xr_done++) {
		jack_time_t t = d->xr_at[d->xr_done % XR_RING];
		struct jack_pend *last = d->pend_tail != d->pend_head ?
					 &d->pend[(d->pend_tail - 1) % PENDS] : NULL;
		struct audio_step *s;

		d->callbacks++;
		/* jack2 calls back once per unfinished client: one cycle, one xrun. */
		if (last && t < last->at_us + period_us / 2) {
			last->ncb++;
			continue;
		}
		if (d->pend_tail - d->pend_head >= PENDS) {	/* the oldest waits no longer */
			struct jack_pend *p = &d->pend[d->pend_head++ % PENDS];
			unsigned have = d->named_tail - d->named_head;

			close_xrun(c, d, p, have < p->ncb ? have : p->ncb);
		}
		last = &d->pend[d->pend_tail++ % PENDS];
		last->at_us = t;
		last->ncb = 1;
		last->idx = -1;
		s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
		RTP_ST(&c->xruns, RTP_LD(&c->xruns) + 1);
		RTP_ST(&s->xruns, RTP_LD(&s->xruns) + 1);
		if (c->nxrun < AUDIO_MAX_XRUNS) {
			struct audio_xrun *x = &c->xrun[c->nxrun];
			uint64_t mono_now = rtp_now_ns(CLOCK_MONOTONIC);
			uint64_t ago = now > t ? (now - t) * 1000 : 0;

			memset(x, 0, sizeof(*x));
			/* The time axis: JACK's moment carried over as a distance, not a clock. */
			x->at_ns = mono_now - ago > c->start_ns ? mono_now - ago - c->start_ns : 0;
			last->idx = c->nxrun++;
		}
	}
	while (d->pend_head != d->pend_tail) {
		struct jack_pend *p = &d->pend[d->pend_head % PENDS];
		unsigned have = d->named_tail - d->named_head;

		if (!final && now < p->at_us + 4 * period_us)
			break;
		if (!final && d->log_read && have < p->ncb && now < p->at_us + LINE_WAIT_US)
			break;
		/* Named, but its late call has not come yet (it is still kept from running). */
		if (!final && names_self(d, have < p->ncb ? have : p->ncb) &&
		    !own_overrun(d, p->at_us, period_us) && now < p->at_us + LINE_WAIT_US)
			break;
		d->pend_head++;
		close_xrun(c, d, p, have < p->ncb ? have : p->ncb);
	}
}

/* ---- run ------------------------------------------------------------------- */

static int jack_run(struct audio_ctx *c)
{
	struct jack_dev *d = c->dev;
	struct timespec ts = { 0, 10000000 };

	if (d->f.activate(d->client)) {
		c->err_what = "activate the JACK client";
		return -EIO;
	}
	d->activated = true;
	d->realtime = d->f.is_realtime(d->client) > 0;
	d->rt_priority = d->f.client_real_time_priority(d->client);
	if (c->audio_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(c->audio_cpu, &set);
		d->pin_err = pthread_setaffinity_np(d->f.client_thread_id(d->client), sizeof(set), &set);
		if (d->pin_err) {
			c->err_what = "pin JACK's process thread (-a)";
			return -d->pin_err;
		}
		__atomic_store_n(&d->pinned, 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&d->go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		double load;

		nanosleep(&ts, NULL);
		if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE))
			break;
		load = d->f.cpu_load(d->client);
		d->load_sum += load;
		d->load_n++;
		if (load > d->load_max)
			d->load_max = load;
		attribute(c, d, false);
	}
	__atomic_store_n(&d->go, 0, __ATOMIC_RELEASE);
	if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE)) {
		attribute(c, d, true);
		c->stop_why = "server-gone";
		snprintf(c->err_detail, sizeof(c->err_detail),
			 "the JACK server '%s' shut down mid-run: %s", d->server, d->gone_reason);
		c->err_what = "go on: its JACK server";
		return -ENOTCONN;
	}
	d->f.deactivate(d->client);
	d->activated = false;
	attribute(c, d, true);
	return 0;
}

/* ---- report ------------------------------------------------------------------ */

static void jack_config(const struct audio_ctx *c, const char *timing)
{
	const struct audio_config *g = &c->cfg;
	char pt[24];

	rtp_format_ns(audio_frames_ns(g->period, g->rate), pt, sizeof(pt));
	printf("  server's: %s, %u frames per cycle, %u Hz, %u port%s, FLOAT_LE\n",
	       c->o->capture ? "capture (input ports)" : "playback (output ports)", g->period,
	       g->rate, g->channels, g->channels == 1 ? "" : "s");
	printf("  timing: %s\n", timing);
	printf("  cycle %s; the client's deadline is the next cycle's start\n", pt);
}

static void jack_summary(const struct audio_ctx *c)
{
	const struct jack_dev *d = c->dev;
	char off[32], late[32];

	if (!d)
		return;
	printf("JACK: client '%s' on server '%s', process thread %s",
	       d->name, d->server, d->realtime ? "SCHED_FIFO" : "not real-time");
	if (d->realtime)
		printf(" %d", d->rt_priority);
	printf(" (set by the server)\n");
	printf("  server DSP load (jack_cpu_load) mean %.1f %%, max %.1f %%; xrun callbacks %llu; "
	       "missed cycles %llu\n", d->load_n ? d->load_sum / (double)d->load_n : 0.0, d->load_max,
	       (unsigned long long)d->callbacks, (unsigned long long)RTP_LD(&d->missed_cycles));
	printf("  cycles the server's driver began late (over half a period): %llu, the worst by %s\n",
	       (unsigned long long)RTP_LD(&d->server_late),
	       rtp_format_ns(RTP_LD(&d->server_late_max_ns), late, sizeof(late)));
	printf("  cycle start from jack_frames_since_cycle_start (one frame, %.1f us: lateness at the frame's upper edge); "
	       "the server's filtered start (jack_get_cycle_times) was off it by up to %s\n",
	       1e6 / c->cfg.rate, rtp_format_ns(RTP_LD(&d->filter_off_max_ns), off, sizeof(off)));
	printf("  times on JACK's clock (jack_get_time), 1 us resolution; %s\n",
	       d->log_read ? "culprits from the server's log" :
	       "the server's log is not read (--start-server, --server-log): other clients go unnamed");
}

static void jack_events(const struct audio_ctx *c, struct rtp_json *j)
{
	const struct jack_dev *d = c->dev;

	if (!d)
		return;
	rtp_json_begin_object(j, "jack");
	rtp_json_string(j, "server", d->server);
	rtp_json_string(j, "client", d->name);
	rtp_json_bool(j, "server_started", d->started);
	rtp_json_bool(j, "server_log_read", d->log_read);
	rtp_json_bool(j, "realtime", d->realtime);
	if (d->realtime)
		rtp_json_int(j, "rt_priority", d->rt_priority);
	else
		rtp_json_null(j, "rt_priority");
	rtp_json_uint(j, "xrun_callbacks", d->callbacks);
	rtp_json_uint(j, "log_xrun_lines", d->log_lines_xrun);
	rtp_json_uint(j, "missed_cycles", RTP_LD(&d->missed_cycles));
	rtp_json_uint(j, "cycle_time_errors", d->cycle_errors);
	rtp_json_string(j, "cycle_start", "jack_frames_since_cycle_start, lateness at the frame's upper edge");
	rtp_json_uint(j, "frame_resolution_ns", audio_frames_ns(1, c->cfg.rate));
	rtp_json_uint(j, "filter_off_max_ns", RTP_LD(&d->filter_off_max_ns));
	rtp_json_uint(j, "server_late_cycles", RTP_LD(&d->server_late));
	rtp_json_uint(j, "server_late_max_ns", RTP_LD(&d->server_late_max_ns));
	rtp_json_double(j, "cpu_load_mean_pct", d->load_n ? d->load_sum / (double)d->load_n : 0.0);
	rtp_json_double(j, "cpu_load_max_pct", d->load_max);
	rtp_json_string(j, "clock", "jack_get_time (jack2: CLOCK_MONOTONIC_RAW), us");
	if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE))
		rtp_json_string(j, "shutdown_reason", d->gone_reason);
	rtp_json_end_object(j);
}

const struct audio_backend_ops audio_jack_ops = {
	.name = "jack",
	.label = "JACK backend",
	.tag = " [JACK]",
	.timing = "JACK's cycle start (jack_frames_since_cycle_start, whole frames: lateness at the frame's upper edge)",
	.open = jack_open,
	.close = jack_close,
	.run = jack_run,
	.config = jack_config,
	.summary = jack_summary,
	.events = jack_events,
};
