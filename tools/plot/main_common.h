/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_PLOT_MAIN_COMMON_H
#define RTP_PLOT_MAIN_COMMON_H

#include <stddef.h>

/* The directory a RESULT argument's outputs go beside: the directory
 * itself, or the directory holding the file. */
void rtp_plot_base_dir(const char *arg, char *buf, size_t len);

#endif /* RTP_PLOT_MAIN_COMMON_H */
