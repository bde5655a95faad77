/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AUDIO_PWDEV_H
#define RTP_AUDIO_PWDEV_H

/*
 * The PipeWire backend's state, shared by pipewire.c (the library, the
 * stream and its data thread, open and run) and pwgraph.c (the main
 * loop: the server, the profiler's records, the attribution, the report).
 * Empty when built without PipeWire's headers.
 */
#ifndef RTP_NO_PIPEWIRE
#include <stdbool.h>
#include <stdint.h>

#include <pipewire/impl.h>
#include <pipewire/pipewire.h>
/* after the above: it names struct spa_pod without declaring it */
#include <pipewire/extensions/profiler.h>

#include "audio.h"
#include "pwprof.h"

#define AUDIO_PW_NODE "rtproof-audio"	/* this bench's node.name */

/* ---- libpipewire's exported functions (the headers' inline ones need none) ---- */
struct pw_fns {
	__typeof__(pw_init) *init;
	__typeof__(pw_deinit) *deinit;
	__typeof__(pw_get_library_version) *library_version;
	__typeof__(pw_log_set_level) *log_set_level;
	__typeof__(pw_loop_new) *loop_new;
	__typeof__(pw_loop_destroy) *loop_destroy;
	__typeof__(pw_context_new) *context_new;
	__typeof__(pw_context_destroy) *context_destroy;
	__typeof__(pw_context_load_module) *context_load_module;
	__typeof__(pw_context_connect) *context_connect;
	__typeof__(pw_context_get_data_loop) *context_get_data_loop;
	__typeof__(pw_data_loop_get_loop) *data_loop_get_loop;
	__typeof__(pw_core_disconnect) *core_disconnect;
	__typeof__(pw_properties_new) *properties_new;
	__typeof__(pw_properties_set) *properties_set;
	__typeof__(pw_properties_setf) *properties_setf;
	__typeof__(pw_proxy_add_object_listener) *proxy_add_object_listener;
	__typeof__(pw_proxy_destroy) *proxy_destroy;
	__typeof__(pw_stream_new) *stream_new;
	__typeof__(pw_stream_add_listener) *stream_add_listener;
	__typeof__(pw_stream_connect) *stream_connect;
	__typeof__(pw_stream_destroy) *stream_destroy;
	__typeof__(pw_stream_dequeue_buffer) *stream_dequeue_buffer;
	__typeof__(pw_stream_queue_buffer) *stream_queue_buffer;
	__typeof__(pw_stream_get_time_n) *stream_get_time_n;
	__typeof__(pw_stream_get_node_id) *stream_get_node_id;
	__typeof__(pw_stream_state_as_string) *stream_state_as_string;
};

#define OV_RING 8192			/* this node's late cycles, kept for the attribution */
#define PENDS 1024			/* incomplete cycles waiting for this node's late call */
#define BLAME 8				/* nodes named, with their counts */
#define LINE_WAIT_NS 500000000ull	/* how long a record naming this node waits for its call */

/* A cycle this node did not finish by its deadline (all CLOCK_MONOTONIC ns). */
struct pw_overrun {
	uint64_t start_ns, wake_ns, end_ns, deadline_ns;
	uint64_t lateness_ns;		/* with the missed cycles it was woken for */
	uint64_t margin_ns;		/* to its deadline at the call (0: woken past it) */
	enum audio_xrun_cause cause;	/* late-wakeup or work-overran-margin */
	uint32_t missed;
};

/* An incomplete cycle, its culprit known, this node's late call perhaps not yet. */
struct pw_pend {
	uint64_t next_ns;		/* the cycle after it began (the record's clock.nsec) */
	uint64_t arrived_ns;		/* when the record came */
	int idx;			/* c->xrun[]; -1: not kept */
	int rank;			/* 3 running, 2 triggered, 1 not triggered, 0 the driver */
	bool self, driver;
	char name[64];
};

struct pw_blame {
	char name[64];
	uint32_t id;
	uint64_t n;
};

struct pw_dev {
	void *lib;
	struct pw_fns f;
	bool inited;
	struct pw_loop *loop;
	struct pw_loop *data_loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct pw_proxy *profiler;
	struct spa_hook profiler_listener;
	struct pw_stream *stream;
	struct spa_hook stream_listener;
	bool profiler_module;		/* the client side of the profiler protocol loaded */
	int sync_seq;
	bool synced;			/* the registry's first round is in */
	enum pw_stream_state state;
	char state_err[160];
	char server[64];
	char version[32];
	uint32_t node_id;

	/* the data thread (PipeWire's, real-time) */
	struct spa_io_position *position;	/* set on the data thread only (io_changed) */
	struct spa_io_position *pending_pos;
	int go;				/* atomic: record */
	int tid;			/* atomic: the data thread, as first seen */
	uint32_t rate, quantum;		/* atomic: the graph's, at the last call */
	bool have_ticks;
	uint64_t last_ticks;
	struct audio_prev_call prev;	/* the previous call (audio_judge_call) */
	uint64_t missed_cycles;		/* atomic */
	uint64_t quantum_changes;	/* atomic */
	uint64_t time_errors;		/* atomic: calls without the graph's time */
	uint64_t ov_seq;		/* atomic: overruns written */
	struct pw_overrun ov[OV_RING];

	/* the main loop: the audio thread (run), or main (open, close) */
	int gone;			/* atomic */
	char gone_reason[160];
	int policy, priority;		/* the data thread's, read back; -1: unknown */
	uint64_t go_ns, end_ns;		/* the measured window */
	struct audio_pw_cycle cy;	/* one record, parsed */
	uint64_t records, records_other;
	uint64_t last_nsec;		/* the newest record of this graph */
	uint64_t last_incomplete_ns;
	uint64_t incomplete;
	uint64_t server_late, server_late_max_ns;	/* cycles the driver began over half a cycle late */
	uint64_t last_server_late_ns;		/* the newest of them (records may repeat) */
	uint64_t late_complete, last_late_ns;	/* of them, completed past their deadline: xruns */
	bool have_driver, have_xc;
	uint32_t driver_id, xc_last;
	uint64_t driver_changes, driver_xruns;
	char driver[64], clock_name[64];
	uint64_t ov_done;		/* without the profiler: overruns counted */
	struct pw_pend pend[PENDS];
	unsigned pend_head, pend_tail;
	struct pw_blame blame[BLAME];
	uint64_t blame_other;		/* named but not kept in blame[] */
};

/* pwgraph.c: the main loop's listeners, the attribution and the report */
extern const struct pw_core_events audio_pw_core_events;
extern const struct pw_registry_events audio_pw_registry_events;
/* Closes the incomplete cycles whose culprit's call is in (all of them: final). */
void audio_pw_attribute(struct audio_ctx *c, struct pw_dev *d, bool final);
void audio_pw_config(const struct audio_ctx *c, const char *timing);
void audio_pw_summary(const struct audio_ctx *c);
void audio_pw_events(const struct audio_ctx *c, struct rtp_json *j);
#endif /* RTP_NO_PIPEWIRE */

#endif /* RTP_AUDIO_PWDEV_H */
