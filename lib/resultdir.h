/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout of result directories, read in one place (docs/results.md):
 *
 *   suite or run dir   BENCH.json ... (rtproof/1), suite.json, vm.json,
 *                      compare.json beside them (not a run's document)
 *   ladder dir         RUNG/ or RUNG-runN/ (scripts/rtproof-compare-kernels
 *                      writes them), each a run dir; compare.json, plots/
 *
 * compare and plot/report list entries, tell a ladder from a run and
 * order its rungs through this module, so that the two readers cannot
 * drift apart.  Names are anyone's bytes: nothing here prints them.
 */
#ifndef RTP_RESULTDIR_H
#define RTP_RESULTDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The most metrics a result document may hold for compare, plot and
 * report to read it: their matching of metrics is quadratic in the count
 * (4000 metrics cost 7 s in compare, 18 s in plot), so a crafted document
 * with more is one error line, not minutes.  The largest a bench writes
 * is about 1,100 (cyclic, 1024 threads).
 */
#define RTP_DOC_MAX_METRICS	4096

/* A result document's file name: NAME.json, not compare.json, suite.json or a temporary. */
bool rtp_resultdir_doc_name(const char *name);

enum rtp_resultdir_kind {
	RTP_RD_DOCS,	/* regular files with a document's name */
	RTP_RD_RUNS,	/* directories holding at least one document, not plots/ */
	RTP_RD_DIRS,	/* every directory but plots/ (the readers' own output) */
};

/*
 * The entries of dir of one kind, sorted by name (strcmp), none starting
 * with '.'.  *names is freed with rtp_resultdir_free().  0 or -errno.
 */
int rtp_resultdir_list(const char *dir, enum rtp_resultdir_kind kind, char ***names, size_t *n);
void rtp_resultdir_free(char **names, size_t n);

/* A ladder: no document of its own and at least one run directory below. */
bool rtp_resultdir_is_ladder(const char *dir);

/* The rung an entry belongs to: "stock-full-run2" -> "stock-full" (copied to out). */
void rtp_resultdir_rung(const char *entry, char *out, size_t len);

/*
 * The ladder's order of rungs: stock-none, stock-voluntary, stock-full,
 * other stock, rt, then the rest (10); for qsort of entries by rung then
 * by name (strverscmp: run2 before run10).
 */
int rtp_resultdir_rung_rank(const char *rung);
int rtp_resultdir_cmp_rung(const void *a, const void *b);

#endif /* RTP_RESULTDIR_H */
