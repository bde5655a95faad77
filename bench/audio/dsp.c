// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calibrated DSP work: a biquad low-pass run over a block of samples, as
 * a synth or an effect would, so --dsp-load burns CPU time (not sleep).
 * The amount of work per period is fixed at calibration: when the thread
 * is preempted or the CPU slows down, the work takes longer, as real DSP
 * code would.
 */
#include "audio.h"

#include <errno.h>
#include <time.h>

#include "run.h"

void audio_dsp_init(struct audio_dsp *d)
{
	unsigned i;

	d->units_per_ns = 0;
	d->z1 = d->z2 = 0;
	d->sink = 0;
	for (i = 0; i < AUDIO_DSP_BLOCK; i++)
		d->x[i] = (float)((i * 37u) % 64u) / 32.0f - 1.0f;
}

void audio_dsp_run(struct audio_dsp *d, uint64_t units)
{
	/* RBJ low-pass at fs/8, Q 0.707, direct form II transposed. */
	const float b0 = 0.09763107f, b1 = 0.19526215f, b2 = 0.09763107f;
	const float a1 = -0.94280904f, a2 = 0.33333333f;
	volatile float *sink = &d->sink;
	float z1 = d->z1, z2 = d->z2;
	uint64_t u;
	unsigned i;

	for (u = 0; u < units; u++) {
		float acc = 0;

		for (i = 0; i < AUDIO_DSP_BLOCK; i++) {
			float in = d->x[i] + acc * 1e-9f;
			float y = b0 * in + z1;

			z1 = b1 * in - a1 * y + z2;
			z2 = b2 * in - a2 * y;
			acc += y;
		}
		*sink = acc;	/* the work is observable: it cannot be elided */
	}
	d->z1 = z1;
	d->z2 = z2;
}

int audio_dsp_calibrate(struct audio_dsp *d)
{
	uint64_t units = 16, t0, dt = 0, best = UINT64_MAX;
	int i;

	/*
	 * Timed on the thread's own CPU clock: the work's speed, not how much
	 * of the CPU it got (a wall clock counts the time others ran too; on
	 * a busy machine the unit test's calibrated 2 ms burn fell outside
	 * 1-6 ms in all 5 tries).  Grow the trial until it lasts at least 2 ms.
	 */
	for (;;) {
		t0 = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID);
		audio_dsp_run(d, units);
		dt = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (dt >= 2000000 || units >= (UINT64_C(1) << 40))
			break;
		units *= 2;
	}
	/* Best of several: the least disturbed trial is the true speed. */
	for (i = 0; i < 7; i++) {
		t0 = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID);
		audio_dsp_run(d, units);
		dt = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (dt && dt < best)
			best = dt;
	}
	if (best == UINT64_MAX)
		return -EIO;
	d->units_per_ns = (double)units / (double)best;
	return 0;
}

uint64_t audio_dsp_units(const struct audio_dsp *d, double pct, uint64_t period_ns)
{
	double u = d->units_per_ns * (double)period_ns * pct / 100.0;

	return u <= 0 ? 0 : (uint64_t)(u + 0.5);
}
