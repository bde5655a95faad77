/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_STACK_H
#define RTP_STACK_H

#include <pthread.h>
#include <stddef.h>

/*
 * A measuring thread's stack, of a size chosen by measurement.
 *
 * mlockall(MCL_FUTURE) locks the whole of every thread's stack, so its
 * size is locked RAM taken from the system under test: each bench gives
 * its threads a small stack (docs/scale.md).  The stack is mapped here,
 * one guard page below it, and painted with a pattern; after the thread
 * has been joined, rtp_stack_peak() finds the deepest byte it wrote (its
 * high-water mark, from the top: glibc's thread descriptor and TLS, which
 * it places at the top of a given stack, included).  Every run records
 * that peak in its document, and tests/integration/scale-stack.t checks
 * the margin.
 */
struct rtp_stack {
	unsigned char *map;	/* the mapping, guard page first; NULL: none */
	size_t len;		/* whole mapping */
	size_t guard;		/* bytes of guard page(s) at the bottom */
};

/*
 * Maps a stack of bytes (rounded up to pages, at least the system's
 * minimum) plus a guard page, and paints it.  Returns 0 or -errno.
 */
int rtp_stack_alloc(struct rtp_stack *s, size_t bytes);

/* Usable bytes of the stack (without the guard). */
size_t rtp_stack_size(const struct rtp_stack *s);

/* Sets attr (already initialised) to run a thread on s; 0 or -errno. */
int rtp_stack_attr(const struct rtp_stack *s, pthread_attr_t *attr);

/*
 * Bytes written from the top since the stack was painted: call after the
 * thread has been joined.  0 for no stack.
 */
size_t rtp_stack_peak(const struct rtp_stack *s);

/* Unmaps it (after the thread has been joined); safe on a zeroed or freed one. */
void rtp_stack_free(struct rtp_stack *s);

#endif /* RTP_STACK_H */
