// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: the words an audio user reads first. */
#include "audio.h"

#include <stdio.h>
#include <string.h>

#include "run.h"

void audio_headline(char *buf, size_t len, uint64_t xruns, double secs,
		    const struct audio_config *cfg)
{
	char when[32], khz[16];
	double latency_ms = (double)cfg->buffer * 1000.0 / cfg->rate;

	if (secs >= 120)
		snprintf(when, sizeof(when), "%.1f min", secs / 60);
	else
		snprintf(when, sizeof(when), "%.1f s", secs);
	if (cfg->rate % 1000 == 0)
		snprintf(khz, sizeof(khz), "%u", cfg->rate / 1000);
	else
		snprintf(khz, sizeof(khz), "%.1f", cfg->rate / 1000.0);
	if (!cfg->periods) {	/* a server backend: one cycle per period, the server's buffering */
		snprintf(buf, len, "%llu xrun%s in %s at %u frames per cycle, %s kHz (%.2f ms cycle)",
			 (unsigned long long)xruns, xruns == 1 ? "" : "s", when, cfg->period, khz,
			 latency_ms);
		return;
	}
	snprintf(buf, len, "%llu xrun%s in %s at %u frames x %u periods, %s kHz (%.2f ms latency)",
		 (unsigned long long)xruns, xruns == 1 ? "" : "s", when, cfg->period, cfg->periods,
		 khz, latency_ms);
}

void audio_shape(char *buf, size_t len, const struct audio_config *cfg)
{
	if (cfg->periods)
		snprintf(buf, len, "%u frames x %u periods", cfg->period, cfg->periods);
	else
		snprintf(buf, len, "%u frames per cycle", cfg->period);
}

void audio_culprits(const struct audio_ctx *c, char *buf, size_t len)
{
	size_t used = 0;
	int i, m, shown = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < c->nxrun && shown < 3 && used < len; i++) {
		if (c->xrun[i].cause != AUDIO_CAUSE_OTHER_CLIENT || !c->xrun[i].culprit[0])
			continue;
		for (m = 0; m < i; m++)
			if (c->xrun[m].cause == AUDIO_CAUSE_OTHER_CLIENT &&
			    !strcmp(c->xrun[m].culprit, c->xrun[i].culprit))
				break;
		if (m < i)
			continue;
		snprintf(buf + used, len - used, "%s%s", shown ? ", " : " (", c->xrun[i].culprit);
		used = strlen(buf);
		shown++;
	}
	if (shown && used < len)
		snprintf(buf + used, len - used, ")");
}

/* The console's tables: a row of percentiles, a coarse histogram. */
struct coarse {
	uint64_t n[16];
};

static const uint64_t coarse_edge[] = {
	10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000,
	10000000, 20000000, 50000000, 100000000, 1000000000, UINT64_MAX,
};
#define NCOARSE (sizeof(coarse_edge) / sizeof(coarse_edge[0]))

static int coarse_cb(uint64_t lo, uint64_t hi, uint64_t count, void *arg)
{
	struct coarse *c = arg;
	size_t i;

	(void)hi;
	for (i = 0; i < NCOARSE; i++)
		if (lo < coarse_edge[i])
			break;
	c->n[i < NCOARSE ? i : NCOARSE - 1] += count;
	return 0;
}

void audio_print_hist(const char *name, const struct rtp_hist *h)
{
	struct coarse c = { { 0 } };
	size_t i, first = NCOARSE, last = 0;
	char lo[24], hi[24];

	if (!h->count)
		return;
	rtp_hist_foreach(h, coarse_cb, &c);
	c.n[NCOARSE - 1] += h->overflow;
	for (i = 0; i < NCOARSE; i++) {
		if (c.n[i]) {
			if (first == NCOARSE)
				first = i;
			last = i;
		}
	}
	printf("%s histogram:\n", name);
	for (i = first; i <= last; i++) {
		double pct = 100.0 * (double)c.n[i] / (double)h->count;
		int bar = c.n[i] ? 1 + (int)(pct / 2.5) : 0;

		rtp_format_ns(i ? coarse_edge[i - 1] : 0, lo, sizeof(lo));
		if (coarse_edge[i] == UINT64_MAX)
			snprintf(hi, sizeof(hi), "up");
		else
			rtp_format_ns(coarse_edge[i], hi, sizeof(hi));
		printf("  %10s .. %-10s %10llu %7.3f %% %.*s\n", lo, hi,
		       (unsigned long long)c.n[i], pct, bar > 40 ? 40 : bar,
		       "########################################");
	}
}

void audio_print_row(const char *name, const struct rtp_hist *h)
{
	static const double p[4] = { 50, 99, 99.9, 99.99 };
	char f[6][24];
	int i;

	if (!h->count) {
		printf("  %-17s %10s  (no samples)\n", name, "0");
		return;
	}
	rtp_format_ns(h->min, f[0], sizeof(f[0]));
	for (i = 0; i < 4; i++)
		rtp_format_ns(rtp_hist_percentile(h, p[i]), f[1 + i], sizeof(f[1 + i]));
	rtp_format_ns(h->max, f[5], sizeof(f[5]));
	printf("  %-17s %10llu %11s %11s %11s %11s %11s %11s\n", name,
	       (unsigned long long)h->count, f[0], f[1], f[2], f[3], f[4], f[5]);
}
