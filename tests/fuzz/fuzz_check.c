// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof check's parsers on any text: no crash, outputs terminated and
 * within their buffers, figures consistent.  The first byte picks the
 * parser, the rest is the file's text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char groups[2][64] = { "audio", "realtime" };
	char *s, irq[8], act[16], val[8];
	unsigned long long a, b;
	struct rtp_limits_conf lc;
	int n, policy, prio;

	if (!size)
		return 0;
	s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 6) {
	case 0:
		/* Every line, as the checks read /proc/interrupts. */
		for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			n = rtp_parse_interrupts_line(l, irq, sizeof(irq), act, sizeof(act));
			if (n >= 0 && (strlen(irq) >= sizeof(irq) || strlen(act) >= sizeof(act) ||
				       (n == 0) != (act[0] == '\0')))
				abort();
		}
		break;
	case 1:
		memset(&lc, 0, sizeof(lc));
		rtp_parse_limits_conf(&lc, s, "fuzz", "alice", groups, 2);
		if ((lc.rtprio.set && (lc.rtprio.rank < 1 || lc.rtprio.rank > 3)) ||
		    (lc.memlock.set && (lc.memlock.rank < 1 || lc.memlock.rank > 3)))
			abort();
		break;
	case 2:
		if (!rtp_parse_stat_steal(s, &a, &b) && a > b)
			abort();
		break;
	case 3:
		if (!rtp_parse_proc_stat_prio(s, &policy, &prio) &&
		    (policy < 0 || policy > 1000 || prio < 0 || prio > 1000))
			abort();
		break;
	case 4:
		rtp_parse_proc_limits(s, "Max realtime priority", &a, &b);
		rtp_parse_proc_limits(s, "Max locked memory", &a, &b);
		break;
	default:
		if (rtp_cmdline_get(s, "isolcpus", val, sizeof(val)) == 1 && strlen(val) >= sizeof(val))
			abort();
		if (rtp_kconfig_get(s, "CONFIG_HZ", val, sizeof(val)) == 1 && strlen(val) >= sizeof(val))
			abort();
		break;
	}
	free(s);
	return 0;
}
