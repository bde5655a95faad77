// SPDX-License-Identifier: GPL-2.0-or-later
#include "log.h"

#include <errno.h>
#include <stdio.h>

void rtp_vlog(const char *level, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* One write per line, so lines from threads do not interleave. */
	if (level)
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, level, buf);
	else
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, buf);
}

void rtp_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rtp_vlog("error", fmt, ap);
	va_end(ap);
}

void rtp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rtp_vlog("warning", fmt, ap);
	va_end(ap);
}
