// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp-mkdoc: a synthetic rtproof-cyclic result document with known truth,
 * for testing compare (and plot) on data the host's own noise cannot
 * touch.  Written through the library's own writers (histogram, block
 * series, result document), so it has exactly the shape a real run has.
 *
 *   rtp-mkdoc --out FILE [--seed N] [--cpus N] [--duration 30s]
 *             [--interval 1000us] [--base 5us] [--sigma 0.25]
 *             [--tail-rate 0.001] [--tail-scale 4] [--burst-rate 0.2]
 *             [--burst-len 20ms] [--burst-gain 3]
 *             [--stall CPU:LEN:EVERY[:PHASE]]... [--kernel REL]
 *             [--preempt MODEL] [--load NAME]
 *
 * The model, per thread and release (every --interval from t = 0):
 *  - the body: base * exp(sigma * N(0,1)) (lognormal);
 *  - a heavy tail: with probability --tail-rate per sample, a Pareto
 *    (alpha 1.5) value from tail-scale * base up;
 *  - bursts: at --burst-rate per second (Poisson, on every thread at
 *    once, as a host's own stalls are), a stretch of --burst-len during
 *    which the body is multiplied by --burst-gain;
 *  - planted stalls: on the thread of CPU, a stall of LEN every EVERY
 *    from PHASE: the first release at or after the stall's start wakes at
 *    its end; the periods that passed are counted as missed, as the bench
 *    counts them.
 * Same options and seed, same document, byte for byte but for "start".
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"
#include "json.h"
#include "log.h"
#include "opt.h"
#include "result.h"
#include "sysinfo.h"
#include "verdict.h"

#define MAX_CPUS	64
#define MAX_STALLS	16

struct stall {
	int cpu;
	uint64_t len_ns, every_ns, phase_ns;
};

static uint64_t rng_state;

static uint64_t rng_next(void)	/* splitmix64 */
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double rng_unit(void)	/* (0, 1) */
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)
{
	return sqrt(-2.0 * log(rng_unit())) * cos(2.0 * M_PI * rng_unit());
}

static int parse_stall(const char *s, struct stall *st)
{
	char buf[128], *f[4], *save = NULL, *tok;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ":", &save); tok && n < 4; tok = strtok_r(NULL, ":", &save))
		f[n++] = tok;
	if (n < 3 || tok)
		return -EINVAL;
	st->phase_ns = 0;
	if (rtp_parse_int(f[0], 0, MAX_CPUS - 1, &st->cpu) || rtp_parse_duration_ns(f[1], &st->len_ns) ||
	    rtp_parse_duration_ns(f[2], &st->every_ns) || st->every_ns == 0 ||
	    (n == 4 && rtp_parse_duration_ns(f[3], &st->phase_ns)))
		return -EINVAL;
	return 0;
}

static int parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 'S' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'D' },
		{ "interval", required_argument, NULL, 'i' },
		{ "base", required_argument, NULL, 'b' },
		{ "sigma", required_argument, NULL, 's' },
		{ "tail-rate", required_argument, NULL, 't' },
		{ "tail-scale", required_argument, NULL, 'T' },
		{ "burst-rate", required_argument, NULL, 'r' },
		{ "burst-len", required_argument, NULL, 'l' },
		{ "burst-gain", required_argument, NULL, 'g' },
		{ "stall", required_argument, NULL, 'x' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "preempt", required_argument, NULL, 'p' },
		{ "load", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1, duration_ns = 30000000000ull, interval_ns = 1000000, base_ns = 5000;
	uint64_t burst_len_ns = 20000000, u64;
	double sigma = 0.25, tail_rate = 0.001, tail_scale = 4, burst_rate = 0.2, burst_gain = 3;
	const char *out = NULL, *kernel = "6.12.0-synthetic", *preempt = "rt", *load = "none";
	struct stall stalls[MAX_STALLS];
	int nstalls = 0, ncpus = 2, c, i, ret;
	static struct rtp_hist h[MAX_CPUS];
	static struct rtp_hist_wide all;
	uint64_t missed[MAX_CPUS] = { 0 }, releases[MAX_CPUS] = { 0 }, tot_missed = 0, tot_rel = 0;
	uint64_t *bursts = NULL, nbursts = 0, epoch;
	struct rtp_sysinfo si;
	struct rtp_result r;
	struct rtp_verdict v;
	struct timespec start = { 1796378400, 0 };	/* 2026-12-04T10:00:00Z */
	char cpus[32];

	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; ret = 0; break;
		case 'S': ret = rtp_parse_u64(optarg, 0, UINT64_MAX, &seed); break;
		case 'c': ret = rtp_parse_int(optarg, 1, MAX_CPUS, &ncpus); break;
		case 'D': ret = rtp_parse_duration_ns(optarg, &duration_ns); break;
		case 'i': ret = rtp_parse_us(optarg, &interval_ns); break;
		case 'b': ret = rtp_parse_us(optarg, &base_ns); break;
		case 's': ret = parse_double(optarg, 0, 5, &sigma); break;
		case 't': ret = parse_double(optarg, 0, 1, &tail_rate); break;
		case 'T': ret = parse_double(optarg, 1, 1e6, &tail_scale); break;
		case 'r': ret = parse_double(optarg, 0, 1000, &burst_rate); break;
		case 'l': ret = rtp_parse_duration_ns(optarg, &burst_len_ns); break;
		case 'g': ret = parse_double(optarg, 1, 1e6, &burst_gain); break;
		case 'x':
			ret = nstalls < MAX_STALLS ? parse_stall(optarg, &stalls[nstalls++]) : -E2BIG;
			break;
		case 'k': kernel = optarg; ret = 0; break;
		case 'p': preempt = optarg; ret = 0; break;
		case 'L': load = optarg; ret = 0; break;
		default: rtp_error("usage: rtp-mkdoc --out FILE [options] (see the source)"); return 1;
		}
		if (ret) {
			rtp_error("%s %s: %s", argv[optind - 1], optarg, rtp_opt_strerror(ret));
			return 1;
		}
	}
	if (!out || optind < argc || interval_ns == 0 || base_ns == 0 || duration_ns < interval_ns) {
		rtp_error("usage: rtp-mkdoc --out FILE [options]: --out is required, interval, base and duration > 0");
		return 1;
	}
	for (i = 0; i < nstalls; i++)
		if (stalls[i].cpu >= ncpus) {
			rtp_error("--stall %d:...: CPU %d is not one of the %d CPUs", stalls[i].cpu,
				  stalls[i].cpu, ncpus);
			return 1;
		}
	rng_state = seed;

	/* The bursts, on every thread at once: a Poisson process in time. */
	if (burst_rate > 0) {
		double t = 0;

		bursts = calloc((size_t)(burst_rate * duration_ns / 1e9 * 4 + 16), sizeof(*bursts));
		if (!bursts)
			return 1;
		for (;;) {
			t += -log(rng_unit()) / burst_rate * 1e9;
			if (t >= duration_ns || nbursts >= (uint64_t)(burst_rate * duration_ns / 1e9 * 4 + 15))
				break;
			bursts[nbursts++] = (uint64_t)t;
		}
	}

	rtp_hist_init_wide(&all);
	epoch = all.h.series.epoch_ns;
	for (i = 0; i < ncpus; i++) {
		uint64_t t, b = 0, wake_floor = 0;

		rtp_hist_init(&h[i]);
		h[i].series.epoch_ns = epoch;
		for (t = 0; t + interval_ns <= duration_ns || t == 0; t += interval_ns) {
			double lat = base_ns * exp(sigma * rng_normal());
			uint64_t l, wake;
			int s;

			while (b < nbursts && bursts[b] + burst_len_ns <= t)
				b++;
			if (b < nbursts && bursts[b] <= t)
				lat *= burst_gain;
			if (rng_unit() < tail_rate)
				lat = tail_scale * base_ns * pow(rng_unit(), -1.0 / 1.5);
			wake = t + (uint64_t)lat;
			for (s = 0; s < nstalls; s++) {
				const struct stall *st = &stalls[s];
				uint64_t k, s0;

				if (st->cpu != i || t + interval_ns <= st->phase_ns)
					continue;
				/* the last stall that began at or before this release's period end */
				k = t + interval_ns > st->phase_ns ? (t + interval_ns - 1 - st->phase_ns) / st->every_ns : 0;
				s0 = st->phase_ns + k * st->every_ns;
				if (s0 + st->len_ns > t && wake < s0 + st->len_ns && s0 < wake)
					wake = s0 + st->len_ns;
			}
			if (wake < wake_floor)
				wake = wake_floor;
			l = wake - t;
			rtp_hist_record_at(&h[i], l, epoch + t);
			releases[i]++;
			/* releases that passed while this one waited: missed, not sampled */
			if (l >= interval_ns) {
				u64 = (l - 1) / interval_ns;
				if (t + u64 * interval_ns >= duration_ns)
					u64 = (duration_ns - 1 - t) / interval_ns;
				missed[i] += u64;
				releases[i] += u64;
				t += u64 * interval_ns;
			}
			wake_floor = wake;
		}
		rtp_hist_merge(&all.h, &h[i]);
		tot_missed += missed[i];
		tot_rel += releases[i];
	}
	free(bursts);

	memset(&si, 0, sizeof(si));
	snprintf(si.hostname, sizeof(si.hostname), "synthetic");
	snprintf(si.kernel_release, sizeof(si.kernel_release), "%s", kernel);
	snprintf(si.kernel_version, sizeof(si.kernel_version), "#1 SMP %s", strcmp(preempt, "rt") ? "PREEMPT_DYNAMIC" : "PREEMPT_RT");
	snprintf(si.machine, sizeof(si.machine), "x86_64");
	snprintf(si.preempt, sizeof(si.preempt), "%s", preempt);
	snprintf(si.preempt_source, sizeof(si.preempt_source), "rtp-mkdoc");
	si.cpus_online = ncpus;
	snprintf(si.cpus_online_list, sizeof(si.cpus_online_list), "0-%d", ncpus - 1);
	snprintf(si.cpu_model, sizeof(si.cpu_model), "synthetic (rtp-mkdoc seed %llu)", (unsigned long long)seed);
	snprintf(si.cmdline, sizeof(si.cmdline), "synthetic");
	snprintf(si.clocksource, sizeof(si.clocksource), "tsc");
	snprintf(cpus, sizeof(cpus), "0-%d", ncpus - 1);

	ret = rtp_result_open(&r, out);
	if (ret) {
		rtp_error("--out %s: %s", out, strerror(-ret));
		return 1;
	}
	{
		/* The command a real run would record: the same on every side. */
		char *cmd[] = { "rtproof-cyclic", "-q", "--json", "cyclic.json" };
		struct rtp_json *j = &r.json;

		rtp_result_header(&r, "rtproof-cyclic", 4, cmd, &si, &start);
		rtp_json_begin_object(j, "params");
		rtp_json_string(j, "policy", "fifo");
		rtp_json_int(j, "priority", 95);
		rtp_json_double(j, "interval_us", interval_ns / 1e3);
		rtp_json_int(j, "threads", ncpus);
		rtp_json_string(j, "cpus", cpus);
		rtp_json_string(j, "placement", "pinned, one CPU per thread");
		rtp_json_string(j, "timer", "nanosleep-absolute");
		rtp_json_string(j, "clock", "CLOCK_MONOTONIC");
		rtp_json_bool(j, "mlockall", true);
		rtp_json_int(j, "cpu_dma_latency_us", 0);
		rtp_json_string(j, "synthetic", "rtp-mkdoc");
		rtp_json_end_object(j);
		rtp_json_begin_object(j, "load");
		rtp_json_string(j, "name", load);
		rtp_json_end_object(j);
		rtp_json_begin_array(j, "metrics");
		for (i = 0; i <= ncpus; i++) {
			bool a = i == ncpus;

			rtp_json_begin_object(j, NULL);
			rtp_json_string(j, "name", "wakeup_latency");
			rtp_json_string(j, "unit", "ns");
			if (a) {
				rtp_json_string(j, "cpu", "all");
				rtp_json_string(j, "thread", "all");
			} else {
				rtp_json_int(j, "cpu", i);
				rtp_json_int(j, "thread", i);
				rtp_json_double(j, "interval_us", interval_ns / 1e3);
			}
			rtp_json_hist(j, a ? &all.h : &h[i], true);
			rtp_json_uint(j, "missed", a ? tot_missed : missed[i]);
			rtp_json_uint(j, "releases", a ? tot_rel : releases[i]);
			rtp_json_end_object(j);
		}
		rtp_json_end_array(j);
		rtp_json_begin_object(j, "events");
		rtp_json_uint(j, "missed", tot_missed);
		rtp_json_uint(j, "early", 0);
		rtp_json_uint(j, "spikes", 0);
		rtp_json_string(j, "stopped_by", "duration");
		rtp_json_end_object(j);
	}
	memset(&v, 0, sizeof(v));
	v.status = RTP_PASS;
	snprintf(v.reason, sizeof(v.reason), "no latency budget given");
	ret = rtp_result_commit(&r, duration_ns / 1e9, &v);
	if (ret) {
		rtp_error("--out %s: %s", out, strerror(-ret));
		return 1;
	}
	return 0;
}
