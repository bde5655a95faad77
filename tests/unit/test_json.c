// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON writer: escaping and structure, checked by a real parser (jansson). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"

static const struct {
	const char *in;
	size_t len;
	const char *want;	/* decoded text the parser must return */
	const char *what;
} strings[] = {
	{ "plain", 5, "plain", "plain text" },
	{ "q\"uote", 6, "q\"uote", "a double quote" },
	{ "back\\slash", 10, "back\\slash", "a backslash" },
	{ "nl\ncr\rtab\t", 10, "nl\ncr\rtab\t", "newline, return, tab" },
	{ "\b\f", 2, "\b\f", "backspace and form feed" },
	{ "\x01\x1f\x7f", 3, "\x01\x1f\x7f", "other control characters" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb5", 14, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb5", "valid UTF-8 passes through" },
	{ "bad\xff", 4, "bad\xef\xbf\xbd", "a stray byte becomes U+FFFD" },
	{ "cut\xe2\x82", 5, "cut\xef\xbf\xbd\xef\xbf\xbd", "a truncated sequence becomes U+FFFD" },
	{ "over\xc0\xaf", 6, "over\xef\xbf\xbd\xef\xbf\xbd", "an overlong encoding is refused" },
	{ "sur\xed\xa0\x80", 6, "sur\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a UTF-16 surrogate is refused" },
	{ "", 0, "", "the empty string" },
	{ "nul\0in", 6, NULL, "an embedded NUL" },
};

static char *render(void (*fn)(struct rtp_json *), int *err, bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rtp_json w;

	rtp_json_init(&w, f, pretty);
	fn(&w);
	*err = rtp_json_finish(&w);
	fclose(f);
	return buf;
}

static void doc_strings(struct rtp_json *w)
{
	size_t i;

	rtp_json_begin_array(w, NULL);
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		rtp_json_stringn(w, NULL, strings[i].in, strings[i].len);
	rtp_json_end_array(w);
}

static void doc_numbers(struct rtp_json *w)
{
	rtp_json_begin_object(w, NULL);
	rtp_json_int(w, "neg", INT64_MIN);
	rtp_json_double(w, "third", 1.0 / 3.0);
	rtp_json_double(w, "tiny", 5e-324);
	rtp_json_double(w, "nan", NAN);
	rtp_json_double(w, "inf", INFINITY);
	rtp_json_bool(w, "t", true);
	rtp_json_null(w, "n");
	rtp_json_begin_object(w, "empty_obj");
	rtp_json_end_object(w);
	rtp_json_begin_array(w, "empty_arr");
	rtp_json_end_array(w);
	rtp_json_string(w, "key \"with\" quotes\n", "v");
	rtp_json_end_object(w);
}

static void doc_rows(struct rtp_json *w)
{
	int i;

	rtp_json_begin_object(w, NULL);
	rtp_json_begin_array(w, "rows");
	for (i = 0; i < 2; i++) {
		rtp_json_begin_row(w, NULL);
		rtp_json_uint(w, NULL, (uint64_t)i);
		rtp_json_uint(w, NULL, 10);
		rtp_json_end_array(w);
	}
	rtp_json_begin_row(w, NULL);
	rtp_json_end_array(w);
	rtp_json_end_array(w);
	rtp_json_int(w, "after", 1);
	rtp_json_end_object(w);
}

static void doc_big(struct rtp_json *w) { rtp_json_uint(w, NULL, UINT64_MAX); }
static void misuse_unclosed(struct rtp_json *w) { rtp_json_begin_object(w, NULL); }
static void misuse_key_in_array(struct rtp_json *w)
{
	rtp_json_begin_array(w, NULL);
	rtp_json_int(w, "k", 1);
	rtp_json_end_array(w);
}
static void misuse_no_key(struct rtp_json *w)
{
	rtp_json_begin_object(w, NULL);
	rtp_json_int(w, NULL, 1);
	rtp_json_end_object(w);
}
static void misuse_mismatch(struct rtp_json *w)
{
	rtp_json_begin_object(w, NULL);
	rtp_json_end_array(w);
}
static void misuse_two_roots(struct rtp_json *w)
{
	rtp_json_int(w, NULL, 1);
	rtp_json_int(w, NULL, 2);
}
static void too_deep(struct rtp_json *w)
{
	int i;

	for (i = 0; i < RTP_JSON_MAX_DEPTH + 1; i++)
		rtp_json_begin_array(w, NULL);
}

int main(void)
{
	static const struct {
		void (*fn)(struct rtp_json *);
		const char *what;
	} misuse[] = {
		{ misuse_unclosed, "an unclosed object" },
		{ misuse_key_in_array, "a key inside an array" },
		{ misuse_no_key, "a value without a key in an object" },
		{ misuse_mismatch, "closing an object as an array" },
		{ misuse_two_roots, "two top-level values" },
		{ too_deep, "nesting past the depth limit" },
	};
	json_error_t jerr;
	json_t *root;
	char *text;
	size_t i;
	int err, pretty;

	for (pretty = 0; pretty < 2; pretty++) {
		text = render(doc_strings, &err, pretty);
		ok(err == 0, "string document written (%s)", pretty ? "pretty" : "compact");
		root = json_loads(text, JSON_ALLOW_NUL, &jerr);
		ok(root && json_is_array(root), "jansson parses it (%s)", root ? "ok" : jerr.text);
		for (i = 0; root && i < sizeof(strings) / sizeof(strings[0]); i++) {
			json_t *s = json_array_get(root, i);
			const char *want = strings[i].want ? strings[i].want : strings[i].in;
			size_t wlen = strings[i].want ? strlen(strings[i].want) : strings[i].len;

			ok(s && json_is_string(s) && json_string_length(s) == wlen &&
			   !memcmp(json_string_value(s), want, wlen), "%s round-trips", strings[i].what);
		}
		json_decref(root);
		free(text);
	}

	text = render(doc_numbers, &err, true);
	root = json_loads(text, 0, &jerr);
	ok(err == 0 && root != NULL, "number document parses (%s)", root ? "ok" : jerr.text);
	if (root) {
		ok(json_integer_value(json_object_get(root, "neg")) == INT64_MIN, "INT64_MIN exact");
		ok(json_real_value(json_object_get(root, "third")) == 1.0 / 3.0, "a double reads back bit-exact");
		ok(json_real_value(json_object_get(root, "tiny")) == 5e-324, "the smallest subnormal reads back");
		ok(json_is_null(json_object_get(root, "nan")) && json_is_null(json_object_get(root, "inf")),
		   "NaN and Inf become null");
		ok(json_is_true(json_object_get(root, "t")) && json_is_null(json_object_get(root, "n")),
		   "true and null");
		ok(json_object_get(root, "key \"with\" quotes\n") != NULL, "keys are escaped too");
		ok(json_object_size(json_object_get(root, "empty_obj")) == 0 &&
		   json_array_size(json_object_get(root, "empty_arr")) == 0, "empty containers");
	}
	json_decref(root);
	free(text);

	text = render(doc_rows, &err, true);
	ok(err == 0 && !strcmp(text, "{\n  \"rows\": [\n    [0, 10],\n    [1, 10],\n    []\n  ],\n  \"after\": 1\n}\n"),
	   "rows stay on one line in a pretty document:\n%s", text);
	free(text);
	text = render(doc_rows, &err, false);
	ok(err == 0 && !strcmp(text, "{\"rows\":[[0,10],[1,10],[]],\"after\":1}"), "and compact: %s", text);
	free(text);

	text = render(doc_big, &err, false);
	ok(err == 0 && !strcmp(text, "18446744073709551615"), "UINT64_MAX written exactly (%s)", text);
	free(text);

	for (i = 0; i < sizeof(misuse) / sizeof(misuse[0]); i++) {
		text = render(misuse[i].fn, &err, false);
		ok(err == -EINVAL, "%s is reported as an error", misuse[i].what);
		free(text);
	}
	return tap_done();
}
