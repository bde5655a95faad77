// SPDX-License-Identifier: GPL-2.0-or-later
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rtp_json_init(struct rtp_json *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->kind[0] = 0;
}

void rtp_json_write_escaped(FILE *f, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		switch (c) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(f, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
			} else if (c >= 0x80) {
				/* Pass valid UTF-8 through; escape stray bytes as U+FFFD. */
				size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
				size_t k;
				bool ok = n && c < 0xf5 && i + n <= len;

				for (k = 1; ok && k < n; k++)
					ok = (p[i + k] & 0xc0) == 0x80;
				if (ok && n == 2 && c < 0xc2)
					ok = false;		/* overlong */
				if (ok && n == 3 && c == 0xe0 && p[i + 1] < 0xa0)
					ok = false;
				if (ok && n == 3 && c == 0xed && p[i + 1] >= 0xa0)
					ok = false;		/* surrogates */
				if (ok && n == 4 && c == 0xf0 && p[i + 1] < 0x90)
					ok = false;
				if (ok && n == 4 && c == 0xf4 && p[i + 1] >= 0x90)
					ok = false;
				if (ok) {
					fwrite(p + i, 1, n, f);
					i += n - 1;
				} else {
					fputs("\\ufffd", f);
				}
			} else {
				fputc(c, f);
			}
		}
	}
	fputc('"', f);
}

static void newline(struct rtp_json *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator, indentation and key before a value. */
static bool prefix(struct rtp_json *w, const char *key)
{
	bool comma;

	if (w->err)
		return false;
	if (w->depth == 0) {
		if (key || w->need_comma[0]) {
			w->err = -EINVAL;	/* one top-level value, no key */
			return false;
		}
		w->need_comma[0] = true;
		return true;
	}
	if ((w->kind[w->depth] == '{') != (key != NULL)) {
		w->err = -EINVAL;
		return false;
	}
	comma = w->need_comma[w->depth];
	if (comma)
		fputc(',', w->f);
	w->need_comma[w->depth] = true;
	if (!w->row)
		newline(w);
	else if (comma && w->pretty)
		fputc(' ', w->f);
	if (key) {
		rtp_json_write_escaped(w->f, key, strlen(key));
		fputs(w->pretty ? ": " : ":", w->f);
	}
	return true;
}

static void begin(struct rtp_json *w, const char *key, char kind)
{
	if (!prefix(w, key))
		return;
	if (w->depth >= RTP_JSON_MAX_DEPTH) {
		w->err = -EINVAL;
		return;
	}
	fputc(kind, w->f);
	w->depth++;
	w->kind[w->depth] = kind;
	w->need_comma[w->depth] = false;
}

static void end(struct rtp_json *w, char kind)
{
	bool had, in_row;

	if (w->err)
		return;
	if (w->depth == 0 || w->kind[w->depth] != kind) {
		w->err = -EINVAL;
		return;
	}
	had = w->need_comma[w->depth];
	in_row = w->row && w->depth >= w->row;
	if (w->row == w->depth)
		w->row = 0;
	w->depth--;
	if (had && !in_row)
		newline(w);
	fputc(kind == '{' ? '}' : ']', w->f);
}

void rtp_json_begin_object(struct rtp_json *w, const char *key) { begin(w, key, '{'); }
void rtp_json_end_object(struct rtp_json *w) { end(w, '{'); }
void rtp_json_begin_array(struct rtp_json *w, const char *key) { begin(w, key, '['); }
void rtp_json_end_array(struct rtp_json *w) { end(w, '['); }

void rtp_json_begin_row(struct rtp_json *w, const char *key)
{
	begin(w, key, '[');
	if (!w->err && !w->row)
		w->row = w->depth;
}

void rtp_json_stringn(struct rtp_json *w, const char *key, const char *val, size_t len)
{
	if (!val) {
		rtp_json_null(w, key);
		return;
	}
	if (prefix(w, key))
		rtp_json_write_escaped(w->f, val, len);
}

void rtp_json_string(struct rtp_json *w, const char *key, const char *val)
{
	rtp_json_stringn(w, key, val, val ? strlen(val) : 0);
}

void rtp_json_int(struct rtp_json *w, const char *key, int64_t val)
{
	if (prefix(w, key))
		fprintf(w->f, "%" PRId64, val);
}

void rtp_json_uint(struct rtp_json *w, const char *key, uint64_t val)
{
	if (prefix(w, key))
		fprintf(w->f, "%" PRIu64, val);
}

void rtp_json_double(struct rtp_json *w, const char *key, double val)
{
	char buf[40];
	int prec;

	if (!isfinite(val)) {
		rtp_json_null(w, key);
		return;
	}
	if (!prefix(w, key))
		return;
	for (prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, val);
		if (strtod(buf, NULL) == val)
			break;
	}
	fputs(buf, w->f);
	/* Keep it visibly a number: "1e+20" and "12" are both valid JSON. */
}

void rtp_json_bool(struct rtp_json *w, const char *key, bool val)
{
	if (prefix(w, key))
		fputs(val ? "true" : "false", w->f);
}

void rtp_json_null(struct rtp_json *w, const char *key)
{
	if (prefix(w, key))
		fputs("null", w->f);
}

int rtp_json_finish(struct rtp_json *w)
{
	if (!w->err && w->depth != 0)
		w->err = -EINVAL;
	if (!w->err && w->pretty)
		fputc('\n', w->f);
	if (!w->err && ferror(w->f))
		w->err = -EIO;
	return w->err;
}
