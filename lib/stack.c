// SPDX-License-Identifier: GPL-2.0-or-later
#include "stack.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A word no code is likely to leave behind: an odd, non-pointer, non-small value. */
#define PAINT UINT64_C(0xa5c3e1f00f1e3c5b)

#define RTP_STACK_TSAN_MIN ((size_t)1 << 20)

int rtp_stack_alloc(struct rtp_stack *s, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	long min = sysconf(_SC_THREAD_STACK_MIN);
	uint64_t *w;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	if (min > 0 && bytes < (size_t)min)
		bytes = (size_t)min;
#if defined(__SANITIZE_THREAD__)
	/* TSan's runtime keeps its own per-thread state on the stack (it asked
	 * for 921,088 bytes here): the sanitizer build gets 1 MiB */
	if (bytes < RTP_STACK_TSAN_MIN)
		bytes = RTP_STACK_TSAN_MIN;
#endif
	bytes = (bytes + page - 1) & ~(page - 1);
	s->guard = page;
	s->len = bytes + page;
	s->map = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
		      -1, 0);
	if (s->map == MAP_FAILED) {
		int err = -errno;

		memset(s, 0, sizeof(*s));
		return err;
	}
	if (mprotect(s->map, s->guard, PROT_NONE)) {
		int err = -errno;

		rtp_stack_free(s);
		return err;
	}
	/* Painting faults every page in: the thread never takes a stack page fault. */
	w = (uint64_t *)(void *)(s->map + s->guard);
	n = bytes / sizeof(*w);
	for (i = 0; i < n; i++)
		w[i] = PAINT;
	return 0;
}

size_t rtp_stack_size(const struct rtp_stack *s)
{
	return s->map ? s->len - s->guard : 0;
}

int rtp_stack_attr(const struct rtp_stack *s, pthread_attr_t *attr)
{
	if (!s->map)
		return -EINVAL;
	return -pthread_attr_setstack(attr, s->map + s->guard, s->len - s->guard);
}

size_t rtp_stack_peak(const struct rtp_stack *s)
{
	const uint64_t *w;
	size_t i, n;

	if (!s->map)
		return 0;
	w = (const uint64_t *)(const void *)(s->map + s->guard);
	n = (s->len - s->guard) / sizeof(*w);
	for (i = 0; i < n && w[i] == PAINT; i++)
		;
	return (n - i) * sizeof(*w);
}

void rtp_stack_free(struct rtp_stack *s)
{
	if (s->map)
		munmap(s->map, s->len);
	memset(s, 0, sizeof(*s));
}
