// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --explain's trace parser and window analysis on arbitrary text: no
 * crash, no read past a line, and the cut never accounts more time than
 * the window holds, largest culprit first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain/tracecut.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtp_xev ev[64];
	struct rtp_tracecut x;
	char *s = malloc(size + 1), *line, *save = NULL;
	size_t n = 0;
	int i;

	memcpy(s, data, size);
	s[size] = '\0';
	for (line = strtok_r(s, "\n", &save); line && n < 64; line = strtok_r(NULL, "\n", &save)) {
		if (rtp_xev_parse(line, &ev[n]) == 1) {
			if (n && ev[n].ts < ev[n - 1].ts)
				continue;	/* the reader keeps time order too */
			n++;
		}
	}
	memset(&x, 0, sizeof(x));
	x.tid = n ? ev[0].pid : 1;
	x.release_ns = n ? ev[0].ts + (ev[n - 1].ts - ev[0].ts) / 3 : 0;
	x.wake_ns = n ? ev[n - 1].ts + 1000 : 1000;
	if (!rtp_tracecut_analyse(ev, n, &x)) {
		if (x.accounted_ns > x.wake_ns - x.release_ns)
			abort();
		for (i = 1; i < x.ncul; i++)
			if (x.cul[i].ns > x.cul[i - 1].ns)
				abort();
	}
	free(s);
	return 0;
}
