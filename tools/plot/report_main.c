// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-report: report.html for a result directory, a kernel ladder or
 * any set of results, with its figures. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "main_common.h"
#include "plot.h"

static void usage(FILE *f)
{
	fputs("usage: rtproof report [-o FILE] [-q] [-t] RESULT...\n"
	      "  RESULT   a result directory (rtproof run), a kernel-ladder directory\n"
	      "           (rtproof compare-kernels), result documents or a compare.json\n"
	      "  -o, --out FILE  the page (default: RESULT/report.html for one directory,\n"
	      "                  ./report.html otherwise); figures go to plots/ beside it\n"
	      "  -q, --quiet     only errors and warnings\n"
	      "  -t, --text      also print the page's first screen on stdout: the overall\n"
	      "                  verdict in one sentence, then the culprit, the check and what\n"
	      "                  was measured (for a kernel ladder: the trade per bench)\n"
	      "One self-contained HTML file: the answer first (docs/plots.md), the verdicts,\n"
	      "the system, what the tool changed, the load, every command line, the figures (inline SVG) and a comparison's table.\n"
	      "Without gnuplot the page is written without figures (a note says so).\n"
	      "Exit: 0 written, 1 error.\n", f);
}

int main(int argc, char **argv)
{
	struct rtp_plot_set set;
	struct rtp_plot_figs figs;
	const char *out;
	char outbuf[4096], dir[4096], figdir[4200], title[600];
	bool quiet, text;
	int ret;
	struct stat st;

	ret = rtp_plot_main_args(argc, argv, "rtproof-report", usage, &out, &quiet, &text);
	if (ret >= 0)
		return ret;
	if (out && (!out[0] || (stat(out, &st) == 0 && S_ISDIR(st.st_mode)))) {
		rtp_error("--out '%s': needs a file name (the page), not a directory", out);
		return 1;
	}
	if (rtp_plot_main_load(&set, argv + optind, argc - optind))
		return 1;
	if (!out) {
		if (argc - optind == 1 && stat(argv[optind], &st) == 0 && S_ISDIR(st.st_mode))
			snprintf(outbuf, sizeof(outbuf), "%s/report.html", argv[optind]);
		else
			snprintf(outbuf, sizeof(outbuf), "report.html");
		out = outbuf;
	}
	rtp_plot_base_dir(out, dir, sizeof(dir));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		rtp_error("--out %s: directory %s does not exist", out, dir);
		rtp_plot_set_free(&set);
		return 1;
	}
	snprintf(figdir, sizeof(figdir), "%s/plots", dir);
	rtp_plot_main_warnings(&set);
	ret = rtp_plot_all(&set, figdir, &figs, true);
	if (ret) {
		rtp_error("%s: %s", figdir, strerror(-ret));
		rtp_plot_figs_free(&figs);
		rtp_plot_set_free(&set);
		return 1;
	}
	if (figs.gnuplot_missing)
		rtp_warn("gnuplot not found (Debian: apt-get install gnuplot-nox): the page has no figures; "
			 "their scripts and data are in %s", figdir);
	else if (figs.failed)
		rtp_warn("gnuplot failed on %d figure(s); see the .log files in %s", figs.failed, figdir);
	if (set.nruns == 1)
		snprintf(title, sizeof(title), "rtproof: %s", set.runs[0].label);
	else
		snprintf(title, sizeof(title), "rtproof: %s%zu runs compared", set.compare ? "kernel ladder, " : "",
			 set.nruns);
	ret = rtp_report_write(&set, &figs, figdir, "plots", out, title);
	if (!ret && text) {
		struct rtp_plot_answer *a = malloc(sizeof(*a));
		size_t i;

		if (a) {
			rtp_plot_answer(&set, a);
			printf("Overall: %s: %s\n", a->word, a->head);
			for (i = 0; i < a->n; i++)
				printf("  %s\n", a->line[i]);
		}
		free(a);
	}
	if (ret)
		rtp_error("--out %s: %s", out, strerror(-ret));
	else if (!quiet)
		printf("rtproof-report: %s\n", out);
	rtp_plot_figs_free(&figs);
	rtp_plot_set_free(&set);
	return ret ? 1 : 0;
}
