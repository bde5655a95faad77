// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-plot: gnuplot figures (PNG and SVG, with their scripts and data)
 * from result documents, result directories and kernel ladders. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "main_common.h"
#include "plot.h"

static void usage(FILE *f)
{
	fputs("usage: rtproof plot [-o DIR] [-q] RESULT...\n"
	      "  RESULT   a result document (cyclic.json...), a result directory (rtproof run),\n"
	      "           a kernel-ladder directory (rtproof compare-kernels) or a compare.json;\n"
	      "           several results are drawn against each other\n"
	      "  -o, --out DIR  where the figures go (default: RESULT's directory/plots for one\n"
	      "                 result, ./rtproof-plots for several)\n"
	      "  -q, --quiet    no list of what was written\n"
	      "Writes NAME.png, NAME.svg, NAME.gp (the gnuplot script) and NAME.dat (its data)\n"
	      "per figure.  Exit: 0 drawn, 1 error, 4 gnuplot missing (scripts and data written;\n"
	      "Debian: apt-get install gnuplot-nox).\n", f);
}

int main(int argc, char **argv)
{
	struct rtp_plot_set set;
	struct rtp_plot_figs figs;
	const char *out;
	char outbuf[4096];
	bool quiet;
	int ret, drawn = 0, notes = 0;
	size_t i;

	ret = rtp_plot_main_args(argc, argv, "rtproof-plot", usage, &out, &quiet, NULL);
	if (ret >= 0)
		return ret;
	if (out && !out[0]) {
		rtp_error("--out '': needs a directory");
		return 1;
	}
	if (rtp_plot_main_load(&set, argv + optind, argc - optind))
		return 1;
	if (!out) {
		if (argc - optind == 1) {
			char base[4000];

			rtp_plot_base_dir(argv[optind], base, sizeof(base));
			snprintf(outbuf, sizeof(outbuf), "%s/plots", base);
		} else {
			snprintf(outbuf, sizeof(outbuf), "rtproof-plots");
		}
		out = outbuf;
	}
	rtp_plot_main_warnings(&set);
	ret = rtp_plot_all(&set, out, &figs, quiet);
	if (ret) {
		rtp_error("--out %s: %s", out, strerror(-ret));
		rtp_plot_figs_free(&figs);
		rtp_plot_set_free(&set);
		return 1;
	}
	for (i = 0; i < figs.n; i++) {
		if (figs.v[i].plotted)
			drawn++;
		else if (figs.v[i].note[0])
			notes++;
		if (quiet)
			continue;
		if (figs.v[i].plotted)
			printf("%s/%s.png .svg  %s\n", out, figs.v[i].id, figs.v[i].title);
		else if (figs.v[i].note[0])
			printf("%s: %s\n", figs.v[i].id, figs.v[i].note);
		else
			printf("%s/%s.gp  (not drawn)\n", out, figs.v[i].id);
	}
	if (figs.gnuplot_missing) {
		fprintf(stderr, "rtproof-plot: skip: gnuplot not found (Debian: apt-get install gnuplot-nox); "
			"the scripts and data are in %s\n", out);
		ret = 4;
	} else if (figs.failed) {
		rtp_error("gnuplot failed on %d figure(s); see the .log files in %s", figs.failed, out);
		ret = 1;
	} else if (!quiet) {
		printf("rtproof-plot: %d figure(s) in %s%s\n", drawn, out, notes ? "; the notes above say what was not drawn and why" : "");
	}
	rtp_plot_figs_free(&figs);
	rtp_plot_set_free(&set);
	return ret;
}
