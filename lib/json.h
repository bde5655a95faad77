/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_JSON_H
#define RTP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Streaming JSON writer with a nesting stack.  Every value call takes a
 * key: pass a key inside an object and NULL inside an array.  Errors are
 * sticky: the first one is kept in 'err' (a negative errno) and later
 * calls do nothing; rtp_json_finish() returns it.
 */
#define RTP_JSON_MAX_DEPTH 32

struct rtp_json {
	FILE *f;
	int depth;
	int err;
	bool pretty;
	int row;			/* depth of an open row (rtp_json_begin_row), 0: none */
	bool need_comma[RTP_JSON_MAX_DEPTH + 1];
	char kind[RTP_JSON_MAX_DEPTH + 1];	/* '{' or '[' */
};

void rtp_json_init(struct rtp_json *w, FILE *f, bool pretty);
void rtp_json_begin_object(struct rtp_json *w, const char *key);
void rtp_json_end_object(struct rtp_json *w);
void rtp_json_begin_array(struct rtp_json *w, const char *key);
void rtp_json_end_array(struct rtp_json *w);
/*
 * An array written on one line even when pretty ("[1, 2, 3]"), for the
 * small tuples a document holds by the thousand (histogram buckets, series
 * blocks); close it with rtp_json_end_array().
 */
void rtp_json_begin_row(struct rtp_json *w, const char *key);
void rtp_json_string(struct rtp_json *w, const char *key, const char *val);
void rtp_json_stringn(struct rtp_json *w, const char *key, const char *val, size_t len);
void rtp_json_int(struct rtp_json *w, const char *key, int64_t val);
void rtp_json_uint(struct rtp_json *w, const char *key, uint64_t val);
/* Shortest text that reads back to the same double; NaN and Inf become null. */
void rtp_json_double(struct rtp_json *w, const char *key, double val);
void rtp_json_bool(struct rtp_json *w, const char *key, bool val);
void rtp_json_null(struct rtp_json *w, const char *key);
/* 0, or the first error (-EINVAL for misuse, -EIO for a write error). */
int rtp_json_finish(struct rtp_json *w);

/* Writes val as a quoted, escaped JSON string. */
void rtp_json_write_escaped(FILE *f, const char *val, size_t len);

#endif /* RTP_JSON_H */
