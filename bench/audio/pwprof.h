/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AUDIO_PWPROF_H
#define RTP_AUDIO_PWPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What PipeWire's profiler (libpipewire-module-profiler) says of one
 * cycle of one driver: the driver's clock, and for the driver and each
 * node it drives the activation record, signal (triggered), awake
 * (began its process) and finish times on CLOCK_MONOTONIC, and the
 * status.  The profiler writes a record when the graph completes and
 * when the next cycle begins with the graph not complete; then the
 * clock is already the next cycle's (pwprof.c, docs/audio.md).
 */

/* pw_node_activation's status (pipewire/private.h, 0.3.65) */
enum audio_pw_status {
	AUDIO_PW_NOT_TRIGGERED,		/* waits for the nodes before it */
	AUDIO_PW_TRIGGERED,		/* woken, not yet running (or busy with an older cycle) */
	AUDIO_PW_AWAKE,			/* running its process */
	AUDIO_PW_FINISHED,
};

struct audio_pw_node {
	uint32_t id;
	int32_t status;			/* enum audio_pw_status, as the server wrote it */
	int64_t signal_ns, awake_ns, finish_ns;
	char name[64];			/* control bytes replaced by '?' */
};

#define AUDIO_PW_MAX_FOLLOWERS 128

struct audio_pw_cycle {
	int64_t count;			/* the profiler's record counter */
	uint32_t xrun_count;		/* the driver's own (an ALSA driver's underruns) */
	int64_t nsec;			/* clock.nsec: this cycle's start */
	int64_t next_nsec;		/* clock.next_nsec: the next one's */
	int64_t position, duration;	/* clock.position, clock.duration (frames) */
	uint32_t rate;			/* clock.rate's denominator (Hz) */
	char clock_name[64];
	bool have_clock, have_driver;
	struct audio_pw_node driver;
	unsigned nfollowers;		/* kept in follower[]: over the cap, those not finished first */
	unsigned followers_seen;	/* in the record, kept or not */
	struct audio_pw_node follower[AUDIO_PW_MAX_FOLLOWERS];
};

/*
 * Walks one profiler event of size bytes (a struct of Profiler objects, as
 * module-profiler sends it; the server's data, bounds-checked), parsing
 * each record into *cy and calling fn with it.  Returns the records
 * parsed, or -EINVAL when the event is not such a struct.
 */
int audio_pw_parse_profile(const void *pod, size_t size, struct audio_pw_cycle *cy,
			   void (*fn)(void *arg, const struct audio_pw_cycle *cy), void *arg);

#define AUDIO_PW_COMPLETE	(-1)	/* every node finished */
#define AUDIO_PW_DRIVER		(-2)	/* only the driver itself did not */

/*
 * The node that kept the cycle from completing: the index in
 * cy->follower[] of the one not finished that got furthest (awake over
 * triggered over not triggered; among equals, the one awake or
 * triggered longest), AUDIO_PW_DRIVER, or AUDIO_PW_COMPLETE.
 */
int audio_pw_culprit(const struct audio_pw_cycle *cy);

/*
 * How far a node not finished got: 3 running (awake, or triggered again
 * while still in a call it began: awake after its last finish), 2
 * triggered but not running, 1 not triggered, 0 finished.
 */
int audio_pw_rank(const struct audio_pw_node *n);

/* Is the node with this id among the cycle's followers? */
bool audio_pw_has_follower(const struct audio_pw_cycle *cy, uint32_t id);

#endif /* RTP_AUDIO_PWPROF_H */
