# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-audio: alsa-lib for the ALSA backend (and its format names); libjack
# and libpipewire-0.3 are loaded at run time (dlopen), so a machine without
# JACK or PipeWire runs the rest.  PipeWire's headers (libpipewire-0.3-dev,
# libspa-0.2-dev) give its ABI and SPA's inline pod code at build time;
# without them the PipeWire backend is built as a skip that says so.
LDLIBS_audio := -lasound -ldl
PW_CPPFLAGS := $(shell pkg-config --cflags libpipewire-0.3 2>/dev/null)
ifeq ($(PW_CPPFLAGS),)
CPPFLAGS += -DRTP_NO_PIPEWIRE
else
# system headers: their own warnings are not this tree's
CPPFLAGS += $(patsubst -I%,-isystem %,$(PW_CPPFLAGS))
endif
# The threaded path, end to end, under -fsanitize=thread too (make tsan-check).
TSAN_UNITS += test_audio_run
