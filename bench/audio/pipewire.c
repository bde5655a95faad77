// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PipeWire backend: a native pw_stream client of a running PipeWire
 * server, libpipewire-0.3 loaded with dlopen so that the other backends
 * and a machine without PipeWire keep working (its headers give the ABI
 * at build time; built without them, the backend is a skip).  The
 * stream's context reads client-rt.conf, whose module-rt makes the data
 * thread real-time; its policy and priority are read back from the
 * thread.  PipeWire calls the stream once per graph cycle on that thread;
 * at each call this backend records:
 *
 * - wake-up lateness: CLOCK_MONOTONIC at the call minus pw_time.now of
 *   pw_stream_get_time_n(), the driver's clock.nsec: when the cycle was
 *   due to start, on CLOCK_MONOTONIC (node-driver.c, null-audio-sink.c and
 *   alsa-pcm.c in 0.3.65 all stamp it so);
 * - the margin: from the call to the next cycle's start, its deadline;
 * - its own work: from the call to the end of its work (DSP, buffer);
 * - missed cycles: pw_time.ticks moving by more than a quantum.
 *
 * 0.3.65 reports no xrun to a stream and counts no late node.  The
 * profiler (libpipewire-module-profiler, as pw-top reads it) does: for
 * every cycle it sends each node's signal, awake and finish times and
 * status, and a record when the next cycle began with the graph still
 * incomplete.  Each incomplete cycle of this node's graph is an xrun, put
 * down to the node that had not finished: this node's own lateness or
 * work, another node by name, or the driver (pwprof.c reads the records,
 * pwgraph.c runs the main loop and attributes them).
 */
#include "pwdev.h"
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "explain/explain.h"
#include "rt.h"
#include "run.h"

#ifndef RTP_NO_PIPEWIRE
#include <spa/param/audio/format-utils.h>

static int pwb_load(struct pw_dev *d, char *why, size_t len)
{
	static const struct audio_dl_sym syms[] = {
#define S(m, n) { offsetof(struct pw_fns, m), n }
		S(init, "pw_init"), S(deinit, "pw_deinit"),
		S(library_version, "pw_get_library_version"), S(log_set_level, "pw_log_set_level"),
		S(loop_new, "pw_loop_new"), S(loop_destroy, "pw_loop_destroy"),
		S(context_new, "pw_context_new"), S(context_destroy, "pw_context_destroy"),
		S(context_load_module, "pw_context_load_module"),
		S(context_connect, "pw_context_connect"),
		S(context_get_data_loop, "pw_context_get_data_loop"),
		S(data_loop_get_loop, "pw_data_loop_get_loop"),
		S(core_disconnect, "pw_core_disconnect"), S(properties_new, "pw_properties_new"),
		S(properties_set, "pw_properties_set"), S(properties_setf, "pw_properties_setf"),
		S(proxy_add_object_listener, "pw_proxy_add_object_listener"),
		S(proxy_destroy, "pw_proxy_destroy"), S(stream_new, "pw_stream_new"),
		S(stream_add_listener, "pw_stream_add_listener"),
		S(stream_connect, "pw_stream_connect"), S(stream_destroy, "pw_stream_destroy"),
		S(stream_dequeue_buffer, "pw_stream_dequeue_buffer"),
		S(stream_queue_buffer, "pw_stream_queue_buffer"),
		S(stream_get_time_n, "pw_stream_get_time_n"),
		S(stream_get_node_id, "pw_stream_get_node_id"),
		S(stream_state_as_string, "pw_stream_state_as_string"),
#undef S
	};

	return audio_dl_load(&d->lib, "libpipewire-0.3.so.0", "libpipewire-0.3", "libpipewire-0.3-0",
			     "older than 0.3.65?", &d->f, syms, sizeof(syms) / sizeof(syms[0]), why, len);
}

/* ---- the data thread --------------------------------------------------------- */

/* Silence out, or the captured period read; then the buffer back to the stream. */
static void pwb_buffer(struct audio_ctx *c, struct pw_dev *d, struct pw_buffer *b, uint32_t quantum)
{
	struct spa_data *sd;
	uint32_t stride = 4 * c->o->channels, n;

	if (!b)
		return;
	sd = &b->buffer->datas[0];
	if (sd->data && stride) {
		if (!c->o->capture) {
			n = b->requested ? (uint32_t)b->requested : quantum;
			if ((uint64_t)n * stride > sd->maxsize)
				n = sd->maxsize / stride;
			memset(sd->data, 0, (size_t)n * stride);
			sd->chunk->offset = 0;
			sd->chunk->stride = (int32_t)stride;
			sd->chunk->size = n * stride;
		} else if (c->silence && sd->chunk->offset < sd->maxsize) {
			n = sd->chunk->size < sd->maxsize - sd->chunk->offset ? sd->chunk->size :
			    sd->maxsize - sd->chunk->offset;
			if (n > c->cfg.period * stride)
				n = c->cfg.period * stride;
			memcpy(c->silence, (char *)sd->data + sd->chunk->offset, n);
		}
	}
	d->f.stream_queue_buffer(d->stream, b);
}

static void pwb_process(void *arg)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;
	uint64_t now = rtp_now_ns(CLOCK_MONOTONIC), due, end, units;
	uint64_t skipped = 0, period_ns, dticks;
	struct pw_buffer *b = d->f.stream_dequeue_buffer(d->stream);
	const struct spa_io_position *pos = d->position;
	struct audio_call k;
	struct audio_step *s;
	struct pw_time t;
	uint32_t quantum, rate;

	memset(&t, 0, sizeof(t));
	if (!pos || d->f.stream_get_time_n(d->stream, &t, sizeof(t)) < 0 || !t.rate.denom ||
	    !pos->clock.duration || t.now <= 0) {
		RTP_ST(&d->time_errors, RTP_LD(&d->time_errors) + 1);
		pwb_buffer(c, d, b, 0);
		return;
	}
	quantum = (uint32_t)pos->clock.duration;
	rate = t.rate.denom;
	pwb_buffer(c, d, b, quantum);
	if (!RTP_LD(&d->tid))
		RTP_ST(&d->tid, (int)syscall(SYS_gettid));
	if (quantum != RTP_LD(&d->quantum)) {
		if (RTP_LD(&d->quantum))
			RTP_ST(&d->quantum_changes, RTP_LD(&d->quantum_changes) + 1);
		RTP_ST(&d->quantum, quantum);
	}
	RTP_ST(&d->rate, rate);
	if (!__atomic_load_n(&d->go, __ATOMIC_ACQUIRE)) {
		d->have_ticks = d->prev.have = false;
		return;
	}
	period_ns = audio_frames_ns(quantum, rate);
	due = (uint64_t)t.now;
	dticks = t.ticks - d->last_ticks;
	if (d->have_ticks && dticks > quantum) {
		skipped = dticks / quantum - 1 + (dticks % quantum != 0);
		RTP_ST(&d->missed_cycles, RTP_LD(&d->missed_cycles) + skipped);
	}
	d->have_ticks = true;
	d->last_ticks = t.ticks;
	s = &c->steps[__atomic_load_n(&c->step, __ATOMIC_RELAXED)];
	units = __atomic_load_n(&c->dsp_units, __ATOMIC_RELAXED);
	audio_dsp_run(&c->dsp, units);
	end = rtp_now_ns(CLOCK_MONOTONIC);

	if (now < due)
		RTP_ST(&c->early, RTP_LD(&c->early) + 1);
	audio_judge_call(&d->prev, due, now, end, period_ns, skipped, now > due ? now - due : 0, &k);
	if (__builtin_expect(k.lat > c->run->explain_ns, 0))
		rtp_explain_note(c->run->ex, -1, 0, now - k.lat, now, "lateness");
	audio_record_call(c, s, k.lat, k.margin, k.work, now);
	if (__builtin_expect(k.overran, 0)) {
		uint64_t q = RTP_LD(&d->ov_seq);
		struct pw_overrun *o = &d->ov[q % OV_RING];

		o->start_ns = k.woken_late ? due - skipped * period_ns : due;
		o->wake_ns = now;
		o->end_ns = end;
		o->deadline_ns = due + period_ns;
		o->missed = (uint32_t)skipped;
		o->lateness_ns = k.lat;
		o->margin_ns = k.margin;
		o->cause = k.cause;
		d->prev.cause = o->cause;
		__atomic_store_n(&d->ov_seq, q + 1, __ATOMIC_RELEASE);
	}
}

/* The position area changes on the data thread only, between calls (as stream.c's own). */
static int pwb_set_pos(struct spa_loop *loop, bool async, uint32_t seq, const void *data,
		       size_t size, void *arg)
{
	struct pw_dev *d = arg;

	(void)loop;
	(void)async;
	(void)seq;
	(void)data;
	(void)size;
	d->position = d->pending_pos;
	return 0;
}

static void pwb_io_changed(void *arg, uint32_t id, void *area, uint32_t size)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;

	if (id != SPA_IO_Position)
		return;
	d->pending_pos = area && size >= sizeof(struct spa_io_position) ? area : NULL;
	pw_loop_invoke(d->data_loop, pwb_set_pos, 0, NULL, 0, true, d);
}

static void pwb_state(void *arg, enum pw_stream_state old, enum pw_stream_state state,
		      const char *error)
{
	struct audio_ctx *c = arg;
	struct pw_dev *d = c->dev;

	(void)old;
	d->state = state;
	if (error)
		snprintf(d->state_err, sizeof(d->state_err), "%s", error);
	if (state == PW_STREAM_STATE_ERROR && !__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE)) {
		snprintf(d->gone_reason, sizeof(d->gone_reason), "the stream failed: %s",
			 error ? error : "no reason given");
		__atomic_store_n(&d->gone, 1, __ATOMIC_RELEASE);
	}
}

static const struct pw_stream_events pwb_stream_events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = pwb_state,
	.io_changed = pwb_io_changed,
	.process = pwb_process,
};

/* ---- open ------------------------------------------------------------------ */

static struct pw_properties *stream_props(struct audio_ctx *c, struct pw_dev *d)
{
	const struct audio_opts *o = c->o;
	struct pw_properties *p;

	p = d->f.properties_new(PW_KEY_MEDIA_TYPE, "Audio",
				PW_KEY_MEDIA_CATEGORY, o->capture ? "Capture" : "Playback",
				PW_KEY_MEDIA_ROLE, "Production", PW_KEY_NODE_NAME, AUDIO_PW_NODE,
				PW_KEY_APP_NAME, AUDIO_PW_NODE,
				/*
				 * Processed unlinked under the graph's driver, as pw-jack's
				 * clients are: its ports configured at creation, and a class
				 * no session manager takes for a stream of its own to
				 * configure again (WirePlumber's PortConfig then fails).
				 */
				PW_KEY_NODE_ALWAYS_PROCESS, "true",
				"adapter.auto-port-config",
				"{ mode = dsp monitor = false control = false position = preserve }",
				PW_KEY_MEDIA_CLASS, o->capture ? "Bench/Input/Audio" : "Bench/Output/Audio",
				NULL);
	if (!p)
		return NULL;
	d->f.properties_setf(p, PW_KEY_NODE_RATE, "1/%u", o->rate);
	if (o->period_given)
		d->f.properties_setf(p, PW_KEY_NODE_LATENCY, "%u/%u", o->period, o->rate);
	return p;
}

static int pwb_connect(struct audio_ctx *c, struct pw_dev *d, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	uint8_t buf[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	struct spa_audio_info_raw info = SPA_AUDIO_INFO_RAW_INIT(.format = SPA_AUDIO_FORMAT_F32,
								  .channels = o->channels, .rate = o->rate);
	const struct spa_pod *params[1];
	struct pw_properties *props;

	props = stream_props(c, d);
	d->stream = props ? d->f.stream_new(d->core, AUDIO_PW_NODE, props) : NULL;
	if (!d->stream) {
		snprintf(why, len, "PipeWire server '%s': cannot create a stream: %s", d->server,
			 strerror(errno));
		return -EIO;
	}
	d->f.stream_add_listener(d->stream, &d->stream_listener, &pwb_stream_events, c);
	params[0] = spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info);
	if (!params[0] ||
	    d->f.stream_connect(d->stream, o->capture ? PW_DIRECTION_INPUT : PW_DIRECTION_OUTPUT,
				PW_ID_ANY, PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_RT_PROCESS,
				params, 1) < 0) {
		snprintf(why, len, "PipeWire server '%s': cannot connect the stream", d->server);
		return -EIO;
	}
	return 0;
}

/* Has the graph taken the rate and quantum asked (a new node's may take a cycle or two)? */
static bool pwb_settled(const struct audio_opts *o, struct pw_dev *d)
{
	return RTP_LD(&d->rate) == o->rate && (!o->period_given || RTP_LD(&d->quantum) == o->period);
}

/*
 * Iterates the main loop until the stream runs and the graph's rate and
 * quantum are seen, and those asked for are taken (0.5 s at most).
 */
static int pwb_wait_streaming(struct audio_ctx *c, struct pw_dev *d, char *why, size_t len)
{
	uint64_t until = rtp_now_ns(CLOCK_MONOTONIC) + 10000000000ull, settle = 0;
	int ret = 0;

	pw_loop_enter(d->loop);
	for (;;) {
		bool up = d->synced && d->state == PW_STREAM_STATE_STREAMING && RTP_LD(&d->quantum);
		uint64_t now = rtp_now_ns(CLOCK_MONOTONIC);

		if (up && !settle)
			settle = now + 500000000ull;
		if (up && (pwb_settled(c->o, d) || now >= settle))
			break;
		if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE)) {
			snprintf(why, len, "PipeWire server '%s': %s", d->server, d->gone_reason);
			ret = -EIO;
			break;
		}
		if (now > until) {
			snprintf(why, len, "PipeWire server '%s': the stream did not run within 10 s "
				 "(state %s%s%s): no driver node in the graph?", d->server,
				 d->f.stream_state_as_string(d->state), d->state_err[0] ? ": " : "",
				 d->state_err);
			ret = -ETIMEDOUT;
			break;
		}
		pw_loop_iterate(d->loop, 50);
	}
	pw_loop_leave(d->loop);
	return ret;
}

static int pwb_open(struct audio_ctx *c, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	const char *env = getenv("PIPEWIRE_REMOTE");
	struct pw_properties *props;
	struct pw_dev *d;
	uint32_t rate, quantum;
	int ret;

	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	c->dev = d;
	d->policy = d->priority = -1;
	ret = pwb_load(d, why, len);
	if (ret) {
		c->cannot_open = true;
		return ret;
	}
	d->f.init(NULL, NULL);
	d->inited = true;
	if (!getenv("PIPEWIRE_DEBUG"))	/* its warnings are not this program's errors */
		d->f.log_set_level(SPA_LOG_LEVEL_NONE);
	snprintf(d->version, sizeof(d->version), "%s", d->f.library_version());
	snprintf(d->server, sizeof(d->server), "%s",
		 o->jack_server ? o->jack_server : env && *env ? env : "pipewire-0");
	d->loop = d->f.loop_new(NULL);
	props = d->f.properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL);
	d->context = d->loop && props ? d->f.context_new(d->loop, props, 0) : NULL;
	if (!d->context) {
		snprintf(why, len, "cannot create a PipeWire context (client-rt.conf): %s", strerror(errno));
		return -EIO;
	}
	d->data_loop = d->f.data_loop_get_loop(d->f.context_get_data_loop(d->context));
	/* The client's half of the profiler protocol (pw-top loads it the same way). */
	d->profiler_module = d->f.context_load_module(d->context, "libpipewire-module-profiler",
						      NULL, NULL) != NULL;
	props = o->jack_server ? d->f.properties_new(PW_KEY_REMOTE_NAME, o->jack_server, NULL) : NULL;
	d->core = d->f.context_connect(d->context, props, 0);
	if (!d->core) {
		snprintf(why, len, "no PipeWire server '%s' running (connect: %s)", d->server,
			 strerror(errno));
		c->cannot_open = true;
		return -ECONNREFUSED;
	}
	pw_core_add_listener(d->core, &d->core_listener, &audio_pw_core_events, c);
	d->registry = pw_core_get_registry(d->core, PW_VERSION_REGISTRY, 0);
	if (d->registry)
		pw_registry_add_listener(d->registry, &d->registry_listener, &audio_pw_registry_events, c);
	ret = pwb_connect(c, d, why, len);
	if (ret)
		return ret;
	d->sync_seq = pw_core_sync(d->core, PW_ID_CORE, 0);
	ret = pwb_wait_streaming(c, d, why, len);
	if (ret)
		return ret;
	d->node_id = d->f.stream_get_node_id(d->stream);
	rate = RTP_LD(&d->rate);
	quantum = RTP_LD(&d->quantum);
	if (rate != o->rate) {
		snprintf(why, len, "--rate %u: the PipeWire graph runs at %u Hz (this stream would be "
			 "resampled; give --rate %u, or let the server run %u: "
			 "default.clock.allowed-rates)", o->rate, rate, rate, o->rate);
		return -EINVAL;
	}
	if (o->period_given && quantum != o->period) {
		snprintf(why, len, "--period %u: the PipeWire graph runs %u-frame quanta (asked for "
			 "with node.latency; the server's default.clock.min-quantum/max-quantum or "
			 "another node decide: drop --period)", o->period, quantum);
		return -EINVAL;
	}
	c->cfg.rate = rate;
	c->cfg.channels = o->channels;
	c->cfg.format = SND_PCM_FORMAT_FLOAT_LE;
	c->cfg.period = quantum;
	c->cfg.periods = 0;	/* the graph's; a node has one cycle */
	c->cfg.buffer = quantum;
	c->cfg.access = "pipewire";
	snprintf(c->cfg.pcm_name, sizeof(c->cfg.pcm_name), "%s", AUDIO_PW_NODE);
	snprintf(c->cfg.card, sizeof(c->cfg.card), "PipeWire server '%s': node %u, libpipewire %s",
		 d->server, d->node_id, d->version);
	return 0;
}

static void pwb_close(struct audio_ctx *c)
{
	struct pw_dev *d = c->dev;

	if (!d)
		return;
	if (d->stream)
		d->f.stream_destroy(d->stream);
	if (d->profiler)
		d->f.proxy_destroy(d->profiler);
	if (d->registry)
		d->f.proxy_destroy((struct pw_proxy *)d->registry);
	if (d->core)
		d->f.core_disconnect(d->core);
	if (d->context)
		d->f.context_destroy(d->context);
	if (d->loop)
		d->f.loop_destroy(d->loop);
	if (d->inited)
		d->f.deinit();
	/* Not dlclose'd: its SPA plugins and threads' state outlive the calls. */
	free(d);
	c->dev = NULL;
}

/* ---- run ------------------------------------------------------------------- */

static void read_thread(struct pw_dev *d)
{
	struct sched_param sp;
	int tid = RTP_LD(&d->tid), pol;

	if (!tid)
		return;
	pol = sched_getscheduler(tid);
	if (pol < 0 || sched_getparam(tid, &sp))
		return;
	d->policy = pol & ~SCHED_RESET_ON_FORK;
	d->priority = sp.sched_priority;
}

static int pwb_run(struct audio_ctx *c)
{
	struct pw_dev *d = c->dev;
	uint64_t until;

	pw_loop_enter(d->loop);
	if (c->audio_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(c->audio_cpu, &set);
		if (!RTP_LD(&d->tid) || sched_setaffinity(RTP_LD(&d->tid), sizeof(set), &set)) {
			pw_loop_leave(d->loop);
			c->err_what = "pin PipeWire's data thread (-a)";
			return RTP_LD(&d->tid) ? -errno : -ESRCH;
		}
	}
	read_thread(d);
	d->go_ns = rtp_now_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&d->go, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE)) {
		pw_loop_iterate(d->loop, 10);
		audio_pw_attribute(c, d, false);
	}
	d->end_ns = c->end_ns = rtp_now_ns(CLOCK_MONOTONIC);
	__atomic_store_n(&d->go, 0, __ATOMIC_RELEASE);
	/* The profiler sends once a second: wait for the records up to the end (1.5 s at most). */
	until = d->end_ns + 1500000000ull;
	while (d->profiler && d->last_nsec < d->end_ns && !__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE) &&
	       rtp_now_ns(CLOCK_MONOTONIC) < until)
		pw_loop_iterate(d->loop, 10);
	audio_pw_attribute(c, d, true);
	pw_loop_leave(d->loop);
	if (__atomic_load_n(&d->gone, __ATOMIC_ACQUIRE)) {
		c->stop_why = "server-gone";
		snprintf(c->err_detail, sizeof(c->err_detail),
			 "the PipeWire server '%s' went away mid-run: %s", d->server, d->gone_reason);
		c->err_what = "go on: its PipeWire server";
		return -ENOTCONN;
	}
	return 0;
}

#else	/* RTP_NO_PIPEWIRE: built without libpipewire-0.3-dev */

static int pwb_open(struct audio_ctx *c, char *why, size_t len)
{
	snprintf(why, len, "rtproof-audio was built without PipeWire's headers (libpipewire-0.3-dev): "
		 "make deps, then rebuild");
	c->cannot_open = true;
	return -ENOSYS;
}

static void pwb_close(struct audio_ctx *c)
{
	c->dev = NULL;
}

static int pwb_run(struct audio_ctx *c)
{
	(void)c;
	return -ENOSYS;
}

#define audio_pw_config NULL
#define audio_pw_summary NULL
#define audio_pw_events NULL
#endif

const struct audio_backend_ops audio_pipewire_ops = {
	.name = "pipewire",
	.label = "PipeWire backend",
	.tag = " [PipeWire]",
	.timing = "PipeWire's cycle times (pw_time.now, the driver's cycle start, against "
		  "CLOCK_MONOTONIC at the call, ns)",
	.exact = true,
	.open = pwb_open,
	.close = pwb_close,
	.run = pwb_run,
	.config = audio_pw_config,
	.summary = audio_pw_summary,
	.events = audio_pw_events,
};
