// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preemption model from its evidence (sysfs, uname -v, debugfs, the
 * kernel config, the command line): input split at NUL bytes into those
 * five texts.  The model is always one of the documented names.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const models[] = { "rt", "full", "voluntary", "none", "lazy", "unknown" };
	char *s = malloc(size + 1), *part[5] = { NULL }, model[32], source[64], *p = s;
	struct rtp_preempt_evidence ev;
	size_t i;
	bool known = false;

	memcpy(s, data, size);
	s[size] = '\0';
	for (i = 0; i < 5 && p <= s + size; i++) {
		part[i] = p;
		p += strlen(p) + 1;
	}
	ev = (struct rtp_preempt_evidence){ part[0], part[1], part[2], part[3], part[4] };
	rtp_preempt_model(&ev, model, sizeof(model), source, sizeof(source));
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		known |= !strcmp(model, models[i]);
	if (!known || !memchr(source, '\0', sizeof(source)))
		abort();
	free(s);
	return 0;
}
