// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-compare: the table, the JSON document and the regression lines. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afile.h"
#include "json.h"
#include "log.h"

/* ---- output ------------------------------------------------------------ */

const char *const cmp_vname[] = { "same", "worse", "better", "not-enough-data", "undecided" };
const char *const cmp_vtext[] = { "no significant difference", "WORSE", "better", "not enough data",
				  "UNDECIDED" };

static void fmt_val(char *buf, size_t len, double v, const char *unit, bool has)
{
	if (!has || isnan(v))
		snprintf(buf, len, "-");
	else if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.1f", v / 1000);
	else if (!strcmp(unit, "/h"))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void fmt_ci(char *buf, size_t len, const double ci[2], bool ok, const char *unit)
{
	char a[32], b[32];

	if (!ok) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_val(a, sizeof(a), ci[0], unit, true);
	fmt_val(b, sizeof(b), ci[1], unit, true);
	snprintf(buf, len, "[%s, %s]", a, b);
}

static const char *unit_shown(const char *unit)
{
	return !strcmp(unit, "ns") ? "us" : unit;
}

static void fmt_ratio(char *buf, size_t len, double r)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else if (isinf(r))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "x%.2f", r);
}

void print_text(FILE *f, const struct side *sides, int nsides, const struct ctx *c)
{
	int s;
	size_t i;
	char last[320];

	fprintf(f, "rtproof compare: base %s (%s, preempt %s)\n", sides[0].label,
		sides[0].runs[0].docs[0].kernel_release, sides[0].runs[0].docs[0].preempt);
	for (s = 1; s < nsides; s++)
		fprintf(f, "                 new  %s (%s, preempt %s)\n", sides[s].label,
			sides[s].runs[0].docs[0].kernel_release, sides[s].runs[0].docs[0].preempt);
	fprintf(f, "confidence %.3g, threshold %.3g %%: a figure is worse when its whole ratio interval\n"
		   "lies beyond the threshold; the max when the new side's episodes above the base max\n"
		   "are more than chance gives for the two run lengths (runs: also beyond the spread).\n"
		   "Dependence: intervals count the samples' clusters in time (the blocks estimator of\n"
		   "the extremal index), the max test counts declustered blocks, never lone samples.\n"
		   "Family-wise: over all figures of each comparison the chance of any false worse or\n"
		   "better is at most %.3g (Holm).\n",
		c->o->confidence, c->o->threshold * 100, c->alpha);
	for (s = 0; s < nsides; s++)
		if (sides[s].nruns < 2) {
			fprintf(f, "One run on a side (%s): the run-to-run spread is unknown; a second run of\n"
				   "each side is what tells a changed kernel from a changed day.  Meanwhile the\n"
				   "halves of each run stand in for runs at the max and the tail percentiles: a\n"
				   "change seen in one half only is undecided, and a percentile that moved by\n"
				   "less than x2 is undecided (a whole run can sit that much higher or lower).\n",
				sides[s].label);
			break;
		}
	for (i = 0; i < (size_t)cmp_nwarnings; i++)
		fprintf(f, "warning: %s\n", cmp_warnings[i]);
	for (s = 1; s < nsides; s++) {
		last[0] = 0;
		if (nsides > 2)
			fprintf(f, "\n==== %s against %s ====\n", sides[s].label, sides[0].label);
		for (i = 0; i < cmp_nrows; i++) {
			const struct row *w = &cmp_rows[i];
			char head[320], bv[32], nv[32], bc[64], nc[64], ra[32];

			if (w->new_index != s - 1)
				continue;
			snprintf(head, sizeof(head), "%s %s%s%s (%s)", w->bench, w->metric, *w->key ? " " : "",
				 w->key, unit_shown(w->unit));
			if (strcmp(head, last)) {
				fprintf(f, "\n%s\n  %-10s %10s %-22s %10s %-22s %8s  %s\n", head, "figure", "base",
					"  interval", "new", "  interval", "ratio", "verdict");
				snprintf(last, sizeof(last), "%s", head);
			}
			fmt_val(bv, sizeof(bv), w->base, w->unit, w->has_base);
			fmt_val(nv, sizeof(nv), w->new, w->unit, w->has_new);
			fmt_ci(bc, sizeof(bc), w->base_ci, w->base_ci_ok, w->unit);
			fmt_ci(nc, sizeof(nc), w->new_ci, w->new_ci_ok, w->unit);
			fmt_ratio(ra, sizeof(ra), w->ratio);
			fprintf(f, "  %-10s %10s %-22s %10s %-22s %8s  %s%s%s%s\n", w->figure, bv, bc, nv, nc, ra,
				cmp_vtext[w->v], *w->note ? " (" : "", w->note, *w->note ? ")" : "");
			if (w->ratio_ci_ok && !strcmp(w->unit, "ops/s"))
				fprintf(f, "  %-10s ratio in [x%.4f, x%.4f] (%+.1f %% to %+.1f %%)\n", "", w->ratio_ci[0],
					w->ratio_ci[1], (w->ratio_ci[0] - 1) * 100, (w->ratio_ci[1] - 1) * 100);
			if (*w->advice)
				fprintf(f, "  %-10s %s\n", "", w->advice);
		}
	}
	if (cmp_nests) {
		fprintf(f, "\nEstimates, not measurements: the latency exceeded once in 1e9 samples, from a\n"
			   "Gumbel fit (probability-weighted moments) of block maxima; fit quality as the\n"
			   "probability-plot correlation (1 = perfect) and the Kolmogorov-Smirnov distance.\n");
		for (i = 0; i < cmp_nests; i++) {
			const struct estimate *e = &cmp_ests[i];

			fprintf(f, "  %-16s %s %s%s%s: %.1f us (estimate; %zu blocks of %.0f samples, ppcc %.3f, KS %.3f)\n",
				e->side_label, e->bench, e->metric, *e->key ? " " : "", e->key, e->value / 1000,
				e->blocks, e->block_samples, e->ppcc, e->ks);
		}
	}
}

static void json_num(struct rtp_json *j, const char *k, double v, bool has)
{
	if (has && isfinite(v))
		rtp_json_double(j, k, v);
	else
		rtp_json_null(j, k);
}

static void json_pair(struct rtp_json *j, const char *k, const double v[2], bool ok)
{
	if (!ok) {
		rtp_json_null(j, k);
		return;
	}
	rtp_json_begin_array(j, k);
	rtp_json_double(j, NULL, v[0]);
	rtp_json_double(j, NULL, v[1]);
	rtp_json_end_array(j);
}

static void json_side(struct rtp_json *j, const char *k, const struct side *s)
{
	const struct rtp_doc *d = &s->runs[0].docs[0];

	rtp_json_begin_object(j, k);
	rtp_json_string(j, "label", s->label);
	rtp_json_string(j, "path", s->path);
	rtp_json_string(j, "kernel_release", d->kernel_release);
	rtp_json_string(j, "preempt", d->preempt);
	rtp_json_int(j, "runs", (int64_t)s->nruns);
	rtp_json_end_object(j);
}

static void key_json(struct rtp_json *j, const char *key, const char *field)
{
	char v[64];
	char *end;
	long long n;

	key_field(key, field, v, sizeof(v));
	if (!v[0]) {
		rtp_json_null(j, field);
		return;
	}
	n = strtoll(v, &end, 10);
	if (!*end)
		rtp_json_int(j, field, n);
	else
		rtp_json_string(j, field, v);
}

void regression_text(const struct row *w, const struct side *sides, int nsides, char *buf, size_t len)
{
	char pct[32];
	double r = w->ratio;

	if (isinf(r))
		snprintf(pct, sizeof(pct), "from 0");
	else
		snprintf(pct, sizeof(pct), "%+.0f %%", (r - 1) * 100);
	snprintf(buf, len, "%s%s%s%s %s%s%s %s %s%s%s%s", nsides > 2 ? "[" : "",
		 nsides > 2 ? sides[w->new_index + 1].label : "", nsides > 2 ? "] " : "", w->bench, w->metric,
		 *w->key ? " " : "", w->key, w->figure, pct, *w->note ? " (" : "", w->note, *w->note ? ")" : "");
}

int write_json(const char *path, const struct side *sides, int nsides, const struct ctx *c,
		      const char *status)
{
	struct rtp_afile a;
	struct rtp_json j;
	size_t i;
	int s, ret;

	ret = rtp_afile_open(&a, path);
	if (ret) {
		rtp_error("--json %s: cannot create: %s", path, strerror(-ret));
		return ret;
	}
	rtp_json_init(&j, a.f, true);
	rtp_json_begin_object(&j, NULL);
	rtp_json_string(&j, "schema", "rtproof-compare/1");
	rtp_json_double(&j, "confidence", c->o->confidence);
	rtp_json_double(&j, "threshold", c->o->threshold);
	rtp_json_string(&j, "family_wise", "Holm over the tested rows of each new side against the base");
	rtp_json_string(&j, "dependence",
			"quantiles: effective samples n * extremal index (blocks estimator); max: episodes (declustered blocks)");
	for (s = 0; s < nsides && sides[s].nruns > 1; s++)
		;
	rtp_json_bool(&j, "run_to_run_spread_known", s == nsides);
	json_side(&j, "base", &sides[0]);
	rtp_json_begin_array(&j, "new");
	for (s = 1; s < nsides; s++)
		json_side(&j, NULL, &sides[s]);
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "warnings");
	for (s = 0; s < cmp_nwarnings; s++)
		rtp_json_string(&j, NULL, cmp_warnings[s]);
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "rows");
	for (i = 0; i < cmp_nrows; i++) {
		const struct row *w = &cmp_rows[i];

		rtp_json_begin_object(&j, NULL);
		rtp_json_string(&j, "bench", w->bench);
		rtp_json_string(&j, "metric", w->metric);
		key_json(&j, w->key, "cpu");
		key_json(&j, w->key, "thread");
		rtp_json_string(&j, "key", w->key);
		rtp_json_string(&j, "figure", w->figure);
		rtp_json_string(&j, "unit", w->unit);
		rtp_json_int(&j, "new_index", w->new_index);
		json_num(&j, "base", w->base, w->has_base);
		json_pair(&j, "base_ci", w->base_ci, w->base_ci_ok);
		json_num(&j, "new", w->new, w->has_new);
		json_pair(&j, "new_ci", w->new_ci, w->new_ci_ok);
		if (w->spread) {
			json_pair(&j, "base_spread", w->base_spread, true);
			json_pair(&j, "new_spread", w->new_spread, true);
			rtp_json_string(&j, "spread_from", w->spread_halves ? "halves" : "runs");
		}
		json_num(&j, "ratio", w->ratio, w->has_base && w->has_new);
		if (w->ratio_ci_ok)
			json_pair(&j, "ratio_ci", w->ratio_ci, isfinite(w->ratio_ci[0]) && isfinite(w->ratio_ci[1]));
		rtp_json_bool(&j, "higher_is_worse", w->higher_is_worse);
		json_num(&j, "p", w->p, w->tested);
		json_num(&j, "p_holm", w->p_adj, w->tested);
		if (!strcmp(w->figure, "max") && w->tested) {
			rtp_json_int(&j, "episodes_new_above_base_max", w->episodes_new);
			rtp_json_int(&j, "episodes_base_above_new_max", w->episodes_base);
			rtp_json_double(&j, "episode_block_s", w->episode_s);
		}
		rtp_json_string(&j, "verdict", cmp_vname[w->v]);
		rtp_json_string(&j, "method", w->method);
		if (*w->note)
			rtp_json_string(&j, "note", w->note);
		if (*w->advice)
			rtp_json_string(&j, "advice", w->advice);
		rtp_json_end_object(&j);
	}
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "estimates");
	for (i = 0; i < cmp_nests; i++) {
		const struct estimate *e = &cmp_ests[i];

		rtp_json_begin_object(&j, NULL);
		rtp_json_string(&j, "bench", e->bench);
		rtp_json_string(&j, "metric", e->metric);
		rtp_json_string(&j, "key", e->key);
		rtp_json_string(&j, "side", e->side_label);
		rtp_json_int(&j, "new_index", e->new_index);
		rtp_json_string(&j, "figure", "exceeded once in 1e9 samples");
		rtp_json_string(&j, "kind", "estimate: Gumbel fit of block maxima (probability-weighted moments)");
		rtp_json_string(&j, "unit", "ns");
		json_num(&j, "value", e->value, true);
		rtp_json_int(&j, "blocks", (int64_t)e->blocks);
		rtp_json_double(&j, "block_s", e->block_s);
		rtp_json_double(&j, "samples_per_block", e->block_samples);
		rtp_json_double(&j, "ppcc", e->ppcc);
		rtp_json_double(&j, "ks", e->ks);
		rtp_json_end_object(&j);
	}
	rtp_json_end_array(&j);
	rtp_json_begin_object(&j, "verdict");
	rtp_json_string(&j, "status", status);
	rtp_json_begin_array(&j, "regressions");
	for (i = 0; i < cmp_nrows; i++) {
		char buf[512];

		if (cmp_rows[i].v != V_WORSE)
			continue;
		regression_text(&cmp_rows[i], sides, nsides, buf, sizeof(buf));
		rtp_json_string(&j, NULL, buf);
	}
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "undecided");
	for (i = 0; i < cmp_nrows; i++) {
		char buf[512];

		if (cmp_rows[i].v != V_UNDECIDED)
			continue;
		regression_text(&cmp_rows[i], sides, nsides, buf, sizeof(buf));
		rtp_json_string(&j, NULL, buf);
	}
	rtp_json_end_array(&j);
	rtp_json_end_object(&j);
	rtp_json_end_object(&j);
	ret = rtp_json_finish(&j);
	if (ret) {
		rtp_afile_abort(&a);
		rtp_error("--json %s: cannot write", path);
		return ret;
	}
	ret = rtp_afile_commit(&a);
	if (ret)
		rtp_error("--json %s: cannot write: %s", path, strerror(-ret));
	return ret;
}

