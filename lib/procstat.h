/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PROCSTAT_H
#define RTP_PROCSTAT_H

/*
 * Who a task is, from /proc/PID/stat rather than from its name: a comm is
 * whatever the task last wrote with prctl(PR_SET_NAME), so "irq/24-virtio0"
 * or "timerlat/0" proves nothing.  PF_KTHREAD in the flags field (field 9)
 * is set by the kernel alone and cannot be gained from user space
 * (docs/security.md).  The proc root is a parameter so tests can
 * plant a fake tree.
 */

#include <stdbool.h>
#include <stddef.h>

#define RTP_PF_KTHREAD 0x00200000UL	/* include/linux/sched.h */

struct rtp_procstat {
	int pid;
	char comm[64];		/* between the first '(' and the last ')' */
	char state;
	int ppid;
	unsigned long flags;
};

/*
 * Parses the text of /proc/PID/stat ("pid (comm) state ppid pgrp session
 * tty_nr tpgid flags ...").  The comm may hold spaces and parentheses: it
 * ends at the last ')'.  Returns 0, or -EINVAL for text of another shape.
 */
int rtp_procstat_parse(const char *text, struct rtp_procstat *st);

/* Reads and parses <proc>/<pid>/stat.  Returns 0 or a negative errno. */
int rtp_procstat_read(const char *proc, int pid, struct rtp_procstat *st);

/* The kernel's own mark: PF_KTHREAD. */
bool rtp_procstat_is_kthread(const struct rtp_procstat *st);

/*
 * Is pid a kernel thread?  1 yes, 0 no, -1 not known: the pid is gone or
 * unreadable, or (comm given) its comm no longer starts with comm, so the
 * pid may now belong to another task.  A kernel thread's comm in /proc may
 * be longer than the trace's 15 characters (kworker/0:1-events), hence
 * the prefix.
 */
int rtp_proc_kthread(const char *proc, int pid, const char *comm);

#endif /* RTP_PROCSTAT_H */
