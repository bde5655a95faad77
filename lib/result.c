// SPDX-License-Identifier: GPL-2.0-or-later
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

void rtp_format_utc(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&ts->tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int rtp_result_open(struct rtp_result *r, const char *path)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = rtp_afile_open(&r->file, path);
	if (ret)
		return ret;
	rtp_json_init(&r->json, r->file.f, true);
	return 0;
}

void rtp_json_sysinfo(struct rtp_json *j, const char *key, const struct rtp_sysinfo *si)
{
	rtp_json_begin_object(j, key);
	rtp_json_string(j, "hostname", si->hostname);
	rtp_json_string(j, "kernel_release", si->kernel_release);
	rtp_json_string(j, "kernel_version", si->kernel_version);
	rtp_json_string(j, "machine", si->machine);
	rtp_json_string(j, "preempt", si->preempt);
	rtp_json_string(j, "preempt_source", si->preempt_source);
	rtp_json_int(j, "cpus_online", si->cpus_online);
	rtp_json_string(j, "cpus_online_list", si->cpus_online_list);
	rtp_json_string(j, "cpu_model", si->cpu_model);
	rtp_json_string(j, "cmdline", si->cmdline);
	rtp_json_string(j, "clocksource", si->clocksource);
	rtp_json_bool(j, "virtualized", si->virtualized);
	if (si->virtualized)
		rtp_json_string(j, "hypervisor", si->hypervisor);
	rtp_json_end_object(j);
}

void rtp_result_header(struct rtp_result *r, const char *tool, int argc, char *const argv[],
		       const struct rtp_sysinfo *si, const struct timespec *start)
{
	struct rtp_json *j = &r->json;
	char when[32];
	int i;

	rtp_format_utc(start, when, sizeof(when));
	rtp_json_begin_object(j, NULL);
	rtp_json_string(j, "schema", RTP_SCHEMA);
	rtp_json_string(j, "tool", tool);
	rtp_json_string(j, "version", RTP_VERSION);
	rtp_json_begin_array(j, "command");
	for (i = 0; i < argc; i++)
		rtp_json_string(j, NULL, argv[i]);
	rtp_json_end_array(j);
	rtp_json_string(j, "start", when);
	rtp_json_sysinfo(j, "system", si);
}

static void write_verdict(struct rtp_json *j, const struct rtp_verdict *v)
{
	int i;

	rtp_json_begin_object(j, "verdict");
	rtp_json_string(j, "status", rtp_status_name(v->status));
	rtp_json_string(j, "reason", v->reason);
	rtp_json_begin_array(j, "criteria");
	for (i = 0; i < v->ncriteria; i++) {
		const struct rtp_criterion *c = &v->criteria[i];

		rtp_json_begin_object(j, NULL);
		rtp_json_string(j, "name", c->name);
		rtp_json_string(j, "op", c->op);
		rtp_json_double(j, "limit", c->limit);
		rtp_json_double(j, "observed", c->observed);
		rtp_json_string(j, "unit", c->unit);
		rtp_json_bool(j, "pass", c->pass);
		rtp_json_end_object(j);
	}
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}

int rtp_result_commit(struct rtp_result *r, double duration_s, const struct rtp_verdict *v)
{
	int err;

	rtp_json_double(&r->json, "duration_s", duration_s);
	write_verdict(&r->json, v);
	rtp_json_end_object(&r->json);
	err = rtp_json_finish(&r->json);
	if (err) {
		if (r->file.err)
			err = r->file.err;	/* the write error itself (ENOSPC...), not just EIO */
		rtp_afile_abort(&r->file);
		return err;
	}
	return rtp_afile_commit(&r->file);
}

void rtp_result_abort(struct rtp_result *r)
{
	rtp_afile_abort(&r->file);
}

struct bucket_ctx {
	struct rtp_json *j;
};

static int bucket_cb(uint64_t lo, uint64_t hi, uint64_t count, void *arg)
{
	struct bucket_ctx *c = arg;

	rtp_json_begin_row(c->j, NULL);
	rtp_json_uint(c->j, NULL, lo);
	rtp_json_uint(c->j, NULL, hi);
	rtp_json_uint(c->j, NULL, count);
	rtp_json_end_array(c->j);
	return 0;
}

void rtp_json_hist(struct rtp_json *j, const struct rtp_hist *h, bool buckets)
{
	struct bucket_ctx c = { j };
	int i;

	rtp_json_uint(j, "count", h->count);
	if (h->count) {
		rtp_json_uint(j, "min", h->min);
		rtp_json_double(j, "mean", rtp_hist_mean(h));
		rtp_json_uint(j, "max", h->max);
		rtp_json_double(j, "stddev", rtp_hist_stddev(h));
	} else {
		rtp_json_null(j, "min");
		rtp_json_null(j, "mean");
		rtp_json_null(j, "max");
		rtp_json_null(j, "stddev");
	}
	rtp_json_begin_object(j, "percentiles");
	for (i = 0; i < RTP_NPCT; i++) {
		if (h->count)
			rtp_json_uint(j, rtp_pct_names[i], rtp_hist_percentile(h, rtp_pct_values[i]));
		else
			rtp_json_null(j, rtp_pct_names[i]);
	}
	rtp_json_end_object(j);
	rtp_json_uint(j, "overflow", h->overflow);
	rtp_json_series(j, &h->series);
	if (!buckets)
		return;
	rtp_json_begin_object(j, "histogram");
	rtp_json_string(j, "kind", "log-linear");
	rtp_json_int(j, "sub_bucket_bits", RTP_HIST_SUB_BITS);
	rtp_json_string(j, "edges", "inclusive");
	rtp_json_uint(j, "limit", RTP_HIST_LIMIT);
	if (rtp_hist_coarse(h))
		/* values known to their power of two only (hist.h): as many as this */
		rtp_json_uint(j, "coarse", rtp_hist_coarse(h));
	rtp_json_begin_array(j, "buckets");
	rtp_hist_foreach(h, bucket_cb, &c);
	rtp_json_end_array(j);
	rtp_json_end_object(j);
}
