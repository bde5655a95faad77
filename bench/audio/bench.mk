# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-audio: alsa-lib for the ALSA backend (and its format names).
LDLIBS_audio := -lasound
