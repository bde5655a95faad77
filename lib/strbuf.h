/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_STRBUF_H
#define RTP_STRBUF_H

#include <stddef.h>

/*
 * Appends printf-formatted text to the string in buf (size len), never
 * past its end: what does not fit is cut, and once buf is full nothing
 * more is added.  buf must hold a string (a '\0' within len).
 */
void rtp_appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* RTP_STRBUF_H */
