/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AUDIO_H
#define RTP_AUDIO_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "gate.h"
#include "hist.h"
#include "stack.h"

/*
 * rtproof-audio: xruns and their causes.  One audio thread plays periods
 * of silence into a device (ALSA, or a timer-paced virtual device) and
 * records, at every wake-up, how late it woke (from the moment a period of
 * buffer space became free), how much audio was still queued (the margin
 * before the buffer runs dry) and how long its work took.
 */

enum audio_backend_kind {
	AUDIO_BACKEND_AUTO, AUDIO_BACKEND_ALSA, AUDIO_BACKEND_TIMER, AUDIO_BACKEND_JACK,
	AUDIO_BACKEND_PIPEWIRE
};
enum audio_access { AUDIO_ACCESS_MMAP, AUDIO_ACCESS_RW };

struct audio_opts {
	struct rtp_common co;		/* -D, -q, --json, --load, --no-mlockall */
	const char *device;		/* ALSA PCM name */
	bool device_given;
	enum audio_backend_kind backend;
	enum audio_access access;
	bool capture;			/* -C: capture; default playback */
	const char *duplex;		/* --duplex CAPDEV: round trip through it */
	unsigned rate;			/* Hz */
	unsigned channels;
	int format;			/* snd_pcm_format_t */
	const char *format_name;
	unsigned period;		/* frames */
	unsigned periods;
	int priority;			/* SCHED_FIFO */
	int cpu;			/* -1: not pinned */
	double dsp_load_pct;		/* share of each period burnt */
	bool sweep;
	double sweep_step_pct;
	double sweep_max_pct;
	uint64_t step_ns;		/* time per sweep step */
	double sweep_require_pct;	/* 0: figures only */
	uint64_t stall_ns;		/* --plant-stall: 0 off */
	bool hide_xruns;		/* --hide-xruns: the virtual device hides them */
	uint64_t stall_every_ns;
	/* --backend jack, pipewire */
	const char *jack_server;	/* --server NAME; NULL: $JACK_DEFAULT_SERVER or "default", $PIPEWIRE_REMOTE or "pipewire-0" */
	bool start_server;		/* --start-server: jackd -R -d dummy, its log read */
	const char *server_log;		/* --server-log FILE: a running server's log, read */
	/* given on the command line (a server backend takes them from the server) */
	bool rate_given, period_given, periods_given, format_given, access_given, prio_given;
};

#define AUDIO_HELP_SHOWN RTP_HELP_SHOWN
RTP_BENCH_OPTIONS_DECLARE(audio);
extern const struct rtp_bench_ops audio_ops;
/* 0, AUDIO_HELP_SHOWN, or an exit code after printing the error. */
int audio_parse(struct audio_opts *o, int argc, char **argv);

/*
 * Frames to nanoseconds at rate, rounded up: the first nanosecond at which
 * that many frames have been played.  Exact for any run length.
 */
static inline uint64_t audio_frames_ns(uint64_t frames, unsigned rate)
{
	return (uint64_t)(((unsigned __int128)frames * 1000000000u + rate - 1) / rate);
}

/* Frames played in ns at rate, rounded down (the inverse of the above). */
static inline uint64_t audio_ns_frames(uint64_t ns, unsigned rate)
{
	return (uint64_t)(((unsigned __int128)ns * rate) / 1000000000u);
}

/* ---- what a wake-up saw ------------------------------------------------- */
enum audio_event { AUDIO_OK, AUDIO_XRUN, AUDIO_SUSPEND };

struct audio_wake {
	uint64_t now_ns;		/* CLOCK_MONOTONIC, right after the wake-up (before the status) */
	uint64_t avail;			/* frames of free buffer space */
	uint64_t t_avail_ns;		/* when the first period of space became free */
	uint64_t t_dry_ns;		/* when the queued audio runs out */
	enum audio_event event;
	uint64_t xrun_at_ns;		/* the stream stopped (trigger time) */
	uint64_t xrun_dur_ns;		/* status time minus trigger time */
};

/* What the device granted (it may differ from what was asked). */
struct audio_config {
	unsigned rate;
	unsigned channels;
	int format;
	unsigned period;		/* frames */
	unsigned periods;
	uint64_t buffer;		/* frames */
	const char *access;		/* "mmap", "rw" or "virtual" */
	char pcm_name[128];
	char card[128];
	bool batch;			/* ALSA: snd_pcm_hw_params_is_batch() */
	char driver[32];		/* ALSA: the card's driver ("Dummy", "HDA-Intel") */
	bool timer_driven;		/* snd-dummy, snd-aloop: periods from a kernel timer */
	char device_note[512];		/* timerdev.c's note on such a device, or "" */
};

/*
 * ALSA status -> the moments a wake-up is measured against.  tstamp: when
 * the status was taken; avail: free frames (playback) or captured frames
 * (capture); hw_frames: frames the device has played or captured since the
 * start, as its pointer says.  Fills *t_avail (the first period of space
 * became free, or a period was captured) and *t_dry (the queued audio runs
 * out, or the buffer fills up).
 */
struct audio_ptr_clock {
	bool batch;			/* the pointer moves in period steps */
	uint64_t anchor_ns;		/* batch: when frame 0 was played, as the boundaries tell */
	uint64_t last_ns;		/* tstamp of the previous status */
};
void audio_ptr_times(struct audio_ptr_clock *pc, unsigned rate, uint64_t period, uint64_t buffer,
		     uint64_t tstamp, uint64_t avail, uint64_t hw_frames,
		     uint64_t *t_avail, uint64_t *t_dry);

/* ALSA: the status time (see alsa.c), and t_avail bounded by the wake-up. */
uint64_t audio_status_tstamp(uint64_t tstamp, uint64_t after_ns);
uint64_t audio_avail_by_wakeup(uint64_t t_avail, uint64_t woke_ns, uint64_t frame_ns);

/* timerdev.c: timer-driven devices and PREEMPT_RT's ktimers threads. */
bool audio_timer_driver(const char *driver);
int audio_stat_prio(const char *stat, int *policy, int *prio);
void audio_ktimers_note(const char *proc, const char *driver, int prio, char *note, size_t len);

/*
 * dl.c: a sound server's library, loaded at run time.  Opens soname and
 * fills the function pointers at fns + syms[i].off; on failure a line in
 * why ("cannot load WHAT (package PACKAGE): ..." -ENOENT, or "WHAT has no
 * SYMBOL: HINT" -ENOSYS).
 */
struct audio_dl_sym {
	size_t off;
	const char *name;
};
int audio_dl_load(void **lib, const char *soname, const char *what, const char *package,
		  const char *hint, void *fns, const struct audio_dl_sym *syms, size_t n,
		  char *why, size_t len);

struct audio_ctx;

struct audio_backend_ops {
	const char *name;
	const char *label;		/* "JACK backend"; NULL: "ALSA backend" */
	const char *tag;		/* the verdict's " [JACK]"; NULL: none */
	const char *timing;		/* params.granted.timing; NULL: ALSA's, from its pointer */
	bool exact;			/* its moments are exact: no frame resolution */
	/* Opens and configures; on failure writes the reason to why. */
	int (*open)(struct audio_ctx *c, char *why, size_t len);
	/*
	 * The loop's calls (loop.c run()): start, wait, write, recover.  NULL
	 * for a callback backend (run below), whose run replaces the loop.
	 */
	/* Prefills the whole buffer (playback) and starts the stream. */
	int (*start)(struct audio_ctx *c);
	/* Blocks until a period is free (or something happened). */
	int (*wait)(struct audio_ctx *c, struct audio_wake *w);
	/* Queues one period (capture: takes one); -EPIPE / -ESTRPIPE fill w's event. */
	int (*write)(struct audio_ctx *c, struct audio_wake *w);
	/* After an xrun or a suspend: back to a state start() accepts. */
	int (*recover)(struct audio_ctx *c, int err);
	void (*close)(struct audio_ctx *c);
	/*
	 * Callback backends (JACK, PipeWire): the whole run on the audio thread instead
	 * of wait/write; returns 0 or -errno with err_what set.  NULL: the loop.
	 */
	int (*run)(struct audio_ctx *c);
	/* Its own lines in the summary and its own events; NULL: none. */
	void (*config)(const struct audio_ctx *c, const char *timing);	/* replaces asked/granted */
	void (*summary)(const struct audio_ctx *c);
	void (*events)(const struct audio_ctx *c, struct rtp_json *j);
};

extern const struct audio_backend_ops audio_timer_ops;
extern const struct audio_backend_ops audio_alsa_ops;
extern const struct audio_backend_ops audio_jack_ops;
extern const struct audio_backend_ops audio_pipewire_ops;

/* ---- the timer-paced virtual device --------------------------------------- */
/*
 * Capture is the same model mirrored: 'written' is then the frames read
 * plus the buffer, so avail (frames captured, not yet read), the moment a
 * period is ready and the moment the buffer fills up (t_dry: an overrun)
 * come out of the same formulas.
 */
struct audio_vdev {
	uint64_t t0_ns;			/* start of the stream */
	uint64_t written;		/* frames queued since t0, prefill included */
	bool capture;
	unsigned rate;
	unsigned period;
	uint64_t buffer;
	unsigned char *ring;		/* buffer * frame bytes, written like mmap */
	size_t frame_bytes;
	/*
	 * --hide-xruns: like a sound server's plugin (pulse, pipewire), the
	 * device does not stop when the buffer runs dry: it plays silence and
	 * goes on, and the application's next period goes in at the device's
	 * position.  What it hid is the planted truth.
	 */
	bool hide_xruns;
	uint64_t hidden;		/* xruns hidden */
	uint64_t hidden_ns;		/* silence played, dry moment to the next write */
	uint64_t hidden_max_ns;
};

/* Device state at time now: fills avail, t_avail, t_dry and an xrun. */
void audio_vdev_state(const struct audio_vdev *v, uint64_t now, struct audio_wake *w);
/* --hide-xruns: at time now, take a dry buffer as silence played (written jumps). */
void audio_vdev_hide(struct audio_vdev *v, uint64_t now);

/* ---- calibrated DSP work ------------------------------------------------- */
#define AUDIO_DSP_BLOCK 64
struct audio_dsp {
	double units_per_ns;		/* calibrated on the audio thread */
	float x[AUDIO_DSP_BLOCK];
	float z1, z2;
	float sink;
};
void audio_dsp_init(struct audio_dsp *d);
/* One unit: a biquad low-pass over AUDIO_DSP_BLOCK samples. */
void audio_dsp_run(struct audio_dsp *d, uint64_t units);
/* Measures units per ns (best of several trials); 0 or -errno. */
int audio_dsp_calibrate(struct audio_dsp *d);
uint64_t audio_dsp_units(const struct audio_dsp *d, double pct, uint64_t period_ns);

/* ---- run state -------------------------------------------------------------- */
#define AUDIO_MAX_XRUNS 256
#define AUDIO_MAX_STEPS 101
#define AUDIO_MAX_STALLS 256

/*
 * Why an xrun happened, from what the audio thread saw:
 * - late wake-up: the wake-up came too late for the buffer: its lateness
 *   exceeded what the buffer holds beyond the period being refilled (the
 *   queued audio had run out, or ran out, before it ran);
 * - work overran the margin: the wake-up was in time, but the work (DSP and
 *   writes) took longer than the queued audio left at the wake-up, or the
 *   previous wake-up's work was still running when the audio ran out;
 * - device: neither: the device stopped while, by its own timestamps,
 *   audio was still queued (a suspend is also the device's).
 */
enum audio_xrun_cause {
	AUDIO_CAUSE_LATE_WAKEUP,
	AUDIO_CAUSE_WORK,
	AUDIO_CAUSE_DEVICE,
	AUDIO_CAUSE_OTHER_CLIENT,	/* a server backend: another client did not finish */
	AUDIO_CAUSE_SERVER,		/* a server backend: no client did, the server itself */
	AUDIO_CAUSE_N
};
/* "late-wakeup", "work-overran-margin", "device", "other-client", "server" */
const char *audio_cause_name(enum audio_xrun_cause cause);

/* What the audio thread knew when it found an xrun. */
struct audio_xrun_facts {
	bool by_write;			/* a write after an ordinary wake-up failed */
	uint64_t lateness_ns;		/* the wake-up's, from the moment its period was free */
	uint64_t slack_ns;		/* buffer - period: the lateness the buffer absorbs */
	/* by_write */
	uint64_t margin_ns;		/* queued audio left at the wake-up */
	uint64_t work_ns;		/* from the wake-up to the failed write */
	/* found by the wake-up (the device's report, or this program's count) */
	uint64_t stop_ns;		/* when the queued audio ran out (the stream stopped) */
	uint64_t busy_until_ns;		/* when the previous wake-up's work ended */
	uint64_t expected_dry_ns;	/* when, by this program's count, it would run out */
	uint64_t tolerance_ns;		/* how early the device may stop by that count */
};
enum audio_xrun_cause audio_xrun_cause(const struct audio_xrun_facts *f);
/*
 * A callback backend's call that ran past its cycle (JACK, PipeWire).
 * audio_backlog_cause, taken before the call's own figures replace the
 * previous call's: a backlog (the previous call still working when this
 * call's first cycle began) is the work when that call worked half a
 * cycle or more (such work cannot drain one, whatever began it: 100 % DSP
 * after a host stall), else it has that call's own cause.
 * audio_overrun_cause: the backlog's cause, else the ALSA rule: woken past
 * the deadline, woken cycles late, or late by more than the work took (a
 * wake-up that left a microsecond, then a microsecond of work), the
 * wake-up; else the work outlasted the margin.
 */
struct audio_step;
/*
 * A callback backend's call, recorded: its lateness, margin and work in
 * the run's histograms (at at_ns) and in the step's extremes, and one
 * wake-up and period more.
 */
void audio_record_call(struct audio_ctx *c, struct audio_step *s, uint64_t lateness_ns, uint64_t margin_ns,
		       uint64_t work_ns, uint64_t at_ns);
enum audio_xrun_cause audio_backlog_cause(uint64_t prev_work_ns, uint64_t cycle_ns,
					  enum audio_xrun_cause prev_cause);
enum audio_xrun_cause audio_overrun_cause(bool backlog, enum audio_xrun_cause backlog_cause,
					  bool past_deadline, bool woken_late, uint64_t lateness_ns,
					  uint64_t work_ns);
/*
 * A callback backend's call judged (jack.c, pipewire.c), in ns: due, the
 * start of the cycle it was called for, skipped the cycles missed before
 * it (by frame count), lat its lateness against due.  Missed cycles after
 * a call that ended in time are a wake-up that many cycles late (lateness
 * counting them, margin 0); a call that ran past its cycle (or was woken
 * late) is an overrun with its cause.  prev carries the previous call;
 * the caller sets prev->cause to the overrun's cause it keeps.
 */
struct audio_prev_call {
	bool have;
	uint64_t end_ns;		/* the previous call's end */
	uint64_t work_ns;		/* how long it worked */
	enum audio_xrun_cause cause;	/* why it overran (else work) */
};
struct audio_call {
	uint64_t lat, margin, work;	/* ns */
	bool backlog, woken_late, overran;
	enum audio_xrun_cause cause;	/* when overran */
};
void audio_judge_call(struct audio_prev_call *prev, uint64_t due, uint64_t now, uint64_t end,
		      uint64_t period, uint64_t skipped, uint64_t lat, struct audio_call *k);

/*
 * The device reports an xrun at now_ns (its stream stopped at stop_ns); an
 * xrun it did not report was counted at unreported_at_ns (0: none).  Is it
 * that one, noticed late?  window_ns: the longest a device may take to
 * notice; queued_since: whether any audio was written since that count
 * (nothing written: the stream cannot have run dry again, whatever the
 * device's stamp says); queued_until_ns: when, by this program's count, the
 * audio queued since runs out.
 */
bool audio_same_xrun(uint64_t unreported_at_ns, uint64_t now_ns, uint64_t window_ns,
		     uint64_t stop_ns, bool queued_since, uint64_t queued_until_ns);

struct audio_xrun {
	uint64_t at_ns;			/* since the run's start */
	uint64_t dur_ns;		/* the device's: status minus trigger time */
	uint64_t gap_ns;		/* ours: from the end of the queued audio to the restart */
	uint64_t dry_abs_ns;		/* CLOCK_MONOTONIC end of the queued audio */
	uint64_t lateness_ns;		/* the wake-up's (one per wake-up, as in the histogram) */
	uint64_t margin_ns;		/* queued audio left at that wake-up (0: none) */
	uint64_t work_ns;		/* its work up to the failed write (0: found at the wake-up) */
	enum audio_xrun_cause cause;
	bool suspend;
	bool unreported;		/* the device did not report it */
	bool merged;			/* seen by us first, reported by the device later */
	char culprit[64];		/* other-client: the client the server named ("": none) */
};

struct audio_step {
	double load_pct;
	uint64_t units;
	uint64_t start_ns;		/* since the run's start */
	uint64_t xruns;			/* written by the audio thread (relaxed atomics) */
	uint64_t wakeups;
	uint64_t max_lateness_ns;
	uint64_t min_margin_ns;
	uint64_t max_work_ns;
};

/*
 * The audio thread's stack: measured ("stack_peak_bytes" in the document,
 * tests/integration/scale-stack.t); alsa-lib's calls run on it.
 */
#define AUDIO_STACK_BYTES (40 * 1024)

struct audio_ctx {
	struct rtp_hist lateness;	/* large, first */
	struct rtp_hist margin;
	struct rtp_hist work;
	struct rtp_hist roundtrip;	/* --duplex: impulse written to impulse read */
	const struct audio_opts *o;
	const struct audio_backend_ops *ops;
	struct audio_config cfg;
	void *dev;			/* backend state */
	bool cannot_open;		/* open() failed at the device itself */
	struct audio_vdev vdev;
	struct audio_dsp dsp;
	void *silence;			/* one period: played, or captured into */

	pthread_t th;
	struct rtp_stack stack;		/* AUDIO_STACK_BYTES, painted (stack.h) */
	size_t stack_peak;		/* measured after the join */
	struct rtp_gate gate;		/* set up and calibrated, then the load set, then go */
	struct rtp_run *run;		/* woken when the audio thread ends */
	int stop;			/* atomic: set by main */
	bool done;			/* atomic: set by the audio thread */
	int err;			/* -errno from the audio thread */
	const char *err_what;
	char err_detail[256];		/* the error in words, when err's errno text is not it */
	const char *stop_why;		/* the run's stopped_by when the thread ended by itself */
	int audio_cpu;			/* -1: not pinned */

	uint64_t start_ns;		/* first start of the stream */
	uint64_t end_ns;
	uint64_t dsp_units;		/* atomic: units per period now */
	int step;			/* atomic: current sweep step */
	int nsteps;
	struct audio_step steps[AUDIO_MAX_STEPS];

	uint64_t wakeups;		/* relaxed atomics, read live by main */
	uint64_t periods;		/* written after prefill */
	uint64_t prefilled;		/* frames written by start() */
	uint64_t spurious;		/* woke with less than a period free */
	uint64_t early;			/* woke before the period was free */
	uint64_t xruns;
	uint64_t suspends;
	uint64_t xrun_total_ns;
	uint64_t xrun_max_ns;
	uint64_t dry_ns;		/* when the queued audio runs out, by our count */
	uint64_t unreported_slack_ns;
	uint64_t xruns_unreported;	/* seen by our count, not by the device */
	uint64_t unreported_at_ns;	/* wake-up that found the last one; 0: none */
	bool queued_since_unreported;	/* audio written since that wake-up */
	uint64_t merge_window_ns;
	bool dry_counted;		/* dry_ns counted from the device's t_dry at a refill */
	uint64_t dry_dev_max_ns;	/* the device's t_dry against that count: largest */
	uint64_t dry_dev_n;		/* in-time wake-ups compared */
	int unreported_idx;		/* its place in xrun[], -1 if not kept */
	uint64_t xrun_gap_total_ns;
	uint64_t xrun_causes[AUDIO_CAUSE_N];	/* xruns by cause (suspends apart) */
	uint64_t busy_until_ns;		/* end of the last wake-up's work */
	int nxrun;
	struct audio_xrun xrun[AUDIO_MAX_XRUNS];

	/* --duplex: written by the audio thread, read by main after the join */
	uint64_t impulses_sent;
	uint64_t impulses_found;
	uint64_t impulses_lost;		/* cancelled by an xrun, or never came back */
	int64_t delay_min_frames;	/* capture index - playback index of an impulse */
	int64_t delay_max_frames;
	uint64_t capture_xruns;
	char duplex_pcm[128];
	bool duplex_linked;

	/* --plant-stall: a FIFO 99 spinner on the audio thread's CPU */
	pthread_t stall_th;
	struct rtp_stack stall_stack;
	bool stall_started;
	int go;				/* atomic: the run has started (start_ns is set) */
	int stall_err;			/* atomic: the stall thread could not be set up */
	int nstalls;			/* atomic */
	uint64_t stall_at[AUDIO_MAX_STALLS];
	uint64_t stall_len[AUDIO_MAX_STALLS];
};

void *audio_thread_main(void *arg);
void *audio_stall_main(void *arg);

/* "0 xruns in 10.0 s at 64 frames x 2 periods, 48 kHz (2.67 ms latency)" */
void audio_print_row(const char *name, const struct rtp_hist *h);
void audio_print_hist(const char *name, const struct rtp_hist *h);
void audio_headline(char *buf, size_t len, uint64_t xruns, double secs,
		    const struct audio_config *cfg);

/* "64 frames x 2 periods", or for a server backend (no periods) "256 frames per cycle". */
void audio_shape(char *buf, size_t len, const struct audio_config *cfg);
/* " (a, b)": the clients named for other-client xruns, each once, the first three; or "". */
void audio_culprits(const struct audio_ctx *c, char *buf, size_t len);

/*
 * Buffer-size advice (advice.c, docs/audio.md): a model estimate, not a
 * measurement.  The worst cycle is taken as the worst wake-up lateness
 * plus the longest work, as if in one cycle; lateness is assumed not to
 * depend on the period, and work to grow with the period's frames (never
 * below what was measured).  A buffer of n periods of P frames fits when
 * (n - 1) periods, the audio still queued at a wake-up, last longer than
 * that.  The advice is the smallest such buffer (P a power of two from 16
 * to 4096 frames, n from 2 to 4; the larger room on a tie); valid is false
 * with nothing measured, or on a server backend (no periods).
 */
struct audio_advice {
	bool valid, found;
	unsigned period, periods;	/* frames, count (found) */
	uint64_t buffer_ns, room_ns;	/* n x P, (n - 1) x P (found) */
	uint64_t need_ns;		/* the worst cycle at that period (found) */
	uint64_t late_ns, work_ns;	/* the measured worst of each */
};
void audio_advise(const struct audio_ctx *c, struct audio_advice *a);
void audio_advice_print(const struct audio_advice *a, unsigned rate, double secs);
void audio_advice_json(const struct audio_advice *a, struct rtp_json *j);

/* The whole program; returns its exit code. */
int audio_main(int argc, char **argv);

#endif /* RTP_AUDIO_H */
