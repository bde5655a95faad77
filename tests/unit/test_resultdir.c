// SPDX-License-Identifier: GPL-2.0-or-later
/* The result directory layout (lib/resultdir): what is a document, a run, a ladder, and the rung order. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "resultdir.h"
#include "tap.h"

static char root[PATH_MAX];

static void touch(const char *rel)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs("{}\n", f);
		fclose(f);
	}
}

static void mk(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0755);
}

static char *joined(char **names, size_t n)
{
	static char buf[1024];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? " " : "", names[i]);
	return buf;
}

int main(void)
{
	char **names, rung[64], p[PATH_MAX + 16];
	size_t n = 0;
	int ret;
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/rtp-resultdir.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		return 1;
	mk("lad");
	mk("lad/rt-run2");
	mk("lad/rt-run10");
	mk("lad/stock-full-run1");
	mk("lad/stock-none-run1");
	mk("lad/rt-full-run1");
	mk("lad/zz-other");
	mk("lad/empty");
	mk("lad/plots");
	mk("lad/.build");
	touch("lad/compare.json");
	touch("lad/rt-run2/cyclic.json");
	touch("lad/rt-run10/cyclic.json");
	touch("lad/stock-full-run1/cyclic.json");
	touch("lad/stock-none-run1/cyclic.json");
	touch("lad/rt-full-run1/cyclic.json");
	touch("lad/zz-other/audio.json");
	touch("lad/plots/cyclic.json");
	touch("lad/empty/suite.json");
	touch("lad/empty/x.tmp.json");

	snprintf(p, sizeof(p), "%s/lad", root);
	ok(rtp_resultdir_is_ladder(p), "a directory of run directories and compare.json is a ladder");
	ok(!rtp_resultdir_list(p, RTP_RD_DOCS, &names, &n) && n == 0, "compare.json is not a run's document");
	rtp_resultdir_free(names, n);
	ret = rtp_resultdir_list(p, RTP_RD_RUNS, &names, &n);
	ok(!ret && !strcmp(joined(names, n), "rt-full-run1 rt-run10 rt-run2 stock-full-run1 stock-none-run1 zz-other"),
	   "runs: the directories with a document, by name, not plots/ nor empty ones (%s)", joined(names, n));
	qsort(names, n, sizeof(*names), rtp_resultdir_cmp_rung);
	ok(!strcmp(joined(names, n), "stock-none-run1 stock-full-run1 rt-full-run1 rt-run2 rt-run10 zz-other"),
	   "the ladder's order: stock none, full, then RT (rt-full, rt: run2 before run10), then the rest (%s)",
	   joined(names, n));
	rtp_resultdir_free(names, n);
	ret = rtp_resultdir_list(p, RTP_RD_DIRS, &names, &n);
	ok(!ret && n == 7, "dirs: all but plots/ and dot-directories (%s)", joined(names, n));
	rtp_resultdir_free(names, n);
	snprintf(p, sizeof(p), "%s/lad/rt-run2", root);
	ok(!rtp_resultdir_is_ladder(p), "a run directory is not a ladder");
	snprintf(p, sizeof(p), "%s/lad/empty", root);
	ok(!rtp_resultdir_list(p, RTP_RD_DOCS, &names, &n) && n == 0, "suite.json and a temporary are not documents");
	rtp_resultdir_free(names, n);
	snprintf(p, sizeof(p), "%s/nope", root);
	ret = rtp_resultdir_list(p, RTP_RD_DOCS, &names, &n);
	ok(ret < 0 && !names && !n, "a missing directory: an error, nothing listed");
	rtp_resultdir_rung("stock-full-run12", rung, sizeof(rung));
	ok(!strcmp(rung, "stock-full"), "stock-full-run12 is a run of stock-full");
	rtp_resultdir_rung("rt-runner", rung, sizeof(rung));
	ok(!strcmp(rung, "rt-runner"), "rt-runner is a rung of its own (no run number)");
	ok(rtp_resultdir_rung_rank("stockish") == 10 && rtp_resultdir_rung_rank("stock-x") == 3,
	   "a rung's rank needs its name or name-suffix");
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	if (system(p))
		tap_diag("could not remove %s", root);
	return tap_done();
}
