# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-audio: alsa-lib for the ALSA backend (and its format names).
LDLIBS_audio := -lasound
# The threaded path, end to end, under -fsanitize=thread too (make tsan-check).
TSAN_UNITS += test_audio_run
