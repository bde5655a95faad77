/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_TAP_H
#define RTP_TAP_H

#include <stdbool.h>

/*
 * A small TAP producer: plan, ok(), diagnostics.  done_testing() prints
 * the plan at the end and returns the exit status (nonzero on failure).
 */
bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tap_done(void);

#define ok(cond, ...) tap_ok((cond), __VA_ARGS__)
#define is_u64(got, want, ...) \
	(tap_ok((unsigned long long)(got) == (unsigned long long)(want), __VA_ARGS__) ? true : \
	 (tap_diag("  got %llu, want %llu", (unsigned long long)(got), (unsigned long long)(want)), false))

#endif /* RTP_TAP_H */
