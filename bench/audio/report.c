// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: the words an audio user reads first. */
#include "audio.h"

#include <stdio.h>
#include <string.h>

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
