/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_GATE_H
#define RTP_GATE_H

#include <pthread.h>
#include <stdbool.h>

/*
 * The start gate every bench uses between its main thread and the threads
 * it starts.  Each thread sets itself up, counts itself in with its setup
 * error (rtp_gate_pass) and waits; the main thread waits until every
 * thread it started has counted in (rtp_gate_ready), reads their errors,
 * writes the common start time, and opens the gate to go or to leave.
 * Unlike a barrier, a pthread_create() that fails halfway leaves nobody
 * stuck: the gate opens to leave, and the started threads return.
 */
struct rtp_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started;		/* threads created through rtp_gate_create() */
	int arrived;		/* under lock */
	int failed;		/* under lock: arrived with an error */
	int state;		/* under lock: 0 closed, 1 go, 2 leave */
};

void rtp_gate_init(struct rtp_gate *g);
void rtp_gate_destroy(struct rtp_gate *g);

/*
 * pthread_create() counted by the gate.  On failure it opens the gate to
 * leave (the threads already started return from rtp_gate_pass() with
 * false) and returns -errno; the caller prints the error
 * (rtp_gate_create_error) and joins the started threads.
 */
int rtp_gate_create(struct rtp_gate *g, pthread_t *th, const pthread_attr_t *attr,
		    void *(*fn)(void *), void *arg);
/*
 * One line: "[WHO: ]cannot start WHAT: ERR", naming the limits behind
 * EAGAIN.  who may be NULL.
 */
void rtp_gate_create_error(const char *who, const char *what, int err);

/* Thread side: counts in with err (0 or -errno); true to run, false to leave. */
bool rtp_gate_pass(struct rtp_gate *g, int err);

/* Main side: waits for every started thread; returns how many failed. */
int rtp_gate_ready(struct rtp_gate *g);
/* Main side: opens the gate, to go (true) or to leave (false). */
void rtp_gate_open(struct rtp_gate *g, bool go);

#endif /* RTP_GATE_H */
