// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: one event of PipeWire's profiler (the server's data, untrusted). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pwprof.h"

static void check_name(const char *name, size_t len)
{
	const char *end = memchr(name, '\0', len);

	if (!end)
		abort();
	for (; name < end; name++)
		if ((unsigned char)*name < 0x20 || (unsigned char)*name == 0x7f)
			abort();
}

static void check(void *arg, const struct audio_pw_cycle *cy)
{
	int k = audio_pw_culprit(cy);
	unsigned i;

	(void)arg;
	if (cy->nfollowers > AUDIO_PW_MAX_FOLLOWERS || cy->nfollowers > cy->followers_seen ||
	    k < AUDIO_PW_DRIVER || k >= (int)cy->nfollowers)
		abort();
	check_name(cy->clock_name, sizeof(cy->clock_name));
	check_name(cy->driver.name, sizeof(cy->driver.name));
	for (i = 0; i < cy->nfollowers; i++)
		check_name(cy->follower[i].name, sizeof(cy->follower[i].name));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct audio_pw_cycle cy;
	void *pod = malloc(size ? size : 1);	/* pods are read 8-byte aligned */

	if (!pod)
		return 0;
	memcpy(pod, data, size);
	audio_pw_parse_profile(pod, size, &cy, check, NULL);
	free(pod);
	return 0;
}
