// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sound server's client library loaded with dlopen (jack.c, pipewire.c),
 * so that the ALSA bench and a machine without the library keep working.
 */
#include "audio.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int audio_dl_load(void **lib, const char *soname, const char *what, const char *package,
		  const char *hint, void *fns, const struct audio_dl_sym *syms, size_t n,
		  char *why, size_t len)
{
	size_t i;

	*lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!*lib) {
		snprintf(why, len, "cannot load %s (package %s): %s", what, package, dlerror());
		return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		void *p = dlsym(*lib, syms[i].name);

		if (!p) {
			snprintf(why, len, "%s has no %s: %s", what, syms[i].name, hint);
			return -ENOSYS;
		}
		memcpy((char *)fns + syms[i].off, &p, sizeof(p));
	}
	return 0;
}
