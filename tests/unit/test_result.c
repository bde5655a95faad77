// SPDX-License-Identifier: GPL-2.0-or-later
/* Result documents: verdicts, atomic files, a whole document parsed back. */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "tap.h"

static int count_files(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/rtp-result-XXXXXX", path[256];
	struct rtp_verdict v = { .status = RTP_PASS };
	struct rtp_sysinfo si;
	struct rtp_result r;
	struct rtp_hist *h = malloc(sizeof(*h));
	struct timespec now;
	char *argv[] = { "prog", "--flag", "va\"lue" };
	json_error_t jerr;
	json_t *root;
	int i;

	rtp_verdict_check(&v, "max", "<=", 100, 50, "us");
	ok(v.status == RTP_PASS && v.criteria[0].pass, "50 <= 100 passes");
	rtp_verdict_check(&v, "max", "<=", 100, 150, "us");
	ok(v.status == RTP_FAIL && !v.criteria[1].pass, "150 <= 100 fails the verdict");
	rtp_verdict_check(&v, "xruns", "==", 0, 0, "count");
	ok(v.status == RTP_FAIL, "a later pass does not undo a fail");
	ok(rtp_status_exit(RTP_PASS) == 0 && rtp_status_exit(RTP_FAIL) == 2 && rtp_status_exit(RTP_SKIP) == 4 &&
	   rtp_status_exit(RTP_ERROR) == 1, "exit codes 0 pass, 2 fail, 4 skip, 1 error");

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/out.json", dir);
	ok(rtp_result_open(&r, path) == 0, "open in a writable directory");
	ok(access(path, F_OK) != 0 && count_files(dir) == 1, "only a temporary file exists while writing");
	rtp_result_abort(&r);
	ok(count_files(dir) == 0, "abort leaves nothing behind");
	ok(rtp_result_open(&r, "/nonexistent-dir/x.json") == -ENOENT, "an unwritable path fails at open");

	rtp_sysinfo_read(&si);
	clock_gettime(CLOCK_REALTIME, &now);
	rtp_hist_init(h);
	for (i = 1; i <= 1000; i++)
		rtp_hist_record(h, (uint64_t)i * 1000);
	ok(rtp_result_open(&r, path) == 0, "open again");
	rtp_result_header(&r, "rtproof-test", 3, argv, &si, &now);
	rtp_json_begin_array(&r.json, "metrics");
	rtp_json_begin_object(&r.json, NULL);
	rtp_json_string(&r.json, "name", "wakeup_latency");
	rtp_json_hist(&r.json, h, true);
	rtp_json_end_object(&r.json);
	rtp_json_end_array(&r.json);
	ok(rtp_result_commit(&r, 1.5, &v) == 0, "commit");
	ok(access(path, F_OK) == 0 && count_files(dir) == 1, "the document is in place, no temporary left");
	root = json_load_file(path, 0, &jerr);
	ok(root != NULL, "it parses (%s)", root ? "ok" : jerr.text);
	if (root) {
		json_t *m = json_array_get(json_object_get(root, "metrics"), 0);
		json_t *b = json_object_get(json_object_get(m, "histogram"), "buckets");
		json_int_t sum = 0;
		size_t k;

		ok(!strcmp(json_string_value(json_object_get(root, "schema")), "rtproof/1"), "schema rtproof/1");
		ok(!strcmp(json_string_value(json_array_get(json_object_get(root, "command"), 2)), "va\"lue"),
		   "the command line is kept verbatim");
		ok(json_object_get(json_object_get(root, "system"), "preempt") != NULL, "system.preempt present");
		ok(json_integer_value(json_object_get(m, "min")) == 1000 &&
		   json_integer_value(json_object_get(m, "max")) == 1000000, "exact min and max");
		ok(json_integer_value(json_object_get(json_object_get(m, "percentiles"), "50")) >= 500000,
		   "p50 does not understate");
		for (k = 0; k < json_array_size(b); k++)
			sum += json_integer_value(json_array_get(json_array_get(b, k), 2));
		ok(sum == 1000, "exported buckets hold every sample (%lld)", (long long)sum);
		ok(!strcmp(json_string_value(json_object_get(json_object_get(root, "verdict"), "status")), "fail"),
		   "verdict fail recorded");
		ok(json_real_value(json_object_get(root, "duration_s")) == 1.5, "duration_s");
		json_decref(root);
	}
	unlink(path);
	rmdir(dir);
	free(h);
	return tap_done();
}
