// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-audio end to end in one process (also run under -fsanitize=thread):
 * the audio thread, the planted-stall thread and the supervising main thread.
 */
#include "../../bench/audio/audio.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "rt.h"
#include "tap.h"

static int run(const char *const *args)
{
	char *argv[24];
	int argc = 0, code, out, devnull;

	argv[argc++] = (char *)"rtproof-audio";
	while (*args && argc < 23)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	fflush(stdout);
	out = dup(STDOUT_FILENO);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, STDOUT_FILENO);
	code = audio_main(argc, argv);
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	close(devnull);
	return code;
}

int main(void)
{
	char why[256];
	int code;

	if (!rtp_can_rt(99, why, sizeof(why))) {
		tap_skip(why, "the audio and stall threads need SCHED_FIFO");
		return tap_done();
	}
	code = run((const char *const[]){ "--backend", "timer", "--period", "256", "-n", "2", "-D", "0.8",
					   "--plant-stall", "30ms,400ms", "-q", NULL });
	ok(code == RTP_EXIT_FAIL, "planted stalls longer than the buffer: exit 2 (got %d)", code);
	code = run((const char *const[]){ "--backend", "timer", "--period", "1024", "-n", "3", "-D", "0.5",
					   "--dsp-load", "20", "-q", NULL });
	ok(code == RTP_EXIT_PASS || code == RTP_EXIT_FAIL, "DSP load run: a verdict (got %d)", code);
	code = run((const char *const[]){ "--backend", "timer", "--sweep=50", "--step-time", "0.2s",
					   "-q", NULL });
	ok(code == RTP_EXIT_PASS, "sweep: exit 0 (got %d)", code);
	return tap_done();
}
