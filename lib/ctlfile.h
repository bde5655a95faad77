/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CTLFILE_H
#define RTP_CTLFILE_H

/*
 * The kernel's control files: where tracefs is mounted, and writing one
 * value to a tracefs, sysfs or procfs file.  Result files are another
 * matter (lib/afile.h: a temporary name, then a rename); a control file is
 * written in place, whole, in one write(2).
 *
 * Users: the explain session (lib/explain/), the state journal's restores
 * (lib/state.c), rtproof-cyclic's --tracemark, rtproof-irqlat's timerlat
 * and module sources.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The places tracefs is mounted, most usual first: i = 0, 1...; NULL past the last. */
const char *rtp_tracefs_candidate(size_t i);

/*
 * The first candidate holding every file named in need (a NULL-ended
 * list, e.g. { "available_tracers", NULL }), copied into buf.  0, or
 * -ENOENT when no candidate holds them all.
 */
int rtp_tracefs_root(const char *const *need, char *buf, size_t len);

/* "DIR/NAME" exists (access F_OK). */
bool rtp_ctl_exists(const char *dir, const char *name);

/*
 * Writes val to the control file path (O_WRONLY | O_TRUNC, never created):
 * 0, or a negative errno (-EIO for a short write).  rtp_ctl_write_at()
 * writes DIR/NAME; rtp_ctl_write_u64() writes "V\n"; the _nofollow
 * variant refuses a symbolic link as the last component (O_NOFOLLOW), for
 * paths read back from a file (the state journal).
 */
int rtp_ctl_write(const char *path, const char *val);
int rtp_ctl_write_nofollow(const char *path, const char *val);
int rtp_ctl_write_at(const char *dir, const char *name, const char *val);
int rtp_ctl_write_u64(const char *path, uint64_t v);

#endif /* RTP_CTLFILE_H */
