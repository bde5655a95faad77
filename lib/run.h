/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_RUN_H
#define RTP_RUN_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"

/*
 * Clean stops without a signal handler or a global flag: the main thread
 * blocks SIGINT/SIGTERM/SIGHUP before it starts workers (who inherit the
 * mask), then reads them from a signalfd (the driver's rtp_run_wait) and
 * tells the workers through a flag of its own context.
 */
int rtp_signals_block(sigset_t *set);

/* Formats ns as "1.234 ms" / "56.7 us" / "890 ns" for humans; returns buf. */
const char *rtp_format_ns(uint64_t ns, char *buf, size_t len);

struct rtp_sysinfo;
struct rtp_result;
/*
 * The start every program shares, in this order: SIGINT/SIGTERM/SIGHUP
 * blocked (before any thread exists, so all inherit the mask), the system
 * read, the wall-clock start taken, and --json opened when json is not
 * NULL, so an unwritable path fails before the run.  Returns 0, or
 * RTP_EXIT_ERROR after printing the one-line error.
 */
int rtp_run_begin(sigset_t *sigs, struct rtp_sysinfo *si, struct timespec *start,
		  struct rtp_result *res, const char *json);

#endif /* RTP_RUN_H */
