// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare's row logic on constructed data (issue 25): the known defects
 * (spread direction, coarse-bucket pooling, tail rows demoted to "a
 * burst", short blocks dropped) and the max row's episode test.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "tap.h"

static uint64_t seed = 12345;

static double unif(void)
{
	seed ^= seed >> 12;
	seed ^= seed << 25;
	seed ^= seed >> 27;
	return ((double)((seed * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) / 9007199254740992.0;
}

/* A metric from explicit buckets and blocks (copied onto the heap). */
static struct rtp_doc_metric *metric(const struct rtp_doc_bucket *b, size_t nb,
				     const struct rtp_doc_block *bl, size_t nbl, double block_s)
{
	struct rtp_doc_metric *m = calloc(1, sizeof(*m));
	size_t i;

	snprintf(m->name, sizeof(m->name), "wakeup_latency");
	snprintf(m->unit, sizeof(m->unit), "ns");
	m->buckets = malloc((nb ? nb : 1) * sizeof(*b));
	memcpy(m->buckets, b, nb * sizeof(*b));
	m->nbuckets = nb;
	m->min = UINT64_MAX;
	for (i = 0; i < nb; i++) {
		m->count += b[i].count;
		if (b[i].count && b[i].lo < m->min)
			m->min = b[i].lo;
		if (b[i].count && b[i].hi > m->max)
			m->max = b[i].hi;
	}
	m->has_minmax = m->count > 0;
	if (nbl) {
		m->has_series = true;
		m->block_s = block_s;
		m->blocks = malloc(nbl * sizeof(*bl));
		memcpy(m->blocks, bl, nbl * sizeof(*bl));
		m->nblocks = nbl;
		for (i = 0; i < nbl; i++)
			if (bl[i].max > m->max)
				m->max = bl[i].max;
	}
	return m;
}

static void metric_free(struct rtp_doc_metric *m)
{
	free(m->buckets);
	free(m->blocks);
	free(m);
}

/*
 * A synthetic run: nblk blocks of cnt samples, the body in buckets of
 * 1 us from 4 us, with tail samples at tail_ns (tail_per_block of them in
 * each block, so that the tail is not one burst) and block maxima near
 * max_ns, plus stalls (blocks whose max is stall_ns) every stall_every
 * blocks.
 */
static struct rtp_doc_metric *run(size_t nblk, uint64_t cnt, uint64_t tail_ns, uint64_t tail_per_block,
				  uint64_t max_ns, size_t stall_every, uint64_t stall_ns)
{
	struct rtp_doc_bucket b[64];
	struct rtp_doc_block *bl = calloc(nblk, sizeof(*bl));
	size_t nb = 0, i;
	uint64_t body = nblk * (cnt - tail_per_block) - (stall_every ? nblk / stall_every : 0);
	struct rtp_doc_metric *m;

	for (i = 0; i < 4; i++)
		b[nb++] = (struct rtp_doc_bucket){ 4000 + i * 1000, 4999 + i * 1000, body / 4 };
	b[0].count += body - body / 4 * 4;
	b[nb++] = (struct rtp_doc_bucket){ tail_ns, tail_ns + 999, nblk * tail_per_block };
	if (stall_every)
		b[nb++] = (struct rtp_doc_bucket){ stall_ns, stall_ns, nblk / stall_every };
	for (i = 0; i < nblk; i++) {
		bl[i].start_s = (double)i * 0.2;
		bl[i].count = cnt;
		bl[i].max = max_ns - (uint64_t)(unif() * (double)max_ns * 0.3);
		if (stall_every && i % stall_every == stall_every / 2) {
			/* the stall ate most of the block's samples */
			bl[i].count = cnt / 10;
			bl[i].max = stall_ns;
		}
	}
	m = metric(b, nb, bl, nblk, 0.2);
	free(bl);
	return m;
}

static struct opts o = { .confidence = 0.95, .threshold = 0.10 };
static struct ctx c = { .o = &o, .alpha = 0.05, .c1 = 0.975 };

static void short_blocks_kept(void)
{
	struct rtp_doc_block bl[21];
	struct rtp_doc_bucket b = { 4000, 4999, 0 };
	struct rtp_doc_metric *m;
	double out[21], smp;
	size_t i, n;

	for (i = 0; i < 21; i++) {
		bl[i] = (struct rtp_doc_block){ i * 0.1, 1000, 10000 };
		b.count += 1000;
	}
	bl[10].count = 100;		/* a 50 ms stall ate 90 % of the block */
	bl[10].max = 50000000;
	b.count -= 900;
	m = metric(&b, 1, bl, 21, 0.1);
	n = block_maxima(m, 0.1, out, &smp);
	ok(n == 21, "every non-empty block is kept: %zu of 21 (the stalled block has 100 of 1000 samples)", n);
	for (i = 0; i < n && out[i] != 50000000; i++)
		;
	ok(i < n, "the stalled block's 50 ms max is among the block maxima");
	metric_free(m);
}

static void spread_direction(void)
{
	struct row w;

	/* lower is worse (buffer margin p1): new runs all below the base runs */
	memset(&w, 0, sizeof(w));
	w.spread = true;
	w.higher_is_worse = false;
	w.base_spread[0] = 900, w.base_spread[1] = 1000;
	w.new_spread[0] = 400, w.new_spread[1] = 500;
	ok(spread_check(&w, V_WORSE) == V_WORSE, "lower is worse: new runs below every base run stay worse");
	ok(spread_check(&w, V_BETTER) == V_SAME, "lower is worse: better is not borne out by runs below");
	/* higher is worse */
	memset(&w, 0, sizeof(w));
	w.spread = true;
	w.higher_is_worse = true;
	w.base_spread[0] = 900, w.base_spread[1] = 1000;
	w.new_spread[0] = 1100, w.new_spread[1] = 1200;
	ok(spread_check(&w, V_WORSE) == V_WORSE, "higher is worse: new runs above every base run stay worse");
	w.new_spread[0] = 950;
	ok(spread_check(&w, V_WORSE) == V_SAME, "higher is worse: overlapping runs are within the spread");
}

static void coarse_pooling(void)
{
	/* run 1 fine buckets inside [1024, 2047]; run 2 one coarse page over it */
	struct rtp_doc_bucket f[] = { { 1024, 1039, 10 }, { 1040, 1055, 10 }, { 1984, 1999, 5 } };
	struct rtp_doc_bucket g[] = { { 1024, 2047, 30 }, { 4096, 4159, 1 } };
	struct rtp_doc_metric *a = metric(f, 3, NULL, 0, 0), *b = metric(g, 2, NULL, 0, 0);
	const struct rtp_doc_metric *ms[2] = { a, b };
	struct pooled p;
	double lo, hi;
	size_t i;
	bool disjoint = true;

	ok(!pool_metrics(&p, ms, 2, 0), "two runs, one with a coarse page, pool");
	for (i = 1; i < p.nbuckets; i++)
		disjoint &= p.b[i].lo > p.b[i - 1].hi;
	ok(disjoint && p.nbuckets == 2, "pooled buckets are disjoint: %zu buckets", p.nbuckets);
	rank_value(&p, 25, &lo, &hi);
	ok(hi >= 2047, "rank 25 of 56 (in run 2's coarse page) never understates: upper edge %.0f ns", hi);
	rank_value(&p, 56, &lo, &hi);
	ok(lo >= 4096 && hi == 4159, "the top rank is the 4 us bucket: [%.0f, %.0f] ns", lo, hi);
	pooled_free(&p);
	metric_free(a);
	metric_free(b);
	/* the lib merge alone */
	{
		struct rtp_span s[] = { { 10, 19, 1 }, { 0, 9, 2 }, { 10, 19, 3 }, { 15, 40, 4 }, { 50, 60, 5 } };
		size_t n = rtp_span_merge(s, 5);

		ok(n == 3 && s[0].count == 2 && s[1].lo == 10 && s[1].hi == 40 && s[1].count == 8 &&
		   s[2].count == 5, "rtp_span_merge: equal add, overlapping span, disjoint stay (%zu)", n);
	}
}

static void tail_not_a_burst(void)
{
	/*
	 * p99 with 1000 samples a block: ten samples per block beyond it, so
	 * the block maxima (equal on both sides here) say nothing about it.
	 * The new side's p99 is 3x the base's in every block alike.
	 */
	struct rtp_doc_metric *b = run(150, 1000, 10000, 20, 200000, 0, 0);
	struct rtp_doc_metric *n = run(150, 1000, 30000, 20, 200000, 0, 0);
	const struct rtp_doc_metric *mb = b, *mn = n;
	struct pooled pb, pn;
	struct row w;

	seed = 99;
	ok(!pool_metrics(&pb, &mb, 1, 0) && !pool_metrics(&pn, &mn, 1, 0), "pooled");
	memset(&w, 0, sizeof(w));
	quantile_row(&w, &pb, &pn, 0.99, false, &c);
	ok(w.v == V_WORSE, "a p99 3x worse in every block is worse, not 'a burst' (%s: %s; %s)",
	   cmp_vname[w.v], w.note, w.method);
	ok(!strstr(w.method, "Mann-Whitney"), "block maxima are not consulted for p99 at 1000 samples a block");
	ok(w.tested && w.p < 0.05, "and it has a p-value: %.3g", w.p);
	pooled_free(&pb);
	pooled_free(&pn);
	metric_free(b);
	metric_free(n);
}

/*
 * One run a side: a whole run 40 % higher at p99, the same in every block
 * (as this host's idle pairs differ from one run to the next) is
 * undecided, not worse; 3x is worse; three runs a side at +40 %, each
 * run above every base run, are worse.
 */
static void one_run_shift(void)
{
	struct rtp_doc_metric *b[3], *n[3], *big;
	const struct rtp_doc_metric *mb[3], *mn[3], *mg;
	struct pooled pb, pn, pg;
	struct row w;
	int i;

	seed = 7;
	for (i = 0; i < 3; i++) {
		mb[i] = b[i] = run(150, 1000, 10000, 20, 200000, 0, 0);
		mn[i] = n[i] = run(150, 1000, 14000, 20, 200000, 0, 0);
	}
	mg = big = run(150, 1000, 30000, 20, 200000, 0, 0);
	ok(!pool_metrics(&pb, mb, 1, 0) && !pool_metrics(&pn, mn, 1, 0) && !pool_metrics(&pg, &mg, 1, 0),
	   "pooled");
	memset(&w, 0, sizeof(w));
	quantile_row(&w, &pb, &pn, 0.99, false, &c);
	ok(w.v == V_UNDECIDED && strstr(w.note, "one run a side"),
	   "one run a side, p99 x%.2f in every block: undecided (%s: %s)", w.ratio, cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	quantile_row(&w, &pb, &pg, 0.99, false, &c);
	ok(w.v == V_WORSE, "one run a side, p99 x%.2f: worse (%s: %s)", w.ratio, cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	quantile_row(&w, &pg, &pb, 0.99, false, &c);
	ok(w.v == V_BETTER, "and the other way round: better (%s: %s)", cmp_vname[w.v], w.note);
	pooled_free(&pb);
	pooled_free(&pn);
	ok(!pool_metrics(&pb, mb, 3, 0) && !pool_metrics(&pn, mn, 3, 0), "pooled, 3 runs a side");
	memset(&w, 0, sizeof(w));
	quantile_row(&w, &pb, &pn, 0.99, false, &c);
	ok(w.v == V_WORSE, "three runs a side, p99 x%.2f, every run beyond: worse (%s: %s)", w.ratio,
	   cmp_vname[w.v], w.note);
	pooled_free(&pb);
	pooled_free(&pn);
	pooled_free(&pg);
	for (i = 0; i < 3; i++) {
		metric_free(b[i]);
		metric_free(n[i]);
	}
	metric_free(big);
}

/*
 * The peaks row: stalls as high as the base's own worst, 18 of them in a
 * 30 s run, are worse at the peaks though the max does not move; under a
 * base with one wild outlier (80 ms) too; two runs of one model are not;
 * the stalls in one half of the new run only are undecided.
 */
static void peaks(void)
{
	struct rtp_doc_metric *b, *b2, *n, *wild, *half;
	const struct rtp_doc_metric *mb, *mb2, *mn, *mw, *mh;
	struct pooled pb, pb2, pn, pw, ph;
	struct row w;
	size_t i;

	seed = 4242;
	mb = b = run(150, 1000, 10000, 2, 5000000, 0, 0);
	mb2 = b2 = run(150, 1000, 10000, 2, 5000000, 0, 0);
	mn = n = run(150, 1000, 10000, 2, 5000000, 8, 5000000);
	mw = wild = run(150, 1000, 10000, 2, 5000000, 0, 0);
	wild->blocks[40].max = 80000000;
	mh = half = run(150, 1000, 10000, 2, 5000000, 8, 5000000);
	for (i = half->nblocks / 2; i < half->nblocks; i++)
		if (half->blocks[i].max == 5000000)
			half->blocks[i].max = 3000000;
	ok(!pool_metrics(&pb, &mb, 1, 0) && !pool_metrics(&pb2, &mb2, 1, 0) && !pool_metrics(&pn, &mn, 1, 0) &&
	   !pool_metrics(&pw, &mw, 1, 0) && !pool_metrics(&ph, &mh, 1, 0), "pooled");
	memset(&w, 0, sizeof(w));
	max_row(&w, &pb, &pn, &c);
	ok(w.v != V_WORSE && w.ratio < 1.1, "18 stalls at the base's own max: the max row x%.2f is not worse (%s)",
	   w.ratio, cmp_vname[w.v]);
	memset(&w, 0, sizeof(w));
	peaks_row(&w, &pb, &pn, &c);
	ok(w.v == V_WORSE && w.tested && w.p < 0.01, "and the peaks row is worse (%s: %s; %s)", cmp_vname[w.v],
	   w.note, w.method);
	memset(&w, 0, sizeof(w));
	peaks_row(&w, &pn, &pb, &c);
	ok(w.v == V_BETTER, "the stalled run as base: better (%s: %s)", cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	peaks_row(&w, &pw, &pn, &c);
	ok(w.v == V_WORSE, "under a base with one 80 ms outlier: still worse (%s: %s)", cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	peaks_row(&w, &pb, &pb2, &c);
	ok(w.v == V_SAME, "two runs of one model: same (%s: %s)", cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	peaks_row(&w, &pb, &ph, &c);
	ok(w.v == V_UNDECIDED && w.spread_halves, "the stalls in one half only: undecided (%s: %s)",
	   cmp_vname[w.v], w.note);
	{
		/* a figure that hardly varies (lockstress's bounded inversion): 0.2 % higher is no peak */
		struct rtp_doc_block fb[40], fn[40];
		struct rtp_doc_bucket bk = { 1530000, 1540000, 40 };
		struct rtp_doc_metric *xb, *xn;
		const struct rtp_doc_metric *mxb, *mxn;
		struct pooled pxb, pxn;

		for (i = 0; i < 40; i++) {
			fb[i] = (struct rtp_doc_block){ .start_s = (double)i * 0.1, .count = 1,
							.max = 1535000 + (uint64_t)(unif() * 1000) };
			fn[i] = fb[i];
			fn[i].max += 3000;
		}
		mxb = xb = metric(&bk, 1, fb, 40, 0.1);
		mxn = xn = metric(&bk, 1, fn, 40, 0.1);
		ok(!pool_metrics(&pxb, &mxb, 1, 0) && !pool_metrics(&pxn, &mxn, 1, 0), "pooled");
		memset(&w, 0, sizeof(w));
		peaks_row(&w, &pxb, &pxn, &c);
		ok(w.v == V_SAME, "every block 0.2 %% higher: no peak beyond the threshold, same (%s: %s)",
		   cmp_vname[w.v], w.note);
		pooled_free(&pxb);
		pooled_free(&pxn);
		metric_free(xb);
		metric_free(xn);
	}
	ok(fabs(cmp_above_rth_p(10, 10, 3, 0) - cmp_top_k_p(10, 10, 3)) < 1e-12 &&
	   fabs(cmp_above_rth_p(2, 2, 1, 1) - 5.0 / 6) < 1e-12,
	   "the rank test: r = 0 is the top-k test; 2 and 2, one new above the base's 2nd: 5/6");
	pooled_free(&pb);
	pooled_free(&pb2);
	pooled_free(&pn);
	pooled_free(&pw);
	pooled_free(&ph);
	metric_free(b);
	metric_free(b2);
	metric_free(n);
	metric_free(wild);
	metric_free(half);
}

static void max_episodes(void)
{
	/* 30 s of 0.2 s blocks; idle maxima ~5 ms; the new side stalls 50 ms every 2.5 s */
	struct rtp_doc_metric *b = run(150, 1000, 10000, 2, 5000000, 0, 0);
	struct rtp_doc_metric *n = run(150, 1000, 10000, 2, 5000000, 12, 50000000);
	struct rtp_doc_metric *one = run(150, 1000, 10000, 2, 5000000, 150, 50000000);
	const struct rtp_doc_metric *mb = b, *mn = n, *mo = one;
	struct pooled pb, pn, po;
	struct row w;

	ok(!pool_metrics(&pb, &mb, 1, 0) && !pool_metrics(&pn, &mn, 1, 0) && !pool_metrics(&po, &mo, 1, 0),
	   "pooled");
	memset(&w, 0, sizeof(w));
	max_row(&w, &pb, &pn, &c);
	ok(w.v == V_WORSE && w.episodes_new >= 12, "12 stalls of 50 ms against a 5 ms max: worse (%s, %s)",
	   cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	max_row(&w, &pn, &pb, &c);
	ok(w.v == V_BETTER, "the stalled run as base: the idle one is better (%s)", cmp_vname[w.v]);
	memset(&w, 0, sizeof(w));
	max_row(&w, &pb, &po, &c);
	ok(w.v == V_UNDECIDED && w.ratio >= 5, "one 50 ms stall, x%.1f: undecided, not same (%s: %s)", w.ratio,
	   cmp_vname[w.v], w.note);
	memset(&w, 0, sizeof(w));
	max_row(&w, &po, &pb, &c);
	ok(w.v == V_UNDECIDED, "and as base: the larger side is not called the better one (%s)", cmp_vname[w.v]);
	pooled_free(&pb);
	pooled_free(&pn);
	pooled_free(&po);
	metric_free(b);
	metric_free(n);
	metric_free(one);
}

/*
 * One run a side: the halves stand in for runs.  The new run stalls
 * (50 ms, 12 times) in its first half only, as this host does now and
 * then by itself for a few seconds: not worse but undecided; the same
 * stalls throughout the run stay worse (max_episodes).
 */
static void max_halves(void)
{
	struct rtp_doc_metric *b = run(150, 1000, 10000, 2, 5000000, 0, 0);
	struct rtp_doc_metric *n = run(150, 1000, 10000, 2, 5000000, 6, 50000000);
	const struct rtp_doc_metric *mb = b, *mn = n;
	struct pooled pb, pn;
	struct row w;
	size_t i;

	for (i = n->nblocks / 2; i < n->nblocks; i++)
		if (n->blocks[i].max == 50000000) {
			n->blocks[i].max = 4000000;
			n->blocks[i].count = 1000;
		}
	ok(!pool_metrics(&pb, &mb, 1, 0) && !pool_metrics(&pn, &mn, 1, 0), "pooled");
	memset(&w, 0, sizeof(w));
	max_row(&w, &pb, &pn, &c);
	ok(w.v == V_UNDECIDED && w.spread_halves && w.new_spread[0] < w.base_spread[1],
	   "stalls in one half of the new run only: undecided, not worse (%s: %s; halves' maxima base %.0f..%.0f, new %.0f..%.0f ns)",
	   cmp_vname[w.v], w.note, w.base_spread[0], w.base_spread[1], w.new_spread[0], w.new_spread[1]);
	pooled_free(&pb);
	pooled_free(&pn);
	metric_free(b);
	metric_free(n);
}

static void tests_and_holm(void)
{
	double bl[] = { 1, 9, 8, 2, 9, 9, 1, 9, 1 };
	size_t run[] = { 0, 0, 0, 0, 0, 1, 1, 1, 1 };
	double out[9];
	struct row r[4];
	size_t n, i;

	ok(fabs(cmp_top_k_p(10, 10, 1) - 0.5) < 1e-12, "top 1 of 10 + 10 on one side: 1/2");
	ok(fabs(cmp_top_k_p(10, 10, 2) - 90.0 / 380) < 1e-12, "top 2 of 10 + 10: 90/380");
	ok(cmp_top_k_p(10, 10, 0) == 1, "top 0: 1");
	ok(cmp_top_k_p(3, 2, 3) == 0, "more than the side has: 0");
	n = cmp_episodes(bl, run, 9, 5, out);
	/* 1 [9 8] 2 9 | 9 1 9 1 */
	ok(n == 8 && out[1] == 9 && out[2] == 2 && out[4] == 9, "consecutive blocks above the level are one episode, not across runs (%zu)", n);
	memset(r, 0, sizeof(r));
	for (i = 0; i < 4; i++)
		r[i].tested = true, r[i].v = V_WORSE;
	r[0].p = 0.001, r[1].p = 0.013, r[2].p = 0.02, r[3].p = 0.04;
	n = cmp_holm(r, 4, 0.05);
	/* 0.001*4 ok, 0.013*3 = 0.039 ok, 0.02*2 = 0.04 ok, 0.04*1 ok */
	ok(n == 0 && r[3].v == V_WORSE, "Holm keeps 4 that pass step-down (%zu demoted)", n);
	r[1].p = 0.02;	/* 0.06 > 0.05: it and all after it fall */
	for (i = 0; i < 4; i++)
		r[i].v = V_WORSE;
	n = cmp_holm(r, 4, 0.05);
	ok(n == 3 && r[0].v == V_WORSE && r[1].v == V_UNDECIDED && r[3].v == V_UNDECIDED,
	   "Holm stops at the first failure: %zu demoted to undecided", n);
	/* a better max row 10x apart that Holm takes back is undecided, not same */
	for (i = 0; i < 4; i++)
		r[i].v = V_SAME, r[i].p = 0.5, r[i].figure = "p99", r[i].ratio = 1;
	r[0].v = V_BETTER, r[0].p = 0.02, r[0].figure = "max", r[0].ratio = 0.1;
	r[1].v = V_BETTER, r[1].p = 0.02, r[1].figure = "p99", r[1].ratio = 0.5;
	n = cmp_holm(r, 4, 0.05);
	ok(n == 2 && r[0].v == V_UNDECIDED && r[1].v == V_SAME,
	   "Holm: a max 10x apart goes to undecided, a p99 to same (%s, %s)", cmp_vname[r[0].v], cmp_vname[r[1].v]);
}

static void extremal_index(void)
{
	/* clustered: 20 samples above 10 us in each of 15 of 150 blocks */
	struct rtp_doc_metric *m = run(150, 1000, 10000, 0, 8000, 0, 0);
	const struct rtp_doc_metric *mm = m;
	struct pooled p;
	double th;
	size_t i;

	m->buckets = realloc(m->buckets, (m->nbuckets + 1) * sizeof(*m->buckets));
	m->buckets[m->nbuckets++] = (struct rtp_doc_bucket){ 20000, 20999, 300 };
	m->buckets[0].count -= 300;
	for (i = 0; i < 150; i += 10)
		m->blocks[i].max = 20500;
	ok(!pool_metrics(&p, &mm, 1, 0), "pooled");
	th = cmp_extremal_index(&p, 19999);
	ok(th > 0.03 && th < 0.08, "300 exceedances in 15 blocks: clusters of 20, theta %.3f (want ~0.05)", th);
	pooled_free(&p);
	metric_free(m);
}

static void min_rows(void)
{
	/* buffer margin minima, lower is worse: 3 runs a side cannot decide, 5 can */
	struct rtp_doc_bucket bk = { 1000, 1999, 10 };
	struct rtp_doc_metric *m[10];
	const struct rtp_doc_metric *mb[5], *mn[5];
	struct pooled pb, pn;
	struct row w;
	size_t i;

	for (i = 0; i < 10; i++) {
		m[i] = metric(&bk, 1, NULL, 0, 0);
		m[i]->min = i < 5 ? 900 + i : 400 + i;	/* base ~900 ns, new ~400 ns */
	}
	for (i = 0; i < 5; i++)
		mb[i] = m[i], mn[i] = m[5 + i];
	ok(!pool_metrics(&pb, mb, 3, 0) && !pool_metrics(&pn, mn, 3, 0), "pooled 3 + 3");
	memset(&w, 0, sizeof(w));
	min_row(&w, &pb, &pn, &c);
	ok(w.v == V_UNDECIDED && w.p > 0.05, "min, 3 runs a side all lower: undecided (p %.3g)", w.p);
	pooled_free(&pb);
	pooled_free(&pn);
	ok(!pool_metrics(&pb, mb, 5, 0) && !pool_metrics(&pn, mn, 5, 0), "pooled 5 + 5");
	memset(&w, 0, sizeof(w));
	min_row(&w, &pb, &pn, &c);
	ok(w.v == V_WORSE && w.p < 0.01, "min, 5 runs a side all lower by > 10 %%: worse (p %.3g)", w.p);
	pooled_free(&pb);
	pooled_free(&pn);
	for (i = 0; i < 10; i++)
		metric_free(m[i]);
}

int main(void)
{
	min_rows();
	short_blocks_kept();
	spread_direction();
	coarse_pooling();
	tail_not_a_burst();
	one_run_shift();
	max_episodes();
	max_halves();
	peaks();
	tests_and_holm();
	extremal_index();
	return tap_done();
}
