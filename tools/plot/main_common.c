// SPDX-License-Identifier: GPL-2.0-or-later
#include "main_common.h"

#include <getopt.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "opt.h"
#include "result.h"

void rtp_plot_base_dir(const char *arg, char *buf, size_t len)
{
	struct stat st;
	const char *s;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "%s", arg);
		return;
	}
	s = strrchr(arg, '/');
	if (s)
		snprintf(buf, len, "%.*s", (int)(s - arg), arg);
	else
		snprintf(buf, len, ".");
}

int rtp_plot_main_args(int argc, char **argv, const char *prog, void (*usage)(FILE *f),
		       const char **out, bool *quiet, bool *text)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "text", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'H' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, li;

	*out = NULL;
	*quiet = false;
	if (text)
		*text = false;
	while ((c = getopt_long(argc, argv, text ? ":o:qt" : ":o:q", longopts, &li)) != -1) {
		if (c == 't' && !text)
			c = '?';
		switch (c) {
		case 'o': *out = optarg; break;
		case 'q': *quiet = true; break;
		case 't': *text = true; break;
		case 'H': usage(stdout); return 0;
		case 'V': printf("%s %s\n", prog, RTP_VERSION); return 0;
		default: return rtp_opt_fail(c, argv);
		}
	}
	if (optind >= argc) {
		rtp_error("no RESULT given (see --help)");
		return 1;
	}
	return -1;
}

void rtp_plot_main_warnings(const struct rtp_plot_set *set)
{
	for (size_t i = 0; i < set->nwarnings; i++)
		rtp_warn("%s", set->warnings[i]);
}

int rtp_plot_main_load(struct rtp_plot_set *set, char **args, int n)
{
	char msg[1024], line[1024];

	if (!rtp_plot_load(set, args, n, msg, sizeof(msg)))
		return 0;
	rtp_plot_main_warnings(set);
	/* the message may quote a document (its schema, jansson's excerpt) */
	rtp_error("%s", rtp_plot_text(line, sizeof(line), msg));
	rtp_plot_set_free(set);
	return 1;
}
