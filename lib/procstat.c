// SPDX-License-Identifier: GPL-2.0-or-later
/* A task's identity from /proc/PID/stat: the kernel-thread flag, not the name. */
#include "procstat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"

int rtp_procstat_parse(const char *text, struct rtp_procstat *st)
{
	const char *open, *close, *p;
	char *end;
	long pid, ppid;
	unsigned long flags;
	size_t n;
	int field;

	memset(st, 0, sizeof(*st));
	pid = strtol(text, &end, 10);
	if (end == text || pid < 0 || pid > 0x7fffffff)
		return -EINVAL;
	open = strchr(end, '(');
	close = strrchr(text, ')');
	if (!open || !close || close < open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = 0;
	p = close + 1;
	if (p[0] != ' ' || !p[1] || p[2] != ' ')
		return -EINVAL;
	st->state = p[1];
	p += 3;
	ppid = strtol(p, &end, 10);
	if (end == p || ppid < 0 || ppid > 0x7fffffff)
		return -EINVAL;
	p = end;
	/* fields 5..8: pgrp session tty_nr tpgid (tpgid may be -1) */
	for (field = 5; field <= 8; field++) {
		(void)strtol(p, &end, 10);
		if (end == p)
			return -EINVAL;
		p = end;
	}
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	flags = strtoul(p, &end, 10);
	if (end == p || errno)
		return -EINVAL;
	st->pid = (int)pid;
	st->ppid = (int)ppid;
	st->flags = flags;
	return 0;
}

int rtp_procstat_read(const char *proc, int pid, struct rtp_procstat *st)
{
	char path[512], buf[1024];
	int ret;

	memset(st, 0, sizeof(*st));
	if (pid <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%d/stat", proc, pid);
	ret = rtp_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	ret = rtp_procstat_parse(buf, st);
	if (!ret && st->pid != pid)
		ret = -EINVAL;
	return ret;
}

bool rtp_procstat_is_kthread(const struct rtp_procstat *st)
{
	return (st->flags & RTP_PF_KTHREAD) != 0;
}

int rtp_proc_kthread(const char *proc, int pid, const char *comm)
{
	struct rtp_procstat st;

	if (rtp_procstat_read(proc, pid, &st))
		return -1;
	if (comm && strncmp(st.comm, comm, strlen(comm)))
		return -1;
	return rtp_procstat_is_kthread(&st) ? 1 : 0;
}
