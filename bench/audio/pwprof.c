// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PipeWire's profiler records, read as data: module-profiler (0.3.65)
 * sends, about once a second, a struct of Profiler objects, one per
 * cycle of a driver: SPA_PROFILER_info (counter, CPU load, the driver's
 * xrun count), SPA_PROFILER_clock (the driver's clock), a driverBlock
 * and one followerBlock per node the driver runs (id, name, the
 * driver's signal time, the node's signal, awake and finish times, its
 * status).  It writes one when the graph completes and one when the next
 * cycle begins before it did (the "incomplete" event: the clock is then
 * the new cycle's); a node whose status is not FINISHED there is what
 * held the cycle up.  Everything is bounds-checked by SPA's pod parser;
 * names are copied bounded, control bytes replaced.
 */
#include "pwprof.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifndef RTP_NO_PIPEWIRE
#include <spa/param/profiler.h>
#include <spa/pod/iter.h>
#include <spa/pod/parser.h>

static void copy_name(char *dst, size_t len, const char *src)
{
	char *p;

	snprintf(dst, len, "%s", src ? src : "");
	for (p = dst; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
}

static int parse_block(const struct spa_pod *pod, struct audio_pw_node *n)
{
	const char *name = NULL;
	int32_t id = 0, status = 0;
	int64_t driver_signal = 0;
	struct spa_fraction latency = { 0, 0 };
	int ret;

	memset(n, 0, sizeof(*n));
	ret = spa_pod_parse_struct(pod, SPA_POD_Int(&id), SPA_POD_String(&name),
				   SPA_POD_Long(&driver_signal), SPA_POD_Long(&n->signal_ns),
				   SPA_POD_Long(&n->awake_ns), SPA_POD_Long(&n->finish_ns),
				   SPA_POD_Int(&status), SPA_POD_Fraction(&latency));
	if (ret < 0)
		return ret;
	n->id = (uint32_t)id;
	n->status = status;
	copy_name(n->name, sizeof(n->name), name);
	return 0;
}

/* The follower array is full: n, not finished, takes the place of the last one that was. */
static void keep_unfinished(struct audio_pw_cycle *cy, const struct audio_pw_node *n)
{
	unsigned i;

	for (i = AUDIO_PW_MAX_FOLLOWERS; i-- > 0;) {
		if (!audio_pw_rank(&cy->follower[i])) {
			cy->follower[i] = *n;
			return;
		}
	}
}

static int parse_record(const struct spa_pod *o, struct audio_pw_cycle *cy)
{
	struct audio_pw_node n;
	struct spa_pod_prop *p;
	int ret = 0;

	memset(cy, 0, offsetof(struct audio_pw_cycle, follower));
	SPA_POD_OBJECT_FOREACH((const struct spa_pod_object *)o, p) {
		switch (p->key) {
		case SPA_PROFILER_info: {
			float load[3];
			int32_t xruns = 0;

			ret = spa_pod_parse_struct(&p->value, SPA_POD_Long(&cy->count),
						   SPA_POD_Float(&load[0]), SPA_POD_Float(&load[1]),
						   SPA_POD_Float(&load[2]), SPA_POD_Int(&xruns));
			cy->xrun_count = (uint32_t)xruns;
			break;
		}
		case SPA_PROFILER_clock: {
			int32_t flags = 0, id = 0;
			const char *name = NULL;
			struct spa_fraction rate = { 0, 0 };
			int64_t delay = 0;
			double rate_diff = 0;

			ret = spa_pod_parse_struct(&p->value, SPA_POD_Int(&flags), SPA_POD_Int(&id),
						   SPA_POD_String(&name), SPA_POD_Long(&cy->nsec),
						   SPA_POD_Fraction(&rate), SPA_POD_Long(&cy->position),
						   SPA_POD_Long(&cy->duration), SPA_POD_Long(&delay),
						   SPA_POD_Double(&rate_diff), SPA_POD_Long(&cy->next_nsec));
			if (ret >= 0) {
				cy->rate = rate.denom;
				cy->have_clock = true;
				copy_name(cy->clock_name, sizeof(cy->clock_name), name);
			}
			break;
		}
		case SPA_PROFILER_driverBlock:
			ret = parse_block(&p->value, &cy->driver);
			cy->have_driver = ret >= 0;
			break;
		case SPA_PROFILER_followerBlock:
			cy->followers_seen++;
			if (parse_block(&p->value, &n) < 0)
				break;
			if (cy->nfollowers < AUDIO_PW_MAX_FOLLOWERS)
				cy->follower[cy->nfollowers++] = n;
			else if (audio_pw_rank(&n))
				keep_unfinished(cy, &n);	/* over the cap: what held the cycle up is kept */
			break;
		default:
			break;
		}
		if (ret < 0)
			return ret;
	}
	return cy->have_clock && cy->have_driver ? 0 : -EINVAL;
}

int audio_pw_parse_profile(const void *data, size_t size, struct audio_pw_cycle *cy,
			   void (*fn)(void *arg, const struct audio_pw_cycle *cy), void *arg)
{
	const struct spa_pod *pod = data, *o;
	int n = 0;

	if (!data || size < sizeof(struct spa_pod) || SPA_POD_SIZE(pod) > size ||
	    !spa_pod_is_struct(pod))
		return -EINVAL;
	SPA_POD_STRUCT_FOREACH(pod, o) {
		if (!spa_pod_is_object_type(o, SPA_TYPE_OBJECT_Profiler))
			continue;
		if (parse_record(o, cy) < 0)
			continue;	/* a record of another shape: not ours to guess at */
		n++;
		fn(arg, cy);
	}
	return n;
}
#else
int audio_pw_parse_profile(const void *data, size_t size, struct audio_pw_cycle *cy,
			   void (*fn)(void *arg, const struct audio_pw_cycle *cy), void *arg)
{
	(void)data;
	(void)size;
	(void)cy;
	(void)fn;
	(void)arg;
	return -ENOSYS;
}
#endif

int audio_pw_rank(const struct audio_pw_node *n)
{
	switch (n->status) {
	case AUDIO_PW_AWAKE:
		return 3;
	case AUDIO_PW_TRIGGERED:
		return n->awake_ns > n->finish_ns ? 3 : 2;
	case AUDIO_PW_NOT_TRIGGERED:
		return 1;
	default:
		return 0;
	}
}

static int64_t since(const struct audio_pw_node *n, int r)
{
	return r == 3 ? n->awake_ns : n->signal_ns;
}

int audio_pw_culprit(const struct audio_pw_cycle *cy)
{
	int best = AUDIO_PW_COMPLETE, best_rank = 0;
	unsigned i;

	for (i = 0; i < cy->nfollowers; i++) {
		const struct audio_pw_node *n = &cy->follower[i];
		int r = audio_pw_rank(n);

		if (!r || r < best_rank)
			continue;
		if (r > best_rank || since(n, r) < since(&cy->follower[best], r)) {
			best = (int)i;
			best_rank = r;
		}
	}
	if (best == AUDIO_PW_COMPLETE && cy->have_driver && audio_pw_rank(&cy->driver))
		return AUDIO_PW_DRIVER;
	return best;
}

bool audio_pw_has_follower(const struct audio_pw_cycle *cy, uint32_t id)
{
	unsigned i;

	for (i = 0; i < cy->nfollowers; i++)
		if (cy->follower[i].id == id)
			return true;
	return false;
}
