/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_SERIES_H
#define RTP_SERIES_H

#include <stdbool.h>
#include <stdint.h>

struct rtp_json;

/*
 * A bounded time-block series: per block of time, the count and the max of
 * the samples recorded in it.  Blocks lie on one grid of CLOCK_MONOTONIC
 * (block k covers [k * block_ns, (k + 1) * block_ns)), so the series of
 * different threads merge exactly.  At most RTP_SERIES_BLOCKS blocks are
 * kept: when a sample falls outside that window, neighbouring blocks are
 * merged pairwise (block_ns doubles, 'coarsened' counts how often) until it
 * fits.  Nothing is dropped: counts add up, the max of a merged block is
 * the max of its halves, and the overall max stays exact.  Fixed size
 * (4 KiB of blocks), no allocation, owned by one thread like its
 * histogram.
 */
#define RTP_SERIES_BLOCKS	256
#define RTP_SERIES_BLOCK0_NS	UINT64_C(100000000)	/* 100 ms before any coarsening */

struct rtp_series {
	uint64_t epoch_ns;	/* CLOCK_MONOTONIC at init: t0_s is counted from here */
	uint64_t block_ns;	/* current block length */
	uint64_t base;		/* grid index (t / block_ns) of blocks[0] */
	uint64_t cur_lo;	/* start time of the block last written (fast path) */
	uint32_t cur;		/* its slot */
	uint32_t nblocks;	/* slots in use; 0 while empty */
	uint32_t coarsened;	/* pairwise merges so far */
	uint32_t pad;
	uint64_t count[RTP_SERIES_BLOCKS];
	uint64_t max[RTP_SERIES_BLOCKS];
};

/* Empties s; its epoch is now (CLOCK_MONOTONIC). */
void rtp_series_init(struct rtp_series *s);

/* The slot for time t_ns, coarsening or shifting the window as needed. */
uint32_t rtp_series_slot(struct rtp_series *s, uint64_t t_ns);

/*
 * The hot path: a compare and two stores, unless the sample starts a new
 * block (a division then, and rarely a coarsening pass over the blocks).
 */
static inline void rtp_series_record(struct rtp_series *s, uint64_t v, uint64_t t_ns)
{
	uint32_t i;

	if (__builtin_expect(s->nblocks && t_ns - s->cur_lo < s->block_ns, 1))
		i = s->cur;
	else
		i = rtp_series_slot(s, t_ns);
	s->count[i]++;
	if (v > s->max[i])
		s->max[i] = v;
}

/* Merges pairwise once: block_ns doubles. */
void rtp_series_coarsen(struct rtp_series *s);

/* Coarsens until s->block_ns >= block_ns (a power-of-two multiple of it). */
void rtp_series_coarsen_to(struct rtp_series *s, uint64_t block_ns);

/* dst += src, by time; the result has the coarser of both block lengths or coarser. */
void rtp_series_merge(struct rtp_series *dst, const struct rtp_series *src);

/* Sum of the block counts. */
uint64_t rtp_series_total(const struct rtp_series *s);

/* Non-empty blocks. */
uint32_t rtp_series_used(const struct rtp_series *s);

/*
 * Writes "series": { kind, clock, t0_s, block_s, coarsened, blocks } into
 * the current object (the shared format, docs/results.md); nothing when
 * the series is empty.
 */
void rtp_json_series(struct rtp_json *j, const struct rtp_series *s);

#endif /* RTP_SERIES_H */
