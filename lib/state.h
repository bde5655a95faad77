/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_STATE_H
#define RTP_STATE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The state journal (docs/security.md): before a run changes a
 * system setting it records the path and the old value in its state file,
 * RTP_STATE_DIR/<pid>.state, written atomically and flock()ed while the
 * run lives.  A clean end restores through the bench's own teardown and
 * deletes the file (rtp_state_close); a run killed by SIGKILL, SIGQUIT or
 * a crash leaves it, and the next run (or `rtproof cleanup`) restores what
 * it records: only when the owner's pid is gone and its lock is free.
 *
 * What a state file may steer is bounded: writes to existing files under
 * the allowed roots (tracefs, the module's parameters) and rmdir of a
 * tracing instance named RTP_STATE_INSTANCE_PREFIX... under
 * <root>/instances; the directory and the files must belong to root (or
 * the caller) and be writable by nobody else.  Not thread-safe: the
 * main thread's.
 */

#define RTP_STATE_DIR		"/run/rtproof/state"
#define RTP_STATE_INSTANCE_PREFIX "rtproof-"

struct rtp_state_cfg {
	const char *dir;		/* NULL: RTP_STATE_DIR */
	/* NULL-terminated; NULL: the real ones.  For the unit tests only. */
	const char *const *roots;
};

/* The roots a state file may name when cfg->roots is NULL. */
extern const char *const rtp_state_default_roots[];

struct rtp_state;

/*
 * The journal of this run (cfg NULL: the defaults).  Nothing is written
 * before the first record.  Returns 0 or -errno (-ENOMEM).
 */
int rtp_state_open(struct rtp_state **out, const struct rtp_state_cfg *cfg);

/*
 * Before writing to path: its value now (written back as it is).  A path
 * recorded already keeps its first value; a path outside the allowed roots
 * is not recorded (0).  st NULL: nothing (0).  0 or -errno: the journal
 * could not be written (the run may go on; the change is not covered).
 */
int rtp_state_record_write(struct rtp_state *st, const char *path, const char *old);
/* Before mkdir of a tracing instance: rmdir it when the run dies. */
int rtp_state_record_rmdir(struct rtp_state *st, const char *path);
/* The run undid the change at path itself: drop its entry. */
void rtp_state_forget(struct rtp_state *st, const char *path);
/* Clean end (after the teardown restored all): deletes the file, frees st. */
void rtp_state_close(struct rtp_state *st);

/* One thing a stale-state pass did or would not do. */
enum rtp_state_what {
	RTP_STATE_RESTORED,		/* written back: path, value */
	RTP_STATE_REMOVED,		/* the instance at path removed */
	RTP_STATE_FAILED,		/* the write or rmdir failed: err */
	RTP_STATE_REFUSED,		/* the entry or file is not trusted: why */
	RTP_STATE_LIVE,			/* its owner runs: left alone */
};

struct rtp_state_event {
	enum rtp_state_what what;
	int pid;			/* the owner; 0: unknown */
	const char *file;		/* the state file */
	const char *path;		/* NULL for a whole file */
	const char *value;		/* RESTORED, FAILED writes */
	int err;			/* FAILED: -errno */
	const char *why;		/* REFUSED */
};

/* One line for the event: "restored P to 'V' (left by pid N)" (no newline). */
void rtp_state_event_line(const struct rtp_state_event *e, char *buf, size_t len);

/*
 * Restores what dead runs left in the state directory, each event to
 * said() (may be NULL).  Returns how many settings were restored or
 * removed, 0 when the directory is absent, or -errno when it cannot be
 * read or is not trusted (owner, mode: -EPERM).
 */
int rtp_state_restore_stale(const struct rtp_state_cfg *cfg,
			    void (*said)(void *arg, const struct rtp_state_event *e), void *arg);

/* Is path (absolute, no "." or ".." parts) under one of the roots?  Lexical. */
bool rtp_state_path_allowed(const char *const *roots, const char *path);

#endif /* RTP_STATE_H */
