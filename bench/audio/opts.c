// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: command-line options (aplay's and jackd's names where they mean the same). */
#include "audio.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "log.h"
#include "opt.h"
#include "result.h"

#define bad rtp_opt_bad

enum {
	OPT_ACCESS = 256, OPT_BACKEND, OPT_DSP, OPT_SWEEP, OPT_STEPTIME, OPT_SWEEPMAX,
	OPT_SWEEPREQ, OPT_STALL, OPT_DUPLEX, OPT_DEVICE, OPT_RATE, OPT_PERIOD, OPT_HIDE,
	OPT_SERVER, OPT_START_SERVER, OPT_SERVER_LOG,
};

/* cyclictest's letters are the suite's: -D duration, -p priority, -q. */
const struct option audio_longopts[] = {
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "channels", required_argument, NULL, 'c' },
	{ "format", required_argument, NULL, 'f' },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "period-size", required_argument, NULL, OPT_PERIOD },
	{ "periods", required_argument, NULL, 'n' },
	{ "access", required_argument, NULL, OPT_ACCESS },
	{ "capture", no_argument, NULL, 'C' },
	{ "duplex", required_argument, NULL, OPT_DUPLEX },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "priority", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, 'a' },
	{ "dsp-load", required_argument, NULL, OPT_DSP },
	{ "sweep", optional_argument, NULL, OPT_SWEEP },
	{ "step-time", required_argument, NULL, OPT_STEPTIME },
	{ "sweep-max", required_argument, NULL, OPT_SWEEPMAX },
	{ "sweep-require", required_argument, NULL, OPT_SWEEPREQ },
	{ "plant-stall", required_argument, NULL, OPT_STALL },
	{ "hide-xruns", no_argument, NULL, OPT_HIDE },
	{ "server", required_argument, NULL, OPT_SERVER },
	{ "start-server", no_argument, NULL, OPT_START_SERVER },
	{ "server-log", required_argument, NULL, OPT_SERVER_LOG },
	{ NULL, 0, NULL, 0 },
};
const char audio_shortopts[] = "c:f:n:p:a:C";

const char audio_synopsis[] =
"Plays periods of silence from a SCHED_FIFO thread and counts xruns (buffer\n"
"underruns); records at each wake-up how late it woke, how much audio was\n"
"still queued (the margin) and how long its work took.\n";

const char audio_help[] =
"      --device NAME      ALSA PCM (default: default), e.g. hw:0, plughw:Dummy\n"
"      --backend B        alsa, timer (virtual device paced by CLOCK_MONOTONIC, no\n"
"                         sound card needed, like jackd -d dummy), jack (a client\n"
"                         of a running JACK server: rate and period are the\n"
"                         server's), pipewire (a stream of a running PipeWire\n"
"                         server: rate and quantum are the graph's) or auto (the\n"
"                         default: ALSA, or timer when no --device was given and\n"
"                         the default device does not open)\n"
"      --server NAME      jack: the JACK server's name (default $JACK_DEFAULT_SERVER,\n"
"                         else default); pipewire: the remote's name (default\n"
"                         $PIPEWIRE_REMOTE, else pipewire-0)\n"
"      --start-server     jack: start jackd -R -d dummy at --rate/--period under a\n"
"                         private name, read its log to name the client behind\n"
"                         each xrun, stop it at the end\n"
"      --server-log FILE  jack: the running server's log (jackd's output), read\n"
"                         from its end to name the client behind each xrun\n"
"      --rate HZ          sample rate, 8000..384000 (default 48000)\n"
"  -c, --channels N       1..64 (default 2)\n"
"  -f, --format FMT       ALSA sample format: S16_LE (default), S32_LE, FLOAT_LE...\n"
"      --period FRAMES    period size in frames, 16..65536 (default 64)\n"
"  -n, --periods N        periods in the buffer, 2..64 (default 2)\n"
"      --access A         mmap (default) or rw (snd_pcm_writei / snd_pcm_readi)\n"
"  -C, --capture          capture instead of playback: xruns are overruns, the\n"
"                         margin is the time before the buffer fills up\n"
"      --duplex CAPDEV    also capture from CAPDEV (ALSA) and time an impulse's\n"
"                         round trip, e.g. --device hw:Loopback,0 --duplex hw:Loopback,1\n"
"  -p, --priority N       SCHED_FIFO priority of the audio thread, 1..98 (default 80)\n"
"  -a, --cpu N            pin the audio thread to CPU N (default: not pinned)\n"
"      --dsp-load PCT     burn PCT % of each period in calibrated CPU work (0..100)\n"
"      --sweep[=STEP]     raise the DSP load by STEP % (default 5) per step until\n"
"                         the first xrun, and report that load\n"
"      --step-time T      time per sweep step (default 2s)\n"
"      --sweep-max PCT    highest load tried (default 100)\n"
"      --sweep-require PCT  with --sweep: fail unless PCT % ran without xruns\n"
"      --plant-stall D[,EVERY]  self-test: a SCHED_FIFO 99 thread on the audio\n"
"                         thread's CPU spins for D every EVERY (default 1s)\n"
"      --hide-xruns       self-test, timer backend: the virtual device hides its\n"
"                         xruns as sound-server plugins do (plays silence, runs on)\n";

const char audio_epilog[] =
"Verdict: pass = no xruns (with --sweep: figures, or --sweep-require).\n"
"Exit: 0 pass, 1 error, 2 fail (xruns), 4 skip (no RT privilege, no device, no\n"
"JACK or PipeWire server running).  See docs/audio.md.\n";

void audio_defaults(void *oo)
{
	struct audio_opts *o = oo;

	memset(o, 0, sizeof(*o));
	rtp_common_defaults(&o->co);
	o->device = "default";
	o->backend = AUDIO_BACKEND_AUTO;
	o->access = AUDIO_ACCESS_MMAP;
	o->rate = 48000;
	o->channels = 2;
	o->format = SND_PCM_FORMAT_S16_LE;
	o->format_name = "S16_LE";
	o->period = 64;
	o->periods = 2;
	o->priority = 80;
	o->cpu = -1;
	o->sweep_step_pct = 5;
	o->sweep_max_pct = 100;
	o->step_ns = 2000000000ull;
	o->stall_every_ns = 1000000000ull;
}

/* A percentage 0..100, decimals allowed, an optional trailing '%'. */
static int parse_pct(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return -EINVAL;
	if (*end == '%')
		end++;
	if (*end || !isfinite(v))
		return -EINVAL;
	if (v < 0 || v > 100)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_stall(const char *s, struct audio_opts *o)
{
	char buf[64], *comma;
	uint64_t d, every = 1000000000ull;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -EINVAL;
	comma = strchr(buf, ',');
	if (comma) {
		*comma = '\0';
		if (rtp_parse_duration_ns(comma + 1, &every) || !every)
			return -EINVAL;
	}
	if (rtp_parse_duration_ns(buf, &d) || !d || d > 900000000ull)
		return -ERANGE;
	if (every < d + d / 2)
		return -ERANGE;
	o->stall_ns = d;
	o->stall_every_ns = every;
	return 0;
}

int audio_option(void *oo, int c, const char *name, const char *arg, int argc, char **argv)
{
	struct audio_opts *o = oo;
	uint64_t v;
	int ret;

	(void)argc;
	(void)argv;
	switch (c) {
	case OPT_DEVICE:
		if (!*arg)
			return bad(name, "''", "empty device name");
		o->device = arg;
		o->device_given = true;
		break;
	case OPT_RATE:
		if (rtp_parse_u64(arg, 8000, 384000, &v))
			return bad(name, arg, "rate must be 8000..384000 Hz");
		o->rate = (unsigned)v;
		o->rate_given = true;
		break;
	case 'c':
		if (rtp_parse_u64(arg, 1, 64, &v))
			return bad(name, arg, "channels must be 1..64");
		o->channels = (unsigned)v;
		break;
	case 'f': {
		snd_pcm_format_t f = snd_pcm_format_value(arg);

		if (f == SND_PCM_FORMAT_UNKNOWN || snd_pcm_format_physical_width(f) <= 0)
			return bad(name, arg, "unknown sample format (S16_LE, S24_LE, S32_LE, FLOAT_LE...)");
		o->format = f;
		o->format_name = snd_pcm_format_name(f);
		o->format_given = true;
		break;
	}
	case OPT_PERIOD:
		if (rtp_parse_u64(arg, 16, 65536, &v))
			return bad(name, arg, "period must be 16..65536 frames");
		o->period = (unsigned)v;
		o->period_given = true;
		break;
	case 'n':
		if (rtp_parse_u64(arg, 2, 64, &v))
			return bad(name, arg, "periods must be 2..64");
		o->periods = (unsigned)v;
		o->periods_given = true;
		break;
	case OPT_ACCESS:
		if (!strcmp(arg, "mmap"))
			o->access = AUDIO_ACCESS_MMAP;
		else if (!strcmp(arg, "rw"))
			o->access = AUDIO_ACCESS_RW;
		else
			return bad(name, arg, "access must be mmap or rw");
		o->access_given = true;
		break;
	case 'C':
		o->capture = true;
		break;
	case OPT_HIDE:
		o->hide_xruns = true;
		break;
	case OPT_DUPLEX:
		if (!*arg)
			return bad(name, "''", "empty device name");
		o->duplex = arg;
		break;
	case OPT_BACKEND:
		if (!strcmp(arg, "alsa"))
			o->backend = AUDIO_BACKEND_ALSA;
		else if (!strcmp(arg, "timer"))
			o->backend = AUDIO_BACKEND_TIMER;
		else if (!strcmp(arg, "jack"))
			o->backend = AUDIO_BACKEND_JACK;
		else if (!strcmp(arg, "pipewire"))
			o->backend = AUDIO_BACKEND_PIPEWIRE;
		else if (!strcmp(arg, "auto"))
			o->backend = AUDIO_BACKEND_AUTO;
		else
			return bad(name, arg, "backend must be alsa, timer, jack, pipewire or auto");
		break;
	case 'p':
		/* 99 is left for the planted stall and the kernel's own. */
		if (rtp_parse_prio(arg, 1, 98, &o->priority))
			return bad(name, arg, "priority must be 1..98");
		o->prio_given = true;
		break;
	case OPT_SERVER:
		if (!*arg || strlen(arg) > 60)
			return bad(name, arg[0] ? arg : "''", "server name must be 1..60 characters");
		o->jack_server = arg;
		break;
	case OPT_SERVER_LOG:
		if (!*arg)
			return bad(name, "''", "empty file name");
		o->server_log = arg;
		break;
	case OPT_START_SERVER:
		o->start_server = true;
		break;
	case 'a': {
		const char *why = rtp_parse_online_cpu(arg, &o->cpu);

		if (why)
			return bad(name, arg, why);
		break;
	}
	case OPT_DSP:
		if (parse_pct(arg, &o->dsp_load_pct))
			return bad(name, arg, "DSP load must be 0..100 (percent of a period)");
		break;
	case OPT_SWEEP:
		o->sweep = true;
		if (arg && (parse_pct(arg, &o->sweep_step_pct) || o->sweep_step_pct < 1))
			return bad(name, arg, "sweep step must be 1..100 (percent)");
		break;
	case OPT_STEPTIME:
		ret = rtp_parse_duration_ns(arg, &v);
		if (ret || v < 100000000ull || v > 3600000000000ull)
			return bad(name, arg, "step time must be 100ms .. 1h");
		o->step_ns = v;
		break;
	case OPT_SWEEPMAX:
		if (parse_pct(arg, &o->sweep_max_pct) || o->sweep_max_pct <= 0)
			return bad(name, arg, "sweep maximum must be 1..100 (percent)");
		break;
	case OPT_SWEEPREQ:
		if (parse_pct(arg, &o->sweep_require_pct))
			return bad(name, arg, "required load must be 0..100 (percent)");
		break;
	case OPT_STALL:
		ret = parse_stall(arg, o);
		if (ret)
			return bad(name, arg, "stall must be 1ns..900ms, every at least 1.5x the stall (20ms,1s)");
		break;
	}
	return 0;
}

/* PipeWire: the graph decides the rate and quantum (checked), and the data thread's priority. */
static int check_pipewire(const struct audio_opts *o)
{
	if (o->device_given) {
		rtp_error("--device %s: a PipeWire stream here is not linked to a device (it runs "
			  "under the graph's driver); --server names the server", o->device);
		return RTP_EXIT_ERROR;
	}
	if (o->periods_given) {
		rtp_error("-n %u: the PipeWire graph has one quantum a cycle (its driver buffers); "
			  "drop -n", o->periods);
		return RTP_EXIT_ERROR;
	}
	if (o->format_given && o->format != SND_PCM_FORMAT_FLOAT_LE) {
		rtp_error("-f %s: this PipeWire stream carries 32-bit float only (FLOAT_LE)",
			  o->format_name);
		return RTP_EXIT_ERROR;
	}
	if (o->access_given) {
		rtp_error("--access %s: PipeWire hands the stream its buffers; drop --access",
			  o->access == AUDIO_ACCESS_MMAP ? "mmap" : "rw");
		return RTP_EXIT_ERROR;
	}
	if (o->prio_given) {
		rtp_error("-p %d: PipeWire's module-rt sets the data thread's priority (rt.prio in "
			  "client-rt.conf); drop -p", o->priority);
		return RTP_EXIT_ERROR;
	}
	return 0;
}

/* A server backend: what the server decides is refused, not silently ignored. */
static int check_jack(struct audio_opts *o)
{
	bool pw = o->backend == AUDIO_BACKEND_PIPEWIRE;

	if (o->backend != AUDIO_BACKEND_JACK && (o->start_server || o->server_log)) {
		rtp_error("%s: needs --backend jack", o->start_server ? "--start-server" : "--server-log");
		return RTP_EXIT_ERROR;
	}
	if (o->backend != AUDIO_BACKEND_JACK && !pw) {
		if (o->jack_server) {
			rtp_error("--server: needs --backend jack or pipewire");
			return RTP_EXIT_ERROR;
		}
		return 0;
	}
	if (pw)
		return check_pipewire(o);
	if (o->jack_server && o->start_server) {
		rtp_error("--server %s: --start-server starts a server under a private name; drop one",
			  o->jack_server);
		return RTP_EXIT_ERROR;
	}
	if (o->server_log && o->start_server) {
		rtp_error("--server-log %s: --start-server reads the log of the server it starts; "
			  "drop one", o->server_log);
		return RTP_EXIT_ERROR;
	}
	if (o->device_given) {
		rtp_error("--device %s: a JACK client has no ALSA device (the server's driver has it); "
			  "--server names the server", o->device);
		return RTP_EXIT_ERROR;
	}
	if (o->periods_given) {
		rtp_error("-n %u: the JACK server sets its periods (jackd -d alsa -n N); a client has "
			  "one cycle for its work", o->periods);
		return RTP_EXIT_ERROR;
	}
	if (o->format_given && o->format != SND_PCM_FORMAT_FLOAT_LE) {
		rtp_error("-f %s: JACK ports carry 32-bit float only (FLOAT_LE)", o->format_name);
		return RTP_EXIT_ERROR;
	}
	if (o->access_given) {
		rtp_error("--access %s: JACK hands the client its port buffers; drop --access",
			  o->access == AUDIO_ACCESS_MMAP ? "mmap" : "rw");
		return RTP_EXIT_ERROR;
	}
	if (o->prio_given) {
		rtp_error("-p %d: the JACK server sets its clients' priority (jackd -P); drop -p",
			  o->priority);
		return RTP_EXIT_ERROR;
	}
	if (o->channels > 64) {
		rtp_error("-c %u: at most 64 ports", o->channels);
		return RTP_EXIT_ERROR;
	}
	if (!o->start_server)
		return 0;
	/* The server this run starts runs at the asked rate and period (jackd -d dummy's limits). */
	if (o->period > 8192) {
		rtp_error("--period %u: --start-server's dummy driver takes 16..8192 frames", o->period);
		return RTP_EXIT_ERROR;
	}
	return 0;
}

int audio_check(void *oo)
{
	struct audio_opts *o = oo;
	int ret;

	ret = check_jack(o);
	if (ret)
		return ret;
	if (o->backend == AUDIO_BACKEND_JACK || o->backend == AUDIO_BACKEND_PIPEWIRE) {
		/* The format of its buffers: what the summary and the document show. */
		o->format = SND_PCM_FORMAT_FLOAT_LE;
		o->format_name = "FLOAT_LE";
	}

	if (o->duplex) {
		if (o->capture) {
			rtp_error("--duplex: plays on --device and captures on its own; drop -C");
			return RTP_EXIT_ERROR;
		}
		if (o->backend == AUDIO_BACKEND_TIMER || o->backend == AUDIO_BACKEND_JACK ||
		    o->backend == AUDIO_BACKEND_PIPEWIRE) {
			rtp_error("--duplex: needs the ALSA backend");
			return RTP_EXIT_ERROR;
		}
		if (o->format != SND_PCM_FORMAT_S16_LE && o->format != SND_PCM_FORMAT_S32_LE &&
		    o->format != SND_PCM_FORMAT_FLOAT_LE) {
			rtp_error("--duplex: the impulse needs -f S16_LE, S32_LE or FLOAT_LE");
			return RTP_EXIT_ERROR;
		}
		o->backend = AUDIO_BACKEND_ALSA;
	}
	if (o->hide_xruns) {
		if (o->backend != AUDIO_BACKEND_TIMER) {
			rtp_error("--hide-xruns: only the virtual device can hide its xruns (add --backend timer)");
			return RTP_EXIT_ERROR;
		}
		if (o->capture) {
			rtp_error("--hide-xruns: playback only; drop -C");
			return RTP_EXIT_ERROR;
		}
	}
	if (o->sweep) {
		int n;

		if (o->co.duration_given) {
			rtp_error("--sweep: the run lasts its steps (--step-time); drop --duration");
			return RTP_EXIT_ERROR;
		}
		if (o->sweep_max_pct < o->dsp_load_pct + o->sweep_step_pct) {
			rtp_error("--sweep-max %g: must be at least --dsp-load plus one step (%g %%)",
				  o->sweep_max_pct, o->dsp_load_pct + o->sweep_step_pct);
			return RTP_EXIT_ERROR;
		}
		n = (int)floor((o->sweep_max_pct - o->dsp_load_pct) / o->sweep_step_pct + 1e-9);
		if (n + 1 > AUDIO_MAX_STEPS) {
			rtp_error("--sweep: at most %d steps", AUDIO_MAX_STEPS);
			return RTP_EXIT_ERROR;
		}
	} else if (o->sweep_require_pct > 0) {
		rtp_error("--sweep-require: needs --sweep");
		return RTP_EXIT_ERROR;
	}
	return 0;
}
