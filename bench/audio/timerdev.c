// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timer-driven ALSA devices: snd-dummy ("Dummy") and snd-aloop
 * ("Loopback") have no interrupt of their own; each period is signalled
 * from a soft hrtimer (snd-aloop: a timer-wheel timer by default).  On
 * PREEMPT_RT both expire in the ktimers/N threads, SCHED_FIFO 1 by
 * default: below the audio thread, the period's wake-up then waits behind
 * every RT thread at ktimers' priority or above (rcuc/N, RCU's callbacks,
 * is FIFO 1 too).  That was the measured cause of the RT guest's audio
 * tail under load (docs/audio.md), so a run on such a device says so.
 */
#include "audio.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"

bool audio_timer_driver(const char *driver)
{
	return !strcmp(driver, "Dummy") || !strcmp(driver, "Loopback");
}

/*
 * policy and rt_priority from the text of /proc/PID/stat: fields 41 and
 * 40, counted after the comm's closing parenthesis (field 2).  0 or -1.
 */
int audio_stat_prio(const char *stat, int *policy, int *prio)
{
	const char *p = strrchr(stat, ')');
	int field = 2;
	long v40 = -1, v41 = -1;

	if (!p)
		return -1;
	for (p++; *p && field < 41;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		field++;
		if (field == 40 || field == 41) {
			char *end;
			long v = strtol(p, &end, 10);

			if (end == p)
				return -1;
			*(field == 40 ? &v40 : &v41) = v;
		}
		while (*p && *p != ' ')
			p++;
	}
	if (v40 < 0 || v41 < 0)
		return -1;
	*prio = (int)v40;
	*policy = (int)v41;
	return 0;
}

/*
 * The note for a timer-driven device: the lowest ktimers/N priority found
 * under proc against the audio thread's prio.  Empty when there are no
 * ktimers threads (not PREEMPT_RT) or none is at or below prio.
 */
void audio_ktimers_note(const char *proc, const char *driver, int prio, char *note, size_t len)
{
	char path[512], buf[1024];
	int low = 100, n = 0, policy, p;
	struct dirent *d;
	DIR *dp;

	note[0] = '\0';
	dp = opendir(proc);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%.32s/comm", proc, d->d_name);
		if (rtp_read_file(path, buf, sizeof(buf)) || strncmp(buf, "ktimers/", 8))
			continue;
		snprintf(path, sizeof(path), "%s/%.32s/stat", proc, d->d_name);
		if (rtp_read_file(path, buf, sizeof(buf)) || audio_stat_prio(buf, &policy, &p))
			continue;
		n++;
		if (policy != 1 && policy != 2)
			p = 0;
		if (p < low)
			low = p;
	}
	closedir(dp);
	if (!n || low > prio)
		return;
	snprintf(note, len, "%s is timer-driven: its periods are signalled from a kernel timer, "
		 "which on PREEMPT_RT expires in ktimers/N, here at %s %d, not above the audio "
		 "thread's FIFO %d: each wake-up waits behind every RT thread at that priority or "
		 "above (rcuc/N among them); for p in $(pgrep '^ktimers/'); do chrt -f -p %d $p; done",
		 !strcmp(driver, "Dummy") ? "snd-dummy" : "snd-aloop", low ? "SCHED_FIFO" : "SCHED_OTHER",
		 low, prio, prio + 1 > 99 ? 99 : prio + 1);
}
