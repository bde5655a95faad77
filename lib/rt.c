// SPDX-License-Identifier: GPL-2.0-or-later
#include "rt.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* The kernel's struct sched_attr (include/uapi/linux/sched/types.h). */
struct rtp_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

pid_t rtp_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

void rtp_prefault_stack(size_t stack_bytes)
{
	volatile unsigned char *buf;
	size_t i, page = (size_t)sysconf(_SC_PAGESIZE);

	if (!stack_bytes)
		return;
	buf = __builtin_alloca(stack_bytes);
	for (i = 0; i < stack_bytes; i += page)
		buf[i] = 0;
	buf[stack_bytes - 1] = 0;
}

int rtp_mlock_all(size_t stack_bytes)
{
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return -errno;
	rtp_prefault_stack(stack_bytes);
	return 0;
}

bool rtp_policy_is_rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE;
}

int rtp_sched_set(pid_t tid, const struct rtp_sched *s)
{
	struct rtp_sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = (uint32_t)s->policy;
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR)
		a.sched_priority = (uint32_t)s->priority;
	else if (s->policy == SCHED_DEADLINE) {
		a.sched_runtime = s->runtime_ns;
		a.sched_deadline = s->deadline_ns;
		a.sched_period = s->period_ns;
	} else
		a.sched_nice = s->priority;
	if (syscall(SYS_sched_setattr, tid, &a, 0))
		return -errno;
	return 0;
}

int rtp_sched_get(pid_t tid, struct rtp_sched *s)
{
	struct rtp_sched_attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, sizeof(a), 0))
		return -errno;
	s->policy = (int)a.sched_policy;
	s->priority = (s->policy == SCHED_FIFO || s->policy == SCHED_RR) ?
		      (int)a.sched_priority : a.sched_nice;
	s->runtime_ns = a.sched_runtime;
	s->deadline_ns = a.sched_deadline;
	s->period_ns = a.sched_period;
	return 0;
}

int rtp_pin_set(pid_t tid, const cpu_set_t *set)
{
	if (sched_setaffinity(tid, sizeof(*set), set))
		return -errno;
	return 0;
}

int rtp_pin_cpu(pid_t tid, int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return rtp_pin_set(tid, &set);
}

int rtp_thread_setup(int cpu, const cpu_set_t *set, const struct rtp_sched *s, unsigned flags,
		     size_t prefault, const char **what)
{
	int ret = 0;

	if (cpu >= 0)
		ret = rtp_pin_cpu(0, cpu);
	else if (set)
		ret = rtp_pin_set(0, set);
	if (ret) {
		if (what)
			*what = "pin to its CPU";
		return ret;
	}
	ret = rtp_sched_set(0, s);
	if (ret) {
		if (what)
			*what = "set its scheduling policy";
		return ret;
	}
	if (flags & RTP_THREAD_TIMERSLACK)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	rtp_prefault_stack(prefault);
	return 0;
}

int rtp_dma_latency_open(int32_t value_us)
{
	int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, &value_us, sizeof(value_us)) != sizeof(value_us)) {
		int err = -errno;

		close(fd);
		return err ? err : -EIO;
	}
	return fd;
}

void rtp_dma_latency_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

struct probe {
	int prio;
	int err;
};

static void *probe_thread(void *arg)
{
	struct probe *p = arg;
	struct rtp_sched s = { .policy = SCHED_FIFO, .priority = p->prio };

	p->err = rtp_sched_set(0, &s);
	return NULL;
}

static bool have_cap_sys_nice(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_SYS_NICE / 32].effective & (1u << (CAP_SYS_NICE % 32));
}

bool rtp_can_rt(int prio, char *why, size_t len)
{
	struct probe p = { .prio = prio, .err = 0 };
	pthread_attr_t attr;
	struct rlimit rl;
	pthread_t t;
	int ret;

	/*
	 * A thread of its own, so the caller's scheduling is never touched, on
	 * a small stack: glibc keeps an ended thread's stack for reuse, and a
	 * later mlockall() would lock (and fault in) a default 8 MiB one.
	 */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	ret = pthread_create(&t, &attr, probe_thread, &p);
	pthread_attr_destroy(&attr);
	if (ret) {
		snprintf(why, len, "cannot start a probe thread: %s", strerror(ret));
		return false;
	}
	pthread_join(t, NULL);
	if (!p.err)
		return true;
	if (getrlimit(RLIMIT_RTPRIO, &rl))
		rl.rlim_cur = 0;
	if (p.err == -EPERM) {
		if (geteuid() == 0 || have_cap_sys_nice())
			snprintf(why, len,
				 "SCHED_FIFO %d refused (EPERM) although the process has "
				 "CAP_SYS_NICE: an RT cgroup budget (cpu.rt_runtime_us) "
				 "or a container forbids it", prio);
		else
			snprintf(why, len,
				 "SCHED_FIFO %d needs root, CAP_SYS_NICE or RLIMIT_RTPRIO >= %d; "
				 "this process has uid %d, no CAP_SYS_NICE and RLIMIT_RTPRIO %llu "
				 "(run as root, setcap cap_sys_nice+ep, or raise rtprio in "
				 "/etc/security/limits.conf)",
				 prio, prio, (int)geteuid(), (unsigned long long)rl.rlim_cur);
	} else {
		snprintf(why, len, "SCHED_FIFO %d refused: %s", prio, strerror(-p.err));
	}
	return false;
}
