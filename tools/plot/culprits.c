// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's culprit table: events.explain.by_culprit[], with a bar per row. */
#include "culprits.h"

#include <string.h>

#define ROWS 15		/* rows per document; the rest are in the document */

/* Text of a document (a comm is any task's own bytes) for the page: a comm
 * is 15 bytes, an IRQ name a few dozen; more is cut and says so. */
static void text(FILE *f, const char *s)
{
	rtp_plot_html(f, s, 64);
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static const char *str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : "";
}

static void dur(FILE *f, double ns)
{
	if (ns >= 1e6)
		fprintf(f, "%.2f ms", ns / 1e6);
	else
		fprintf(f, "%.1f &micro;s", ns / 1e3);
}

static void one(FILE *f, const struct rtp_plot_run *run, int b, const json_t *ex, const json_t *rows)
{
	double top = 0, outl = num(ex, "outliers"), att = num(ex, "attributed");
	size_t i, n = json_array_size(rows);

	for (i = 0; i < n; i++)
		if (num(json_array_get(rows, i), "ns") > top)
			top = num(json_array_get(rows, i), "ns");
	fputs("<h3>", f);
	text(f, run->label);
	fprintf(f, ": rtproof-%s</h3>\n<p>", rtp_plot_bench_name[b]);
	fprintf(f, "%.0f outliers above ", outl);
	dur(f, num(ex, "threshold_ns"));
	fprintf(f, ", %.0f attributed to a culprit", att);
	if (outl > 0)
		fprintf(f, " (%.1f %%)", 100.0 * att / outl);
	fputs(". Time each culprit held the CPU inside the outliers' windows, largest first.</p>\n", f);
	fputs("<div class=\"wrap\"><table><tr><th>culprit</th><th>kind</th><th>policy</th><th>time</th>"
	      "<th></th><th>outliers</th><th>attributed</th><th>worst</th></tr>\n", f);
	for (i = 0; i < n && i < ROWS; i++) {
		const json_t *r = json_array_get(rows, i);
		const json_t *kt = json_object_get(r, "kthread");
		double ns = num(r, "ns");

		fputs("<tr><td>", f);
		text(f, str(r, "name"));
		if (!strcmp(str(r, "kind"), "task"))
			fprintf(f, "[%.0f]%s", num(r, "pid"), json_is_true(kt) ? " (kernel thread)" :
				json_is_false(kt) ? " (user)" : "");
		fputs("</td><td>", f);
		text(f, str(r, "kind"));
		fputs("</td><td>", f);
		if (!strcmp(str(r, "kind"), "task")) {
			const char *pol = str(r, "policy");

			text(f, pol);
			fprintf(f, "%s %.0f", !strcmp(pol, "OTHER") || !strcmp(pol, "BATCH") || !strcmp(pol, "IDLE") ?
				" nice" : "", num(r, "prio"));
		}
		fputs("</td><td class=\"num\">", f);
		dur(f, ns);
		/* the bar: a share of the largest, drawn by the width of a block */
		fprintf(f, "</td><td style=\"min-width:8rem\"><div style=\"background:#c0392b;height:.8rem;"
			"width:%.1f%%\"></div></td>", top > 0 ? 100.0 * ns / top : 0.0);
		fprintf(f, "<td class=\"num\">%.0f</td><td class=\"num\">%.0f</td><td class=\"num\">",
			num(r, "outliers"), num(r, "attributed"));
		dur(f, num(r, "worst_ns"));
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
	if (n > ROWS)
		fprintf(f, "<p>%zu more in the document (events.explain.by_culprit).</p>\n", n - ROWS);
}

void rtp_report_culprits(FILE *f, const struct rtp_plot_set *set)
{
	bool head = false;
	size_t r;
	int b;

	for (r = 0; r < set->nruns; r++)
		for (b = 0; b < RP_NBENCH; b++) {
			const json_t *ex = json_object_get(json_object_get(set->runs[r].doc[b], "events"), "explain");
			const json_t *rows = json_object_get(ex, "by_culprit");

			if (!json_is_array(rows) || !json_array_size(rows))
				continue;
			if (!head) {
				fputs("<h2 id=\"culprits\">What delayed the threads (--explain)</h2>\n", f);
				head = true;
			}
			one(f, &set->runs[r], b, ex, rows);
		}
}
