// SPDX-License-Identifier: GPL-2.0-or-later
/* struct cyclic_thread: each element of the threads' array on its own cache lines. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cyclic.h"
#include "tap.h"

int main(void)
{
	struct cyclic_thread *t;

	ok(_Alignof(struct cyclic_thread) == 64, "struct cyclic_thread is 64-byte aligned (%zu)",
	   (size_t)_Alignof(struct cyclic_thread));
	ok(sizeof(struct cyclic_thread) % 64 == 0, "its size is a multiple of 64 (%zu)",
	   sizeof(struct cyclic_thread));
	ok(offsetof(struct cyclic_thread, hist) == 0, "the histogram comes first");
	t = aligned_alloc(64, 3 * sizeof(*t));
	ok(t && (uintptr_t)&t[1] % 64 == 0 && (uintptr_t)&t[2].missed / 64 != (uintptr_t)&t[1].missed / 64,
	   "in an array, each element starts a cache line");
	free(t);
	return tap_done();
}
