// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/stat parsing (lib/procstat.c): the flags field decides what is
 * a kernel thread, whatever the comm says, and a comm holding spaces or
 * parentheses cannot shift the fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procstat.h"
#include "tap.h"

static void test_parse(void)
{
	static const struct {
		const char *text;
		int ret, pid, ppid;
		unsigned long flags;
		const char *comm;
		int kthread;
	} cases[] = {
		{ "15 (ktimers/0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 98 0 1 0 3 0 0", 0, 15, 2, 2129984,
		  "ktimers/0", 1 },
		{ "1234 (rtp-spin) R 1200 1234 1200 34816 1234 4194560 100 0 0 0", 0, 1234, 1200, 4194560,
		  "rtp-spin", 0 },
		{ "4242 (irq/24-virtio0) S 4000 4242 4000 0 -1 4194560 0", 0, 4242, 4000, 4194560,
		  "irq/24-virtio0", 0 },
		/* a comm that plants a kernel thread's fields: the last ')' ends it */
		{ "4243 (x) S 2 0 0 0 -1 2129984 0) S 4000 0 0 0 -1 4194304 0", 0, 4243, 4000, 4194304,
		  "x) S 2 0 0 0 -1 2129984 0", 0 },
		{ "4244 (a b (c)) S 1 0 0 0 -1 4194304", 0, 4244, 1, 4194304, "a b (c)", 0 },
		{ "77 () S 1 0 0 0 -1 64", 0, 77, 1, 64, "", 0 },
		{ "", -EINVAL, 0, 0, 0, "", 0 },
		{ "x (a) S 1 0 0 0 -1 64", -EINVAL, 0, 0, 0, "", 0 },
		{ "5 (a S 1 0 0 0 -1 2129984", -EINVAL, 0, 0, 0, "", 0 },
		{ "5 (a) S 1 0 0 0", -EINVAL, 0, 0, 0, "", 0 },
		{ "5 (a) S 1 0 0 0 -1 -2129984", -EINVAL, 0, 0, 0, "", 0 },
		{ "5 (a) S 1 0 0 0 -1 99999999999999999999999", -EINVAL, 0, 0, 0, "", 0 },
		{ "5 (a)S 1 0 0 0 -1 64", -EINVAL, 0, 0, 0, "", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rtp_procstat st;
		int ret = rtp_procstat_parse(cases[i].text, &st);

		if (cases[i].ret) {
			ok(ret == cases[i].ret, "refused: \"%s\" (%d)", cases[i].text, ret);
			continue;
		}
		ok(ret == 0 && st.pid == cases[i].pid && st.ppid == cases[i].ppid &&
		   st.flags == cases[i].flags && !strcmp(st.comm, cases[i].comm) &&
		   rtp_procstat_is_kthread(&st) == cases[i].kthread,
		   "\"%.40s...\": pid %d ppid %d flags %lu comm \"%s\" %s", cases[i].text, st.pid, st.ppid,
		   st.flags, st.comm, rtp_procstat_is_kthread(&st) ? "kernel thread" : "user");
	}
}

static void test_live(void)
{
	struct rtp_procstat st;
	char comm[64];
	FILE *f;

	ok(rtp_procstat_read("/proc", (int)getpid(), &st) == 0 && st.pid == (int)getpid() &&
	   st.ppid == (int)getppid() && !rtp_procstat_is_kthread(&st),
	   "this process: read, its parent, not a kernel thread");
	ok(rtp_proc_kthread("/proc", (int)getpid(), NULL) == 0, "rtp_proc_kthread: 0 for this process");
	ok(rtp_proc_kthread("/proc", (int)getpid(), st.comm) == 0, "... with its own comm");
	ok(rtp_proc_kthread("/proc", (int)getpid(), "kworker/0:1") == -1,
	   "another comm: not known (the pid may have been reused)");
	ok(rtp_proc_kthread("/proc", 0, NULL) == -1 && rtp_proc_kthread("/proc", -5, NULL) == -1,
	   "pid 0 or below: not known");
	ok(rtp_proc_kthread("/nonexistent-proc", 1, NULL) == -1, "an unreadable stat: not known");
	/* kthreadd is pid 2 outside a pid namespace */
	f = fopen("/proc/2/comm", "r");
	if (f && fgets(comm, sizeof(comm), f) && !strcmp(comm, "kthreadd\n"))
		ok(rtp_proc_kthread("/proc", 2, "kthreadd") == 1, "kthreadd (pid 2) is a kernel thread");
	else
		tap_skip("no kthreadd at pid 2 (a pid namespace)", "kthreadd is a kernel thread");
	if (f)
		fclose(f);
}

int main(void)
{
	test_parse();
	test_live();
	return tap_done();
}
