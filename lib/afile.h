/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AFILE_H
#define RTP_AFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * A file written whole or not at all: opened as "<path>.tmp.XXXXXX" in the
 * target's directory (so an unwritable path fails before a run starts),
 * fsynced and renamed into place on commit, removed on abort.  "-" is
 * stdout, written directly.
 */
struct rtp_afile {
	char path[PATH_MAX];
	char tmp[PATH_MAX + 16];
	FILE *f;
	bool to_stdout;
};
int rtp_afile_open(struct rtp_afile *a, const char *path);
int rtp_afile_commit(struct rtp_afile *a);
void rtp_afile_abort(struct rtp_afile *a);

#endif /* RTP_AFILE_H */
