// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio's command line: input split at newlines into argv. */
#include <stdint.h>
#include <stdlib.h>

#include "audio.h"
#include "fuzz_argv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *argv[FUZZ_ARGV_MAX];
	struct audio_opts o;
	int argc = fuzz_argv(s, "rtproof-audio", argv);

	audio_parse(&o, argc, argv);
	free(s);
	return 0;
}
