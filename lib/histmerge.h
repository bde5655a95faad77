/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_HISTMERGE_H
#define RTP_HISTMERGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Merging exported histograms whose bucket schemes differ: a thread's
 * coarse page (one bucket spanning its power of two) overlaps the fine
 * buckets other threads have in that page.  Equal buckets add up;
 * overlapping ones become one bucket spanning them all, so that no value
 * is ever placed below its own upper edge (percentiles never understate).
 * Disjoint buckets stay apart.
 */
struct rtp_span {
	uint64_t lo, hi, count;		/* inclusive edges */
};

/*
 * Sorts b[0..n) by lower edge and merges in place; returns the number of
 * buckets left, ordered and disjoint (each lo > the previous hi).
 */
size_t rtp_span_merge(struct rtp_span *b, size_t n);

#endif /* RTP_HISTMERGE_H */
