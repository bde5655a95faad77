/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_OPT_H
#define RTP_OPT_H

#include <getopt.h>
#include <sched.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Parsers for the options every bench shares.  Each returns 0 and fills
 * *out, or a negative errno (-EINVAL malformed, -ERANGE out of range) and
 * leaves *out untouched.  Callers print the one-line error themselves,
 * naming the option and its value; rtp_opt_strerror() gives the reason.
 */

/*
 * Durations: a number with an optional unit, "ns", "us", "ms", "s", "m",
 * "h", "d"; a bare number is seconds; decimals are allowed ("1.5s").
 * Results are rounded to the nearest nanosecond; at most 100 days.
 */
int rtp_parse_duration_ns(const char *s, uint64_t *out_ns);

/*
 * Microseconds as a bare integer ("250"), or any duration with a unit
 * ("250us", "2ms"); a bare decimal ("1.5") is ambiguous and refused.
 */
int rtp_parse_us(const char *s, uint64_t *out_ns);

/* Decimal integer in [min, max], no sign for unsigned, no trailing junk. */
int rtp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int rtp_parse_int(const char *s, int min, int max, int *out);

/* Real-time priority 1..99 (or min..max for other policies). */
int rtp_parse_prio(const char *s, int min, int max, int *out);

/* "fifo", "rr", "other", "batch", "idle", "deadline" -> SCHED_*. */
int rtp_parse_policy(const char *s, int *out);
const char *rtp_policy_name(int policy);

/*
 * CPU lists as the kernel writes them: "0-3,6", "0-7:2" (stride),
 * "all" for every online CPU.  Every CPU must be below CPU_SETSIZE;
 * whether it is online is the caller's check (rtp_cpus_online()).
 */
int rtp_parse_cpulist(const char *s, cpu_set_t *out);
/* Writes the canonical "0-3,6" form of set. */
void rtp_format_cpulist(const cpu_set_t *set, char *buf, size_t len);

/*
 * getopt_long helpers for the one-line errors every program prints.
 * rtp_opt_name(): the option just returned, as "--name" (li >= 0) or "-c".
 * rtp_opt_fail(): for getopt's ':' (missing value) and '?' (unknown option)
 * returns: prints "OPTION: option needs a value" or "OPTION: unknown
 * option", each with "(see --help)", and returns 1 (the usage exit code).
 */
void rtp_opt_name(const struct option *longopts, int li, int c, char *buf, size_t len);
int rtp_opt_fail(int c, char **argv);

/* Reason text for the error codes above, for messages. */
const char *rtp_opt_strerror(int err);

/* Online CPUs, from /sys/devices/system/cpu/online (sched_getaffinity fallback). */
int rtp_cpus_online(cpu_set_t *out);
/*
 * One CPU's number that is online (--cpu N): NULL with *out set, or why
 * not ("CPU must be a number 0..1023", "CPU is not online") for the
 * option's error line.
 */
const char *rtp_parse_online_cpu(const char *s, int *out);

#endif /* RTP_OPT_H */
