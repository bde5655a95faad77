// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The price of RT in work done, beside its worst case (price.h,
 * docs/plots.md "The trade").  compare.json gives, for the load bench,
 * one "throughput" row per part and rung pair: the new side's operations
 * per second over the base's (ratio) with its interval (ratio_ci).  Read
 * per rung, against the base, they give each rung's throughput per part
 * and the geometric mean over the parts every rung measured; against RT
 * (the reference), the first screen's "RT does X % less work per second",
 * the trade table and the Pareto figure (worst case against throughput).
 *
 * The geometric mean's interval is the geometric mean of the parts'
 * lower bounds and of their upper bounds: the parts ran in the same
 * boots, so their errors may move together, and an interval of a mean
 * is never wider than the mean of the intervals whatever their
 * correlation.  An interval of one rung against another that is not the
 * base is not in compare.json and is not made up: it is left out.
 */
#include "figs.h"
#include "price.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

#define PRICE_PARTS 16		/* rtproof-load has 5 */
#define PRICE_RUNGS 32		/* as the headline */
#define NONE ((size_t)-1)

/* a throughput against another: lo and hi NaN when there is no interval */
struct tput {
	double v, lo, hi;
};

struct price {
	const json_t *cmp;
	bool rt_base;		/* RT is the base (compare-kernels); else a stock base against RT */
	size_t nrungs;		/* rung 0 the base, rung k + 1 the comparison's new[k] */
	const json_t *rung[PRICE_RUNGS];
	bool stock[PRICE_RUNGS];
	bool has[PRICE_RUNGS];	/* a throughput row; the base: when any rung has one */
	size_t nparts, ncommon;
	const char *key[PRICE_PARTS];		/* the rows' key: the part's identity */
	char part[PRICE_PARTS][64];		/* its name for people, one line */
	bool common[PRICE_PARTS];		/* measured on every rung with throughput */
	const json_t *row[PRICE_RUNGS][PRICE_PARTS];
	struct tput gm[PRICE_RUNGS];		/* against the base, over the common parts */
	size_t ref;		/* RT: the rung the others are shown against */
	size_t best;		/* the stock rung with the most work per second, or NONE */
};

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool positive(double v)
{
	return isfinite(v) && v > 0;
}

/* a row's ratio and interval, NaN where the document has none usable */
static struct tput row_tput(const json_t *r)
{
	const json_t *ci = json_object_get(r, "ratio_ci");
	struct tput t = { num(r, "ratio"), NAN, NAN };
	double lo = json_number_value(json_array_get(ci, 0)), hi = json_number_value(json_array_get(ci, 1));

	if (!positive(t.v))
		t.v = NAN;
	else if (json_array_size(ci) == 2 && positive(lo) && positive(hi) && lo <= t.v && t.v <= hi)
		t.lo = lo, t.hi = hi;
	return t;
}

bool rtp_plot_price_any(const json_t *cmp)
{
	const json_t *r;
	size_t i;

	if (!rtp_plot_rt_against_stock(cmp) && !rtp_plot_stock_against_rt(cmp))
		return false;
	json_array_foreach(json_object_get(cmp, "rows"), i, r)
		if (!strcmp(rtp_plot_str(r, "figure", ""), "throughput"))
			return true;
	return false;
}

/* The part's name from its key ("cpu 0 part ctxsw"): after "part ". */
static void part_name(char *buf, size_t len, const char *key)
{
	const char *p = strstr(key, "part ");

	rtp_plot_text(buf, len, p ? p + 5 : key);
}

/* Reads the comparison's throughput rows; false when it is not a ladder
 * or has none. */
static bool price_load(struct price *p, const json_t *cmp)
{
	const json_t *r, *nw;
	size_t i, k, pi;

	memset(p, 0, sizeof(*p));
	p->cmp = cmp;
	p->best = NONE;
	if (!rtp_plot_price_any(cmp))
		return false;
	p->rt_base = rtp_plot_rt_against_stock(cmp);
	p->rung[0] = json_object_get(cmp, "base");
	p->stock[0] = strcmp(rtp_plot_str(p->rung[0], "preempt", "rt"), "rt");
	p->nrungs = 1;
	json_array_foreach(json_object_get(cmp, "new"), k, nw) {
		if (p->nrungs == PRICE_RUNGS)
			break;
		p->stock[p->nrungs] = strcmp(rtp_plot_str(nw, "preempt", "rt"), "rt");
		p->rung[p->nrungs++] = nw;
	}
	json_array_foreach(json_object_get(cmp, "rows"), i, r) {
		double ix = num(r, "new_index");
		const char *key = rtp_plot_str(r, "key", "");

		if (strcmp(rtp_plot_str(r, "figure", ""), "throughput") || !(ix >= 0 && ix < (double)p->nrungs - 1) ||
		    ix != floor(ix))
			continue;
		k = (size_t)ix + 1;
		for (pi = 0; pi < p->nparts && strcmp(p->key[pi], key); pi++)
			;
		if (pi == p->nparts) {
			if (p->nparts == PRICE_PARTS)
				continue;
			p->key[pi] = key;
			part_name(p->part[pi], sizeof(p->part[pi]), key);
			p->nparts++;
		}
		if (!p->row[k][pi])
			p->row[k][pi] = r;
		p->has[k] = p->has[0] = true;
	}
	for (pi = 0; pi < p->nparts; pi++) {
		p->common[pi] = true;
		for (k = 1; k < p->nrungs; k++)
			if (p->has[k] && !positive(row_tput(p->row[k][pi]).v))
				p->common[pi] = false;
		p->ncommon += p->common[pi];
	}
	p->gm[0] = (struct tput){ 1, 1, 1 };
	for (k = 1; k < p->nrungs; k++) {
		double lv = 0, llo = 0, lhi = 0;
		bool ci = true;

		p->gm[k] = (struct tput){ NAN, NAN, NAN };
		if (!p->has[k] || !p->ncommon)
			continue;
		for (pi = 0; pi < p->nparts; pi++) {
			struct tput t = row_tput(p->row[k][pi]);

			if (!p->common[pi])
				continue;
			lv += log(t.v);
			ci = ci && !isnan(t.lo);
			llo += log(t.lo);
			lhi += log(t.hi);
		}
		p->gm[k].v = exp(lv / (double)p->ncommon);
		if (ci) {
			p->gm[k].lo = exp(llo / (double)p->ncommon);
			p->gm[k].hi = exp(lhi / (double)p->ncommon);
		}
	}
	/* RT: the base of a ladder, else the first RT rung */
	for (k = 0; k < p->nrungs && p->stock[k]; k++)
		;
	p->ref = k < p->nrungs ? k : 0;
	for (k = 0; k < p->nrungs; k++)
		if (p->stock[k] && p->has[k] && !isnan(p->gm[k].v) && (p->best == NONE || p->gm[k].v > p->gm[p->best].v))
			p->best = k;
	return true;
}

/* rung r's throughput against the base: part pi, or the mean (pi NONE) */
static struct tput against_base(const struct price *p, size_t r, size_t pi)
{
	if (r == 0)
		return (struct tput){ 1, 1, 1 };
	if (pi == NONE)
		return p->gm[r];
	return row_tput(p->row[r][pi]);
}

/* rung r's throughput against rung o; an interval when one of them is the
 * base (exact: 1), none otherwise */
static struct tput against(const struct price *p, size_t r, size_t o, size_t pi)
{
	struct tput a = against_base(p, r, pi), b = against_base(p, o, pi), t = { a.v / b.v, NAN, NAN };

	if (r == o)
		return (struct tput){ 1, 1, 1 };
	if (o == 0)
		t.lo = a.lo, t.hi = a.hi;
	else if (r == 0 && !isnan(b.lo))
		t.lo = 1 / b.hi, t.hi = 1 / b.lo;
	return t;
}

/*
 * Whether a throughput differs: compare's verdict says not enough data or
 * undecided (one run a side, the spread of the runs); else the interval
 * decides, significant when it leaves 1 out.  compare's own worse and
 * better are beyond its threshold (10 %): a 3 % price can be significant
 * and within it, and the price is what is asked here.
 */
enum call { C_FEW, C_UNDECIDED, C_NS, C_SIG };
static const char *const call_word[] = { "not enough data", "undecided", "no significant difference", "significant" };
static const char *const call_short[] = { "few data", "undecided", "n.s.", "significant" };

static enum call row_call(const json_t *row)
{
	const char *v = rtp_plot_str(row, "verdict", "");
	struct tput t = row_tput(row);

	if (!row || isnan(t.v) || isnan(t.lo) || !strcmp(v, "not-enough-data"))
		return C_FEW;
	if (!strcmp(v, "undecided"))
		return C_UNDECIDED;
	return t.lo > 1 || t.hi < 1 ? C_SIG : C_NS;
}

/* the geometric mean g of rung k's parts against the base: the least of
 * its parts' calls where they could not decide, else its interval's */
static enum call mean_call(const struct price *p, size_t k, struct tput g)
{
	enum call c = C_SIG;
	size_t pi;

	if (!k || k == NONE || isnan(g.lo))
		return C_FEW;
	for (pi = 0; pi < p->nparts; pi++)
		if (p->common[pi] && row_call(p->row[k][pi]) < c)
			c = row_call(p->row[k][pi]);
	if (c < C_NS)
		return c;
	return g.lo > 1 || g.hi < 1 ? C_SIG : C_NS;
}

/* "-9.1 % [-9.4, -8.8]" */
static void pct(char *buf, size_t len, struct tput t)
{
	if (isnan(t.v))
		snprintf(buf, len, "not measured");
	else if (isnan(t.lo))
		snprintf(buf, len, "%+.1f %%", (t.v - 1) * 100);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", (t.v - 1) * 100, (t.lo - 1) * 100, (t.hi - 1) * 100);
}

/* "RT does 9.1 % less work per second than stock-none" */
static void does(char *buf, size_t len, double v, const char *than)
{
	double d = (v - 1) * 100;

	if (fabs(d) < 0.05)
		snprintf(buf, len, "RT does as much work per second as %s", than);
	else
		snprintf(buf, len, "RT does %.1f %% %s work per second than %s", fabs(d), d < 0 ? "less" : "more", than);
}

static void mean_conf(char *buf, size_t len, struct tput g, double level, enum call c)
{
	if (isnan(g.lo))
		snprintf(buf, len, "no interval");
	else
		snprintf(buf, len, "%g %% CI [%+.1f, %+.1f] %%, %s", level * 100, (g.lo - 1) * 100, (g.hi - 1) * 100,
			 call_word[c]);
}

void rtp_plot_price_line(const struct rtp_plot_set *set, struct rtp_plot_answer *a, size_t k)
{
	struct price p;
	char line[sizeof(a->line[0])] = "", rung[96], t[160], c[96];
	size_t rt, st, pi;

	if (!price_load(&p, set->compare) || k + 1 >= p.nrungs)
		return;
	rt = p.rt_base ? 0 : k + 1;
	st = p.rt_base ? k + 1 : 0;
	rtp_plot_text(rung, sizeof(rung), rtp_plot_str(p.rung[st], "label", "?"));
	if (!p.has[k + 1] || isnan(p.gm[k + 1].v)) {
		rtp_plot_answer_add(a, "throughput, RT against %s: not measured (no throughput rows for this pair, or "
				    "none for the parts the other rungs measured).", rung);
		return;
	}
	does(t, sizeof(t), against(&p, rt, st, NONE).v, rung);
	mean_conf(c, sizeof(c), against(&p, rt, st, NONE), num(set->compare, "confidence"),
		  mean_call(&p, k + 1, p.gm[k + 1]));
	rtp_appendf(line, sizeof(line), "throughput, RT against %s: %s (geometric mean of the %zu part%s, %s; per part:",
		    rung, t, p.ncommon, p.ncommon == 1 ? "" : "s", c);
	for (pi = 0; pi < p.nparts; pi++) {
		pct(t, sizeof(t), against(&p, rt, st, pi));
		rtp_appendf(line, sizeof(line), "%s %s %s%s%s", pi ? "," : "", p.part[pi], t,
			    p.row[k + 1][pi] ? " " : "", p.row[k + 1][pi] ? call_word[row_call(p.row[k + 1][pi])] : "");
	}
	rtp_plot_answer_add(a, "%s).", line);
}

void rtp_plot_price_head(const struct rtp_plot_set *set, struct rtp_plot_answer *a)
{
	struct price p;
	char rung[96], than[160], t[240], c[96];
	struct tput g;
	size_t k;

	if (!price_load(&p, set->compare)) {
		if (rtp_plot_rt_against_stock(set->compare) || rtp_plot_stock_against_rt(set->compare))
			rtp_plot_answer_add(a, "Throughput: not measured (compare.json has no throughput rows: a "
					    "ladder without the price phase, rtproof-load).");
		return;
	}
	if (p.best == NONE || p.best == p.ref)
		return;
	g = against(&p, p.ref, p.best, NONE);
	rtp_plot_text(rung, sizeof(rung), rtp_plot_str(p.rung[p.best], "label", "?"));
	snprintf(than, sizeof(than), "the fastest stock rung, %s", rung);
	does(t, sizeof(t), g.v, than);
	/* the rows behind it: the fastest stock rung's against the RT base, or RT's against a stock base */
	k = p.ref ? p.ref : p.best;
	mean_conf(c, sizeof(c), g, num(set->compare, "confidence"), mean_call(&p, k, p.gm[k]));
	rtp_appendf(a->head, sizeof(a->head), " Its price in work done: %s (geometric mean of %zu part%s; %s).", t,
		    p.ncommon, p.ncommon == 1 ? "" : "s", c);
}

/* ---- the trade table ------------------------------------------------------ */

static void html(FILE *f, const char *s)
{
	rtp_plot_html(f, s, 200);
}

/* A rung's worst case (the max row of bench's primary measure): its
 * value and interval, the row (NULL when none). */
static const json_t *worst(const struct price *p, size_t r, int b, struct tput *w)
{
	const json_t *rows = json_object_get(p->cmp, "rows"), *row = NULL, *ci;
	size_t k;

	for (k = r ? r - 1 : 0; k + 1 < p->nrungs && !row; k++) {
		row = rtp_plot_trade_row(rows, rtp_plot_bench_name[b], k, "max");
		if (r)
			break;
	}
	*w = (struct tput){ NAN, NAN, NAN };
	if (!row)
		return NULL;
	w->v = num(row, r ? "new" : "base");
	ci = json_object_get(row, r ? "new_ci" : "base_ci");
	if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)))
		w->lo = json_number_value(json_array_get(ci, 0)), w->hi = json_number_value(json_array_get(ci, 1));
	return row;
}

static void lat(FILE *f, double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		fprintf(f, "%.1f&nbsp;&micro;s", v / 1e3);
	else {
		fprintf(f, "%g&nbsp;", v);
		html(f, unit);
	}
}

/*
 * Rung r's rows compare it with RT as the trade does: a stock rung's
 * against the RT base, or the stock base's against the RT rung; not RT
 * itself, nor an RT rung against the RT base (rt-full against rt).
 */
static bool against_rt(const struct price *p, size_t r)
{
	return p->rt_base ? r && p->stock[r] : r == 0 && p->ref;
}

/* The verdict of the row comparing rung r with the base, short, from
 * RT's side where it is RT against stock ("worse" is the new side's);
 * NULL when the row is not rung r's against the base's. */
static const char *rt_side(const struct price *p, size_t r, const json_t *row)
{
	const char *v = rtp_plot_str(row, "verdict", "");
	bool worse = !strcmp(v, "worse"), better = !strcmp(v, "better");

	if (!row || !(against_rt(p, r) || (p->rt_base && r)))
		return NULL;
	if (!worse && !better)
		return !strcmp(v, "same") ? "n.s." : !strcmp(v, "undecided") ? "undecided" : "few data";
	return !against_rt(p, r) ? "significant" : worse == p->rt_base ? "RT better" : "RT worse";
}

/* rung r's throughput against RT, part pi (NONE: the geometric mean);
 * under it the call, from RT's side where it is RT against stock */
static void tput_cell(FILE *f, const struct price *p, size_t r, size_t pi)
{
	struct tput t = against(p, r, p->ref, pi);
	size_t owner = r ? r : p->ref;		/* whose rows against the base these are */
	enum call c = C_FEW;

	if (r == p->ref) {
		fputs("<td class=\"num\">reference</td>", f);
		return;
	}
	if (isnan(t.v)) {
		fputs("<td class=\"num\">&#8211;</td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\">%+.1f&nbsp;%%", (t.v - 1) * 100);
	if (!isnan(t.lo))
		fprintf(f, "<br><small>[%+.1f, %+.1f]</small>", (t.lo - 1) * 100, (t.hi - 1) * 100);
	if (against_rt(p, r) || (p->rt_base && r)) {
		c = pi == NONE ? mean_call(p, owner, p->gm[owner]) : row_call(p->row[owner][pi]);
		fprintf(f, "<br><small>%s</small>", c != C_SIG ? call_short[c] : !against_rt(p, r) ? "significant" :
			t.v > 1 ? "RT worse" : "RT better");
	}
	fputs("</td>", f);
}

void rtp_report_trade_table(FILE *f, const struct rtp_plot_set *set, bool pareto)
{
	struct price p;
	const json_t *rows = json_object_get(set->compare, "rows"), *head[RP_NBENCH] = { NULL };
	size_t r, pi;
	int b, nb = 0;

	if (!price_load(&p, set->compare))
		return;
	for (b = 0; b < RP_NBENCH; b++) {
		for (r = 0; r + 1 < p.nrungs && !head[b]; r++)
			head[b] = rtp_plot_trade_row(rows, rtp_plot_bench_name[b], r, "max");
		nb += head[b] != NULL;
	}
	fputs("<h3 id=\"trade\">The trade per rung: worst case against work done</h3>\n<p>Each rung's worst case "
	      "(the maximum of each bench's primary measure, as the first screen weighs it) beside its throughput "
	      "against RT's (", f);
	html(f, rtp_plot_str(p.rung[p.ref], "label", "?"));
	fprintf(f, "): operations per second of each part of rtproof-load, more is better, and their geometric "
		"mean over the %zu part(s) every rung measured, with %g&nbsp;%% intervals where compare.json gives "
		"them (against RT only). Under each figure whether it differs from RT's: RT better or RT worse "
		"where the difference is significant (a latency: beyond compare's threshold; a throughput: its "
		"interval leaves out 0), n.s. where it is not, undecided, few data.%s</p>\n", p.ncommon,
		num(set->compare, "confidence") * 100,
		pareto ? " Drawn as a figure: <a href=\"#trade-pareto\">worst case against throughput</a>." : "");
	fputs("<div class=\"wrap\" id=\"trade-box\"><table id=\"trade-table\"><thead><tr><th rowspan=\"2\">rung</th>", f);
	if (nb)
		fprintf(f, "<th colspan=\"%d\">worst case (max)</th>", nb);
	fprintf(f, "<th colspan=\"%zu\">throughput against RT</th></tr>\n<tr>", p.nparts + 1);
	for (b = 0; b < RP_NBENCH; b++) {
		if (!head[b])
			continue;
		fprintf(f, "<th>%s<br><small>", rtp_plot_bench_name[b]);
		html(f, rtp_plot_str(head[b], "metric", ""));
		fputs("</small></th>", f);
	}
	for (pi = 0; pi < p.nparts; pi++) {
		fputs("<th>", f);
		html(f, p.part[pi]);
		fputs("</th>", f);
	}
	fputs("<th>geometric mean</th></tr></thead><tbody>\n", f);
	for (r = 0; r < p.nrungs; r++) {
		fputs("<tr><td class=\"rung\">", f);
		html(f, rtp_plot_str(p.rung[r], "label", "?"));
		fputs("<br><small>preempt ", f);
		html(f, rtp_plot_str(p.rung[r], "preempt", "?"));
		fputs("</small></td>", f);
		for (b = 0; b < RP_NBENCH; b++) {
			struct tput w;
			const json_t *row;

			if (!head[b])
				continue;
			row = worst(&p, r, b, &w);
			fputs("<td class=\"num\">", f);
			if (!row || isnan(w.v)) {
				fputs("&#8211;</td>", f);
				continue;
			}
			lat(f, w.v, rtp_plot_str(row, "unit", ""));
			if (!isnan(w.lo)) {
				fputs("<br><small>[", f);
				lat(f, w.lo, rtp_plot_str(row, "unit", ""));
				fputs(", ", f);
				lat(f, w.hi, rtp_plot_str(row, "unit", ""));
				fputs("]</small>", f);
			}
			if (rt_side(&p, r, row))
				fprintf(f, "<br><small>%s</small>", rt_side(&p, r, row));
			fputs("</td>", f);
		}
		for (pi = 0; pi < p.nparts; pi++)
			tput_cell(f, &p, r, pi);
		tput_cell(f, &p, r, NONE);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* ---- the Pareto figure ---------------------------------------------------- */

/* The figure's geometry, for placing the rung labels: its 960 x 600
 * image has a plot area of about 820 x 440 pixels; a character of the
 * labels' font is about 6.5 pixels wide and a line 14 high. */
#define PLOT_W 820.0
#define PLOT_H 440.0
#define CHAR_W 6.5
#define LINE_H 14.0

struct point {
	double x, lo, hi;		/* % of the fastest stock rung */
	double y[RP_NBENCH];		/* worst case, us; NaN: none */
	double ly;			/* where its label goes */
	bool any;
};

/*
 * One label per rung, above its highest point, centred; a label that
 * would overlap one placed before goes one line higher, until it does
 * not (greedy, left to right).  Positions are data: gnuplot reads them
 * from the data file with the label text.
 */
static void place_labels(const struct price *p, struct point *pt, double x0, double x1, double y0, double y1)
{
	double ux = PLOT_W / (x1 - x0), uy = PLOT_H / (log10(y1) - log10(y0));
	size_t r, o, len[PRICE_RUNGS];
	bool placed[PRICE_RUNGS] = { false };

	for (r = 0; r < p->nrungs; r++) {
		char t[64];

		len[r] = strlen(rtp_plot_text(t, sizeof(t), rtp_plot_str(p->rung[r], "label", "?")));
	}
	for (;;) {
		size_t next = NONE;
		double top = 0;
		int b, guard;

		for (r = 0; r < p->nrungs; r++)
			if (pt[r].any && !placed[r] && (next == NONE || pt[r].x < pt[next].x))
				next = r;
		if (next == NONE)
			return;
		for (b = 0; b < RP_NBENCH; b++)
			if (!isnan(pt[next].y[b]) && pt[next].y[b] > top)
				top = pt[next].y[b];
		/* a line and a half above the point: clear of its marker */
		pt[next].ly = top * pow(10, 1.2 * LINE_H / uy);
		for (guard = 0; guard < 2 * PRICE_RUNGS; guard++) {
			bool clash = false;

			for (o = 0; o < p->nrungs && !clash; o++)
				clash = placed[o] && fabs(pt[o].x - pt[next].x) * ux < (double)(len[o] + len[next]) / 2 * CHAR_W + 4 &&
					fabs(log10(pt[o].ly) - log10(pt[next].ly)) * uy < LINE_H;
			if (!clash)
				break;
			pt[next].ly *= pow(10, LINE_H / uy);
		}
		placed[next] = true;
	}
}

int fig_pareto(struct ctx *c)
{
	struct price p;
	struct point pt[PRICE_RUNGS];
	struct fw w;
	char t[600], best[96], parts[400] = "";
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	size_t r, pi;
	int b, ret, k = 0, bi;

	if (!price_load(&p, c->set->compare))
		return 0;	/* no price phase: no figure, the first screen says so */
	ret = fw_begin_set(&w, c, "trade-pareto", -1, "The trade: worst-case latency against work done per second, "
			   "one point per rung and bench");
	if (ret)
		return ret;
	if (p.best == NONE) {
		fw_note(&w, "not drawn: no stock rung has a throughput to measure the others against");
		return fw_end(&w);
	}
	for (pi = 0; pi < p.nparts; pi++)
		if (p.common[pi])
			rtp_appendf(parts, sizeof(parts), "%s%s", parts[0] ? ", " : "", p.part[pi]);
	rtp_plot_text(best, sizeof(best), rtp_plot_str(p.rung[p.best], "label", "?"));
	/* x: each rung against the fastest stock rung; error bars: the rung's
	 * interval against the base on this scale, the base's the fastest
	 * stock rung's inverted (compare.json has no other) */
	for (r = 0; r < p.nrungs; r++) {
		struct point *q = &pt[r];

		memset(q, 0, sizeof(*q));
		q->x = fw_gpnum(p.gm[r].v / p.gm[p.best].v * 100);
		q->lo = q->hi = q->x;
		if (r && !isnan(p.gm[r].lo))
			q->lo = p.gm[r].lo / p.gm[p.best].v * 100, q->hi = p.gm[r].hi / p.gm[p.best].v * 100;
		else if (!r && p.best && !isnan(p.gm[p.best].lo))
			q->lo = 100 / p.gm[p.best].hi, q->hi = 100 / p.gm[p.best].lo;
		q->lo = fw_gpnum(q->lo), q->hi = fw_gpnum(q->hi);
		for (b = 0; b < RP_NBENCH; b++) {
			struct tput y;
			const json_t *row = worst(&p, r, b, &y);

			q->y[b] = NAN;
			if (!row || !positive(y.v) || !positive(q->x) || !positive(q->lo))
				continue;
			q->y[b] = fw_gpnum(strcmp(rtp_plot_str(row, "unit", ""), "ns") ? y.v : y.v / 1e3);
			q->any = true;
			y0 = fmin(y0, q->y[b]);
			y1 = fmax(y1, q->y[b]);
		}
		if (q->any) {
			x0 = fmin(x0, q->lo);
			x1 = fmax(x1, q->hi);
		}
	}
	if (!isfinite(x0) || !isfinite(y0)) {
		fw_note(&w, "not drawn: no rung has both a worst case and a throughput");
		return fw_end(&w);
	}
	/* room around the points: the error bars' ends, the labels above;
	 * points all at one throughput still get an axis */
	{
		double dx = x1 - x0 < 1 ? 1 : (x1 - x0) * 0.06;

		x0 -= dx;
		x1 += dx;
	}
	y0 /= 2.5;
	y1 *= 5;
	place_labels(&p, pt, x0, x1, y0, y1);
	fprintf(w.gp, "set xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\nset logscale y\nset format x \"%%g %%%%\"\n"
		"set ylabel \"worst case: maximum latency (us, log scale)\"\n"
		/* the key under the axis label: "below" draws it over the label */
		"set bmargin 7\nset key at screen 0.5, screen 0.015 center bottom horizontal\nset xlabel ",
		x0, x1, y0, y1);
	snprintf(t, sizeof(t), "work per second, %% of the fastest stock rung's (%s), geometric mean of %zu part%s "
		 "of rtproof-load", best, p.ncommon, p.ncommon == 1 ? "" : "s");
	fw_gpq(w.gp, t);
	fputc('\n', w.gp);
	for (b = 0; b < RP_NBENCH; b++) {
		const char *metric = NULL;

		bi = -1;
		for (r = 0; r < p.nrungs; r++) {
			struct tput y;

			if (isnan(pt[r].y[b]))
				continue;
			if (bi < 0) {
				metric = rtp_plot_str(worst(&p, r, b, &y), "metric", "?");
				snprintf(t, sizeof(t), "%s %s: throughput_pct low_pct high_pct worst_us rung (throughput: "
					 "the geometric mean of %s)", rtp_plot_bench_name[b], metric, parts);
				bi = fw_blk(&w, t);
			}
			fw_row(&w, "%.6g %.6g %.6g %.6g \"", pt[r].x, pt[r].lo, pt[r].hi, pt[r].y[b]);
			fw_dat_text(w.dat, rtp_plot_str(p.rung[r], "label", "?"));
			fputs("\"\n", w.dat);
		}
		if (bi < 0)
			continue;
		fw_clause(&w);
		fprintf(w.gp, "datafile index %d using 1:4:2:3 with xerrorbars pt %d ps 1.6 lw 1.5 lc rgb \"%s\" title ",
			bi, 4 + 2 * k, fw_colour[k % NCOLOUR]);
		snprintf(t, sizeof(t), "%s %s max", rtp_plot_bench_name[b], metric);
		fw_gpq(w.gp, t);
		k++;
	}
	bi = fw_blk(&w, "rung labels: throughput_pct label_y_us rung (above the rung's highest point)");
	for (r = 0; r < p.nrungs; r++) {
		if (!pt[r].any)
			continue;
		fw_row(&w, "%.6g %.6g \"", pt[r].x, fw_gpnum(pt[r].ly));
		fw_dat_text(w.dat, rtp_plot_str(p.rung[r], "label", "?"));
		fputs("\"\n", w.dat);
	}
	fw_clause(&w);
	fprintf(w.gp, "datafile index %d using 1:2:3 with labels center font \",10\" tc rgb \"black\" notitle", bi);
	snprintf(w.f->caption, sizeof(w.f->caption),
		 "Each point is one rung and one bench, named by the label above the rung's points: its worst case "
		 "(the maximum of the bench's primary measure, microseconds, log scale) against its work per second, "
		 "the geometric mean over the parts of rtproof-load as a percentage of the fastest stock rung's (%s). "
		 "Down is a better worst case, right more work done: a rung that no other beats on both is on the "
		 "Pareto front. Error bars: the rung's %g %% interval against the comparison's base (the base's: "
		 "the fastest stock rung's, inverted); the worst case is drawn without one.",
		 best, fw_num(c->set->compare, "confidence", 0) * 100);
	return fw_end(&w);
}
