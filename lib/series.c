// SPDX-License-Identifier: GPL-2.0-or-later
#include "series.h"

#include <string.h>
#include <time.h>

#include "clock.h"
#include "json.h"

void rtp_series_init(struct rtp_series *s)
{
	memset(s, 0, sizeof(*s));
	s->block_ns = RTP_SERIES_BLOCK0_NS;
	s->epoch_ns = rtp_now_ns(CLOCK_MONOTONIC);
}

void rtp_series_coarsen(struct rtp_series *s)
{
	uint64_t nb = s->base / 2;
	uint32_t i, j, last = 0;

	/*
	 * In place: the target slot j never lies beyond the source slot i,
	 * and slot j's old content was read (at iteration j) before anything
	 * is added to it.
	 */
	for (i = 0; i < s->nblocks; i++) {
		uint64_t c = s->count[i], m = s->max[i];

		s->count[i] = 0;
		s->max[i] = 0;
		j = (uint32_t)((s->base + i) / 2 - nb);
		s->count[j] += c;
		if (m > s->max[j])
			s->max[j] = m;
		last = j;
	}
	if (s->nblocks)
		s->nblocks = last + 1;
	s->base = nb;
	s->block_ns *= 2;
	s->coarsened++;
	s->cur_lo = 0;
	s->cur = 0;
}

void rtp_series_coarsen_to(struct rtp_series *s, uint64_t block_ns)
{
	while (s->block_ns < block_ns)
		rtp_series_coarsen(s);
}

uint32_t rtp_series_slot(struct rtp_series *s, uint64_t t_ns)
{
	uint64_t a;
	uint32_t i;

	if (!s->block_ns)
		s->block_ns = RTP_SERIES_BLOCK0_NS;
	a = t_ns / s->block_ns;
	if (!s->nblocks) {
		s->base = a;
		s->nblocks = 1;
		i = 0;
	} else if (a >= s->base) {
		while (a - s->base >= RTP_SERIES_BLOCKS) {
			rtp_series_coarsen(s);
			a = t_ns / s->block_ns;
		}
		i = (uint32_t)(a - s->base);
		if (i >= s->nblocks)
			s->nblocks = i + 1;	/* the slots between are empty already */
	} else {
		uint64_t shift;

		/* Earlier than the window: it must end at the last block in use. */
		while (s->base + s->nblocks - 1 - a >= RTP_SERIES_BLOCKS) {
			rtp_series_coarsen(s);
			a = t_ns / s->block_ns;
		}
		shift = s->base - a;
		if (shift) {
			memmove(&s->count[shift], &s->count[0], s->nblocks * sizeof(s->count[0]));
			memmove(&s->max[shift], &s->max[0], s->nblocks * sizeof(s->max[0]));
			memset(&s->count[0], 0, shift * sizeof(s->count[0]));
			memset(&s->max[0], 0, shift * sizeof(s->max[0]));
			s->nblocks += (uint32_t)shift;
			s->base = a;
		}
		i = 0;
	}
	s->cur = i;
	s->cur_lo = a * s->block_ns;
	return i;
}

void rtp_series_merge(struct rtp_series *dst, const struct rtp_series *src)
{
	struct rtp_series tmp;
	uint32_t i;

	if (src->epoch_ns && (!dst->epoch_ns || src->epoch_ns < dst->epoch_ns))
		dst->epoch_ns = src->epoch_ns;
	if (!src->nblocks)
		return;
	memcpy(&tmp, src, sizeof(tmp));
	if (!dst->block_ns)
		dst->block_ns = RTP_SERIES_BLOCK0_NS;
	for (;;) {
		rtp_series_coarsen_to(dst, tmp.block_ns);
		rtp_series_coarsen_to(&tmp, dst->block_ns);
		/* Make room for both ends; either may coarsen dst again. */
		rtp_series_slot(dst, tmp.base * tmp.block_ns);
		rtp_series_slot(dst, (tmp.base + tmp.nblocks - 1) * tmp.block_ns);
		if (dst->block_ns == tmp.block_ns)
			break;
	}
	for (i = 0; i < tmp.nblocks; i++) {
		uint32_t k;

		if (!tmp.count[i])
			continue;
		k = (uint32_t)(tmp.base + i - dst->base);
		dst->count[k] += tmp.count[i];
		if (tmp.max[i] > dst->max[k])
			dst->max[k] = tmp.max[i];
	}
}

uint64_t rtp_series_total(const struct rtp_series *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->nblocks; i++)
		n += s->count[i];
	return n;
}

uint32_t rtp_series_used(const struct rtp_series *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->nblocks; i++)
		n += s->count[i] != 0;
	return n;
}

void rtp_json_series(struct rtp_json *j, const struct rtp_series *s)
{
	double origin_s, block_s;
	uint32_t i;

	if (!rtp_series_used(s))
		return;
	block_s = (double)s->block_ns / 1e9;
	origin_s = (double)(int64_t)(s->base * s->block_ns - s->epoch_ns) / 1e9;
	rtp_json_begin_object(j, "series");
	rtp_json_string(j, "kind", "time-blocks");
	rtp_json_string(j, "clock", "monotonic");
	rtp_json_double(j, "t0_s", origin_s);
	rtp_json_double(j, "block_s", block_s);
	rtp_json_uint(j, "coarsened", s->coarsened);
	rtp_json_begin_array(j, "blocks");
	for (i = 0; i < s->nblocks; i++) {
		if (!s->count[i])
			continue;
		rtp_json_begin_row(j, NULL);
		rtp_json_double(j, NULL, (double)((uint64_t)i * s->block_ns) / 1e9);
		rtp_json_uint(j, NULL, s->count[i]);
		rtp_json_uint(j, NULL, s->max[i]);
		rtp_json_end_array(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}
