// SPDX-License-Identifier: GPL-2.0-or-later
#include "gate.h"

#include <errno.h>
#include <string.h>

#include "log.h"

void rtp_gate_init(struct rtp_gate *g)
{
	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
}

void rtp_gate_destroy(struct rtp_gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

int rtp_gate_create(struct rtp_gate *g, pthread_t *th, const pthread_attr_t *attr,
		    void *(*fn)(void *), void *arg)
{
	int ret = pthread_create(th, attr, fn, arg);

	if (ret) {
		rtp_gate_open(g, false);
		return -ret;
	}
	g->started++;
	return 0;
}

void rtp_gate_create_error(const char *who, const char *what, int err)
{
	rtp_error("%s%scannot start %s: %s%s", who ? who : "", who ? ": " : "", what, strerror(-err),
		  err == -EAGAIN ? " (limits: threads, ulimit -u, or locked memory, ulimit -l)" : "");
}

bool rtp_gate_pass(struct rtp_gate *g, int err)
{
	bool go;

	pthread_mutex_lock(&g->lock);
	g->arrived++;
	if (err)
		g->failed++;
	pthread_cond_broadcast(&g->cond);
	while (!g->state)
		pthread_cond_wait(&g->cond, &g->lock);
	go = g->state == 1 && !err;
	pthread_mutex_unlock(&g->lock);
	return go;
}

int rtp_gate_ready(struct rtp_gate *g)
{
	int failed;

	pthread_mutex_lock(&g->lock);
	while (g->arrived < g->started)
		pthread_cond_wait(&g->cond, &g->lock);
	failed = g->failed;
	pthread_mutex_unlock(&g->lock);
	return failed;
}

void rtp_gate_open(struct rtp_gate *g, bool go)
{
	pthread_mutex_lock(&g->lock);
	if (!g->state)
		g->state = go ? 1 : 2;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}
