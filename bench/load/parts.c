// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-load: the parts.  Each round runs one part for a set time on one
 * CPU and counts its operations; the clock is read every few operations
 * (a batch), so the count is whole operations in the time measured.
 */
#include "load.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"

static uint64_t now_ns(void)
{
	return rtp_now_ns(CLOCK_MONOTONIC);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* ---- two threads on one CPU: the partner side -------------------------- */

struct pair {
	enum load_part part;
	int cpu;
	int a[2], b[2];			/* ctxsw: pipes there and back; loopback: a[0] the partner's socket */
	pthread_mutex_t m;		/* futex-pi: the PI mutex handed over */
	pthread_cond_t c;
	int turn;			/* futex-pi: 0 the round's thread, 1 the partner */
	bool quit;
	int err;
};

static void *partner(void *arg)
{
	struct pair *p = arg;
	char buf[1024];

	pin(p->cpu);
	switch (p->part) {
	case LP_CTXSW:
		/* echo a byte back until the pipe closes */
		while (read(p->a[0], buf, 1) == 1)
			if (write(p->b[1], buf, 1) != 1)
				break;
		break;
	case LP_FUTEX_PI:
		pthread_mutex_lock(&p->m);
		for (;;) {
			while (p->turn != 1 && !p->quit)
				pthread_cond_wait(&p->c, &p->m);
			if (p->quit)
				break;
			p->turn = 0;
			pthread_cond_signal(&p->c);
		}
		pthread_mutex_unlock(&p->m);
		break;
	case LP_LOOPBACK: {
		struct sockaddr_in from;
		socklen_t fl;
		ssize_t n;

		for (;;) {
			fl = sizeof(from);
			n = recvfrom(p->a[0], buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
			if (n <= 0 || (n == 1 && buf[0] == 'q'))
				break;
			if (sendto(p->a[0], buf, (size_t)n, 0, (struct sockaddr *)&from, fl) != n)
				break;
		}
		break;
	}
	default:
		break;
	}
	return NULL;
}

static int udp_bound(struct sockaddr_in *sa)
{
	/* a lost datagram ends the part with an error instead of a hang */
	struct timeval tmo = { .tv_sec = 2 };
	socklen_t l = sizeof(*sa);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return -errno;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)sa, sizeof(*sa)) || getsockname(s, (struct sockaddr *)sa, &l)) {
		int e = -errno;

		close(s);
		return e;
	}
	return s;
}

/* the round's own side of a two-thread part: one operation */
static int one_op(struct pair *p, int sock, char *buf)
{
	switch (p->part) {
	case LP_CTXSW:
		if (write(p->a[1], buf, 1) != 1 || read(p->b[0], buf, 1) != 1)
			return -EIO;
		return 0;
	case LP_FUTEX_PI:
		p->turn = 1;
		pthread_cond_signal(&p->c);
		while (p->turn != 0)
			pthread_cond_wait(&p->c, &p->m);
		return 0;
	case LP_LOOPBACK:
		if (send(sock, buf, 1024, 0) != 1024 || recv(sock, buf, 1024, 0) != 1024)
			return -EIO;
		return 0;
	default:
		return -EINVAL;
	}
}

static int spawn_one(void)
{
	char *const argv[] = { "true", NULL };
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execv("/bin/true", argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -errno;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -ECHILD;
}

/* A batch of the part's operations between two clock reads, added to *n; 0 or -errno. */
static int one_batch(struct pair *p, int sock, char *buf, uint64_t *n)
{
	int i, ret = 0;

	switch (p->part) {
	case LP_SYSCALL:
		for (i = 0; i < 256; i++)
			syscall(SYS_getppid);
		*n += 256;
		return 0;
	case LP_SPAWN:
		ret = spawn_one();
		*n += !ret;
		return ret;
	default:
		for (i = 0; i < 16 && !ret; i++) {
			ret = one_op(p, sock, buf);
			*n += !ret;
		}
		return ret;
	}
}

int load_part_round(enum load_part part, uint64_t round_ns, int cpu, atomic_bool *stop, uint64_t *ops,
		    uint64_t *ns, char *why, size_t len)
{
	struct pair p = { .part = part, .cpu = cpu, .a = { -1, -1 }, .b = { -1, -1 } };
	bool two = part == LP_CTXSW || part == LP_FUTEX_PI || part == LP_LOOPBACK;
	pthread_mutexattr_t ma;
	struct sockaddr_in me, peer;
	pthread_t t;
	char buf[1024] = { 0 };
	uint64_t t0, n = 0;
	int sock = -1, ret = 0, i;

	*ops = *ns = 0;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&p.m, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_cond_init(&p.c, NULL);
	if (part == LP_CTXSW && (pipe2(p.a, O_CLOEXEC) || pipe2(p.b, O_CLOEXEC))) {
		ret = -errno;
		snprintf(why, len, "pipe: %s", strerror(errno));
		goto out;
	}
	if (part == LP_LOOPBACK) {
		p.a[0] = udp_bound(&peer);
		sock = udp_bound(&me);
		if (p.a[0] < 0 || sock < 0 || connect(sock, (struct sockaddr *)&peer, sizeof(peer))) {
			ret = p.a[0] < 0 ? p.a[0] : sock < 0 ? sock : -errno;
			snprintf(why, len, "UDP over loopback: %s", strerror(-ret));
			goto out;
		}
	}
	pin(cpu);
	if (part == LP_FUTEX_PI)
		pthread_mutex_lock(&p.m);
	if (two && (ret = -pthread_create(&t, NULL, partner, &p))) {
		snprintf(why, len, "pthread_create: %s", strerror(-ret));
		if (part == LP_FUTEX_PI)
			pthread_mutex_unlock(&p.m);
		goto out;
	}
	t0 = now_ns();
	while (!ret && !atomic_load_explicit(stop, memory_order_relaxed)) {
		ret = one_batch(&p, sock, buf, &n);
		if (now_ns() - t0 >= round_ns)
			break;
	}
	*ns = now_ns() - t0;
	*ops = n;
	/* the partner ends: the quit flag, pipes closed, a 'q' datagram */
	if (part == LP_FUTEX_PI) {
		p.quit = true;
		pthread_cond_broadcast(&p.c);
		pthread_mutex_unlock(&p.m);
	} else if (part == LP_CTXSW) {
		close(p.a[1]);
		p.a[1] = -1;
	} else if (part == LP_LOOPBACK) {
		buf[0] = 'q';
		if (send(sock, buf, 1, 0) != 1)
			shutdown(p.a[0], SHUT_RDWR);
	}
	if (two)
		pthread_join(t, NULL);
	if (ret && part == LP_SPAWN)
		snprintf(why, len, "fork and exec of /bin/true: %s", strerror(-ret));
	else if (ret)
		snprintf(why, len, "%s: an operation failed: %s", load_part_names[part], strerror(-ret));
out:
	for (i = 0; i < 2; i++) {
		if (p.a[i] >= 0)
			close(p.a[i]);
		if (p.b[i] >= 0)
			close(p.b[i]);
	}
	if (sock >= 0)
		close(sock);
	pthread_cond_destroy(&p.c);
	pthread_mutex_destroy(&p.m);
	return ret;
}
