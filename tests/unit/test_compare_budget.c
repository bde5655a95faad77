// SPDX-License-Identifier: GPL-2.0-or-later
/* compare --budget: parsing, the exact Poisson interval, the rate row. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "tap.h"

static struct opts o = { .confidence = 0.95, .threshold = 0.10 };
static struct ctx c = { .o = &o, .alpha = 0.05, .c1 = 0.975 };

static void parse(void)
{
	struct budget b;

	ok(!cmp_budget_parse("cyclic.wakeup_latency=100us", &b) && !strcmp(b.bench, "cyclic") &&
	   !strcmp(b.metric, "wakeup_latency") && b.limit_ns == 100000 && !strcmp(b.figure, ">100us"),
	   "cyclic.wakeup_latency=100us");
	ok(!cmp_budget_parse("wakeup_latency=2ms", &b) && !b.bench[0] && b.limit_ns == 2000000, "any bench, 2ms");
	ok(!cmp_budget_parse("total=250", &b) && b.limit_ns == 250000, "a bare number is us");
	ok(cmp_budget_parse("cyclic.wakeup_latency", &b) == -EINVAL, "no LIMIT: refused");
	ok(cmp_budget_parse("cyclic.wakeup_latency=0", &b) == -EINVAL, "LIMIT 0: refused");
	ok(cmp_budget_parse("cyclic.wakeup_latency=1.5", &b) == -EINVAL, "a bare decimal: refused");
	ok(cmp_budget_parse(".x=1ms", &b) == -EINVAL, "an empty bench: refused");
}

static void poisson(void)
{
	double ci[2];

	cmp_poisson_ci(0, 0.95, ci);
	ok(ci[0] == 0 && fabs(ci[1] - 3.689) < 0.002, "0 events at 95 %%: [0, 3.689] (got %.4f)", ci[1]);
	cmp_poisson_ci(10, 0.95, ci);
	ok(fabs(ci[0] - 4.795) < 0.002 && fabs(ci[1] - 18.39) < 0.01, "10 events at 95 %%: [4.795, 18.39] (got [%.4f, %.4f])",
	   ci[0], ci[1]);
}

/* A side: nblk blocks of 0.2 s, maxima 1 ms, with spikes of 5 ms in the listed blocks. */
static void side(struct pooled *p, size_t nblk, const size_t *spk, size_t nspk)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->have_series = true;
	p->nbmax = nblk;
	p->bmax = calloc(nblk, sizeof(double));
	p->brun = calloc(nblk, sizeof(size_t));
	for (i = 0; i < nblk; i++)
		p->bmax[i] = 1e6;
	for (i = 0; i < nspk; i++)
		p->bmax[spk[i]] = 5e6;
	p->block_s = 0.2;
	p->duration_s = 0.2 * (double)nblk;
}

static void rate_row(void)
{
	static const size_t none[1], many[] = { 3, 4, 20, 40, 60, 61, 80, 100, 120, 140, 160, 170, 171, 172 };
	struct pooled b, n;
	struct budget bg;
	struct row w;

	cmp_budget_parse("cyclic.wakeup_latency=2ms", &bg);
	side(&b, 180, none, 0);
	side(&n, 180, many, sizeof(many) / sizeof(many[0]));
	memset(&w, 0, sizeof(w));
	budget_row(&w, &b, &n, &bg, &c);
	/* adjacent blocks are one episode: 3-4, 60-61, 170-172: 14 blocks, 10 episodes */
	ok(w.new * 36.0 / 3600 == 10 && w.base == 0, "10 episodes in 36 s against none (%.3g/h, %.3g/h)", w.new, w.base);
	ok(w.v == V_WORSE && w.p < 0.01, "worse, p %.2g (%s)", w.p, w.note);
	memset(&w, 0, sizeof(w));
	budget_row(&w, &b, &b, &bg, &c);
	ok(w.v == V_SAME && strstr(w.advice, "3.0 h with none"), "none on either side: same, and '%s'", w.advice);
	pooled_free(&b);
	pooled_free(&n);
}

static struct side sb, sn;
static struct rtp_doc db[5], dn[5];

static void one_doc(struct side *s, struct rtp_doc *d, size_t runs, const char *event, const uint64_t *v)
{
	size_t r;

	memset(s, 0, sizeof(*s));
	s->nruns = runs;
	for (r = 0; r < runs; r++) {
		memset(&d[r], 0, sizeof(d[r]));
		snprintf(d[r].bench, sizeof(d[r].bench), "lockstress");
		d[r].duration_s = 30;
		d[r].nevents = 1;
		snprintf(d[r].events[0].name, sizeof(d[r].events[0].name), "%s", event);
		d[r].events[0].value = v[r];
		s->runs[r].docs = &d[r];
		s->runs[r].ndocs = 1;
	}
}

static void events(void)
{
	static const uint64_t zero[5], one[5] = { 0, 1, 0 }, few[5] = { 10, 12, 11, 13, 9 },
			      many[5] = { 300, 280, 320, 290, 310 };
	struct row w;

	one_doc(&sb, db, 1, "contention.lost_updates", zero);
	one_doc(&sn, dn, 1, "contention.lost_updates", one + 1);
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "contention.lost_updates", &c);
	ok(w.v == V_WORSE && !w.tested, "one lost update on the new side: worse, a correctness failure (%s)", w.note);
	one_doc(&sn, dn, 1, "contention.lost_updates", zero);
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "contention.lost_updates", &c);
	ok(w.v == V_SAME, "none on either side: same");
	/* rates: one run a side cannot tell clusters from a rate */
	one_doc(&sb, db, 1, "missed", few);
	one_doc(&sn, dn, 1, "missed", many);
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "missed", &c);
	ok(w.v == V_UNDECIDED && !w.tested, "10 against 300 missed in one run each: undecided (%s)", w.note);
	one_doc(&sb, db, 3, "missed", few);
	one_doc(&sn, dn, 3, "missed", many);
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "missed", &c);
	ok(w.v == V_UNDECIDED && w.tested && w.p > 0.05,
	   "three runs a side, all new above all base: undecided, 3 vs 3 runs cannot reach 95 %% (p %.3g)", w.p);
	one_doc(&sb, db, 5, "missed", few);
	one_doc(&sn, dn, 5, "missed", many);
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "missed", &c);
	ok(w.v == V_WORSE && fabs(w.p - 2.0 / 252) < 1e-9, "five runs a side, all new above all base: worse (p %.4f = 2/252)", w.p);
	one_doc(&sn, dn, 5, "missed", (const uint64_t[]){ 300, 5, 320, 290, 310 });
	memset(&w, 0, sizeof(w));
	event_row(&w, &sb, &sn, "lockstress", "missed", &c);
	ok(w.v == V_UNDECIDED, "one new run below the base runs: not worse, undecided (%s, p %.3g)", cmp_vname[w.v], w.p);
	(void)one;
}

int main(void)
{
	events();
	parse();
	poisson();
	rate_row();
	return tap_done();
}
