// SPDX-License-Identifier: GPL-2.0-or-later
/* The result reader: a document written by the lib reads back; bad ones are refused with a reason. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "hist.h"
#include "json.h"
#include "result.h"
#include "tap.h"

static struct rtp_hist h;

/* A cyclic document of one metric holding h. */
static char *write_doc(size_t *len)
{
	struct rtp_json j;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	rtp_json_init(&j, f, true);
	rtp_json_begin_object(&j, NULL);
	rtp_json_string(&j, "schema", "rtproof/1");
	rtp_json_string(&j, "tool", "rtproof-cyclic");
	rtp_json_begin_array(&j, "command");
	rtp_json_string(&j, NULL, "/x/rtproof-cyclic");
	rtp_json_string(&j, NULL, "-D");
	rtp_json_string(&j, NULL, "5s");
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "metrics");
	rtp_json_begin_object(&j, NULL);
	rtp_json_string(&j, "name", "wakeup_latency");
	rtp_json_string(&j, "unit", "ns");
	rtp_json_int(&j, "cpu", 1);
	rtp_json_string(&j, "thread", "all");
	rtp_json_hist(&j, &h, true);
	rtp_json_end_object(&j);
	rtp_json_end_array(&j);
	rtp_json_end_object(&j);
	rtp_json_finish(&j);
	fclose(f);
	return buf;
}

static struct rtp_doc_bucket want[RTP_HIST_NBUCKETS];
static size_t nwant;

static int want_cb(uint64_t lo, uint64_t hi, uint64_t count, void *arg)
{
	(void)arg;
	want[nwant++] = (struct rtp_doc_bucket){ lo, hi, count };
	return 0;
}

/* A compact histogram past its pool (coarse pages) and with an overflow reads back as written. */
static void coarse_round_trip(void)
{
	struct rtp_doc d;
	char err[256] = "";
	const struct rtp_doc_metric *m;
	size_t len, i;
	char *buf;
	uint64_t t0 = 100 * RTP_SERIES_BLOCK0_NS, bsum = 0;
	bool same;

	/* 20 powers of two, 2^12 to 2^31 ns, and one value past the limit */
	rtp_hist_init(&h);
	for (i = 0; i < 4000; i++)
		rtp_hist_record_at(&h, ((uint64_t)1 << (12 + i % 20)) + i, t0 + i * 1000000);
	rtp_hist_record_at(&h, RTP_HIST_LIMIT + 1, t0 + i * 1000000);
	nwant = 0;
	rtp_hist_foreach(&h, want_cb, NULL);
	buf = write_doc(&len);
	ok(!rtp_doc_parse(&d, buf, len, err, sizeof(err)), "a document with coarse pages reads back %s", err);
	m = rtp_doc_find(&d, "wakeup_latency", "cpu 1 thread all");
	if (!m) {
		ok(false, "its metric");
		free(buf);
		return;
	}
	same = m->nbuckets == nwant;
	for (i = 0; same && i < nwant; i++)
		same = m->buckets[i].lo == want[i].lo && m->buckets[i].hi == want[i].hi &&
		       m->buckets[i].count == want[i].count;
	ok(rtp_hist_coarse(&h) > 0 && same && nwant > 0 && want[nwant - 1].hi - want[nwant - 1].lo + 1 == 1u << 31,
	   "its %zu buckets, coarse pages spanning their power of two, read back as written", nwant);
	ok(m->count == 4001 && m->overflow == 1 && m->min == 4096 && m->max == RTP_HIST_LIMIT + 1,
	   "count, overflow, min and max exact");
	for (i = 0; i < m->nblocks; i++)
		bsum += m->blocks[i].count;
	ok(m->has_series && bsum == 4001 && m->nblocks == 41 && m->blocks[40].max == m->max,
	   "the block series: %zu blocks holding every value", m->nblocks);
	rtp_doc_free(&d);
	free(buf);
}

static void refused(const char *text, const char *want)
{
	struct rtp_doc d;
	char err[256] = "";
	int ret = rtp_doc_parse(&d, text, strlen(text), err, sizeof(err));

	/* another schema is -EPROTO (a directory may skip it), the rest -EINVAL */
	ok((ret == -EINVAL || (ret == -EPROTO && strstr(want, "schema"))) && strstr(err, want),
	   "refused (%s): %s", want, err);
}

int main(void)
{
	struct rtp_doc d;
	char err[256] = "";
	size_t len;
	char *buf;
	const struct rtp_doc_metric *m;
	uint64_t i, t0 = 777 * RTP_SERIES_BLOCK0_NS;

	rtp_hist_init(&h);
	for (i = 0; i < 5000; i++)
		rtp_hist_record_at(&h, 1000 + i % 97 + (i == 4000 ? 500000 : 0), t0 + i * 1000000);
	buf = write_doc(&len);

	ok(!rtp_doc_parse(&d, buf, len, err, sizeof(err)), "a document the lib wrote reads back %s", err);
	m = rtp_doc_find(&d, "wakeup_latency", "cpu 1 thread all");
	ok(m != NULL, "found by name and identity 'cpu 1 thread all'");
	if (m) {
		uint64_t s = 0;
		size_t i;

		is_u64(m->count, 5000, "count");
		is_u64(m->max, 501000 + 4000 % 97, "max");
		ok(m->has_series && m->nblocks == 50 && m->block_s == 0.1, "series: %zu blocks of %g s",
		   m->nblocks, m->block_s);
		for (i = 0; i < m->nblocks; i++)
			s += m->blocks[i].count;
		is_u64(s, 5000, "series counts add up to count");
		ok(m->blocks[40].max == m->max && m->blocks[40].start_s > 3.99, "the spike's block holds the max");
	}
	ok(!strcmp(d.bench, "cyclic") && d.command && !strcmp(d.command, "/x/rtproof-cyclic -D 5s"),
	   "bench and command");
	rtp_doc_free(&d);
	free(buf);

	{
		static const char big[] = "{\"schema\":\"rtproof/1\",\"tool\":\"rtproof-lockstress\","
			"\"events\":{\"checksum\":10736461245773174498},\"metrics\":[{\"name\":\"w\","
			"\"unit\":\"ns\",\"protocol\":\"inherit\",\"count\":1,\"min\":5,\"max\":5}]}";

		ok(!rtp_doc_parse(&d, big, strlen(big), err, sizeof(err)) && d.nmetrics == 1 &&
		   !strcmp(d.metrics[0].key, "protocol inherit"),
		   "an unsigned 64-bit value beyond int64 elsewhere in the document reads %s", err);
		rtp_doc_free(&d);
	}
	coarse_round_trip();
	refused("", "empty");
	refused("{\"schema\": \"rtproof/1\", \"tool\": ", "not JSON");
	refused("[1, 2]", "not an rtproof/1 document");
	refused("{\"schema\": \"other/3\"}", "schema \"other/3\"");
	refused("{\"schema\": \"rtproof/1\", \"tool\": \"rtproof-x\"}", "no metrics");
	refused("{\"schema\":\"rtproof/1\",\"tool\":\"rtproof-x\",\"metrics\":[{\"name\":\"a\",\"unit\":\"ns\","
		"\"count\":3,\"min\":1,\"max\":9,\"histogram\":{\"buckets\":[[1,1,1],[5,9,1]]}}]}", "count says 3");
	refused("{\"schema\":\"rtproof/1\",\"tool\":\"rtproof-x\",\"metrics\":[{\"name\":\"a\",\"unit\":\"ns\","
		"\"count\":2,\"min\":1,\"max\":9,\"histogram\":{\"buckets\":[[5,9,1],[1,1,1]]}}]}", "out of order");
	refused("{\"schema\":\"rtproof/1\",\"tool\":\"rtproof-x\",\"metrics\":[{\"name\":\"a\",\"unit\":\"ns\","
		"\"count\":1,\"min\":1,\"max\":9,\"series\":{\"kind\":\"time-blocks\",\"t0_s\":0,\"block_s\":0.1,"
		"\"coarsened\":0,\"blocks\":[[0,1,10]]}}]}", "max above");
	refused("{\"schema\":\"rtproof/1\",\"tool\":\"rtproof-x\",\"metrics\":[{\"name\":\"a\",\"unit\":\"ns\","
		"\"count\":0},{\"name\":\"a\",\"unit\":\"ns\",\"count\":0}]}", "twice");
	return tap_done();
}
