// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-check: is this machine set up for real-time work, and what to
 * change.  A table on stdout, --json FILE (schema rtproof/1, one
 * criterion per check); exit 0 when no check fails, 2 when one does.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "clock.h"
#include "json.h"
#include "log.h"
#include "opt.h"
#include "result.h"
#include "sysinfo.h"

#define DEFAULT_AUDIO_PRIO 80	/* rtproof-audio's default */

struct opts {
	enum rtp_check_profile profile;
	const char *user, *root, *json, *only;
	cpu_set_t cpus;
	bool cpus_given, quiet;
	int audio_prio;
};

enum { OPT_PROFILE = 256, OPT_USER, OPT_ROOT, OPT_JSON, OPT_CPUS, OPT_AUDIO_PRIO, OPT_ONLY,
       OPT_LIST, OPT_HELP, OPT_VERSION };

static const struct option longopts[] = {
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "user", required_argument, NULL, OPT_USER },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "audio-prio", required_argument, NULL, OPT_AUDIO_PRIO },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rtproof-check [--profile latency|audio] [--user NAME] [--json FILE]\n"
		"                     [--cpus LIST] [--audio-prio N] [--only ID,...] [--root DIR] [-q]\n"
		"Is this machine set up for real-time work: each check passes, warns, fails or\n"
		"skips (cannot be read here), with what was seen and the command that fixes it.\n"
		"  --profile P     latency (default: cyclictest-style measurement) or audio;\n"
		"                  it decides which findings fail and which only warn\n"
		"  --user NAME     whose limits and groups to check (default: the invoking\n"
		"                  user, SUDO_USER under sudo)\n"
		"  --json FILE     the result document (rtproof/1, one criterion per check)\n"
		"  --cpus LIST     the CPUs the measurement uses (default: the isolated CPUs,\n"
		"                  else every online CPU)\n"
		"  --audio-prio N  the audio thread's SCHED_FIFO priority (default %d)\n"
		"  --only LIST     run these checks only (ids from --list)\n"
		"  --list          list the checks and exit\n"
		"  --root DIR      read /proc, /sys, /etc, /boot and /dev below DIR (test trees)\n"
		"  -q, --quiet     no table; the summary line only\n"
		"Exit: 0 no check fails, 2 a check fails, 1 error.\n", DEFAULT_AUDIO_PRIO);
}

static int bad(const char *opt, const char *val, const char *why)
{
	rtp_error("%s %s: %s", opt, val, why);
	return RTP_EXIT_ERROR;
}

/* Returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, struct opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->profile = RTP_PROFILE_LATENCY;
	o->audio_prio = DEFAULT_AUDIO_PRIO;
	optind = 0;
	opterr = 0;
	for (;;) {
		char name[32];
		int li = -1;

		c = getopt_long(argc, argv, ":q", longopts, &li);
		if (c == -1)
			break;
		rtp_opt_name(longopts, li, c, name, sizeof(name));
		switch (c) {
		case OPT_PROFILE:
			if (rtp_check_parse_profile(optarg, &o->profile))
				return bad(name, optarg, "profile must be latency or audio");
			break;
		case OPT_USER:
			if (!*optarg)
				return bad(name, "''", "empty user name");
			o->user = optarg;
			break;
		case OPT_ROOT:
			o->root = optarg;
			break;
		case OPT_JSON:
			if (!*optarg)
				return bad(name, "''", "empty file name");
			o->json = optarg;
			break;
		case OPT_CPUS:
			ret = rtp_parse_cpulist(optarg, &o->cpus);
			if (ret || !CPU_COUNT(&o->cpus))
				return bad(name, optarg, ret ? rtp_opt_strerror(ret) : "no CPU in the list");
			o->cpus_given = true;
			break;
		case OPT_AUDIO_PRIO:
			ret = rtp_parse_prio(optarg, 1, 99, &o->audio_prio);
			if (ret)
				return bad(name, optarg, "priority must be 1..99");
			break;
		case OPT_ONLY:
			o->only = optarg;
			break;
		case OPT_LIST:
			for (size_t i = 0; i < rtp_check_count(); i++) {
				const struct rtp_check_def *d = rtp_check_get(i);

				printf("%-16s %-7s %-32s fails in: %s\n", d->id, d->group, d->title,
				       d->fail_in == (RTP_PROFILE_BIT(RTP_PROFILE_LATENCY) |
						      RTP_PROFILE_BIT(RTP_PROFILE_AUDIO)) ? "latency, audio" :
				       d->fail_in == RTP_PROFILE_BIT(RTP_PROFILE_LATENCY) ? "latency" :
				       d->fail_in == RTP_PROFILE_BIT(RTP_PROFILE_AUDIO) ? "audio" :
				       "none (warns only)");
			}
			return 0;
		case 'q':
			o->quiet = true;
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("rtproof-check %s\n", RTP_VERSION);
			return 0;
		default:
			return rtp_opt_fail(c, argv);
		}
	}
	if (optind < argc) {
		rtp_error("%s: unexpected argument (see --help)", argv[optind]);
		return RTP_EXIT_ERROR;
	}
	return -1;
}

/* Marks the checks named in a comma list; an unknown id is an error. */
static int select_checks(const char *only, bool *sel, size_t n)
{
	char buf[1024], *save = NULL, *tok;

	for (size_t i = 0; i < n; i++)
		sel[i] = !only;
	if (!only)
		return 0;
	snprintf(buf, sizeof(buf), "%s", only);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i = rtp_check_find(tok);

		if (i < 0) {
			rtp_error("--only %s: no check named %s (see --list)", only, tok);
			return -EINVAL;
		}
		sel[i] = true;
	}
	return 0;
}

static void write_json(struct rtp_json *j, int argc, char **argv, const struct opts *o,
		       const struct rtp_check_ctx *c, const struct rtp_sysinfo *si,
		       const struct timespec *start, const struct rtp_check_result *res,
		       const bool *sel, const int *count, double dur)
{
	char buf[256];
	bool failed = count[RTP_CHECK_FAIL] > 0;

	rtp_json_begin_object(j, NULL);
	rtp_json_string(j, "schema", RTP_SCHEMA);
	rtp_json_string(j, "tool", "rtproof-check");
	rtp_json_string(j, "version", RTP_VERSION);
	rtp_json_begin_array(j, "command");
	for (int i = 0; i < argc; i++)
		rtp_json_string(j, NULL, argv[i]);
	rtp_json_end_array(j);
	rtp_format_utc(start, buf, sizeof(buf));
	rtp_json_string(j, "start", buf);
	if (si) {
		rtp_json_sysinfo(j, "system", si);
	} else {
		/* A test tree: what it says, not this machine. */
		rtp_json_begin_object(j, "system");
		rtp_json_string(j, "root", c->root);
		rtp_json_string(j, "kernel_release", c->release);
		rtp_json_string(j, "kernel_version", c->version);
		rtp_json_end_object(j);
	}
	rtp_json_begin_object(j, "params");
	rtp_json_string(j, "profile", rtp_check_profile_name(o->profile));
	rtp_json_string(j, "user", c->user);
	rtp_format_cpulist(&c->cpus, buf, sizeof(buf));
	rtp_json_string(j, "cpus", buf);
	rtp_json_string(j, "cpus_from", c->cpus_why);
	rtp_json_int(j, "audio_priority", c->audio_prio);
	rtp_json_string(j, "root", c->root[0] ? c->root : "/");
	rtp_json_string(j, "kernel_config", c->config ? c->config_src : "");
	rtp_json_end_object(j);
	rtp_json_begin_array(j, "metrics");
	rtp_json_end_array(j);
	rtp_json_begin_object(j, "summary");
	rtp_json_int(j, "pass", count[RTP_CHECK_PASS]);
	rtp_json_int(j, "warn", count[RTP_CHECK_WARN]);
	rtp_json_int(j, "fail", count[RTP_CHECK_FAIL]);
	rtp_json_int(j, "skip", count[RTP_CHECK_SKIP]);
	rtp_json_end_object(j);
	rtp_json_double(j, "duration_s", dur);
	rtp_json_begin_object(j, "verdict");
	rtp_json_string(j, "status", failed ? "fail" : "pass");
	snprintf(buf, sizeof(buf), "profile %s: %d fail, %d warn, %d pass, %d skip",
		 rtp_check_profile_name(o->profile), count[RTP_CHECK_FAIL], count[RTP_CHECK_WARN],
		 count[RTP_CHECK_PASS], count[RTP_CHECK_SKIP]);
	rtp_json_string(j, "reason", buf);
	rtp_json_begin_array(j, "criteria");
	for (size_t i = 0; i < rtp_check_count(); i++) {
		const struct rtp_check_def *d = rtp_check_get(i);

		if (!sel[i])
			continue;
		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", d->id);
		rtp_json_string(j, "group", d->group);
		rtp_json_string(j, "title", d->title);
		rtp_json_string(j, "status", rtp_check_status_name(res[i].status));
		rtp_json_bool(j, "pass", res[i].status != RTP_CHECK_FAIL);
		rtp_json_string(j, "seen", res[i].seen);
		if (res[i].fix[0])
			rtp_json_string(j, "fix", res[i].fix);
		else
			rtp_json_null(j, "fix");
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
	rtp_json_end_object(j);
}

int main(int argc, char **argv)
{
	struct rtp_check_result *res = NULL;
	struct rtp_sysinfo si;
	struct rtp_check_ctx *c = NULL;
	struct rtp_afile af;
	struct timespec start;
	uint64_t t0, t1;
	bool af_open = false, *sel = NULL;
	int count[4] = { 0 }, ret, rc = RTP_EXIT_ERROR;
	struct opts o;
	char cpus[256];
	size_t n = rtp_check_count();

	ret = parse(argc, argv, &o);
	if (ret >= 0)
		return ret;
	clock_gettime(CLOCK_REALTIME, &start);
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	c = malloc(sizeof(*c));
	res = calloc(n, sizeof(*res));
	sel = calloc(n, sizeof(*sel));
	if (!c || !res || !sel) {
		rtp_error("out of memory");
		goto out;
	}
	if (select_checks(o.only, sel, n))
		goto out;
	ret = rtp_check_init(c, o.root, o.profile, o.user, o.cpus_given ? &o.cpus : NULL, o.audio_prio);
	if (ret == -ESRCH) {
		rtp_error("--user %s: no such user in %s/etc/passwd", o.user, o.root ? o.root : "");
		goto out;
	} else if (ret) {
		rtp_error("--root %s: %s", o.root ? o.root : "/", strerror(-ret));
		goto out;
	}
	if (o.json) {
		ret = rtp_afile_open(&af, o.json);
		if (ret) {
			rtp_error("--json %s: cannot create: %s", o.json, strerror(-ret));
			goto out_ctx;
		}
		af_open = true;
	}
	for (size_t i = 0; i < n; i++) {
		if (!sel[i])
			continue;
		rtp_check_run(c, i, &res[i]);
		count[res[i].status]++;
	}
	t1 = rtp_now_ns(CLOCK_MONOTONIC);

	rtp_format_cpulist(&c->cpus, cpus, sizeof(cpus));
	/* --json - owns stdout: the summary goes to stderr. */
	if (o.json && !strcmp(o.json, "-"))
		o.quiet = true;
	if (!o.quiet) {
		printf("rtproof check: kernel %s, profile %s, user %s, CPUs %s (%s)%s%s\n",
		       c->release[0] ? c->release : "unknown", rtp_check_profile_name(o.profile),
		       c->user, cpus, c->cpus_why, c->root[0] ? ", root " : "", c->root);
		for (size_t i = 0; i < n; i++) {
			const struct rtp_check_def *d = rtp_check_get(i);

			if (!sel[i])
				continue;
			printf("%-4s  %-6s  %-15s  %s\n", rtp_check_status_name(res[i].status), d->group,
			       d->id, res[i].seen);
			if (res[i].fix[0] && res[i].status != RTP_CHECK_PASS)
				printf("%-4s  %-6s  %-15s  fix: %s\n", "", "", "", res[i].fix);
		}
	}
	fprintf(o.json && !strcmp(o.json, "-") ? stderr : stdout,
		"rtproof check: %s (profile %s): %d fail, %d warn, %d pass, %d skip\n",
	       count[RTP_CHECK_FAIL] ? "FAIL" : "PASS", rtp_check_profile_name(o.profile),
	       count[RTP_CHECK_FAIL], count[RTP_CHECK_WARN], count[RTP_CHECK_PASS], count[RTP_CHECK_SKIP]);
	if (af_open) {
		struct rtp_json j;

		if (!c->root[0])
			rtp_sysinfo_read(&si);
		rtp_json_init(&j, af.f, true);
		write_json(&j, argc, argv, &o, c, c->root[0] ? NULL : &si, &start, res, sel, count,
			   (double)(t1 - t0) / 1e9);
		ret = rtp_json_finish(&j);
		if (!ret && !af.to_stdout)
			fputc('\n', af.f);
		af_open = false;
		if (ret) {
			rtp_afile_abort(&af);
		} else {
			ret = rtp_afile_commit(&af);
		}
		if (ret) {
			rtp_error("--json %s: cannot write: %s", o.json, strerror(-ret));
			goto out_ctx;
		}
	}
	rc = count[RTP_CHECK_FAIL] ? RTP_EXIT_FAIL : RTP_EXIT_PASS;
out_ctx:
	if (af_open)
		rtp_afile_abort(&af);
	rtp_check_free(c);
out:
	free(c);
	free(res);
	free(sel);
	return rc;
}
