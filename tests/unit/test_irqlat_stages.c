// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-irqlat's pure parts: record accounting (ordering, the reader-
 * waiting rule, sequence gaps), timerlat trace lines, the IRQ-thread name
 * match, forced-threading detection, the option parser, and the IRQ
 * thread's look-up on a fake /proc (kernel threads only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "irqlat.h"
#include "tap.h"
#include "../../kernel/module/rtproof_irqlat.h"

static struct rtp_irqlat_record rec(uint64_t seq, uint64_t a, uint64_t b, uint64_t c, uint64_t d,
				    bool waiting)
{
	struct rtp_irqlat_record r;

	memset(&r, 0, sizeof(r));
	r.abi = RTP_IRQLAT_ABI;
	r.size = sizeof(r);
	r.flags = RTP_IRQLAT_F_TIMER_HARDIRQ | RTP_IRQLAT_F_PRIMARY_HARDIRQ |
		  RTP_IRQLAT_F_THREAD_KTHREAD | (waiting ? RTP_IRQLAT_F_READER_WAITING : 0);
	r.seq = seq;
	r.expiry_ns = a;
	r.hardirq_entry_ns = a;
	r.hardirq_ns = b;
	r.thread_ns = c;
	r.wake_ns = waiting ? d : 0;
	r.thread_pid = 42;
	return r;
}

static void test_records(void)
{
	static struct irqlat_stats s;
	struct rtp_irqlat_record r;

	irqlat_stats_init(&s);
	r = rec(0, 1000, 1900, 5000, 17000, true);
	ok(irqlat_account_record(&s, &r), "an ordered record is taken");
	is_u64(s.h[ST_IRQ].min, 900, "irq_latency = b - a");
	is_u64(s.h[ST_THREAD].min, 3100, "thread_wakeup = c - b");
	is_u64(s.h[ST_USER].min, 12000, "user_wakeup = d - c");
	is_u64(s.h[ST_TOTAL].min, 16000, "total = d - a");

	r = rec(1, 2000, 2500, 3000, 0, false);
	ok(irqlat_account_record(&s, &r), "a record without a waiting reader is taken");
	is_u64(s.reader_not_waiting, 1, "... and counted as reader not waiting");
	is_u64(s.h[ST_USER].count, 1, "... without a user_wakeup sample");
	is_u64(s.h[ST_TOTAL].count, 1, "... nor a total");
	is_u64(s.h[ST_IRQ].count, 2, "... but with its irq_latency");
	is_u64(s.reader_not_waiting_at_start, 0, "... after the reader had waited: not a start-up miss");

	/* Records before the reader first blocked are counted apart. */
	{
		static struct irqlat_stats t;

		irqlat_stats_init(&t);
		r = rec(0, 1000, 1500, 2000, 0, false);
		irqlat_account_record(&t, &r);
		r = rec(1, 2000, 2500, 3000, 0, false);
		irqlat_account_record(&t, &r);
		r = rec(2, 3000, 3500, 4000, 5000, true);
		irqlat_account_record(&t, &r);
		r = rec(3, 4000, 4500, 5000, 0, false);
		irqlat_account_record(&t, &r);
		is_u64(t.reader_not_waiting, 3, "three records without a waiting reader");
		is_u64(t.reader_not_waiting_at_start, 2, "two of them before the reader first waited");
	}

	r = rec(5, 3000, 2999, 4000, 5000, true);
	ok(!irqlat_account_record(&s, &r), "b < a is refused");
	r = rec(6, 3000, 3100, 3050, 5000, true);
	ok(!irqlat_account_record(&s, &r), "c < b is refused");
	r = rec(7, 3000, 3100, 3200, 3150, true);
	ok(!irqlat_account_record(&s, &r), "d < c is refused");
	is_u64(s.unordered, 3, "three unordered records counted");
	is_u64(s.h[ST_IRQ].count, 2, "none of them recorded");
	is_u64(s.seq_gaps, 3, "seq 1 -> 5 is a gap of three events");
	is_u64(s.records, 5, "five records seen");
	r = rec(8, 100, 100, 100, 100, true);
	ok(irqlat_account_record(&s, &r), "equal stamps are ordered (a <= b <= c <= d)");
	is_u64(s.h[ST_IRQ].min, 0, "zero-length stage recorded as 0");
	is_u64(s.thread_pid, 42, "thread pid kept");
}

/* Issue 13 item 11: a planted delay in the primary handler lengthens a->b but
 * never hides the hard-IRQ entry latency, which has its own figure. */
static void test_entry(void)
{
	static struct irqlat_stats s;
	struct rtp_irqlat_record r;

	irqlat_stats_init(&s);
	r = rec(0, 1000, 1000 + 300 + 200000, 210000, 220000, true);
	r.hardirq_entry_ns = 1300;	/* 300 ns real IRQ latency, then 200 us planted */
	r.delay_ns = 200000;
	ok(irqlat_account_record(&s, &r), "a record with a planted delay is taken");
	is_u64(s.h[ST_ENTRY].min, 300, "hardirq_entry = entry - a, the delay left out");
	is_u64(s.h[ST_IRQ].min, 200300, "irq_latency = b - a, the delay in");
	ok(!strcmp(irqlat_metric_name(SRC_MODULE, ST_ENTRY), "hardirq_entry"),
	   "the module exports it as hardirq_entry");
	ok(irqlat_metric_name(SRC_TIMERLAT, ST_ENTRY) == NULL, "timerlat has no such stage");
	r = rec(1, 1000, 1900, 5000, 17000, true);
	r.hardirq_entry_ns = 999;
	ok(!irqlat_account_record(&s, &r), "entry before the expiry is refused");
	r.hardirq_entry_ns = 2000;
	ok(!irqlat_account_record(&s, &r), "entry after b is refused");
}

static void test_timerlat(void)
{
	static const struct {
		const char *line;
		int ret, ctx;
		uint64_t seq, ns;
	} cases[] = {
		{ "          <idle>-0       [000] d.h1.   105.582713: #1     context    irq timer_latency      1234 ns",
		  1, 0, 1, 1234 },
		{ "      timerlat/0-123     [000] .....   105.582719: #1     context thread timer_latency      5678 ns",
		  1, 1, 1, 5678 },
		{ "      timerlat/1-124     [001] .....   105.582719: #20345 context thread timer_latency 98765432 ns",
		  1, 1, 20345, 98765432 },
		{ "            prog-99      [000] .....   105.58: #7 context user-ret timer_latency 4321 ns",
		  1, 2, 7, 4321 },
		{ "# tracer: timerlat", 0, 0, 0, 0 },
		{ "#                                _-----=> irqs-off", 0, 0, 0, 0 },
		{ "   <idle>-0 [000] d.h1. 105.5: #1 context irq timer_latency 1234 us", 0, 0, 0, 0 },
		{ "   <idle>-0 [000] d.h1. 105.5: #1 context softirq timer_latency 1234 ns", 0, 0, 0, 0 },
		{ "   <idle>-0 [000] d.h1. 105.5: context irq timer_latency 1234 ns", 0, 0, 0, 0 },
		{ "CPU:0 [LOST 12 EVENTS]", 0, 0, 0, 0 },
		{ "", 0, 0, 0, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ctx = -1, ret;
		uint64_t seq = 0, ns = 0;

		ret = irqlat_parse_timerlat(cases[i].line, &ctx, &seq, &ns);
		if (cases[i].ret)
			ok(ret == 1 && ctx == cases[i].ctx && seq == cases[i].seq && ns == cases[i].ns,
			   "timerlat line %zu: ctx %d seq %llu %llu ns", i, ctx, (unsigned long long)seq,
			   (unsigned long long)ns);
		else
			ok(ret == 0, "timerlat line %zu: not a sample", i);
	}
}

/* Lines as the 6.12 and 6.1 RT guests print them (timerlat with the osnoise events on). */
static void test_osnoise(void)
{
	char what[48];
	uint64_t ns;
	int cpu, kind;

	ok(irqlat_parse_osnoise("      timerlat/0-165     [000] d.h21     2.901852: irq_noise: irq_work:246 "
				"start 2.901850448 duration 1361 ns", &cpu, &kind, &ns, what, sizeof(what)) == 1,
	   "irq_noise parsed");
	ok(cpu == 0, "... CPU 0");
	ok(kind == NOISE_IRQ, "... kind irq");
	is_u64(ns, 1361, "... 1361 ns");
	ok(!strcmp(what, "irq_work:246"), "... what: %s", what);
	ok(irqlat_parse_osnoise("          osn.sh-164     [003] d..3.     2.902851: thread_noise:   osn.sh:164 "
				"start 2.902845515 duration 2643 ns", &cpu, &kind, &ns, what, sizeof(what)) == 1 &&
	   cpu == 3 && kind == NOISE_THREAD && ns == 2643 && !strcmp(what, "osn.sh:164"),
	   "thread_noise on CPU 3: osn.sh:164, 2643 ns");
	ok(irqlat_parse_osnoise("  <idle>-0 [001] d.s2. 5.1: softirq_noise:        TIMER:1 start 5.0 duration 900 ns",
				&cpu, &kind, &ns, what, sizeof(what)) == 1 &&
	   cpu == 1 && kind == NOISE_SOFTIRQ && ns == 900 && !strcmp(what, "TIMER:1"),
	   "softirq_noise TIMER:1");
	ok(irqlat_parse_osnoise("  <idle>-0 [000] d.h2. 5.1: nmi_noise: start 5.0 duration 70 ns",
				&cpu, &kind, &ns, what, sizeof(what)) == 1 &&
	   kind == NOISE_NMI && ns == 70 && !strcmp(what, ""), "nmi_noise, nothing named");
	ok(irqlat_parse_osnoise("timerlat/0-12 [000] ....  105.58: #1  context thread timer_latency 5678 ns",
				&cpu, &kind, &ns, what, sizeof(what)) == 0, "a timerlat sample is not noise");
	ok(irqlat_parse_osnoise("x-1 [000] d.h2. 5.1: irq_noise: local_timer:236 start 5.0 duration 12 us",
				&cpu, &kind, &ns, what, sizeof(what)) == 0, "a unit other than ns is refused");
	ok(irqlat_parse_osnoise("x-1 d.h2. 5.1: irq_noise: local_timer:236 start 5.0 duration 12 ns",
				&cpu, &kind, &ns, what, sizeof(what)) == 0, "no CPU field: refused");
}

static void test_names(void)
{
	ok(irqlat_comm_matches("irq/26-rtproof", 26, "rtproof"), "irq/26-rtproof matches irq 26");
	ok(!irqlat_comm_matches("irq/27-rtproof", 26, "rtproof"), "irq/27 is not irq 26");
	ok(!irqlat_comm_matches("irq/26-rtproof2", 26, "rtproof"), "another name");
	ok(irqlat_comm_matches("irq/8-rtc0", -1, "rtc0"), "any irq: irq/8-rtc0");
	ok(!irqlat_comm_matches("irq/x-rtc0", -1, "rtc0"), "irq/x- is not a number");
	ok(!irqlat_comm_matches("kworker/0:1", -1, "rtc0"), "kworker");
	ok(irqlat_comm_matches("irq/123-rtproof", 123, "rtproof_long_name"),
	   "a comm cut at 15 characters matches its prefix");
	ok(!irqlat_comm_matches("irq/12-rtpr", 12, "rtproof"), "a short comm is not a prefix match");

	ok(!strcmp(irqlat_forced_threading(true, ""), "forced (PREEMPT_RT)"), "RT forces threading");
	ok(!strcmp(irqlat_forced_threading(false, "quiet threadirqs console=ttyS0"),
		   "forced (threadirqs)"), "threadirqs on the command line");
	ok(!strcmp(irqlat_forced_threading(false, "threadirqs"), "forced (threadirqs)"),
	   "threadirqs alone");
	ok(!strcmp(irqlat_forced_threading(false, "nothreadirqs=1 quiet"), "not forced"),
	   "a longer word containing threadirqs is not it");
	ok(!strcmp(irqlat_forced_threading(false, NULL), "not forced"), "no command line");
	ok(irqlat_metric_name(SRC_USER, ST_IRQ) == NULL, "the user fallback has no irq_latency");
	ok(!strcmp(irqlat_metric_name(SRC_USER, ST_TOTAL), "user_timer_wakeup"),
	   "the user fallback's metric is not named like an IRQ latency");
	ok(strstr(irqlat_source_label(SRC_USER), "not an IRQ latency") != NULL,
	   "the user fallback says it is not an IRQ latency");
	ok(strstr(irqlat_source_label(SRC_RTC), "hrtimer") != NULL, "the rtc label names the hrtimer");
}

#define MAXARGS 10
static void test_opts(void)
{
	static const struct {
		const char *args[MAXARGS];
		int ret;
		const char *what;
	} cases[] = {
		{ { NULL }, 0, "defaults" },
		{ { "--source", "module", "-l", "100", "--delay", "200", NULL }, 0, "module with a delay" },
		{ { "--source", "timerlat", "-D", "2s", "--cpu", "0", NULL }, 0, "timerlat" },
		{ { "--source", "rtc", "-i", "2000", NULL }, 0, "rtc at 500 Hz" },
		{ { "--source", "user", "-p", "0", NULL }, 0, "user fallback, SCHED_OTHER" },
		{ { "--irq-prio", "80", "-q", "--json", "/tmp/x.json", NULL }, 0, "irq-prio" },
		{ { "--max-latency", "50us", NULL }, 0, "budget with a unit" },
		{ { "--source", "foo", NULL }, 1, "unknown source" },
		{ { "--irq-prio", "0", NULL }, 1, "irq-prio 0" },
		{ { "--irq-prio", "100", NULL }, 1, "irq-prio 100" },
		{ { "-p", "100", NULL }, 1, "priority 100" },
		{ { "-i", "10", NULL }, 1, "interval 10 us" },
		{ { "--delay", "2000", NULL }, 1, "delay 2 ms" },
		{ { "--delay", "600", NULL }, 1, "delay above half the interval" },
		{ { "--delay", "1.5us", NULL }, 1, "delay not whole us" },
		{ { "--source", "rtc", "--delay", "10", NULL }, 1, "delay with rtc" },
		{ { "--cpu", "4000", NULL }, 1, "cpu out of range" },
		{ { "-D", "0", NULL }, 1, "zero duration" },
		{ { "--json", "", NULL }, 1, "empty json" },
		{ { "extra", NULL }, 1, "stray argument" },
		{ { "--help", NULL }, IRQLAT_HELP_SHOWN, "help" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[MAXARGS + 1];
		struct irqlat_opts o;
		int argc = 0, ret;
		FILE *saved = stdout;

		argv[argc++] = (char *)"rtproof-irqlat";
		while (cases[i].args[argc - 1])
			argv[argc] = (char *)cases[i].args[argc - 1], argc++;
		argv[argc] = NULL;
		if (cases[i].ret == IRQLAT_HELP_SHOWN)
			stdout = fopen("/dev/null", "w");
		ret = irqlat_parse(&o, argc, argv);
		if (stdout != saved) {
			fclose(stdout);
			stdout = saved;
		}
		ok(ret == cases[i].ret, "options: %s (got %d, want %d)", cases[i].what, ret, cases[i].ret);
	}
	{
		char *argv[] = { (char *)"rtproof-irqlat", NULL };
		struct irqlat_opts o;

		irqlat_parse(&o, 1, argv);
		ok(o.source == SRC_AUTO && o.interval_ns == 1000000 && o.co.duration_ns == 10000000000ull &&
		   o.priority == 90 && o.cpu == -1 && !o.delay_set, "defaults: auto, 1 ms, 10 s, FIFO 90");
	}
}

/* ---- the IRQ thread on a fake /proc: a name is not an identity ---- */

static char proc_root[64];

/* a task in the fake tree: pid, comm (raw, as /proc/PID/comm), stat's ppid and flags */
static void put_task(int pid, const char *comm, int ppid, unsigned long flags)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", proc_root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/comm", proc_root, pid);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", comm);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, pid);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d (%s) S %d 0 0 0 -1 %lu 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0\n",
			pid, comm, ppid, flags);
		fclose(f);
	}
}

static void test_find_kthread(void)
{
	struct irqlat_thread t;
	int ret;

	snprintf(proc_root, sizeof(proc_root), "%s/rtp-proc.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(proc_root)) {
		tap_skip("mkdtemp failed", "the IRQ thread on a fake /proc");
		return;
	}
	/* a user process that named itself like the IRQ thread (PR_SET_NAME), and the kthread */
	put_task(4242, "irq/33-rtproof", 4000, 0x00400100UL);
	put_task(151, "irq/33-rtproof", 2, 0x00208040UL);
	ret = irqlat_find_irq_thread(proc_root, 33, "rtproof", &t);
	ok(ret == 0 && t.found && t.pid == 151, "irq/33-rtproof: the kernel thread, pid 151 (got %d, pid %d)",
	   ret, t.pid);
	ok(t.ignored == 0 || (t.ignored == 1 && t.ignored_pid == 4242),
	   "the user process with the name, when seen first, is skipped and counted (readdir's order)");

	/* only the impostor: not found */
	put_task(4243, "irq/34-rtproof", 4000, 0x00400100UL);
	ret = irqlat_find_irq_thread(proc_root, 34, "rtproof", &t);
	ok(ret == -ENOENT && !t.found && t.ignored == 1 && t.ignored_pid == 4243,
	   "irq/34-rtproof named by a user process alone: not found (%d), pid 4243 ignored", ret);

	/* timerlat/0: exact comm, kernel thread only */
	put_task(4244, "timerlat/0", 4000, 0x00400000UL);
	ret = irqlat_find_comm(proc_root, "timerlat/0", &t);
	ok(ret == -ENOENT && !t.found && t.ignored == 1, "timerlat/0 as a user process: not found");
	put_task(160, "timerlat/0", 2, 0x00208040UL);
	ret = irqlat_find_comm(proc_root, "timerlat/0", &t);
	ok(ret == 0 && t.pid == 160, "timerlat/0 the kernel thread: pid 160");

	/* a stat that cannot be read or parsed: not a kernel thread */
	put_task(4245, "irq/35-rtproof", 2, 0x00208040UL);
	{
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "%s/4245/stat", proc_root);
		f = fopen(path, "w");
		if (f) {
			fputs("4245 (irq/35-rtproof S 2 0 0 0 -1 2129984\n", f);	/* no ')' */
			fclose(f);
		}
	}
	ret = irqlat_find_irq_thread(proc_root, 35, "rtproof", &t);
	ok(ret == -ENOENT && t.ignored == 1, "an unparsable stat: not taken for a kernel thread");
	/* a comm made to look like more fields: "x) R 2 0 0 0 -1 2129984" */
	put_task(4246, "irq/36-a) R 2 0 0 0 -1 2129984 0", 4000, 0x00400100UL);
	{
		char path[128];
		FILE *f;

		snprintf(path, sizeof(path), "%s/4246/comm", proc_root);
		f = fopen(path, "w");
		if (f) {
			fputs("irq/36-rtproof\n", f);
			fclose(f);
		}
	}
	ret = irqlat_find_irq_thread(proc_root, 36, "rtproof", &t);
	ok(ret == -ENOENT && t.ignored == 1,
	   "a comm holding ') R 2 ... 2129984' does not fake the flags (the last ')' ends it)");

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", proc_root);
		if (system(cmd))
			tap_diag("could not remove %s", proc_root);
	}
}

int main(void)
{
	test_records();
	test_osnoise();
	test_entry();
	test_timerlat();
	test_names();
	test_opts();
	test_find_kthread();
	return tap_done();
}
