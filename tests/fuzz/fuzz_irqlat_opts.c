// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-irqlat's command line alone: input split at newlines into argv. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_argv.h"
#include "irqlat.h"

FUZZ_OPTS_TARGET("rtproof-irqlat", irqlat_opts, irqlat_parse)
