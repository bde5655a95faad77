// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-irqlat: the sources as an ops table (one file each: src_*.c),
 * their probes, and the reader thread's common set-up.  Each reader
 * thread runs at the reader's priority and does only its read, the clock
 * and the histogram updates in its loop.  A read that blocks is ended by
 * SIGUSR1 from the main thread, so a source gone silent cannot hold the run.
 */
#include "irqlat_run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "kconfig.h"
#include "log.h"
#include "rt.h"
#include "run.h"
#include "sysinfo.h"
#include "../../kernel/module/rtproof_irqlat.h"


const struct irqlat_source_ops *const irqlat_sources[SRC_N] = {
	[SRC_MODULE] = &irqlat_module_ops,
	[SRC_TIMERLAT] = &irqlat_timerlat_ops,
	[SRC_RTC] = &irqlat_rtc_ops,
	[SRC_USER] = &irqlat_user_ops,
};

/* ---- small file helpers ---------------------------------------------- */

void irqlat_probe(struct irqlat_run *r)
{
	int s;

	for (s = 0; s < SRC_N; s++) {
		r->why[s][0] = 0;
		irqlat_sources[s]->probe(r, r->why[s], IRQLAT_WHY);
	}
}

void *irqlat_reader_main(void *arg)
{
	struct irqlat_run *r = arg;
	int ret;

	struct rtp_sched s = { .policy = r->o.priority > 0 ? SCHED_FIFO : SCHED_OTHER,
			       .priority = r->o.priority };

	ret = rtp_thread_setup(r->o.cpu, NULL, &s, 0, 0, &r->reader_err_what);	/* stack painted */
	if (ret)
		r->reader_err = ret;
	else
		irqlat_sources[r->src]->reader(r);
	__atomic_store_n(&r->reader_done, 1, __ATOMIC_RELEASE);
	return NULL;
}
