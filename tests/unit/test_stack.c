// SPDX-License-Identifier: GPL-2.0-or-later
/* rtp_stack: a painted stack measures how deep a thread went, signal frames included. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stack.h"
#include "tap.h"

static void *shallow(void *arg)
{
	(void)arg;
	return NULL;
}

/* Writes n bytes of its own frame. */
static void *deep(void *arg)
{
	size_t n = *(size_t *)arg;
	volatile unsigned char buf[8192];
	size_t i;

	for (i = 0; i < n && i < sizeof(buf); i++)
		buf[i] = (unsigned char)i;
	return (void *)(uintptr_t)buf[0];
}

/* A handler with a frame deeper than anything the sleeper does by itself. */
static void on_usr1(int sig)
{
	volatile unsigned char buf[6000];
	size_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)sig;
}

struct sleep_arg {
	int ready;		/* first: run_on() polls it */
	struct timespec ts;
};

/* Sleeps ts, or until a signal interrupts it. */
static void *sleeper(void *arg)
{
	struct sleep_arg *a = arg;

	__atomic_store_n(&a->ready, 1, __ATOMIC_RELEASE);
	nanosleep(&a->ts, NULL);
	return NULL;
}

static size_t run_on(size_t bytes, void *(*fn)(void *), void *arg, bool signal)
{
	struct rtp_stack s;
	pthread_attr_t attr;
	pthread_t th;
	size_t peak;
	int ret;

	ret = rtp_stack_alloc(&s, bytes);
	if (ret)
		return 0;
	pthread_attr_init(&attr);
	ret = rtp_stack_attr(&s, &attr) || pthread_create(&th, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (ret) {
		rtp_stack_free(&s);
		return 0;
	}
	if (signal) {
		struct timespec ms = { 0, 20000000 };

		while (!__atomic_load_n((int *)arg, __ATOMIC_ACQUIRE))
			nanosleep(&ms, NULL);
		nanosleep(&ms, NULL);	/* into its sleep */
		pthread_kill(th, SIGUSR1);
	}
	pthread_join(th, NULL);
	peak = rtp_stack_peak(&s);
	rtp_stack_free(&s);
	return peak;
}

int main(void)
{
	struct rtp_stack s;
	struct sigaction sa;
	size_t n = 6000, base, deeper, sig, quiet;
	struct sleep_arg quick = { 0, { 0, 1000000 } }, slow = { 0, { 5, 0 } };

	memset(&s, 0, sizeof(s));
	ok(rtp_stack_size(&s) == 0 && rtp_stack_peak(&s) == 0, "no stack: size and peak 0");
	ok(rtp_stack_alloc(&s, 1000) == 0, "a tiny stack maps");
	ok(rtp_stack_size(&s) >= 16384, "it is raised to the system's minimum (%zu bytes)",
	   rtp_stack_size(&s));
	ok(rtp_stack_peak(&s) == 0, "untouched: peak 0");
	rtp_stack_free(&s);
	rtp_stack_free(&s);
	ok(rtp_stack_size(&s) == 0, "freed twice: harmless");

	base = run_on(64 * 1024, shallow, NULL, false);
	ok(base > 0 && base < 16384, "a thread that returns at once: %zu bytes (descriptor, TLS)", base);
	deeper = run_on(64 * 1024, deep, &n, false);
	/* not base + n: what the thread's start used (more under ASan) may lie within the frame's reach */
	ok(deeper >= n && deeper > base, "a 6000-byte frame is seen: %zu bytes, %zu for the bare thread",
	   deeper, base);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	quiet = run_on(64 * 1024, sleeper, &quick, false);
	sig = run_on(64 * 1024, sleeper, &slow, true);
	ok(sig > quiet, "a signal handler's frame is seen: %zu bytes with it, %zu without", sig, quiet);

	/* the page below the stack faults: a child writes to it */
	{
		pid_t pid;
		int st = 0;

		if (rtp_stack_alloc(&s, 32 * 1024) == 0) {
			pid = fork();
			if (pid == 0) {
				/* quiet: ASan reports the fault and exits 1 instead */
				if (!freopen("/dev/null", "w", stderr))
					(void)0;	/* noisier, and it still faults */
				((volatile unsigned char *)s.map)[s.guard - 1] = 1;
				_exit(0);
			}
			waitpid(pid, &st, 0);
			ok(pid > 0 && ((WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) ||
				       (WIFEXITED(st) && WEXITSTATUS(st) != 0)),
			   "a write to the guard page below the stack faults");
			rtp_stack_free(&s);
		} else {
			ok(false, "a 32 KiB stack maps");
		}
	}
	/* under mlockall(MCL_CURRENT | MCL_FUTURE), as the benches run: the same, in a child */
	{
		pid_t pid = fork();
		int st = 0;

		if (pid == 0) {
			size_t d;

			if (mlockall(MCL_CURRENT | MCL_FUTURE))
				_exit(4);
			d = run_on(64 * 1024, deep, &n, false);
			_exit(d >= n && d < 64 * 1024 ? 0 : 1);
		}
		waitpid(pid, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
			tap_skip("mlockall not permitted here", "a frame is seen on a locked stack");
		else
			ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			   "under mlockall: a 6000-byte frame is seen on a locked stack");
	}
	return tap_done();
}
