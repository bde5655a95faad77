// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-plot and rtproof-report over one document (a result document or
 * a comparison): loaded, every figure's script and data written, the page
 * written.  No gnuplot is run (RTPROOF_GNUPLOT is set empty). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"

static char dir[64];

/* the scratch directory goes when the replay or the fuzzer ends */
static void cleanup(void)
{
	char p[256];
	struct dirent *e;
	DIR *d;

	snprintf(p, sizeof(p), "%s/plots", dir);
	d = opendir(p);
	while (d && (e = readdir(d))) {
		char f[600];

		snprintf(f, sizeof(f), "%s/%s", p, e->d_name);
		if (e->d_name[0] != '.')
			unlink(f);
	}
	if (d)
		closedir(d);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/doc.json", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/report.html", dir);
	unlink(p);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char doc[128], figdir[128], html[128], msg[512];
	char *args[1] = { doc };
	struct rtp_plot_set set;
	struct rtp_plot_figs figs;
	FILE *f;

	if (!dir[0]) {
		/* TMPDIR=/dev/shm: the figure files on tmpfs, several times faster */
		const char *tmp = getenv("TMPDIR");

		if (!tmp || !*tmp || strlen(tmp) > 20)
			tmp = "/tmp";
		snprintf(dir, sizeof(dir), "%s/rtproof-fuzz-plot.XXXXXX", tmp);
		if (!mkdtemp(dir))
			abort();
		setenv("RTPROOF_GNUPLOT", "", 1);
		atexit(cleanup);
	}
	snprintf(doc, sizeof(doc), "%s/doc.json", dir);
	snprintf(figdir, sizeof(figdir), "%s/plots", dir);
	snprintf(html, sizeof(html), "%s/report.html", dir);
	f = fopen(doc, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (rtp_plot_load(&set, args, 1, msg, sizeof(msg)) == 0) {
		if (rtp_plot_all(&set, figdir, &figs, true) == 0 && !figs.gnuplot_missing)
			abort();	/* RTPROOF_GNUPLOT="" must read as no gnuplot */
		if (rtp_report_write(&set, &figs, figdir, "plots", html, "fuzz"))
			abort();
		rtp_plot_figs_free(&figs);
	}
	rtp_plot_set_free(&set);
	return 0;
}
