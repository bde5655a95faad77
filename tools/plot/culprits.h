/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_CULPRITS_H
#define RTP_PLOT_CULPRITS_H

#include <stdio.h>

#include "plot.h"

/*
 * The report's "What delayed the threads" section: for every document
 * with events.explain.by_culprit[] (--explain), its culprits by time
 * taken as a table with a bar per row.  Writes nothing when no document
 * has one.
 */
void rtp_report_culprits(FILE *f, const struct rtp_plot_set *set);

#endif /* RTP_PLOT_CULPRITS_H */
