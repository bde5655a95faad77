/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AFILE_H
#define RTP_AFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * An output file written whole or not at all, safe for every kind of path
 * (docs/reliability.md):
 *
 *  - a new path or an existing regular file: written to "<path>.tmp.XXXXXX"
 *    in the same directory (so an unwritable place fails before a run
 *    starts), fsynced and renamed over the path on commit;
 *  - a symbolic link is followed (the whole chain, relative links from the
 *    link's directory) and its final target is replaced, never the link;
 *    as the kernel's fs.protected_symlinks would, a link in a sticky
 *    world-writable directory (/tmp) is followed only when the caller
 *    (euid) or the directory's owner owns it: else -EACCES, nothing written;
 *  - an existing FIFO, character device, "-" (stdout) or a /proc fd link
 *    such as /dev/stdout is written through, never replaced: the text is
 *    kept in memory and written in full on commit (opened O_APPEND, no
 *    truncation), so an abort writes nothing;
 *  - a directory, a block device or a socket is refused.
 *
 * Every write error (ENOSPC, EIO, EPIPE: SIGPIPE is held off during the
 * write) is returned by rtp_afile_commit() as a negative errno, and no
 * temporary file is left behind on any error path.
 */
struct rtp_afile {
	char path[PATH_MAX];		/* as given */
	char target[PATH_MAX];		/* after symbolic links: what is replaced */
	char tmp[PATH_MAX + 16];	/* the temporary file, "" when none */
	FILE *f;			/* where the text goes */
	int fd;				/* write-through: the target, -1 until opened */
	int err;			/* the first write error, -errno */
	bool through;			/* written through (memory buffer) */
	bool to_stdout;			/* "-" */
	bool fdlink;			/* reached through a /proc fd link (/dev/stdout) */
	char *buf;			/* write-through: the text so far */
	size_t len, cap;
};

/* 0, or a negative errno (the path's kind refused, cannot create...). */
int rtp_afile_open(struct rtp_afile *a, const char *path);
/* Completes the file: 0, or the first write error (the file untouched). */
int rtp_afile_commit(struct rtp_afile *a);
/* Drops the text: the temporary file removed, nothing written through. */
void rtp_afile_abort(struct rtp_afile *a);
/* The path for messages: as the user gave it ("-" for stdout). */
const char *rtp_afile_name(const struct rtp_afile *a);

#endif /* RTP_AFILE_H */
