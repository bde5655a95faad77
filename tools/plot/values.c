// SPDX-License-Identifier: GPL-2.0-or-later
/* Values out of a document for rtproof-plot and rtproof-report: text made
 * one safe line, numbers clamped, strings by key.  Calls nothing else of
 * tools/plot; load.c, percpu.c, the figures and the report call it. */
#include "plot.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *rtp_plot_str(const json_t *o, const char *key, const char *dflt)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	return json_is_string(v) ? json_string_value(v) : dflt;
}

/* The length of the UTF-8 character at s (1..4), 0 when s does not start
 * a well-formed one (overlong forms and surrogates are not). */
static size_t utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[0] == 0xe0 && s[1] < 0xa0) ||
		    (s[0] == 0xed && s[1] >= 0xa0))
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80 ||
		    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* C1 controls, the line and paragraph separators and the bidirectional
 * overrides: shown as a space (they reorder or break what a reader sees). */
static bool utf8_hidden(const unsigned char *s, size_t n)
{
	return (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) ||
	       (n == 3 && s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0xa8 && s[2] <= 0xae) ||
	       (n == 3 && s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9);
}

char *rtp_plot_text(char *dst, size_t len, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t o = 0;

	if (!len)
		return dst;
	while (*s) {
		size_t n = utf8_len(s), k = n ? n : 1;
		const char *put = (const char *)s;

		if (!n)
			put = "?";
		else if (*s < 0x20 || *s == 0x7f || utf8_hidden(s, n))
			put = " ";
		else if (*s == '`')
			put = "'";
		if (n <= 1 || put != (const char *)s)
			n = 1;
		/* room for this character, and for "..." unless it is the last */
		if (o + n + (s[k] ? 3 : 0) >= len) {
			if (o + 3 < len)
				memcpy(dst + o, "...", 3), o += 3;
			break;
		}
		memmove(dst + o, put, n);
		o += n;
		s += k;
	}
	dst[o] = 0;
	return dst;
}

void rtp_plot_html(FILE *f, const char *s, size_t max)
{
	size_t n, len = s ? strlen(s) : 0, end = len;

	if (len > max) {
		end = max;
		while (end && ((unsigned char)s[end] & 0xc0) == 0x80)
			end--;
	}
	for (n = 0; n < end; n++)
		switch (s[n]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '`': fputs("&#96;", f); break;
		default:
			fputc((unsigned char)s[n] < 0x20 || s[n] == 0x7f ? ' ' : s[n], f);
		}
	if (end < len)
		fprintf(f, " [&hellip; %zu more bytes not shown]", len - end);
}

long long rtp_plot_ll(double v)
{
	if (isnan(v))
		return 0;
	if (v >= 9223372036854775807.0)
		return LLONG_MAX;
	if (v <= -9223372036854775808.0)
		return LLONG_MIN;
	return (long long)v;
}

/* Documents are read with integers as reals (a lockstress checksum is a
 * full uint64): an integer is a number without a fraction. */
bool rtp_plot_is_int(const json_t *v)
{
	double d;

	if (!json_is_number(v))
		return false;
	d = json_number_value(v);
	if (!(d > -9.2e18 && d < 9.2e18))
		return false;
	return d == (double)(long long)d;
}

/* a CPU or thread key as text: 3, "all", "audio" */
void rtp_plot_scalar(const json_t *v, char *buf, size_t len)
{
	if (rtp_plot_is_int(v))
		snprintf(buf, len, "%lld", (long long)json_number_value(v));
	else if (json_is_number(v))
		snprintf(buf, len, "%g", json_number_value(v));
	else if (json_is_string(v))
		rtp_plot_text(buf, len, json_string_value(v));
	else
		snprintf(buf, len, "%s", v ? "?" : "");
}
