// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp-pw-slow NAME REMOTE BURN_US EVERY: a PipeWire stream of its own
 * (the second, slow node of tests/integration/audio-pipewire.t), played
 * unlinked under the graph's driver as rtproof-audio's is.  Every
 * EVERY-th cycle its process callback spins BURN_US microseconds on
 * CLOCK_MONOTONIC; runs until SIGTERM/SIGINT, then prints the slow cycles
 * it ran.  libpipewire is loaded with dlopen, as rtproof-audio loads it.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef RTP_NO_PIPEWIRE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <pipewire/pipewire.h>
#include <spa/param/audio/format-utils.h>

static __typeof__(pw_init) *p_init;
static __typeof__(pw_loop_new) *p_loop_new;
static __typeof__(pw_context_new) *p_context_new;
static __typeof__(pw_context_connect) *p_connect;
static __typeof__(pw_properties_new) *p_props;
static __typeof__(pw_stream_new) *p_stream_new;
static __typeof__(pw_stream_add_listener) *p_add_listener;
static __typeof__(pw_stream_connect) *p_stream_connect;
static __typeof__(pw_stream_dequeue_buffer) *p_dequeue;
static __typeof__(pw_stream_queue_buffer) *p_queue;
static __typeof__(pw_stream_destroy) *p_destroy;
static __typeof__(pw_log_set_level) *p_log_level;

static struct pw_stream *stream;
static uint64_t burn_ns, every;
static volatile uint64_t cycles, slow;
static volatile int streaming;
static volatile sig_atomic_t stop;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void process(void *arg)
{
	struct pw_buffer *b = p_dequeue(stream);
	uint64_t until;

	(void)arg;
	if (b) {
		struct spa_data *d = &b->buffer->datas[0];
		uint32_t n = b->requested ? (uint32_t)b->requested * 8 : 0;

		if (d->data && n <= d->maxsize) {
			memset(d->data, 0, n);
			d->chunk->offset = 0;
			d->chunk->stride = 8;
			d->chunk->size = n;
		}
		p_queue(stream, b);
	}
	if (++cycles % every)
		return;
	until = now_ns() + burn_ns;
	while (now_ns() < until)
		;
	slow++;
}

static void state(void *arg, enum pw_stream_state old, enum pw_stream_state st, const char *err)
{
	(void)arg;
	(void)old;
	(void)err;
	streaming = st == PW_STREAM_STATE_STREAMING;
	if (st == PW_STREAM_STATE_ERROR)
		stop = 1;
}

static const struct pw_stream_events events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = state,
	.process = process,
};

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

#define SYM(p, n) (*(void **)&(p) = dlsym(lib, n))

int main(int argc, char **argv)
{
	uint8_t buf[512];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	struct spa_audio_info_raw info = SPA_AUDIO_INFO_RAW_INIT(.format = SPA_AUDIO_FORMAT_F32,
								  .channels = 2, .rate = 48000);
	const struct spa_pod *params[1];
	struct spa_hook listener;
	struct pw_context *ctx;
	struct pw_loop *loop;
	struct pw_core *core;
	void *lib;
	int ready = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: rtp-pw-slow NAME REMOTE BURN_US EVERY\n");
		return 1;
	}
	burn_ns = strtoull(argv[3], NULL, 10) * 1000;
	every = strtoull(argv[4], NULL, 10);
	if (!every)
		every = 1;
	lib = dlopen("libpipewire-0.3.so.0", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "rtp-pw-slow: %s\n", dlerror());
		return 4;
	}
	if (!SYM(p_init, "pw_init") || !SYM(p_loop_new, "pw_loop_new") ||
	    !SYM(p_context_new, "pw_context_new") || !SYM(p_connect, "pw_context_connect") ||
	    !SYM(p_props, "pw_properties_new") || !SYM(p_stream_new, "pw_stream_new") ||
	    !SYM(p_add_listener, "pw_stream_add_listener") ||
	    !SYM(p_stream_connect, "pw_stream_connect") ||
	    !SYM(p_dequeue, "pw_stream_dequeue_buffer") || !SYM(p_queue, "pw_stream_queue_buffer") ||
	    !SYM(p_destroy, "pw_stream_destroy") || !SYM(p_log_level, "pw_log_set_level"))
		return 1;
	p_init(NULL, NULL);
	p_log_level(SPA_LOG_LEVEL_NONE);
	loop = p_loop_new(NULL);
	ctx = p_context_new(loop, p_props(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
	core = ctx ? p_connect(ctx, p_props(PW_KEY_REMOTE_NAME, argv[2], NULL), 0) : NULL;
	if (!core) {
		fprintf(stderr, "rtp-pw-slow: no PipeWire server '%s'\n", argv[2]);
		return 4;
	}
	stream = p_stream_new(core, argv[1],
			      p_props(PW_KEY_MEDIA_TYPE, "Audio", PW_KEY_MEDIA_CATEGORY, "Playback",
				      PW_KEY_NODE_NAME, argv[1], PW_KEY_NODE_ALWAYS_PROCESS, "true",
				      "adapter.auto-port-config",
				      "{ mode = dsp monitor = false control = false position = preserve }",
				      NULL));
	if (!stream)
		return 1;
	p_add_listener(stream, &listener, &events, NULL);
	params[0] = spa_format_audio_raw_build(&b, SPA_PARAM_EnumFormat, &info);
	if (p_stream_connect(stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
			     PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_RT_PROCESS, params, 1) < 0)
		return 1;
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	pw_loop_enter(loop);
	while (!stop) {
		pw_loop_iterate(loop, 100);
		if (streaming && !ready) {
			ready = 1;
			printf("rtp-pw-slow: ready\n");
			fflush(stdout);
		}
	}
	pw_loop_leave(loop);
	p_destroy(stream);
	printf("rtp-pw-slow: %llu slow cycles of %llu\n", (unsigned long long)slow,
	       (unsigned long long)cycles);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "rtp-pw-slow: built without PipeWire's headers (libpipewire-0.3-dev)\n");
	return 4;
}
#endif
