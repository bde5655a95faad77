// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PipeWire's profiler records (bench/audio/pwprof.c): events built the way
 * module-profiler 0.3.65 builds them, parsed back; the node named for an
 * incomplete cycle; records of another shape, truncated or hostile data.
 */
#include "../../bench/audio/pwprof.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#ifndef RTP_NO_PIPEWIRE
#include <spa/param/profiler.h>
#include <spa/pod/builder.h>

struct node {
	int id;
	const char *name;
	int status;
	long long signal, awake, finish;
};

static void block(struct spa_pod_builder *b, uint32_t key, const struct node *n)
{
	spa_pod_builder_prop(b, key, 0);
	spa_pod_builder_add_struct(b, SPA_POD_Int(n->id), SPA_POD_String(n->name),
				   SPA_POD_Long(1000LL), SPA_POD_Long(n->signal),
				   SPA_POD_Long(n->awake), SPA_POD_Long(n->finish),
				   SPA_POD_Int(n->status), SPA_POD_Fraction(&SPA_FRACTION(1024, 48000)));
}

/* One record: the driver (id 16, finished) and the followers; with_clock 0 leaves the clock out. */
static void record(struct spa_pod_builder *b, long long nsec, int xruns, const struct node *f,
		   int nf, int with_clock)
{
	struct spa_pod_frame fr;
	struct node drv = { 16, "Dummy-Driver", 3, 1000, 1100, 1200 };
	int i;

	spa_pod_builder_push_object(b, &fr, SPA_TYPE_OBJECT_Profiler, 0);
	spa_pod_builder_prop(b, SPA_PROFILER_info, 0);
	spa_pod_builder_add_struct(b, SPA_POD_Long(7LL), SPA_POD_Float(0.1f), SPA_POD_Float(0.1f),
				   SPA_POD_Float(0.1f), SPA_POD_Int(xruns));
	if (with_clock) {
		spa_pod_builder_prop(b, SPA_PROFILER_clock, 0);
		spa_pod_builder_add_struct(b, SPA_POD_Int(0), SPA_POD_Int(16),
					   SPA_POD_String("clock.system.monotonic"), SPA_POD_Long(nsec),
					   SPA_POD_Fraction(&SPA_FRACTION(1, 48000)), SPA_POD_Long(2048LL),
					   SPA_POD_Long(1024LL), SPA_POD_Long(0LL), SPA_POD_Double(1.0),
					   SPA_POD_Long(nsec + 21333333));
	}
	block(b, SPA_PROFILER_driverBlock, &drv);
	for (i = 0; i < nf; i++)
		block(b, SPA_PROFILER_followerBlock, &f[i]);
	spa_pod_builder_pop(b, &fr);
}

static struct audio_pw_cycle got[4], scratch;
static int ngot;

static void keep(void *arg, const struct audio_pw_cycle *cy)
{
	(void)arg;
	if (ngot < 4)
		got[ngot] = *cy;
	ngot++;
}

/* Builds an event of the records, parses it; the records parsed. */
static int parse(uint8_t *buf, size_t len, void (*fill)(struct spa_pod_builder *b))
{
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, (uint32_t)len);
	struct spa_pod_frame fr;
	struct spa_pod *pod;

	spa_pod_builder_push_struct(&b, &fr);
	fill(&b);
	pod = spa_pod_builder_pop(&b, &fr);
	ngot = 0;
	return audio_pw_parse_profile(pod, SPA_POD_SIZE(pod), &scratch, keep, NULL);
}

static uint8_t buf[65536];

static void fill_complete(struct spa_pod_builder *b)
{
	const struct node f[] = { { 19, "slowpoke", 3, 1100, 1150, 1300 },
				  { 23, "rtproof-audio", 3, 1100, 1200, 1250 } };

	record(b, 1000, 0, f, 2, 1);
}

static void fill_slow(struct spa_pod_builder *b)
{
	/* as 0.3.65 sends it: the incomplete record, then the same cycle once more */
	const struct node f[] = { { 19, "slowpoke", 2, 1100, 1150, 900 },
				  { 23, "rtproof-audio", 3, 1100, 1200, 1250 } };

	record(b, 22333333, 0, f, 2, 1);
	record(b, 22333333, 0, f, 2, 1);
}

static void fill_busy_vs_waiting(struct spa_pod_builder *b)
{
	/* both triggered: one still in a call it began (awake after its finish), one never ran */
	const struct node f[] = { { 23, "rtproof-audio", 1, 1100, 900, 950 },
				  { 19, "slowpoke", 1, 1100, 800, 700 } };

	record(b, 22333333, 0, f, 2, 1);
}

static void fill_two_awake(struct spa_pod_builder *b)
{
	const struct node f[] = { { 30, "late", 2, 1100, 1500, 900 },
				  { 31, "early", 2, 1100, 1150, 900 },
				  { 32, "waiting", 0, 0, 0, 0 } };

	record(b, 22333333, 0, f, 3, 1);
}

static void fill_driver(struct spa_pod_builder *b)
{
	struct spa_pod_frame fr;
	struct node drv = { 16, "Dummy-Driver", 2, 1000, 1100, 900 };
	struct node f = { 23, "rtproof-audio", 3, 1100, 1200, 1250 };

	spa_pod_builder_push_object(b, &fr, SPA_TYPE_OBJECT_Profiler, 0);
	spa_pod_builder_prop(b, SPA_PROFILER_clock, 0);
	spa_pod_builder_add_struct(b, SPA_POD_Int(0), SPA_POD_Int(16), SPA_POD_String("c"),
				   SPA_POD_Long(5LL), SPA_POD_Fraction(&SPA_FRACTION(1, 44100)),
				   SPA_POD_Long(0LL), SPA_POD_Long(256LL), SPA_POD_Long(0LL),
				   SPA_POD_Double(1.0), SPA_POD_Long(6LL));
	block(b, SPA_PROFILER_driverBlock, &drv);
	block(b, SPA_PROFILER_followerBlock, &f);
	spa_pod_builder_pop(b, &fr);
}

static void fill_odd(struct spa_pod_builder *b)
{
	const struct node f[] = { { 23, "bad\x1b[2Jname\n", 2, 1, 2, 0 } };

	spa_pod_builder_int(b, 42);			/* not an object: passed over */
	record(b, 1000, 0, f, 1, 0);			/* no clock: not a record of ours */
	record(b, 2000, 3, f, 1, 1);
}

static void fill_many(struct spa_pod_builder *b)
{
	static struct node f[140];
	static char names[140][16];
	int i;

	for (i = 0; i < 140; i++) {
		snprintf(names[i], sizeof(names[i]), "n%d", i);
		f[i] = (struct node){ 100 + i, names[i], 3, 1, 2, 3 };
	}
	f[139].status = 2;	/* the one unfinished, past the cap */
	record(b, 1000, 0, f, 140, 1);
}

int main(void)
{
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, sizeof(buf));
	struct spa_pod *pod;
	int n;

	n = parse(buf, sizeof(buf), fill_complete);
	ok(n == 1 && ngot == 1, "a complete record parses (%d)", n);
	ok(got[0].nsec == 1000 && got[0].next_nsec == 1000 + 21333333 && got[0].rate == 48000 &&
	   got[0].duration == 1024 && got[0].position == 2048 && got[0].xrun_count == 0 &&
	   !strcmp(got[0].clock_name, "clock.system.monotonic"), "its clock: nsec, rate, quantum");
	ok(got[0].driver.id == 16 && !strcmp(got[0].driver.name, "Dummy-Driver") &&
	   got[0].nfollowers == 2 && got[0].follower[1].id == 23 &&
	   got[0].follower[1].awake_ns == 1200 && got[0].follower[1].finish_ns == 1250,
	   "the driver and its followers, with their times");
	ok(audio_pw_culprit(&got[0]) == AUDIO_PW_COMPLETE, "every node finished: complete");
	ok(audio_pw_has_follower(&got[0], 23) && !audio_pw_has_follower(&got[0], 16),
	   "the driver is not its own follower");

	n = parse(buf, sizeof(buf), fill_slow);
	ok(n == 2 && audio_pw_culprit(&got[0]) == 0 && !strcmp(got[0].follower[0].name, "slowpoke"),
	   "an awake node not finished is named: %s", got[0].follower[0].name);
	ok(got[0].nsec == got[1].nsec, "the cycle sent twice carries one clock (the caller counts it once)");

	parse(buf, sizeof(buf), fill_busy_vs_waiting);
	ok(audio_pw_culprit(&got[0]) == 1 && audio_pw_rank(&got[0].follower[1]) == 3 &&
	   audio_pw_rank(&got[0].follower[0]) == 2,
	   "triggered while still in its last call outranks triggered and never run");

	parse(buf, sizeof(buf), fill_two_awake);
	ok(audio_pw_culprit(&got[0]) == 1, "two running: the one awake longest (%d)",
	   audio_pw_culprit(&got[0]));
	ok(audio_pw_rank(&got[0].follower[2]) == 1, "not triggered ranks lowest");

	parse(buf, sizeof(buf), fill_driver);
	ok(ngot == 1 && audio_pw_culprit(&got[0]) == AUDIO_PW_DRIVER && got[0].rate == 44100 &&
	   got[0].count == 0, "only the driver unfinished (no info block): the driver");

	n = parse(buf, sizeof(buf), fill_odd);
	ok(n == 1 && got[0].nsec == 2000 && got[0].xrun_count == 3,
	   "a pod not an object and a record without a clock are passed over (%d parsed)", n);
	ok(!strcmp(got[0].follower[0].name, "bad?[2Jname?"), "control bytes in a name replaced: %s",
	   got[0].follower[0].name);

	parse(buf, sizeof(buf), fill_many);
	n = audio_pw_culprit(&got[0]);
	ok(got[0].nfollowers == AUDIO_PW_MAX_FOLLOWERS && got[0].followers_seen == 140 && n >= 0 &&
	   !strcmp(got[0].follower[n].name, "n139"),
	   "140 followers: %u kept, all counted, the unfinished one past the cap kept and named",
	   got[0].nfollowers);

	/* not a struct, too short, a size past the buffer */
	spa_pod_builder_int(&b, 5);
	pod = (struct spa_pod *)buf;
	ok(audio_pw_parse_profile(pod, SPA_POD_SIZE(pod), &scratch, keep, NULL) == -EINVAL,
	   "an event that is not a struct: -EINVAL");
	ok(audio_pw_parse_profile(buf, 4, &scratch, keep, NULL) == -EINVAL, "4 bytes: -EINVAL");
	parse(buf, sizeof(buf), fill_complete);
	pod = (struct spa_pod *)buf;
	ok(audio_pw_parse_profile(pod, SPA_POD_SIZE(pod) - 1, &scratch, keep, NULL) == -EINVAL,
	   "a size past the data given: -EINVAL");
	ok(audio_pw_parse_profile(NULL, 100, &scratch, keep, NULL) == -EINVAL, "no data: -EINVAL");
	return tap_done();
}
#else
int main(void)
{
	tap_skip("built without PipeWire's headers (libpipewire-0.3-dev)", "profiler records");
	return tap_done();
}
#endif
