/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_PRICE_H
#define RTP_PLOT_PRICE_H

/*
 * The price of RT in work done, beside its worst case (price.c,
 * docs/plots.md "The trade"): compare.json's throughput rows (figure
 * "throughput", one per part of rtproof-load) read per rung.  The first
 * screen's line per rung and its head (trade.c), the trade table of the
 * page (report.c) and the Pareto figure (figs.c, declared in figs.h).
 */

#include <stddef.h>
#include <stdio.h>

#include "plot.h"

/* The first screen's throughput line for new rung k of a ladder (RT
 * against the stock side of that pair); nothing when the comparison has
 * no throughput row at all (rtp_plot_price_head says so once). */
void rtp_plot_price_line(const struct rtp_plot_set *set, struct rtp_plot_answer *a, size_t k);

/* What the head adds: RT's work per second against the fastest stock
 * rung, or a line saying throughput was not measured (into a). */
void rtp_plot_price_head(const struct rtp_plot_set *set, struct rtp_plot_answer *a);

/* The trade table (a kernel ladder with throughput rows): per rung, each
 * bench's worst case and the throughput against RT per part and their
 * geometric mean, with intervals.  Writes nothing otherwise. */
void rtp_report_trade_table(FILE *f, const struct rtp_plot_set *set, bool pareto);

/* The comparison has throughput rows and is a ladder (RT against stock). */
bool rtp_plot_price_any(const json_t *cmp);

#endif /* RTP_PLOT_PRICE_H */
