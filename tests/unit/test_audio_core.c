// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: the virtual device's model, time conversions, headline, options, DSP. */
#include "../../bench/audio/audio.h"
#include "../../bench/audio/jack.h"

#include <alsa/asoundlib.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "run.h"
#include "tap.h"

static void test_conversions(void)
{
	static const unsigned rates[] = { 8000, 44100, 48000, 96000, 192000, 384000 };
	bool all = true;
	size_t i;
	uint64_t f;

	is_u64(audio_frames_ns(64, 48000), 1333334, "64 frames at 48 kHz end in the 1333334th ns");
	is_u64(audio_frames_ns(48000, 48000), 1000000000, "a second of frames is 1 s exactly");
	is_u64(audio_ns_frames(1333333, 48000), 63, "1333333 ns hold 63 whole frames");
	is_u64(audio_ns_frames(1333334, 48000), 64, "1333334 ns hold 64 frames");
	/* The two conversions agree at every boundary: no spurious wake-up. */
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		for (f = 1; f < 100000; f += 97)
			all &= audio_ns_frames(audio_frames_ns(f, rates[i]), rates[i]) == f &&
			       audio_ns_frames(audio_frames_ns(f, rates[i]) - 1, rates[i]) == f - 1;
	ok(all, "frames -> ns (ceil) -> frames round-trips at 6 rates");
	f = UINT64_C(48000) * 86400 * 100;	/* 100 days */
	is_u64(audio_frames_ns(f, 48000), UINT64_C(8640000000000000), "100 days of frames do not overflow");
}

static void test_vdev(void)
{
	struct audio_vdev v = { .t0_ns = 1000, .rate = 48000, .period = 64, .buffer = 128,
				.written = 128 };
	struct audio_wake w;

	audio_vdev_state(&v, 1000, &w);
	ok(w.event == AUDIO_OK && w.avail == 0, "just after the prefill: no space free");
	is_u64(w.t_avail_ns, 1000 + 1333334, "the first period frees at one period time");
	is_u64(w.t_dry_ns, 1000 + 2666667, "the buffer runs dry at one buffer time");
	audio_vdev_state(&v, 1000 + 1333333, &w);
	is_u64(w.avail, 0, "1 ns before the period boundary: still no space");
	audio_vdev_state(&v, 1000 + 1333334, &w);
	is_u64(w.avail, 64, "at the boundary: one period free");
	audio_vdev_state(&v, 1000 + 2666666, &w);
	ok(w.event == AUDIO_OK && w.avail == 64, "1 ns before running dry: still playing, one period free");
	audio_vdev_state(&v, 1000 + 2666667, &w);
	ok(w.event == AUDIO_XRUN, "at the dry moment with nothing written: xrun");
	is_u64(w.xrun_at_ns, 1000 + 2666667, "the xrun starts when the buffer ran dry");
	is_u64(w.xrun_dur_ns, 0, "and has lasted 0 ns so far");
	audio_vdev_state(&v, 1000 + 2666667 + 5000000, &w);
	is_u64(w.xrun_dur_ns, 5000000, "found 5 ms later, it has lasted 5 ms");
	is_u64(w.t_avail_ns, 1000 + 1333334, "and the wake-up was due at the first boundary");

	v.written = 192;	/* one period written on time */
	audio_vdev_state(&v, 1000 + 1500000, &w);
	ok(w.event == AUDIO_OK && w.avail == 0, "after a write: the buffer is full again");
	is_u64(w.t_avail_ns, 1000 + 2666667, "the next period frees one period later");
	is_u64(w.t_dry_ns, 1000 + 4000000, "and the buffer now runs dry at 3 periods");
	audio_vdev_state(&v, 1000 + 3000000, &w);
	is_u64(w.avail, 64, "2.25 periods in: one period free");
	is_u64(w.t_dry_ns - w.now_ns, 1000000, "with 1 ms of margin");

	v.buffer = 4 * 64;	/* 4 periods: a late thread finds several free */
	v.written = 256;
	audio_vdev_state(&v, 1000 + 3 * 1333334, &w);
	ok(w.event == AUDIO_OK && w.avail == 192, "3 periods late of 4: three periods free, no xrun");
}

static void test_headline(void)
{
	struct audio_config cfg = { .rate = 48000, .period = 64, .periods = 2, .buffer = 128 };
	char buf[256];

	audio_headline(buf, sizeof(buf), 0, 300, &cfg);
	ok(!strcmp(buf, "0 xruns in 5.0 min at 64 frames x 2 periods, 48 kHz (2.67 ms latency)"),
	   "headline for 5 minutes: %s", buf);
	cfg.rate = 44100;
	cfg.period = 256;
	cfg.periods = 3;
	cfg.buffer = 768;
	audio_headline(buf, sizeof(buf), 1, 10, &cfg);
	ok(!strcmp(buf, "1 xrun in 10.0 s at 256 frames x 3 periods, 44.1 kHz (17.41 ms latency)"),
	   "headline for 1 xrun at 44.1 kHz: %s", buf);
}

struct parse_case {
	const char *args[8];
	int want;
};

static int parse(const char *const *args, struct audio_opts *o)
{
	char *argv[16];
	int argc = 0;

	argv[argc++] = (char *)"rtproof-audio";
	while (*args && argc < 15)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return audio_parse(o, argc, argv);
}

static void test_options(void)
{
	static const struct parse_case cases[] = {
		{ { NULL }, 0 },
		{ { "--period", "0", NULL }, 1 },
		{ { "--period", "15", NULL }, 1 },
		{ { "--period", "64", "-n", "3", NULL }, 0 },
		{ { "-n", "1", NULL }, 1 },
		{ { "--rate", "1", NULL }, 1 },
		{ { "--rate", "0", NULL }, 1 },
		{ { "--rate", "44100", NULL }, 0 },
		{ { "-c", "0", NULL }, 1 },
		{ { "-f", "FLOAT_LE", NULL }, 0 },
		{ { "-f", "S17_XX", NULL }, 1 },
		{ { "--access", "rw", NULL }, 0 },
		{ { "-C", "--access", "rw", NULL }, 0 },
		{ { "--access", "dma", NULL }, 1 },
		{ { "--backend", "pulse", NULL }, 1 },
		{ { "--backend", "jack", NULL }, 0 },
		{ { "--backend", "jack", "-n", "3", NULL }, 1 },	/* the server's periods */
		{ { "--backend", "jack", "-p", "70", NULL }, 1 },	/* the server's priority */
		{ { "--backend", "jack", "--access", "rw", NULL }, 1 },
		{ { "--backend", "jack", "-f", "S16_LE", NULL }, 1 },
		{ { "--backend", "jack", "-f", "FLOAT_LE", NULL }, 0 },
		{ { "--backend", "jack", "--device", "hw:0", NULL }, 1 },
		{ { "--backend", "jack", "--duplex", "hw:1", NULL }, 1 },
		{ { "--backend", "jack", "--rate", "44100", "--period", "128", NULL }, 0 },
		{ { "--backend", "jack", "--start-server", "--server", "x", NULL }, 1 },
		{ { "--backend", "jack", "--start-server", "--server-log", "f", NULL }, 1 },
		{ { "--backend", "jack", "--server", "", NULL }, 1 },
		{ { "--backend", "pipewire", NULL }, 0 },
		{ { "--backend", "pipewire", "-n", "3", NULL }, 1 },	/* the graph's */
		{ { "--backend", "pipewire", "-p", "70", NULL }, 1 },	/* module-rt's */
		{ { "--backend", "pipewire", "--access", "rw", NULL }, 1 },
		{ { "--backend", "pipewire", "-f", "S16_LE", NULL }, 1 },
		{ { "--backend", "pipewire", "-f", "FLOAT_LE", "-C", NULL }, 0 },
		{ { "--backend", "pipewire", "--device", "hw:0", NULL }, 1 },
		{ { "--backend", "pipewire", "--duplex", "hw:1", NULL }, 1 },
		{ { "--backend", "pipewire", "--server", "x", "--period", "128", NULL }, 0 },
		{ { "--backend", "pipewire", "--start-server", NULL }, 1 },
		{ { "--backend", "pipewire", "--server-log", "f", NULL }, 1 },
		{ { "--server", "x", NULL }, 1 },			/* needs a server backend */
		{ { "--start-server", NULL }, 1 },			/* needs --backend jack */
		{ { "--server-log", "f", NULL }, 1 },
		{ { "-p", "99", NULL }, 1 },
		{ { "-p", "0", NULL }, 1 },
		{ { "-D", "0", NULL }, 1 },
		{ { "-D", "1.5s", NULL }, 0 },
		{ { "--dsp-load", "101", NULL }, 1 },
		{ { "--dsp-load", "37.5%", NULL }, 0 },
		{ { "--dsp-load", "x", NULL }, 1 },
		{ { "--sweep", "-D", "5s", NULL }, 1 },
		{ { "--sweep=0", NULL }, 1 },
		{ { "--sweep=10", "--sweep-max", "50", NULL }, 0 },
		{ { "--sweep", "--dsp-load", "98", NULL }, 1 },
		{ { "--sweep-require", "50", NULL }, 1 },
		{ { "--plant-stall", "20ms,10ms", NULL }, 1 },
		{ { "--plant-stall", "20ms", NULL }, 0 },
		{ { "--plant-stall", "1s", NULL }, 1 },
		{ { "--device", "", NULL }, 1 },
		{ { "extra", NULL }, 1 },
		{ { "--bogus", NULL }, 1 },
		{ { "--duplex", "hw:1", NULL }, 0 },
		{ { "--duplex", "hw:1", "--backend", "timer", NULL }, 1 },
		{ { "--duplex", "hw:1", "-C", NULL }, 1 },
		{ { "--duplex", "hw:1", "-f", "S24_3LE", NULL }, 1 },
		{ { "-qX", NULL }, 1 },		/* stops inside a cluster: the next parse starts clean */
		{ { "-q", NULL }, 0 },
	};
	struct audio_opts o;
	size_t i;
	int ret, err_fd, devnull;

	/* The refusals print their one-line errors: keep the TAP output clean. */
	fflush(stderr);
	err_fd = dup(STDERR_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, STDERR_FILENO);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char desc[160] = "";
		int k;

		for (k = 0; cases[i].args[k]; k++)
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " %s", cases[i].args[k]);
		ret = parse(cases[i].args, &o);
		ok(ret == cases[i].want, "options [%s ]: %d", desc, ret);
	}
	dup2(err_fd, STDERR_FILENO);
	close(err_fd);
	close(devnull);
	parse((const char *const[]){ NULL }, &o);
	ok(o.rate == 48000 && o.channels == 2 && o.period == 64 && o.periods == 2 &&
	   o.priority == 80 && !strcmp(o.device, "default") && o.access == AUDIO_ACCESS_MMAP &&
	   o.format == SND_PCM_FORMAT_S16_LE && o.backend == AUDIO_BACKEND_AUTO && !o.capture,
	   "defaults: 64 frames x 2, 48 kHz, 2 ch, S16_LE, mmap, FIFO 80, device default, auto");
	parse((const char *const[]){ "--device", "hw:1", "--period", "128", "--plant-stall", "30ms,2s",
				      "--dsp-load", "12.5", "--capture", NULL }, &o);
	ok(o.capture && !o.duplex && o.device_given && !strcmp(o.device, "hw:1") && o.period == 128 &&
	   o.stall_ns == 30000000 && o.stall_every_ns == 2000000000ull && o.dsp_load_pct == 12.5,
	   "values are kept: device, period, stall, load, capture");
	parse((const char *const[]){ "--duplex", "hw:Loopback,1", NULL }, &o);
	ok(o.duplex && !strcmp(o.duplex, "hw:Loopback,1") && o.backend == AUDIO_BACKEND_ALSA,
	   "--duplex: the capture device is kept, the backend is ALSA");
}

static void test_dsp(void)
{
	struct audio_dsp d;
	uint64_t units, best = UINT64_MAX, t0, dt;
	int i;

	audio_dsp_init(&d);
	i = audio_dsp_calibrate(&d);
	ok(!i && d.units_per_ns > 0, "DSP calibrates (%.3f units/us)", d.units_per_ns * 1e3);
	units = audio_dsp_units(&d, 100, 2000000);
	{
		int64_t diff = (int64_t)(audio_dsp_units(&d, 50, 2000000) * 2) - (int64_t)units;

		ok(diff >= -1 && diff <= 1, "50 %% is half the work of 100 %% (rounding: %lld)",
		   (long long)diff);
	}
	is_u64(audio_dsp_units(&d, 0, 2000000), 0, "0 %% is no work");
	/*
	 * The burn must really take the CPU time it was calibrated for (best
	 * of 5), on the thread's CPU clock: beside the integration tests on 2
	 * CPUs the wall clock of a 2 ms burn ran over 6 ms.
	 */
	for (i = 0; i < 5; i++) {
		t0 = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID);
		audio_dsp_run(&d, units);
		dt = rtp_now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (dt < best)
			best = dt;
	}
	/* Loose bounds for a shared machine; a broken calibration is off by far more. */
	ok(best >= 1000000 && best <= 6000000, "100 %% of a 2 ms period burns 2 ms (best of 5: %.3f ms)",
	   best / 1e6);
}

/* 64 x 2 at 48 kHz: a period and the slack are both 1.333 ms. */
static void test_xrun_cause(void)
{
	static const struct {
		struct audio_xrun_facts f;
		enum audio_xrun_cause want;
		const char *what;
	} t[] = {
		{ { .by_write = true, .lateness_ns = 20000, .slack_ns = 1333334, .margin_ns = 1313334,
		    .work_ns = 1340000 }, AUDIO_CAUSE_WORK,
		  "in time (20 us), work 1.34 ms against 1.31 ms of margin: the work" },
		{ { .by_write = true, .lateness_ns = 1400000, .slack_ns = 1333334, .margin_ns = 0,
		    .work_ns = 5000 }, AUDIO_CAUSE_LATE_WAKEUP,
		  "1.4 ms late against 1.33 ms of slack: the wake-up" },
		{ { .by_write = true, .lateness_ns = 1333334, .slack_ns = 1333334, .margin_ns = 0,
		    .work_ns = 0 }, AUDIO_CAUSE_LATE_WAKEUP, "late by exactly the slack: the wake-up" },
		{ { .by_write = true, .lateness_ns = 1300000, .slack_ns = 1333334, .margin_ns = 33334,
		    .work_ns = 40000 }, AUDIO_CAUSE_LATE_WAKEUP,
		  "1.3 ms late, then 40 us of work against the 33 us left: the wake-up, the larger share" },
		{ { .by_write = true, .lateness_ns = 600000, .slack_ns = 1333334, .margin_ns = 733334,
		    .work_ns = 750000 }, AUDIO_CAUSE_WORK,
		  "0.6 ms late, then 0.75 ms of work against the 0.73 ms left: the work, the larger share" },
		{ { .by_write = true, .lateness_ns = 500000, .slack_ns = 1333334, .margin_ns = 833334,
		    .work_ns = 100000 }, AUDIO_CAUSE_DEVICE,
		  "in time, 0.1 ms of work against 0.83 ms of margin: the device" },
		{ { .lateness_ns = 40000000, .slack_ns = 1333334, .stop_ns = 10000000,
		    .busy_until_ns = 9000000, .expected_dry_ns = 10000000, .tolerance_ns = 1333334 },
		  AUDIO_CAUSE_LATE_WAKEUP, "found at the wake-up, idle before the stop: the wake-up" },
		{ { .lateness_ns = 2000000, .slack_ns = 1333334, .stop_ns = 10000000,
		    .busy_until_ns = 10000000, .expected_dry_ns = 10000000, .tolerance_ns = 1333334 },
		  AUDIO_CAUSE_WORK, "found at the wake-up, the last work still running at the stop: the work" },
		{ { .lateness_ns = 2000000, .slack_ns = 1333334, .stop_ns = 10000000,
		    .busy_until_ns = 5000000, .expected_dry_ns = 11333335, .tolerance_ns = 1333334 },
		  AUDIO_CAUSE_DEVICE, "the device stopped more than a period before its audio ran out: the device" },
		{ { .lateness_ns = 2000000, .slack_ns = 1333334, .stop_ns = 10000000,
		    .busy_until_ns = 5000000, .expected_dry_ns = 11333334, .tolerance_ns = 1333334 },
		  AUDIO_CAUSE_LATE_WAKEUP, "a period early at most (timestamp granularity): the wake-up" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ok(audio_xrun_cause(&t[i].f) == t[i].want, "xrun cause: %s (%s)", t[i].what,
		   audio_cause_name(audio_xrun_cause(&t[i].f)));
	ok(!strcmp(audio_cause_name(AUDIO_CAUSE_WORK), "work-overran-margin") &&
	   !strcmp(audio_cause_name(AUDIO_CAUSE_LATE_WAKEUP), "late-wakeup") &&
	   !strcmp(audio_cause_name(AUDIO_CAUSE_DEVICE), "device"), "cause names");
}

/* the callback backends' rule (JACK, PipeWire): a backlog's cause, else the ALSA rule */
static void test_overrun_cause(void)
{
	const uint64_t cycle = 1333333;

	ok(audio_backlog_cause(700000, cycle, AUDIO_CAUSE_LATE_WAKEUP) == AUDIO_CAUSE_WORK,
	   "backlog after a call that worked half a cycle or more: the work");
	ok(audio_backlog_cause(3000, cycle, AUDIO_CAUSE_LATE_WAKEUP) == AUDIO_CAUSE_LATE_WAKEUP,
	   "backlog after a short call: that call's own cause");
	ok(audio_overrun_cause(true, AUDIO_CAUSE_LATE_WAKEUP, false, false, 0, 900000) == AUDIO_CAUSE_LATE_WAKEUP,
	   "a backlog takes its cause, whatever this call's figures");
	ok(audio_overrun_cause(false, AUDIO_CAUSE_WORK, true, false, 0, 900000) == AUDIO_CAUSE_LATE_WAKEUP,
	   "woken past the deadline: the wake-up");
	ok(audio_overrun_cause(false, AUDIO_CAUSE_WORK, false, true, 0, 900000) == AUDIO_CAUSE_LATE_WAKEUP,
	   "woken cycles late: the wake-up");
	ok(audio_overrun_cause(false, AUDIO_CAUSE_WORK, false, false, 50000, 40000) == AUDIO_CAUSE_LATE_WAKEUP,
	   "late by more than the work took: the wake-up");
	ok(audio_overrun_cause(false, AUDIO_CAUSE_LATE_WAKEUP, false, false, 3000, 1400000) == AUDIO_CAUSE_WORK,
	   "in time, the work outlasted the margin: the work");
}

/* A callback backend's call judged: in time, woken cycles late, a backlog. */
static void test_judge_call(void)
{
	struct audio_prev_call p = { 0 };
	struct audio_call k;

	audio_judge_call(&p, 0, 100, 200, 1000, 0, 100, &k);
	ok(!k.overran && k.lat == 100 && k.margin == 900 && k.work == 100 && p.have && p.end_ns == 200,
	   "in time: lateness, margin, work; the call kept as the previous one");
	/* one cycle missed after a call that ended at 200: woken a cycle late */
	audio_judge_call(&p, 2000, 2100, 2200, 1000, 1, 100, &k);
	ok(k.woken_late && !k.backlog && k.overran && k.lat == 1100 && k.margin == 0 &&
	   k.cause == AUDIO_CAUSE_LATE_WAKEUP, "woken a cycle late: its lateness counts the cycle, margin 0");
	/* the previous call still working when the missed cycle began (at 2000) */
	p.end_ns = 2500;
	p.work_ns = 900;
	p.cause = AUDIO_CAUSE_LATE_WAKEUP;
	audio_judge_call(&p, 3000, 3100, 4500, 1000, 1, 100, &k);
	ok(k.backlog && !k.woken_late && k.overran && k.lat == 100 && k.cause == AUDIO_CAUSE_WORK,
	   "a backlog after half a cycle's work: the work, lateness not counting the cycle");
	ok(p.cause == AUDIO_CAUSE_WORK && p.work_ns == 1400,
	   "the previous call is this one, its cause reset for the caller");
}

/*
 * A batch device (USB audio, many SoC DMA engines): its pointer moves in
 * period steps.  A synthetic stream, 256 x 2 at 48 kHz (P = 5.33 ms), whose
 * device clock runs ppm fast or slow: the true position is continuous, the
 * pointer the status reports is rounded down to a period.  The thread wakes
 * 10..60 us after each boundary, one time in sixteen 60 us .. 5 ms, reads
 * the status (tstamp = now), and refills.  Returns the worst error, in ns, of the margin (t_dry - now) and
 * of the lateness (now - t_avail) against the truth.
 */
struct batch_err {
	int64_t margin_max, margin_min;		/* computed - true */
	int64_t late_max, late_min;
};

static struct batch_err batch_run(bool batch, double ppm, int wakes)
{
	const unsigned rate = 48000;
	const uint64_t period = 256, buffer = 512, t0 = 1000000000ull;
	const double fps = rate * (1.0 + ppm / 1e6);	/* true frames per second */
	struct audio_ptr_clock pc = { .batch = batch };
	struct batch_err e = { INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX };
	uint64_t written = buffer, seed = 12345;
	int k;

	for (k = 1; k <= wakes; k++) {
		double boundary = t0 + (double)(k * period) / fps * 1e9;	/* true, ns */
		uint64_t lat, now, hw, avail, t_avail, t_dry;
		double pos;
		int64_t em, el;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		/* most wake-ups 10..60 us after the boundary, one in ten up to 5 ms */
		lat = (seed >> 60) ? 10000 + (seed >> 33) % 50000 : 60000 + (seed >> 33) % 4940000;
		now = (uint64_t)boundary + lat;
		pos = ((double)now - t0) * fps / 1e9;		/* true frames played */
		hw = (uint64_t)pos / period * period;		/* the pointer, in period steps */
		avail = buffer - (written - hw);
		audio_ptr_times(&pc, rate, period, buffer, now, avail, hw, &t_avail, &t_dry);
		em = (int64_t)(t_dry - now) - (int64_t)(((double)written - pos) / fps * 1e9);
		el = (int64_t)(now - t_avail) - (int64_t)lat;
		if (em > e.margin_max)
			e.margin_max = em;
		if (em < e.margin_min)
			e.margin_min = em;
		if (el > e.late_max)
			e.late_max = el;
		if (el < e.late_min)
			e.late_min = el;
		written = hw + buffer;				/* refilled */
	}
	return e;
}

static void test_batch_pointer(void)
{
	static const double ppms[] = { 0, 100, -100 };
	struct batch_err e;
	size_t i;

	e = batch_run(false, 0, 2000);
	tap_diag("smooth-pointer arithmetic on a batch pointer: margin error %+.3f .. %+.3f ms, "
		 "lateness error %+.3f .. %+.3f ms", e.margin_min / 1e6, e.margin_max / 1e6,
		 e.late_min / 1e6, e.late_max / 1e6);
	ok(e.margin_max > 4000000, "the smooth-pointer formula overstates a batch device's margin "
	   "by up to a period (%.3f ms of 5.333)", e.margin_max / 1e6);
	for (i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		e = batch_run(true, ppms[i], 20000);	/* 107 s of audio */
		ok(e.margin_max <= 50000 && e.margin_min >= -50000 && e.late_max <= 50000 &&
		   e.late_min >= -50000,
		   "batch pointer, device clock %+.0f ppm: margin error %+.1f .. %+.1f us, lateness "
		   "error %+.1f .. %+.1f us (within 50 us)", ppms[i], e.margin_min / 1e3,
		   e.margin_max / 1e3, e.late_min / 1e3, e.late_max / 1e3);
	}
}

/* 256 x 2 at 48 kHz: P = 5.33 ms, B = 10.67 ms; times in ms. */
static void test_same_xrun(void)
{
	const uint64_t ms = 1000000, window = 16 * ms;

	ok(audio_same_xrun(100 * ms, 104 * ms, window, 101 * ms, true, 110 * ms),
	   "reported 4 ms after an unreported xrun, stopped before the audio queued since ran out: the same");
	ok(!audio_same_xrun(100 * ms, 112 * ms, window, 109 * ms, true, 108 * ms),
	   "reported 12 ms after, but stopped after the audio queued since ran out: a second xrun");
	/*
	 * Seen in a TCG guest: the stall ended, the wake-up counted the xrun
	 * the device had not reported (the audio ran dry at 100 ms), and the
	 * first write failed: the device's timer, starved as well, stamped its
	 * stop at 132 ms, after the count's dry point.  Nothing was queued in
	 * between: one xrun, not two.
	 */
	ok(audio_same_xrun(100 * ms, 101 * ms, window, 132 * ms, false, 100 * ms),
	   "reported by the first write after the count, stamped after the dry point, nothing queued since: the same");
	ok(!audio_same_xrun(100 * ms, 130 * ms, window, 101 * ms, true, 140 * ms),
	   "reported 30 ms after (beyond the window): a second xrun");
	ok(!audio_same_xrun(100 * ms, 130 * ms, window, 101 * ms, false, 140 * ms),
	   "beyond the window, even with nothing queued: a second xrun");
	ok(!audio_same_xrun(0, 104 * ms, window, 101 * ms, true, 110 * ms), "nothing unreported: a new xrun");
}

/*
 * snd-dummy's and a DMA pointer's frames, read by the status: the clock is
 * read at the wake-up, before snd_pcm_status().  A pointer in whole frames
 * (rounded down: frames played; rounded up: snd-dummy, frames begun), 512 x
 * 3 at 48 kHz (one frame 20.8 us); the thread wakes 5..60 us after the
 * period boundary, the status call takes 8 us.  Against the moment the
 * pointer stepped to the period's last frame, the lateness must be exact to
 * a frame, and never counted early; read after the status (as it was), the
 * 8 us of the call were added to every wake-up.
 */
static void frame_pointer_run(bool round_up, bool clock_after, int64_t *lo, int64_t *hi, int *early)
{
	const unsigned rate = 48000;
	const uint64_t period = 512, buffer = 1536, t0 = 1000000000ull, call = 8000;
	const uint64_t frame = audio_frames_ns(1, rate);
	struct audio_ptr_clock pc = { .batch = false };
	uint64_t written = buffer, seed = 777;

	*lo = INT64_MAX;
	*hi = INT64_MIN;
	*early = 0;
	for (int k = 1; k <= 4000; k++) {
		/* the pointer steps to frame n at t0 + n / rate (down) or (n - 1) / rate (up) */
		uint64_t due = t0 + audio_frames_ns(k * period - (round_up ? 1 : 0), rate);
		uint64_t woke, tstamp, hw, avail, t_avail, t_dry, now, d;
		int64_t err;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		d = 5000 + (seed >> 33) % 55000;
		woke = t0 + audio_frames_ns(k * period, rate) + d;	/* the period boundary + d */
		tstamp = woke + call;
		hw = round_up ? (uint64_t)(((unsigned __int128)(tstamp - t0) * rate + 999999999) / 1000000000u) :
			audio_ns_frames(tstamp - t0, rate);
		avail = buffer - (written - hw);
		audio_ptr_times(&pc, rate, period, buffer, tstamp, avail, hw, &t_avail, &t_dry);
		now = clock_after ? tstamp + 300 : woke;
		t_avail = audio_avail_by_wakeup(t_avail, now, frame);
		if (now < t_avail)
			(*early)++;
		err = (int64_t)(now > t_avail ? now - t_avail : 0) - (int64_t)(woke - due);
		if (err < *lo)
			*lo = err;
		if (err > *hi)
			*hi = err;
		written = hw - hw % period + buffer;	/* refilled whole periods */
	}
}

static void test_frame_pointer(void)
{
	const int64_t frame = (int64_t)audio_frames_ns(1, 48000);
	int64_t lo, hi;
	int early;

	ok(audio_status_tstamp(0, 500) == 500 && audio_status_tstamp(700, 500) == 500 &&
	   audio_status_tstamp(400, 500) == 400,
	   "status time: the device's timestamp; without one, or a later one, the clock after the call");
	ok(audio_avail_by_wakeup(1010, 1000, 20) == 1000 && audio_avail_by_wakeup(1030, 1000, 20) == 1030 &&
	   audio_avail_by_wakeup(990, 1000, 20) == 990,
	   "t_avail within a frame after the wake-up is the wake-up; further, or before, it stays");
	for (int up = 0; up < 2; up++) {
		frame_pointer_run(up, false, &lo, &hi, &early);
		ok(lo > -frame && hi <= 0 && !early,
		   "pointer rounded %s, clock read at the wake-up: lateness error %+.1f .. %+.1f us "
		   "(within one frame, %.1f us), %d early", up ? "up (snd-dummy)" : "down", lo / 1e3,
		   hi / 1e3, frame / 1e3, early);
		frame_pointer_run(up, true, &lo, &hi, &early);
		ok(hi >= 8000, "pointer rounded %s, clock read after the status: the call's 8 us "
		   "counted as lateness (error up to %+.1f us)", up ? "up" : "down", hi / 1e3);
	}
}

/* A planted /proc: ktimers/0 at FIFO prio, rcuc/0 at FIFO 1, a shell at OTHER. */
static void plant_task(const char *proc, int pid, const char *comm, int prio, int policy)
{
	char p[600], fields[256] = "";
	FILE *f;

	for (int i = 4; i <= 39; i++)
		strcat(fields, " 0");
	snprintf(p, sizeof(p), "%s/%d", proc, pid);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%d/comm", proc, pid);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%s\n", comm);
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/%d/stat", proc, pid);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%d (%s) S%s %d %d 0 0 0\n", pid, comm, fields, prio, policy);
		fclose(f);
	}
}

static void test_ktimers_note(void)
{
	char dir[] = "/tmp/rtp-audio-proc.XXXXXX", note[512];
	int policy = -1, prio = -1;

	ok(audio_timer_driver("Dummy") && audio_timer_driver("Loopback") && !audio_timer_driver("HDA-Intel") &&
	   !audio_timer_driver("USB-Audio"), "snd-dummy and snd-aloop are timer-driven, HDA and USB are not");
	{
		char st[512] = "7 (a) b) S";	/* each field from 4 on holds its number */

		for (int f = 4; f <= 45; f++)
			snprintf(st + strlen(st), sizeof(st) - strlen(st), " %d", f);
		ok(!audio_stat_prio(st, &policy, &prio) && prio == 40 && policy == 41,
		   "rt_priority and policy: fields 40 and 41, counted after the last ')'");
	}
	ok(audio_stat_prio("7 (a) S 1 2", &policy, &prio) < 0, "a short stat line is refused");
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
	plant_task(dir, 18, "ktimers/0", 1, 1);
	plant_task(dir, 22, "rcuc/0", 1, 1);
	plant_task(dir, 300, "sh", 0, 0);
	audio_ktimers_note(dir, "Dummy", 80, note, sizeof(note));
	ok(strstr(note, "snd-dummy is timer-driven") && strstr(note, "ktimers/N, here at SCHED_FIFO 1") &&
	   strstr(note, "chrt -f -p 81 $p"), "ktimers/0 at FIFO 1 under an audio thread at 80: the note "
	   "and the chrt line (%s)", note);
	plant_task(dir, 18, "ktimers/0", 81, 1);
	audio_ktimers_note(dir, "Dummy", 80, note, sizeof(note));
	ok(!note[0], "ktimers/0 at FIFO 81: no note");
	plant_task(dir, 18, "kworker/0", 1, 1);
	audio_ktimers_note(dir, "Loopback", 80, note, sizeof(note));
	ok(!note[0], "no ktimers thread (not PREEMPT_RT): no note");
	for (int i = 0; i < 3; i++) {
		static const int pids[] = { 18, 22, 300 };
		char p[600];

		snprintf(p, sizeof(p), "%s/%d/comm", dir, pids[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%d/stat", dir, pids[i]);
		unlink(p);
		snprintf(p, sizeof(p), "%s/%d", dir, pids[i]);
		rmdir(p);
	}
	rmdir(dir);
}

/* jackd's engine lines: the server's text, read as data. */
static void test_jack_log(void)
{
	char name[16];

	ok(audio_jackd_parse_xrun("JackEngine::XRun: client = slowpoke was not finished, state = Running",
				  name, sizeof(name)) == 2 && !strcmp(name, "slowpoke"),
	   "a running client that did not finish: the culprit, rank 2 (%s)", name);
	ok(audio_jackd_parse_xrun("Sat Dec  5 2026: ERROR: JackEngine::XRun: client = Calf Reverb was not "
				  "finished, state = Triggered", name, sizeof(name)) == 1 &&
	   !strcmp(name, "Calf Reverb"), "a triggered one, after a timestamp: rank 1, spaces kept (%s)", name);
	ok(audio_jackd_parse_xrun("JackEngine::XRun: client rtproof-audio finished after current callback",
				  name, sizeof(name)) == 2 && !strcmp(name, "rtproof-audio"),
	   "finished after the next cycle began: rank 2 (%s)", name);
	ok(audio_jackd_parse_xrun("JackEngine::XRun: client = a-name-longer-than-sixteen was not finished, "
				  "state = Running", name, sizeof(name)) == 2 && strlen(name) == 15,
	   "a long name is cut to the buffer (%s)", name);
	ok(audio_jackd_parse_xrun("JackAudioDriver::ProcessGraphAsyncMaster: Process error", name,
				  sizeof(name)) == 0, "another line: 0");
	ok(audio_jackd_parse_xrun("JackEngine::XRun: client = x", name, sizeof(name)) == 0,
	   "a cut line: 0");
	ok(audio_jackd_parse_xrun("JackEngine::XRun: client = a\033[2Jb was not finished, state = Running",
				  name, sizeof(name)) == 2 && !strcmp(name, "a?[2Jb"),
	   "control bytes in a name are not passed to the terminal");
}

/* Why jackd exited: its last lines that are not the banner it prints at exit. */
static void test_jackd_why(void)
{
	static const struct {
		const char *log, *want, *what;
	} t[] = {
		{ "Too many servers already active\nFailed to open server\njackdmp 1.9.21\n"
		  "Copyright 2001-2005 Paul Davis and others.\nCopyright 2004-2016 Grame.\n"
		  "jackdmp comes with ABSOLUTELY NO WARRANTY\nThis is free software, and you are welcome "
		  "to redistribute it\nunder certain conditions; see the file COPYING for details\n",
		  "Too many servers already active; Failed to open server", "its error lines, not its banner" },
		{ "jackdmp 1.9.21\r\nunder certain conditions; see the file COPYING for details\r\n",
		  "under certain conditions; see the file COPYING for details", "only the banner: its last line" },
		{ "a\nb\nc\nd\033[2J\n", "b; c; d?[2J", "the last 3, in order, control bytes replaced" },
	};
	struct audio_jackd s = { .pid = -1 };
	char out[200];
	size_t i;
	FILE *f;

	snprintf(s.log, sizeof(s.log), "/tmp/rtproof-test-jackd.%d.log", (int)getpid());
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		f = fopen(s.log, "w");
		if (!f || fputs(t[i].log, f) < 0 || fclose(f)) {
			ok(0, "jackd's exit, %s: cannot write %s", t[i].what, s.log);
			continue;
		}
		audio_jackd_last_line(&s, out, sizeof(out));
		ok(!strcmp(out, t[i].want), "jackd's exit, %s: %s", t[i].what, out);
	}
	unlink(s.log);
}

/* Buffer-size advice: constructed worst cycles with a known smallest fit. */
static void advise(unsigned period, unsigned periods, uint64_t late, uint64_t work, struct audio_advice *a)
{
	static struct audio_ctx c;	/* large */

	memset(&c, 0, sizeof(c));
	c.cfg.rate = 48000;
	c.cfg.period = period;
	c.cfg.periods = periods;
	rtp_hist_init(&c.lateness);
	rtp_hist_init(&c.work);
	if (late)
		rtp_hist_record(&c.lateness, late);
	if (work)
		rtp_hist_record(&c.work, work);
	audio_advise(&c, a);
}

static void test_advice(void)
{
	struct audio_advice a;

	/* 1.128 ms + 2.8 us: 16 x 4 leaves 1.0 ms, 32 x 2 0.667 ms; 32 x 3 leaves 1.333 ms */
	advise(64, 2, 1128000, 2800, &a);
	ok(a.valid && a.found && a.period == 32 && a.periods == 3 && a.need_ns == 1130800 &&
	   a.room_ns == 1333334 && a.buffer_ns == 2000000,
	   "1.128 ms late + 2.8 us of work: 32 x 3 (got %u x %u, need %llu ns, room %llu ns)", a.period,
	   a.periods, (unsigned long long)a.need_ns, (unsigned long long)a.room_ns);
	/* 2.727 ms + 29.3 us at 64: 128 x 2 leaves 2.667 ms; 64 x 4 leaves 4 ms */
	advise(64, 2, 2727000, 29300, &a);
	ok(a.found && a.period == 64 && a.periods == 4, "2.727 ms late: 64 x 4 (got %u x %u)", a.period,
	   a.periods);
	/* work grows with the period: 0.3 ms at 16 frames is 0.6 ms at 32;
	 * 1.2 + 0.6 ms: 32 x 3 (1.333 ms) is short, 32 x 4 (2 ms) fits */
	advise(16, 2, 1200000, 300000, &a);
	ok(a.found && a.period == 32 && a.periods == 4 && a.need_ns == 1800000,
	   "work scales with the period: 32 x 4, need 1.8 ms (got %u x %u, need %llu ns)", a.period,
	   a.periods, (unsigned long long)a.need_ns);
	/* and never below what was measured: 1 ms of work at 64 frames stays 1 ms at 32 */
	advise(64, 2, 100000, 1000000, &a);
	ok(a.found && a.period == 32 && a.periods == 3 && a.need_ns == 1100000,
	   "work kept at a smaller period: 32 x 3, need 1.1 ms (got %u x %u, need %llu ns)", a.period,
	   a.periods, (unsigned long long)a.need_ns);
	advise(64, 2, 300000000, 0, &a);
	ok(a.valid && !a.found, "300 ms late: no buffer up to 4096 x 4 fits");
	advise(256, 0, 1000, 0, &a);
	ok(!a.valid, "a server backend (no periods): no advice");
	advise(64, 2, 0, 0, &a);
	ok(!a.valid, "nothing measured: no advice");
}

int main(void)
{
	test_advice();
	test_jack_log();
	test_jackd_why();
	test_conversions();
	test_vdev();
	test_headline();
	test_options();
	test_dsp();
	test_xrun_cause();
	test_overrun_cause();
	test_judge_call();
	test_batch_pointer();
	test_same_xrun();
	test_frame_pointer();
	test_ktimers_note();
	return tap_done();
}
