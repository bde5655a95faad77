# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-audio: alsa-lib for the ALSA backend (and its format names); libjack
# is loaded at run time (dlopen), so a machine without JACK runs the rest.
LDLIBS_audio := -lasound -ldl
# The threaded path, end to end, under -fsanitize=thread too (make tsan-check).
TSAN_UNITS += test_audio_run
