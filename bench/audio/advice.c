// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: the smallest buffer the run's worst cycle would have fit (a model estimate). */
#include "audio.h"

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "run.h"
#include "verdict.h"

void audio_advise(const struct audio_ctx *c, struct audio_advice *a)
{
	const struct audio_config *cfg = &c->cfg;
	uint64_t late_ns = c->lateness.max, work_ns = c->work.count ? c->work.max : 0;
	unsigned p, n;

	*a = (struct audio_advice){ .late_ns = late_ns, .work_ns = work_ns };
	if (!c->lateness.count || !cfg->rate || !cfg->period || cfg->periods < 2)
		return;
	a->valid = true;
	for (p = 16; p <= 4096; p *= 2)
		for (n = 2; n <= 4; n++) {
			uint64_t room = audio_frames_ns((uint64_t)(n - 1) * p, cfg->rate);
			uint64_t work = p > cfg->period ? (uint64_t)ceil((double)work_ns * p / cfg->period) : work_ns;
			uint64_t need = late_ns + work;
			uint64_t frames = (uint64_t)n * p, best = (uint64_t)a->periods * a->period;

			if (room <= need)
				continue;
			if (a->found && (frames > best || (frames == best && room - need <= a->room_ns - a->need_ns)))
				continue;
			a->found = true;
			a->period = p;
			a->periods = n;
			a->room_ns = room;
			a->need_ns = need;
			a->buffer_ns = audio_frames_ns(frames, cfg->rate);
		}
}

void audio_advice_print(const struct audio_advice *a, unsigned rate, double secs)
{
	char late[24], work[24], room[24], need[24], buf[24];

	if (!a->valid)
		return;
	rtp_format_ns(a->late_ns, late, sizeof(late));
	rtp_format_ns(a->work_ns, work, sizeof(work));
	if (!a->found) {
		printf("buffer advice (a model estimate): no buffer up to 4096 frames x 4 fits this run's worst "
		       "cycle (wake-up lateness %s + work %s)\n", late, work);
		return;
	}
	rtp_format_ns(a->room_ns, room, sizeof(room));
	rtp_format_ns(a->need_ns, need, sizeof(need));
	rtp_format_ns(a->buffer_ns, buf, sizeof(buf));
	printf("buffer advice (a model estimate, not a measurement): %u frames x %u periods (%s at %.0f kHz) is the "
	       "smallest buffer this run's worst cycle fits: %s of room for %s (wake-up lateness %s + work %s, "
	       "as if in one cycle; lateness taken as independent of the period, work as growing with it). "
	       "One %.1f s run cannot show fewer than one xrun an hour: that needs %.1f h with none.\n",
	       a->period, a->periods, buf, rate / 1e3, room, need, late, work, secs, rtp_none_seen_h());
}

void audio_advice_json(const struct audio_advice *a, struct rtp_json *j)
{
	if (!a->valid)
		return;
	rtp_json_begin_object(j, "buffer_advice");
	rtp_json_string(j, "kind", "model estimate");
	rtp_json_string(j, "model", "worst wake-up lateness + longest work as one cycle; lateness independent "
			"of the period, work growing with it; fits when (periods - 1) x period exceeds it");
	rtp_json_uint(j, "lateness_ns", a->late_ns);
	rtp_json_uint(j, "work_ns", a->work_ns);
	rtp_json_bool(j, "found", a->found);
	if (a->found) {
		rtp_json_uint(j, "period_frames", a->period);
		rtp_json_uint(j, "periods", a->periods);
		rtp_json_uint(j, "buffer_ns", a->buffer_ns);
		rtp_json_uint(j, "room_ns", a->room_ns);
		rtp_json_uint(j, "need_ns", a->need_ns);
	}
	rtp_json_end_object(j);
}
