/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_AUDIO_JACK_H
#define RTP_AUDIO_JACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* --start-server: jackd of this run's own, and its log (jackd.c). */
struct audio_jackd {
	pid_t pid;			/* -1: none, or it has exited */
	char dir[64];			/* mkdtemp: /tmp/rtproof-jackd.XXXXXX */
	char name[64];			/* server name: rtproof-XXXXXX */
	char log[96];			/* dir/jackd.log: its stdout and stderr */
	int log_fd;			/* read side, at the next unread byte */
	char partial[512];		/* a line not yet ended */
	size_t partial_len;
};

/* Starts `jackd -n NAME -R -d dummy -r RATE -p PERIOD`; 0 or -errno, why filled. */
int audio_jackd_start(struct audio_jackd *s, unsigned rate, unsigned period, char *why, size_t len);
bool audio_jackd_alive(struct audio_jackd *s);
/* Why it exited: the log's last 3 lines that are not its banner ("; "-joined), control bytes replaced. */
void audio_jackd_last_line(const struct audio_jackd *s, char *out, size_t len);
/* Calls line() for each whole line appended since the last call. */
int audio_jackd_read(struct audio_jackd *s, void (*line)(void *arg, const char *l), void *arg);
/*
 * An engine xrun line: 2 the client was running (or finished late), 1 it
 * was triggered but not yet running, 0 another line; the name copied.
 */
int audio_jackd_parse_xrun(const char *line, char *name, size_t len);
/* SIGTERM, then SIGKILL after 5 s; the log and its directory removed. */
void audio_jackd_stop(struct audio_jackd *s);

#endif /* RTP_AUDIO_JACK_H */
