/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_RUNLOCK_H
#define RTP_RUNLOCK_H

/*
 * One run at a time on something global (the timerlat tracer): an
 * exclusive flock(2) on <dir>/<name>.lock, never waited for.  The file
 * holds the holder's pid, for the error.  dir is $RTPROOF_RUN_DIR, else
 * /run/rtproof (made 0755), else (not ours to write: a user's run) a
 * private /tmp/rtproof-<euid> (0700):
 * the directory must be the caller's (or root's) and writable by no one
 * else, the lock file the caller's and opened without following a link
 * (O_NOFOLLOW), so no one else can plant it or hold it
 * (docs/security.md).  The lock dies with the process (its fd);
 * the holder removes the file as it lets go, and a taker checks that the
 * file it locked is still the one the name holds.
 */

#include <limits.h>
#include <stddef.h>

struct rtp_runlock {
	int fd;				/* -1: not held */
	char path[PATH_MAX];
};

/* The directory to use, made if missing.  Returns 0 or a negative errno. */
int rtp_runlock_dir(char *buf, size_t len);

/*
 * Takes <dir>/<name>.lock (dir NULL: rtp_runlock_dir()).  Returns 0; or
 * -EBUSY when another process holds it, *holder its pid (0: not known);
 * or another negative errno (-EPERM: the directory or file is not safely
 * ours) with l->path naming what failed.
 */
int rtp_runlock_take(const char *dir, const char *name, struct rtp_runlock *l, int *holder);

/* Releases it, the file removed (nothing when not held). */
void rtp_runlock_release(struct rtp_runlock *l);

#endif /* RTP_RUNLOCK_H */
