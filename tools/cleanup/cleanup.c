// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof cleanup: restores what runs killed by SIGKILL, SIGQUIT or a
 * crash left changed (lib/state.h, docs/security.md).  Every bench
 * does the same when it starts; this is the same pass on its own.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "result.h"
#include "state.h"

#define MAX_ROOTS 8

struct counts {
	int done, failed, refused, live;
	bool quiet;
};

static void said(void *arg, const struct rtp_state_event *e)
{
	struct counts *c = arg;
	char line[1024];

	rtp_state_event_line(e, line, sizeof(line));
	switch (e->what) {
	case RTP_STATE_RESTORED:
	case RTP_STATE_REMOVED:
		c->done++;
		printf("%s\n", line);
		return;
	case RTP_STATE_LIVE:
		c->live++;
		if (!c->quiet)
			printf("%s\n", line);
		return;
	case RTP_STATE_FAILED:
		c->failed++;
		break;
	case RTP_STATE_REFUSED:
		c->refused++;
		break;
	}
	fprintf(stderr, "rtproof-cleanup: warning: %s\n", line);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rtproof-cleanup [options]\n\n"
		"Restores what rtproof runs killed by SIGKILL, SIGQUIT or a crash left changed:\n"
		"tracefs settings (the timerlat tracer, --explain's tracing instance) and the\n"
		"rtproof_irqlat module's delay_us, as recorded in " RTP_STATE_DIR "/PID.state.\n"
		"A run whose process lives (its state file locked) is left alone.  Every bench\n"
		"does the same when it starts.\n\n"
		"Options:\n"
		"  -q, --quiet            say only what was restored, failed or refused\n"
		"      --help             this text\n"
		"      --version          the version\n\n"
		"One line per setting: \"restored PATH to 'VALUE' (left by pid N)\".\n"
		"Exit status: 0 done (or nothing to do), 1 a setting could not be restored, a\n"
		"state file was refused, or the state directory is not trusted.\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		/* for the test suite: a state directory and roots of its own */
		{ "state-dir", required_argument, NULL, 'S' },
		{ "test-root", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	const char *roots[MAX_ROOTS + 1] = { NULL };
	struct rtp_state_cfg cfg = { NULL, NULL };
	struct counts c = { 0, 0, 0, 0, false };
	int opt, n = 0, ret;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":q", lo, NULL)) != -1) {
		switch (opt) {
		case 'q':
			c.quiet = true;
			break;
		case 'H':
			usage(stdout);
			return 0;
		case 'V':
			printf("rtproof-cleanup %s\n", RTP_VERSION);
			return 0;
		case 'S':
			cfg.dir = optarg;
			break;
		case 'R':
			if (n == MAX_ROOTS || optarg[0] != '/') {
				rtp_error("--test-root %s: an absolute path, at most %d", optarg, MAX_ROOTS);
				return 1;
			}
			roots[n++] = optarg;
			break;
		default:
			rtp_error("%s: unknown option or missing argument (see --help)",
				  argv[optind - 1]);
			return 1;
		}
	}
	if (optind < argc) {
		rtp_error("%s: unexpected argument (see --help)", argv[optind]);
		return 1;
	}
	if (n)
		cfg.roots = roots;
	ret = rtp_state_restore_stale(&cfg, said, &c);
	if (ret < 0) {
		if (ret != -EPERM)
			rtp_error("%s: %s", cfg.dir ? cfg.dir : RTP_STATE_DIR, strerror(-ret));
		return 1;
	}
	if (!c.done && !c.quiet)
		printf("nothing to restore%s\n", c.live ? " (the runs above still run)" : "");
	return c.failed || c.refused ? 1 : 0;
}
