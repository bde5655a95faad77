// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ALSA backend.  Playback of silence (or capture) with the hardware parameters
 * asked for (the granted ones are reported), avail_min = one period, an
 * explicit start after a full prefill, and status timestamps on
 * CLOCK_MONOTONIC, so that each wake-up can be placed against the moment
 * the period became free: tstamp - (avail - period) / rate.
 */
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "run.h"

#define NO_IMPULSE UINT64_MAX

struct alsa_dev {
	snd_pcm_t *pcm;
	snd_pcm_status_t *st;
	bool mmap;
	bool capture;
	int wait_ms;
	struct audio_ptr_clock pc;
	/* --duplex */
	snd_pcm_t *cap;
	bool linked;
	void *impbuf;			/* one period of silence with the impulse */
	void *capbuf;			/* one captured period (rw access) */
	uint64_t play_pos;		/* playback frames written since the start */
	uint64_t cap_pos;		/* capture frames read since the start */
	uint64_t impulse_at;		/* playback index of the impulse in flight */
	uint64_t impulse_ns;		/* when it was written */
	uint64_t next_impulse_ns;	/* when the next one goes out */
};

#define TRY(call, what)								\
	do {									\
		err = (call);							\
		if (err < 0) {							\
			snprintf(why, len, "ALSA device '%s': cannot set %s: %s",	\
				 o->device, what, snd_strerror(err));		\
			goto out_close;						\
		}								\
	} while (0)

/*
 * --duplex: a capture PCM with the playback's granted configuration, linked
 * to it when the driver allows (one start for both).  Every quarter second
 * a period carries an impulse (a full-scale first frame); its round trip is
 * the time from writing it to reading it back.
 */
static int duplex_open(struct audio_ctx *c, struct alsa_dev *d, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	const struct audio_config *g = &c->cfg;
	snd_pcm_hw_params_t *hw;
	snd_pcm_sw_params_t *sw;
	snd_pcm_uframes_t period = g->period, buffer = g->buffer, boundary;
	unsigned rate = g->rate;
	size_t fb = (size_t)snd_pcm_format_physical_width((snd_pcm_format_t)g->format) / 8 * g->channels;
	int err, dir = 0;

	err = snd_pcm_open(&d->cap, o->duplex, SND_PCM_STREAM_CAPTURE, 0);
	if (err < 0) {
		snprintf(why, len, "--duplex: cannot open ALSA device '%s': %s", o->duplex,
			 snd_strerror(err));
		c->cannot_open = true;
		return err;
	}
	snd_pcm_hw_params_alloca(&hw);
	snd_pcm_sw_params_alloca(&sw);
#define DTRY(call, what)							\
	do {									\
		err = (call);							\
		if (err < 0) {							\
			snprintf(why, len, "--duplex %s: cannot set %s: %s", o->duplex, what, \
				 snd_strerror(err));				\
			goto out_close;						\
		}								\
	} while (0)
	DTRY(snd_pcm_hw_params_any(d->cap, hw), "any hardware parameters");
	DTRY(snd_pcm_hw_params_set_access(d->cap, hw, d->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED :
					  SND_PCM_ACCESS_RW_INTERLEAVED), "the access");
	DTRY(snd_pcm_hw_params_set_format(d->cap, hw, (snd_pcm_format_t)g->format), "the format");
	DTRY(snd_pcm_hw_params_set_channels(d->cap, hw, g->channels), "the channels");
	DTRY(snd_pcm_hw_params_set_rate(d->cap, hw, rate, 0), "the playback's rate");
	DTRY(snd_pcm_hw_params_set_period_size_near(d->cap, hw, &period, &dir), "the period size");
	DTRY(snd_pcm_hw_params_set_buffer_size_near(d->cap, hw, &buffer), "the buffer size");
	DTRY(snd_pcm_hw_params(d->cap, hw), "the hardware parameters");
	snd_pcm_hw_params_get_period_size(hw, &period, &dir);
	if (period != g->period) {
		snprintf(why, len, "--duplex %s: granted a period of %lu frames, playback has %u",
			 o->duplex, (unsigned long)period, g->period);
		err = -EINVAL;
		goto out_close;
	}
	DTRY(snd_pcm_sw_params_current(d->cap, sw), "software parameters");
	DTRY(snd_pcm_sw_params_get_boundary(sw, &boundary), "the boundary");
	DTRY(snd_pcm_sw_params_set_start_threshold(d->cap, sw, boundary), "an explicit start");
	DTRY(snd_pcm_sw_params_set_avail_min(d->cap, sw, period), "avail_min");
	DTRY(snd_pcm_sw_params(d->cap, sw), "the software parameters");
#undef DTRY
	d->impbuf = calloc(g->period, fb);
	d->capbuf = calloc(g->period, fb);
	if (!d->impbuf || !d->capbuf) {
		snprintf(why, len, "out of memory");
		err = -ENOMEM;
		goto out_close;
	}
	snd_pcm_format_set_silence((snd_pcm_format_t)g->format, d->impbuf, g->period * g->channels);
	switch (g->format) {
	case SND_PCM_FORMAT_S16_LE:
		*(int16_t *)d->impbuf = INT16_MAX;
		break;
	case SND_PCM_FORMAT_S32_LE:
		*(int32_t *)d->impbuf = INT32_MAX;
		break;
	default:
		*(float *)d->impbuf = 1.0f;
		break;
	}
	d->impulse_at = NO_IMPULSE;
	d->next_impulse_ns = 0;		/* the first period after the start */
	d->linked = snd_pcm_link(d->pcm, d->cap) == 0;
	c->duplex_linked = d->linked;
	snprintf(c->duplex_pcm, sizeof(c->duplex_pcm), "%s", snd_pcm_name(d->cap));
	c->delay_min_frames = INT64_MAX;
	c->delay_max_frames = INT64_MIN;
	return 0;

out_close:
	free(d->impbuf);
	free(d->capbuf);
	d->impbuf = d->capbuf = NULL;
	snd_pcm_close(d->cap);
	d->cap = NULL;
	return err;
}

/* Index of the first loud frame (first channel) in one period, or -1. */
static long find_impulse(const struct audio_ctx *c, const void *base, size_t step_bytes, size_t frames)
{
	const unsigned char *p = base;
	size_t i;

	for (i = 0; i < frames; i++, p += step_bytes) {
		switch (c->cfg.format) {
		case SND_PCM_FORMAT_S16_LE:
			if (*(const int16_t *)p > INT16_MAX / 2 || *(const int16_t *)p < -INT16_MAX / 2)
				return (long)i;
			break;
		case SND_PCM_FORMAT_S32_LE:
			if (*(const int32_t *)p > INT32_MAX / 2 || *(const int32_t *)p < -INT32_MAX / 2)
				return (long)i;
			break;
		default:
			if (*(const float *)p > 0.5f || *(const float *)p < -0.5f)
				return (long)i;
			break;
		}
	}
	return -1;
}

static void impulse_seen(struct audio_ctx *c, struct alsa_dev *d, uint64_t cap_index, uint64_t now)
{
	int64_t delay = (int64_t)cap_index - (int64_t)d->impulse_at;

	if (d->impulse_at == NO_IMPULSE)
		return;	/* a stale echo after a restart */
	rtp_hist_record_at(&c->roundtrip, now > d->impulse_ns ? now - d->impulse_ns : 0, now);
	c->impulses_found++;
	if (delay < c->delay_min_frames)
		c->delay_min_frames = delay;
	if (delay > c->delay_max_frames)
		c->delay_max_frames = delay;
	d->impulse_at = NO_IMPULSE;
}

/* Reads every captured period; looks for the impulse in flight. */
static void duplex_pump(struct audio_ctx *c, struct alsa_dev *d, uint64_t now)
{
	const size_t fb = (size_t)snd_pcm_format_physical_width((snd_pcm_format_t)c->cfg.format) / 8 *
			  c->cfg.channels;
	snd_pcm_sframes_t avail, got;
	unsigned k;
	long at;

	/* At most a buffer's worth per wake-up: a device faster than real time
	 * (the null plugin) must not keep the audio thread here. */
	for (k = 0; k < c->cfg.periods + 1; k++) {
		avail = snd_pcm_avail_update(d->cap);
		if (avail < 0) {
			c->capture_xruns++;
			if (d->impulse_at != NO_IMPULSE) {
				c->impulses_lost++;
				d->impulse_at = NO_IMPULSE;
			}
			/* Resynchronise: the capture restarts alone, its index from the playback's. */
			snd_pcm_drop(d->cap);
			snd_pcm_prepare(d->cap);
			d->cap_pos = d->play_pos - c->cfg.buffer;
			snd_pcm_start(d->cap);
			return;
		}
		if ((snd_pcm_uframes_t)avail < c->cfg.period)
			return;
		if (d->mmap) {
			const snd_pcm_channel_area_t *areas;
			snd_pcm_uframes_t off, n = c->cfg.period;

			if (snd_pcm_mmap_begin(d->cap, &areas, &off, &n) < 0 || !n)
				return;
			at = find_impulse(c, (const unsigned char *)areas[0].addr +
					  (areas[0].first + off * areas[0].step) / 8, areas[0].step / 8, n);
			got = snd_pcm_mmap_commit(d->cap, off, n);
		} else {
			got = snd_pcm_readi(d->cap, d->capbuf, c->cfg.period);
			at = got > 0 ? find_impulse(c, d->capbuf, fb, (size_t)got) : -1;
		}
		if (got <= 0)
			return;
		if (at >= 0)
			impulse_seen(c, d, d->cap_pos + (uint64_t)at, now);
		d->cap_pos += (uint64_t)got;
	}
}

/* The card's driver name ("Dummy", "Loopback", "HDA-Intel"), and whether a timer drives it. */
static void card_driver(struct audio_ctx *c, int card)
{
	snd_ctl_card_info_t *ci;
	snd_ctl_t *ctl;
	char name[32];

	if (card < 0)
		return;
	snprintf(name, sizeof(name), "hw:%d", card);
	if (snd_ctl_open(&ctl, name, 0) < 0)
		return;
	snd_ctl_card_info_alloca(&ci);
	if (snd_ctl_card_info(ctl, ci) >= 0) {
		snprintf(c->cfg.driver, sizeof(c->cfg.driver), "%s", snd_ctl_card_info_get_driver(ci));
		c->cfg.timer_driven = audio_timer_driver(c->cfg.driver);
	}
	snd_ctl_close(ctl);
}

static int alsa_open(struct audio_ctx *c, char *why, size_t len)
{
	const struct audio_opts *o = c->o;
	snd_pcm_hw_params_t *hw;
	snd_pcm_sw_params_t *sw;
	snd_pcm_info_t *info;
	snd_pcm_uframes_t period, buffer, boundary;
	snd_pcm_format_t fmt;
	unsigned rate, periods, channels;
	struct alsa_dev *d;
	int err, dir = 0;

	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	d->capture = o->capture;
	err = snd_pcm_open(&d->pcm, o->device, o->capture ? SND_PCM_STREAM_CAPTURE :
			   SND_PCM_STREAM_PLAYBACK, 0);
	if (err < 0) {
		snprintf(why, len, "cannot open ALSA device '%s': %s", o->device, snd_strerror(err));
		c->cannot_open = true;
		free(d);
		return err;
	}
	snd_pcm_hw_params_alloca(&hw);
	snd_pcm_sw_params_alloca(&sw);
	snd_pcm_info_alloca(&info);
	TRY(snd_pcm_hw_params_any(d->pcm, hw), "any hardware parameters");
	d->mmap = o->access == AUDIO_ACCESS_MMAP;
	TRY(snd_pcm_hw_params_set_access(d->pcm, hw, d->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED :
					 SND_PCM_ACCESS_RW_INTERLEAVED),
	    d->mmap ? "mmap access" : "read/write access");
	TRY(snd_pcm_hw_params_set_format(d->pcm, hw, (snd_pcm_format_t)o->format), "the format");
	TRY(snd_pcm_hw_params_set_channels(d->pcm, hw, o->channels), "the channel count");
	rate = o->rate;
	TRY(snd_pcm_hw_params_set_rate_near(d->pcm, hw, &rate, &dir), "the rate");
	period = o->period;
	dir = 0;
	TRY(snd_pcm_hw_params_set_period_size_near(d->pcm, hw, &period, &dir), "the period size");
	periods = o->periods;
	dir = 0;
	TRY(snd_pcm_hw_params_set_periods_near(d->pcm, hw, &periods, &dir), "the number of periods");
	TRY(snd_pcm_hw_params(d->pcm, hw), "the hardware parameters");

	snd_pcm_hw_params_get_rate(hw, &rate, &dir);
	snd_pcm_hw_params_get_channels(hw, &channels);
	snd_pcm_hw_params_get_format(hw, &fmt);
	snd_pcm_hw_params_get_period_size(hw, &period, &dir);
	snd_pcm_hw_params_get_periods(hw, &periods, &dir);
	snd_pcm_hw_params_get_buffer_size(hw, &buffer);
	d->pc.batch = snd_pcm_hw_params_is_batch(hw) == 1;
	c->cfg.batch = d->pc.batch;
	c->cfg.rate = rate;
	c->cfg.channels = channels;
	c->cfg.format = fmt;
	c->cfg.period = (unsigned)period;
	c->cfg.periods = periods;
	c->cfg.buffer = buffer;
	c->cfg.access = d->mmap ? "mmap" : "rw";
	snprintf(c->cfg.pcm_name, sizeof(c->cfg.pcm_name), "%s", snd_pcm_name(d->pcm));
	if (snd_pcm_info(d->pcm, info) >= 0) {
		snprintf(c->cfg.card, sizeof(c->cfg.card), "card %d: %s (%s)",
			 snd_pcm_info_get_card(info), snd_pcm_info_get_id(info),
			 snd_pcm_info_get_name(info));
		card_driver(c, snd_pcm_info_get_card(info));
	} else
		snprintf(c->cfg.card, sizeof(c->cfg.card), "plugin %s (no card)",
			 snd_pcm_type_name(snd_pcm_type(d->pcm)));

	TRY(snd_pcm_sw_params_current(d->pcm, sw), "software parameters");
	TRY(snd_pcm_sw_params_get_boundary(sw, &boundary), "the boundary");
	TRY(snd_pcm_sw_params_set_avail_min(d->pcm, sw, period), "avail_min");
	TRY(snd_pcm_sw_params_set_start_threshold(d->pcm, sw, boundary), "an explicit start");
	TRY(snd_pcm_sw_params_set_stop_threshold(d->pcm, sw, buffer), "the stop threshold");
	TRY(snd_pcm_sw_params_set_tstamp_mode(d->pcm, sw, SND_PCM_TSTAMP_ENABLE), "timestamps");
	TRY(snd_pcm_sw_params_set_tstamp_type(d->pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC),
	    "monotonic timestamps");
	TRY(snd_pcm_sw_params(d->pcm, sw), "the software parameters");
	err = snd_pcm_status_malloc(&d->st);
	if (err < 0) {
		snprintf(why, len, "out of memory");
		goto out_close;
	}
	if (o->duplex) {
		err = duplex_open(c, d, why, len);
		if (err < 0) {
			snd_pcm_status_free(d->st);
			goto out_close;
		}
	}
	/* Wake at least every second to see the stop flag on a stalled device. */
	d->wait_ms = 1000;
	c->dev = d;
	return 0;

out_close:
	snd_pcm_close(d->pcm);
	free(d);
	return err;
}

/*
 * A smooth pointer says where the device is at tstamp.  A batch pointer
 * (snd_pcm_hw_params_is_batch: USB audio, many SoC DMA engines) moves in
 * period steps: at tstamp the device is up to a period further than it
 * says, and taking the pointer at its word overstates the margin (and
 * understates the lateness) by up to a period.  There the times come from
 * the period boundaries: the pointer stepped to hw_frames at the boundary
 * anchor + hw_frames / rate, and the device has moved on since.
 *
 * The anchor (when frame 0 was played) is learnt from the statuses: each
 * gives tstamp - hw_frames / rate, which is the anchor plus the time since
 * the step (>= 0), so the anchor is the smallest of them.  To follow a
 * device clock that is slower than CLOCK_MONOTONIC, the anchor may rise
 * towards newer observations by at most 200 ppm of the time passed; and it
 * is raised whenever the next boundary would already have passed (the
 * pointer cannot lag a full period).  The result is exact on a device whose
 * pointer steps when its boundary passes, up to the smallest recent
 * delay between a step and a status (the quickest wake-ups: tens of us).
 */
#define PTR_CREEP_DIV 5000	/* 200 ppm */

void audio_ptr_times(struct audio_ptr_clock *pc, unsigned rate, uint64_t period, uint64_t buffer,
		     uint64_t tstamp, uint64_t avail, uint64_t hw_frames,
		     uint64_t *t_avail, uint64_t *t_dry)
{
	uint64_t since = 0;	/* ns the device has played past its pointer */

	if (pc->batch) {
		uint64_t b = audio_frames_ns(hw_frames, rate);
		uint64_t p = audio_frames_ns(period, rate);
		uint64_t cand = tstamp > b ? tstamp - b : 0;

		if (!pc->anchor_ns || cand < pc->anchor_ns) {
			pc->anchor_ns = cand;
		} else {
			uint64_t creep = tstamp > pc->last_ns ? (tstamp - pc->last_ns) / PTR_CREEP_DIV : 0;

			pc->anchor_ns = cand - pc->anchor_ns <= creep ? cand : pc->anchor_ns + creep;
		}
		if (cand - pc->anchor_ns >= p)
			pc->anchor_ns = cand - p + 1;
		since = cand - pc->anchor_ns;
		pc->last_ns = tstamp;
	}
	*t_avail = (avail >= period ? tstamp - audio_frames_ns(avail - period, rate) : tstamp) - since;
	*t_dry = tstamp + (avail < buffer ? audio_frames_ns(buffer - avail, rate) : 0) - since;
}

/*
 * The clock is read before snd_pcm_status(), right after the wake-up: read
 * after it, as it once was, the status call's own time (a system call, the
 * pointer update) counted as lateness.  The status time is the device's
 * timestamp; a plugin without timestamps (0), or with one later than the
 * clock read after the call, gets that later read.
 */
uint64_t audio_status_tstamp(uint64_t tstamp, uint64_t after_ns)
{
	return !tstamp || tstamp > after_ns ? after_ns : tstamp;
}

/*
 * The pointer moves in whole frames, so the moment the period became free
 * is known to a frame: t_avail (tstamp minus the frames beyond the period)
 * is the latest moment the pointer allows.  When the wait returned for
 * that period, it was free by the wake-up: a t_avail after the wake-up by
 * less than a frame is that frame's uncertainty, and the wake-up bounds it.
 * Further off, it is left as it is (an early wake-up, counted as such).
 */
uint64_t audio_avail_by_wakeup(uint64_t t_avail, uint64_t woke_ns, uint64_t frame_ns)
{
	return t_avail > woke_ns && t_avail - woke_ns <= frame_ns ? woke_ns : t_avail;
}

/*
 * Fills w from the status: the stream's state, avail and timestamps.
 * woken: the wait has just returned because a period was free.
 */
static int status(struct audio_ctx *c, struct alsa_dev *d, struct audio_wake *w, bool woken)
{
	snd_htimestamp_t ts, trig;
	snd_pcm_uframes_t avail;
	snd_pcm_state_t state;
	uint64_t tstamp, hw, buffer = c->cfg.buffer, period = c->cfg.period;
	int err;

	w->now_ns = rtp_now_ns(CLOCK_MONOTONIC);
	err = snd_pcm_status(d->pcm, d->st);
	if (err < 0)
		return err;
	state = snd_pcm_status_get_state(d->st);
	snd_pcm_status_get_htstamp(d->st, &ts);
	tstamp = audio_status_tstamp(rtp_ts_ns(&ts), rtp_now_ns(CLOCK_MONOTONIC));
	w->xrun_at_ns = w->xrun_dur_ns = 0;
	if (state == SND_PCM_STATE_XRUN) {
		uint64_t at;

		snd_pcm_status_get_trigger_htstamp(d->st, &trig);
		at = rtp_ts_ns(&trig);
		if (!at || at > tstamp)
			at = tstamp;
		w->event = AUDIO_XRUN;
		w->xrun_at_ns = at;
		w->xrun_dur_ns = tstamp - at;	/* as aplay and jackd report it */
		w->avail = buffer;
		w->t_dry_ns = at;
		w->t_avail_ns = at - audio_frames_ns(buffer - period, c->cfg.rate);
		return -EPIPE;
	}
	if (state == SND_PCM_STATE_SUSPENDED) {
		w->event = AUDIO_SUSPEND;
		w->avail = 0;
		w->t_avail_ns = w->t_dry_ns = w->now_ns;
		return -ESTRPIPE;
	}
	avail = snd_pcm_status_get_avail(d->st);
	w->event = AUDIO_OK;
	w->avail = avail;
	/* frames the device has played (captured) since the start, by its pointer */
	hw = d->capture ? d->play_pos + avail : d->play_pos + avail >= buffer ? d->play_pos + avail - buffer : 0;
	audio_ptr_times(&d->pc, c->cfg.rate, period, buffer, tstamp, avail, hw, &w->t_avail_ns, &w->t_dry_ns);
	if (woken && avail >= period)
		w->t_avail_ns = audio_avail_by_wakeup(w->t_avail_ns, w->now_ns,
						      audio_frames_ns(1, c->cfg.rate));
	return 0;
}

static int event_of(struct audio_ctx *c, struct alsa_dev *d, int err, struct audio_wake *w)
{
	int ret;

	if (err != -EPIPE && err != -ESTRPIPE)
		return err;
	ret = status(c, d, w, false);
	if (ret == -EPIPE || ret == -ESTRPIPE)
		return ret;
	/* The call failed but the status no longer says why: trust the call. */
	w->event = err == -EPIPE ? AUDIO_XRUN : AUDIO_SUSPEND;
	w->xrun_at_ns = w->now_ns;
	w->xrun_dur_ns = 0;
	return err;
}

/* Writes (capture: reads) frames; impulse: the first frame is full scale. */
static int put_silence(struct audio_ctx *c, struct alsa_dev *d, snd_pcm_uframes_t frames,
		       bool impulse)
{
	const snd_pcm_channel_area_t *areas;
	snd_pcm_uframes_t off, n;
	snd_pcm_sframes_t done;
	int err;

	while (frames) {
		if (!d->mmap) {
			n = frames < c->cfg.period ? frames : c->cfg.period;
			done = d->capture ? snd_pcm_readi(d->pcm, c->silence, n) :
			       snd_pcm_writei(d->pcm, impulse ? d->impbuf : c->silence, n);
			if (done < 0)
				return (int)done;
			frames -= (snd_pcm_uframes_t)done;
			d->play_pos += (uint64_t)done;
			impulse = false;
			continue;
		}
		done = snd_pcm_avail_update(d->pcm);
		if (done < 0)
			return (int)done;
		n = frames;
		err = snd_pcm_mmap_begin(d->pcm, &areas, &off, &n);
		if (err < 0)
			return err;
		if (!n)
			return -EAGAIN;
		if (!d->capture)	/* capture: the frames are consumed as they are */
			snd_pcm_areas_silence(areas, off, c->cfg.channels, n,
					      (snd_pcm_format_t)c->cfg.format);
		if (impulse)
			memcpy((unsigned char *)areas[0].addr + (areas[0].first + off * areas[0].step) / 8,
			       d->impbuf, (size_t)snd_pcm_format_physical_width(
				       (snd_pcm_format_t)c->cfg.format) / 8);
		done = snd_pcm_mmap_commit(d->pcm, off, n);
		if (done < 0)
			return (int)done;
		frames -= (snd_pcm_uframes_t)done;
		d->play_pos += (uint64_t)done;
		impulse = false;
	}
	return 0;
}

static int alsa_start(struct audio_ctx *c)
{
	struct alsa_dev *d = c->dev;
	snd_pcm_state_t s = snd_pcm_state(d->pcm);
	int err;

	if (s == SND_PCM_STATE_RUNNING)
		return 0;	/* resumed after a suspend */
	if (s != SND_PCM_STATE_PREPARED) {
		err = snd_pcm_prepare(d->pcm);
		if (err < 0)
			return err;
	}
	d->play_pos = 0;
	d->pc.anchor_ns = 0;	/* a new stream: its boundaries start anew */
	if (!d->capture) {
		err = put_silence(c, d, c->cfg.buffer, false);	/* prefill */
		if (err < 0)
			return err;
		c->prefilled += c->cfg.buffer;
	}
	if (d->cap) {
		if (d->impulse_at != NO_IMPULSE)
			c->impulses_lost++;
		d->impulse_at = NO_IMPULSE;
		d->cap_pos = 0;
		if (snd_pcm_state(d->cap) != SND_PCM_STATE_PREPARED) {
			snd_pcm_drop(d->cap);
			err = snd_pcm_prepare(d->cap);
			if (err < 0)
				return err;
		}
		if (!d->linked) {
			err = snd_pcm_start(d->pcm);
			return err < 0 ? err : snd_pcm_start(d->cap);
		}
	}
	return snd_pcm_start(d->pcm);
}

static int alsa_wait(struct audio_ctx *c, struct audio_wake *w)
{
	struct alsa_dev *d = c->dev;
	int err;

	err = snd_pcm_wait(d->pcm, d->wait_ms);
	if (err < 0)
		return event_of(c, d, err, w);
	err = status(c, d, w, true);
	if (d->cap && !err)
		duplex_pump(c, d, w->now_ns);
	return err;
}

static int alsa_write(struct audio_ctx *c, struct audio_wake *w)
{
	struct alsa_dev *d = c->dev;
	uint64_t at = d->play_pos, now = d->cap ? rtp_now_ns(CLOCK_MONOTONIC) : 0;
	bool impulse;
	int err;

	/* An impulse not back within a second is lost (not a loopback?). */
	if (d->cap && d->impulse_at != NO_IMPULSE && now - d->impulse_ns > 1000000000ull) {
		c->impulses_lost++;
		d->impulse_at = NO_IMPULSE;
	}
	impulse = d->cap && d->impulse_at == NO_IMPULSE && now >= d->next_impulse_ns;

	err = put_silence(c, d, c->cfg.period, impulse);
	if (err < 0)
		return event_of(c, d, err, w);
	if (impulse) {
		d->impulse_at = at;
		d->impulse_ns = rtp_now_ns(CLOCK_MONOTONIC);
		d->next_impulse_ns = now + 250000000ull;	/* four a second */
		c->impulses_sent++;
	}
	return 0;
}

static int alsa_recover(struct audio_ctx *c, int err)
{
	struct alsa_dev *d = c->dev;

	return snd_pcm_recover(d->pcm, err, 1);
}

static void alsa_close(struct audio_ctx *c)
{
	struct alsa_dev *d = c->dev;

	if (!d)
		return;
	if (d->cap) {
		if (d->linked)
			snd_pcm_unlink(d->cap);
		snd_pcm_drop(d->cap);
		snd_pcm_close(d->cap);
		free(d->impbuf);
		free(d->capbuf);
	}
	snd_pcm_drop(d->pcm);
	snd_pcm_close(d->pcm);
	snd_pcm_status_free(d->st);
	free(d);
	c->dev = NULL;
}

const struct audio_backend_ops audio_alsa_ops = {
	.name = "alsa",
	.open = alsa_open,
	.start = alsa_start,
	.wait = alsa_wait,
	.write = alsa_write,
	.recover = alsa_recover,
	.close = alsa_close,
};
