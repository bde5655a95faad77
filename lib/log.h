/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_LOG_H
#define RTP_LOG_H

#include <stdarg.h>

/*
 * Diagnostics on stderr, prefixed with the program's short name:
 *   rtproof-cyclic: error: -p 120: priority must be 1..99
 * The name comes from glibc's program_invocation_short_name, so the
 * library keeps no state of its own.
 */
void rtp_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rtp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rtp_vlog(const char *level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif /* RTP_LOG_H */
