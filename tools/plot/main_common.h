/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_MAIN_COMMON_H
#define RTP_PLOT_MAIN_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plot.h"

/* What rtproof-plot and rtproof-report share before and after their own work. */

/* The directory a RESULT argument's outputs go beside: the directory
 * itself, or the directory holding the file. */
void rtp_plot_base_dir(const char *arg, char *buf, size_t len);

/*
 * The options both programs take: -o/--out, -q/--quiet, --help (usage on
 * stdout), --version ("PROG VERSION"), then at least one RESULT.  Returns
 * -1 to go on, optind at the first RESULT; else the exit status: 0 after
 * --help or --version, 1 after an error it has said.
 */
int rtp_plot_main_args(int argc, char **argv, const char *prog, void (*usage)(FILE *f),
		       const char **out, bool *quiet, bool *text);	/* text: NULL where -t is no option */

/* Loads the RESULTs into set: 0, or 1 with its warnings and the error said
 * and set freed. */
int rtp_plot_main_load(struct rtp_plot_set *set, char **args, int n);

/* Says each of the set's warnings. */
void rtp_plot_main_warnings(const struct rtp_plot_set *set);

#endif /* RTP_PLOT_MAIN_COMMON_H */
