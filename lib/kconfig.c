// SPDX-License-Identifier: GPL-2.0-or-later
#include "kconfig.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

int rtp_kconfig_foreach(const char *release, int (*line)(const char *text, void *arg), void *arg)
{
	char path[512], buf[1024];
	gzFile f;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	f = gzopen(path, "rbe");
	if (!f)
		f = gzopen("/proc/config.gz", "rbe");
	if (!f)
		return -ENOENT;
	while (gzgets(f, buf, sizeof(buf))) {
		buf[strcspn(buf, "\n")] = '\0';
		if (line(buf, arg))
			break;
	}
	gzclose(f);
	return 0;
}

struct has_arg {
	const char *sym;
	size_t len;
	int found;
};

static int has_line(const char *text, void *arg)
{
	struct has_arg *h = arg;

	if (!strncmp(text, h->sym, h->len) && text[h->len] == '=') {
		h->found = 1;
		return 1;
	}
	return 0;
}

int rtp_kconfig_has(const char *release, const char *sym)
{
	struct has_arg h = { sym, strlen(sym), 0 };

	if (rtp_kconfig_foreach(release, has_line, &h))
		return -1;
	return h.found;
}
