// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-audio's command line: input split at newlines into argv. */
#include <stdint.h>
#include <stdlib.h>

#include "audio.h"
#include "fuzz_argv.h"

FUZZ_OPTS_TARGET("rtproof-audio", audio_opts, audio_parse)
