/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_KCONFIG_H
#define RTP_KCONFIG_H

/*
 * The running kernel's configuration: /boot/config-RELEASE, else
 * /proc/config.gz (read through zlib, which also reads a plain file).
 * Calls line() for each line, newline cut, until it returns nonzero.
 * Returns 0, or -ENOENT when neither file can be read.
 */
int rtp_kconfig_foreach(const char *release, int (*line)(const char *text, void *arg), void *arg);

/* Is SYM set (=y, =m or a value)?  1 yes, 0 no, -1 unknown (no config). */
int rtp_kconfig_has(const char *release, const char *sym);

#endif /* RTP_KCONFIG_H */
