// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared option parsers: every accepted and rejected input, table-driven. */
#include <errno.h>
#include <string.h>

#include "opt.h"
#include "tap.h"

static const struct {
	const char *in;
	int ret;
	uint64_t ns;
} durations[] = {
	{ "500ms", 0, 500000000ull }, { "10s", 0, 10000000000ull }, { "5m", 0, 300000000000ull },
	{ "2h", 0, 7200000000000ull }, { "1d", 0, 86400000000000ull }, { "30", 0, 30000000000ull },
	{ "1.5s", 0, 1500000000ull }, { "0.25", 0, 250000000ull }, { "250us", 0, 250000ull },
	{ "100ns", 0, 100 }, { "3min", 0, 180000000000ull }, { ".5s", 0, 500000000ull },
	{ "0", 0, 0 }, { "100d", 0, 8640000000000000ull },
	{ "", -EINVAL, 0 }, { "5x", -EINVAL, 0 }, { "s", -EINVAL, 0 }, { "-1s", -EINVAL, 0 },
	{ "+1s", -EINVAL, 0 }, { "1e3", -EINVAL, 0 }, { "0x10", -EINVAL, 0 }, { "1 s", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 }, { "1..2s", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
	{ "10S", -EINVAL, 0 }, { "101d", -ERANGE, 0 }, { "99999999999999999999", -ERANGE, 0 },
	{ "1.5.s", -EINVAL, 0 }, { "ms", -EINVAL, 0 },
};

static const struct {
	const char *in;
	int ret;
	const char *canon;
} cpulists[] = {
	{ "0", 0, "0" }, { "0-3,6", 0, "0-3,6" }, { "3,1,2", 0, "1-3" }, { "0-7:2", 0, "0,2,4,6" },
	{ "5-5", 0, "5" }, { "0,0", 0, "0" }, { "1023", 0, "1023" },
	{ "", -EINVAL, NULL }, { "-1", -EINVAL, NULL }, { "3-1", -EINVAL, NULL }, { "1,", -EINVAL, NULL },
	{ ",1", -EINVAL, NULL }, { "a", -EINVAL, NULL }, { "0-", -EINVAL, NULL }, { "0-3:0", -EINVAL, NULL },
	{ "0-3:", -EINVAL, NULL }, { "1024", -ERANGE, NULL }, { "0-99999", -ERANGE, NULL },
	{ "1 2", -EINVAL, NULL }, { "0x1", -EINVAL, NULL },
};

static const struct {
	const char *in;
	int ret;
	int val;
} prios[] = {
	{ "1", 0, 1 }, { "99", 0, 99 }, { "50", 0, 50 }, { "0", -ERANGE, 0 }, { "100", -ERANGE, 0 },
	{ "120", -ERANGE, 0 }, { "-5", -ERANGE, 0 }, { "", -EINVAL, 0 }, { "9x", -EINVAL, 0 },
	{ "x", -EINVAL, 0 }, { "99999999999", -ERANGE, 0 },
};

static const struct {
	const char *in;
	int ret;
	int policy;
} policies[] = {
	{ "fifo", 0, SCHED_FIFO }, { "RR", 0, SCHED_RR }, { "other", 0, SCHED_OTHER },
	{ "batch", 0, SCHED_BATCH }, { "idle", 0, SCHED_IDLE }, { "deadline", 0, 6 },
	{ "", -EINVAL, 0 }, { "fif", -EINVAL, 0 }, { "realtime", -EINVAL, 0 },
};

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		uint64_t ns = 12345;
		int ret = rtp_parse_duration_ns(durations[i].in, &ns);

		ok(ret == durations[i].ret && (ret ? ns == 12345 : ns == durations[i].ns),
		   "duration '%s' -> %s", durations[i].in, ret ? rtp_opt_strerror(ret) : "ok");
	}
	for (i = 0; i < sizeof(cpulists) / sizeof(cpulists[0]); i++) {
		cpu_set_t set;
		char buf[256] = "";
		int ret = rtp_parse_cpulist(cpulists[i].in, &set);

		if (!ret)
			rtp_format_cpulist(&set, buf, sizeof(buf));
		ok(ret == cpulists[i].ret && (ret || !strcmp(buf, cpulists[i].canon)),
		   "cpulist '%s' -> %s %s", cpulists[i].in, ret ? rtp_opt_strerror(ret) : "ok", buf);
	}
	for (i = 0; i < sizeof(prios) / sizeof(prios[0]); i++) {
		int v = -7, ret = rtp_parse_prio(prios[i].in, 1, 99, &v);

		ok(ret == prios[i].ret && (ret ? v == -7 : v == prios[i].val), "priority '%s' -> %s",
		   prios[i].in, ret ? rtp_opt_strerror(ret) : "ok");
	}
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		int v = -7, ret = rtp_parse_policy(policies[i].in, &v);

		ok(ret == policies[i].ret && (ret || v == policies[i].policy), "policy '%s' -> %s",
		   policies[i].in, ret ? "rejected" : rtp_policy_name(v));
	}
	{
		cpu_set_t set;
		uint64_t v;

		ok(rtp_parse_cpulist("all", &set) == 0 && CPU_COUNT(&set) >= 1, "cpulist 'all' is the online CPUs");
		ok(rtp_parse_u64("18446744073709551615", 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX, "u64 max");
		ok(rtp_parse_u64("18446744073709551616", 0, UINT64_MAX, &v) == -ERANGE, "u64 max + 1 is out of range");
		ok(rtp_parse_u64("-1", 0, UINT64_MAX, &v) == -EINVAL, "u64 has no sign");
		ok(rtp_parse_u64(NULL, 0, 1, &v) == -EINVAL, "NULL is malformed");
	}
	return tap_done();
}
