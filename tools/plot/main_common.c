// SPDX-License-Identifier: GPL-2.0-or-later
#include "main_common.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void rtp_plot_base_dir(const char *arg, char *buf, size_t len)
{
	struct stat st;
	const char *s;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "%s", arg);
		return;
	}
	s = strrchr(arg, '/');
	if (s)
		snprintf(buf, len, "%.*s", (int)(s - arg), arg);
	else
		snprintf(buf, len, ".");
}
