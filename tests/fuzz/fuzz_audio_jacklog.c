// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio: a line of jackd's log (the server's text, untrusted). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_argv.h"
#include "jack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), name[64];
	int rank;

	memset(name, 'x', sizeof(name));
	rank = audio_jackd_parse_xrun(s, name, sizeof(name));
	if (rank < 0 || rank > 2 || (rank && !memchr(name, '\0', sizeof(name))))
		abort();
	free(s);
	return 0;
}
