// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtp-jack-slow NAME SERVER BURN_US EVERY: a JACK client of its own (the
 * second, slow client of tests/integration/audio-jack.t).  Every EVERY-th
 * cycle its process callback spins BURN_US microseconds on JACK's clock;
 * runs until SIGTERM/SIGINT, then prints the slow cycles it ran.  libjack
 * is loaded with dlopen, as rtproof-audio loads it.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *(*j_open)(const char *, int, int *, ...);
static int (*j_set_process)(void *, int (*)(uint32_t, void *), void *);
static int (*j_activate)(void *);
static int (*j_close)(void *);
static uint64_t (*j_time)(void);
static uint64_t burn_us, every;
static volatile uint64_t cycles, slow;
static volatile sig_atomic_t stop;

static int process(uint32_t n, void *arg)
{
	uint64_t until;

	(void)n;
	(void)arg;
	if (++cycles % every)
		return 0;
	until = j_time() + burn_us;
	while (j_time() < until)
		;
	slow++;
	return 0;
}

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	void *lib, *client;
	int status = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: rtp-jack-slow NAME SERVER BURN_US EVERY\n");
		return 1;
	}
	burn_us = strtoull(argv[3], NULL, 10);
	every = strtoull(argv[4], NULL, 10);
	if (!every)
		every = 1;
	lib = dlopen("libjack.so.0", RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "rtp-jack-slow: %s\n", dlerror());
		return 4;
	}
	*(void **)&j_open = dlsym(lib, "jack_client_open");
	*(void **)&j_set_process = dlsym(lib, "jack_set_process_callback");
	*(void **)&j_activate = dlsym(lib, "jack_activate");
	*(void **)&j_close = dlsym(lib, "jack_client_close");
	*(void **)&j_time = dlsym(lib, "jack_get_time");
	if (!j_open || !j_set_process || !j_activate || !j_close || !j_time)
		return 1;
	/* JackNoStartServer | JackUseExactName | JackServerName */
	client = j_open(argv[1], 0x01 | 0x02 | 0x04, &status, argv[2]);
	if (!client) {
		fprintf(stderr, "rtp-jack-slow: no JACK server '%s' (status 0x%x)\n", argv[2], status);
		return 4;
	}
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	if (j_set_process(client, process, NULL) || j_activate(client))
		return 1;
	printf("rtp-jack-slow: ready\n");
	fflush(stdout);
	while (!stop)
		pause();
	j_close(client);
	printf("rtp-jack-slow: %llu slow cycles of %llu\n", (unsigned long long)slow,
	       (unsigned long long)cycles);
	return 0;
}
