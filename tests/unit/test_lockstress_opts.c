// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-lockstress: the scenario/protocol/kind list parsers and the options. */
#include "lockstress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static const char *const fruit[] = { "apple", "pear", "plum" };

struct names_case {
	const char *in;
	int ret;
	int n;
	int want[4];
	const char *bad;
};

static const struct names_case names_cases[] = {
	{ "apple", 0, 1, { 0 }, NULL },
	{ "plum,apple", 0, 2, { 2, 0 }, NULL },
	{ "all", 0, 3, { 0, 1, 2 }, NULL },
	{ "pear,pear", 0, 1, { 1 }, NULL },
	{ "pear,all", 0, 3, { 1, 0, 2 }, NULL },
	{ "banana", -EINVAL, 0, { 0 }, "banana" },
	{ "apple,bananas", -EINVAL, 0, { 0 }, "bananas" },
	{ "apple,", -EINVAL, 0, { 0 }, "" },
	{ ",apple", -EINVAL, 0, { 0 }, "" },
	{ "apple,,pear", -EINVAL, 0, { 0 }, "" },
	{ "", -EINVAL, 0, { 0 }, "" },
	{ "Apple", -EINVAL, 0, { 0 }, "Apple" },
	{ "app", -EINVAL, 0, { 0 }, "app" },
};

static void test_names(void)
{
	size_t i;
	int k;

	for (i = 0; i < sizeof(names_cases) / sizeof(names_cases[0]); i++) {
		const struct names_case *t = &names_cases[i];
		int out[3], n = 0, ret;
		char bad[32] = "(untouched)";
		bool same = true;

		ret = ls_parse_names(t->in, fruit, 3, out, &n, bad, sizeof(bad));
		if (!ret) {
			same = n == t->n;
			for (k = 0; same && k < n; k++)
				same = out[k] == t->want[k];
		}
		ok(ret == t->ret && (ret || same) && (!t->bad || !strcmp(bad, t->bad)),
		   "names \"%s\": ret %d, %d entries, bad word \"%s\"", t->in, ret, n, ret ? bad : "");
	}
	{
		int out[3], n = 0;
		char bad[32];

		ls_parse_names("plum", fruit, 3, out, &n, bad, sizeof(bad));
		ls_parse_names("apple,plum", fruit, 3, out, &n, bad, sizeof(bad));
		ok(n == 2 && out[0] == 2 && out[1] == 0, "repeated lists accumulate without repeats");
		ok(ls_parse_names("pear,nope", fruit, 3, out, &n, bad, sizeof(bad)) == -EINVAL && n == 2,
		   "a bad list adds nothing");
	}
}

struct int_case {
	const char *in;
	int ret;
	int n;
	int want[3];
};

static const struct int_case int_cases[] = {
	{ "2", 0, 1, { 2 } },
	{ "2,4,8", 0, 3, { 2, 4, 8 } },
	{ "0", -ERANGE, 0, { 0 } },
	{ "1025", -ERANGE, 0, { 0 } },
	{ "2,,4", -EINVAL, 0, { 0 } },
	{ "2,", -EINVAL, 0, { 0 } },
	{ "x", -EINVAL, 0, { 0 } },
	{ "-1", -EINVAL, 0, { 0 } },
	{ "1,2,3,4,5,6,7,8,9", -E2BIG, 0, { 0 } },
	{ "", -EINVAL, 0, { 0 } },
};

static void test_int_list(void)
{
	size_t i;

	for (i = 0; i < sizeof(int_cases) / sizeof(int_cases[0]); i++) {
		const struct int_case *t = &int_cases[i];
		int out[LS_MAX_TLIST] = { 0 }, n = 0, ret, k;
		bool same = true;

		ret = ls_parse_int_list(t->in, 1, 1024, out, &n, LS_MAX_TLIST);
		if (!ret) {
			same = n == t->n;
			for (k = 0; same && k < n; k++)
				same = out[k] == t->want[k];
		}
		ok((ret == t->ret || (t->ret && ret)) && (ret || same), "int list \"%s\": ret %d (want %d)",
		   t->in, ret, t->ret);
	}
}

/* Runs ls_parse over a NULL-terminated argument list. */
static int parse(struct ls_opts *o, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"rtproof-lockstress";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return ls_parse(o, argc, argv);
}

/* The same with stdout sent to /dev/null (for --help: keep the TAP stream clean). */
static int parse_quiet(struct ls_opts *o, const char *const *args)
{
	int saved, null, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0)
		return parse(o, args);
	dup2(null, STDOUT_FILENO);
	close(null);
	ret = parse(o, args);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return ret;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct opt_case {
	const char *what;
	const char *const *args;
	int ret;
};

static void test_options(void)
{
	const struct opt_case bad[] = {
		{ "--protocol foo", ARGS("--protocol", "foo"), RTP_EXIT_ERROR },
		{ "--scenario nope", ARGS("--scenario", "inversion,nope"), RTP_EXIT_ERROR },
		{ "--kind futex", ARGS("--kind", "futex"), RTP_EXIT_ERROR },
		{ "--threads 0", ARGS("--threads", "0"), RTP_EXIT_ERROR },
		{ "--iterations 0", ARGS("--iterations", "0"), RTP_EXIT_ERROR },
		{ "-D 0", ARGS("-D", "0"), RTP_EXIT_ERROR },
		{ "-D 1x", ARGS("-D", "1x"), RTP_EXIT_ERROR },
		{ "--hold 5us", ARGS("--hold", "5us"), RTP_EXIT_ERROR },
		{ "--read-share 101", ARGS("--read-share", "101"), RTP_EXIT_ERROR },
		{ "--chain 9", ARGS("--chain", "9"), RTP_EXIT_ERROR },
		{ "--chain 1", ARGS("--chain", "1"), RTP_EXIT_ERROR },
		{ "-p 100", ARGS("-p", "100"), RTP_EXIT_ERROR },
		{ "-p 4 below chain + 2", ARGS("-p", "4"), RTP_EXIT_ERROR },
		{ "--cpu 4095", ARGS("--cpu", "4095"), RTP_EXIT_ERROR },
		{ "--cpus junk", ARGS("--cpus", "0-x"), RTP_EXIT_ERROR },
		{ "--policy rr", ARGS("--policy", "rr"), RTP_EXIT_ERROR },
		{ "--burners io", ARGS("--burners", "io"), RTP_EXIT_ERROR },
		{ "--json ''", ARGS("--json", ""), RTP_EXIT_ERROR },
		{ "--watchdog 1ms", ARGS("--watchdog", "1ms"), RTP_EXIT_ERROR },
		{ "unknown option", ARGS("--frobnicate"), RTP_EXIT_ERROR },
		{ "missing value", ARGS("--scenario"), RTP_EXIT_ERROR },
		{ "stray argument", ARGS("inversion"), RTP_EXIT_ERROR },
		{ "--help", ARGS("--help"), LS_HELP_SHOWN },
	};
	struct ls_opts o;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ret = parse_quiet(&o, bad[i].args);
		is_u64(ret, bad[i].ret, "%s: returns %d", bad[i].what, bad[i].ret);
	}

	ret = parse(&o, ARGS("-q"));
	ok(!ret && o.nscen == 2 && o.scen[0] == LS_INVERSION && o.scen[1] == LS_CONTENTION,
	   "default scenarios: inversion, contention");
	ok(o.nproto == 2 && o.proto[0] == LS_PROTO_INHERIT && o.proto[1] == LS_PROTO_PROTECT,
	   "default protocols: inherit, protect");
	ok(o.nkind == LS_NKIND && o.iterations == 20 && o.hold_ns == 20000000ull &&
	   o.burn_ns == 300000000ull && o.co.quiet, "default kinds, iterations, hold, burn");
	is_u64(ls_margin_ns(&o), 10000000ull, "default margin: hold / 2");
	ok(ls_needs_rt(&o), "inversion needs RT");

	ret = parse(&o, ARGS("--scenario", "percpu", "--scenario", "rwlock-recursion,percpu",
			     "--protocol", "all", "--kind", "spin,rwlock-writer", "--threads", "3,6",
			     "--hold", "2ms", "--margin", "1ms", "-D", "250ms", "--read-share", "50"));
	ok(!ret && o.nscen == 2 && o.scen[0] == LS_PERCPU && o.scen[1] == LS_RWREC,
	   "--scenario repeated, in order, no repeats");
	ok(o.nproto == 3 && o.proto[0] == LS_PROTO_NONE, "--protocol all");
	ok(o.nkind == 2 && o.kind[0] == LS_SPIN && o.kind[1] == LS_RWLOCK_WRITER, "--kind list");
	ok(o.nthr == 2 && o.threads[0] == 3 && o.threads[1] == 6, "--threads list");
	ok(o.hold_ns == 2000000ull && ls_margin_ns(&o) == 1000000ull && o.co.duration_ns == 250000000ull &&
	   o.read_share == 50, "--hold, --margin, -D, --read-share");
	ok(!ls_needs_rt(&o), "percpu and rwlock-recursion under SCHED_OTHER need no RT");
	ret = parse(&o, ARGS("--scenario", "contention", "--policy", "fifo"));
	ok(!ret && ls_needs_rt(&o), "contention with --policy fifo needs RT");
	ret = parse(&o, ARGS("--scenario", "all", "--test-break-lock", "--test-plant-deadlock",
			     "--chain", "5", "-p", "7"));
	ok(!ret && o.nscen == LS_NSCEN && o.break_lock && o.plant_deadlock && o.chain == 5 &&
	   o.priority == 7, "--scenario all, test switches, --chain with a priority that fits");
}

/* The /proc/<tid>/stat "priority" field, with a command name that has ") " in it. */
static void test_effective_prio(void)
{
	static const struct { const char *stat; int want; } cases[] = {
		{ "4242 (a) b) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 -41 0 1 0 99 0\n", 40 },
		{ "17 (rtproof-lockst) R 1 17 17 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0\n", 0 },
		{ "17 (x) R 1 17 17 0 -1 0 0 0 0 0 0 0 0 0 -100 0 1 0 5 0\n", 99 },
		{ "garbage without a paren", -1 },
		{ "17 (x) R 1 2", -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[] = "/tmp/test_lockstress.XXXXXX";
		int fd = mkstemp(path), got;

		if (fd < 0) {
			tap_skip("mkstemp failed", "effective priority case %zu", i);
			continue;
		}
		unlink(path);
		if (write(fd, cases[i].stat, strlen(cases[i].stat)) < 0) {
			close(fd);
			continue;
		}
		got = ls_effective_prio(fd);
		close(fd);
		ok(got == cases[i].want, "effective priority case %zu: %d (want %d)", i, got,
		   cases[i].want);
	}
	ok(ls_effective_prio(-1) == -1, "effective priority of a closed file: -1");
	{
		int fd = ls_open_self_stat();

		ok(fd >= 0 && ls_effective_prio(fd) == 0, "this SCHED_OTHER thread reads as 0");
		if (fd >= 0)
			close(fd);
	}
}

static void test_helpers(void)
{
	char buf[24];
	uint64_t t0;

	ok(ls_mix(1) != ls_mix(2) && ls_mix(7) == ls_mix(7), "ls_mix is a deterministic mix");
	ok(!strcmp(rtp_format_ns(1500000, buf, sizeof(buf)), "1.500 ms"), "rtp_format_ns carries a unit: %s", buf);
	t0 = rtp_now_ns(CLOCK_MONOTONIC);
	ls_spin_wall(2000000);
	ok(rtp_now_ns(CLOCK_MONOTONIC) - t0 >= 2000000, "ls_spin_wall waits at least its time");
	{
		pthread_mutex_t m;

		ok(ls_mutex_init(&m, LS_PROTO_INHERIT, 0, PTHREAD_MUTEX_NORMAL) == 0,
		   "a PI mutex can be created");
		pthread_mutex_destroy(&m);
		ok(ls_mutex_init(&m, LS_PROTO_PROTECT, 40, PTHREAD_MUTEX_NORMAL) == 0,
		   "a priority-ceiling mutex can be created");
		pthread_mutex_destroy(&m);
	}
}

int main(void)
{
	test_names();
	test_int_list();
	test_options();
	test_effective_prio();
	test_helpers();
	return tap_done();
}
