// SPDX-License-Identifier: GPL-2.0-or-later
/* Verdicts: statuses, their exit codes, criteria. */
#include "verdict.h"

#include <stdio.h>
#include <string.h>

const char *rtp_status_name(enum rtp_status s)
{
	switch (s) {
	case RTP_PASS: return "pass";
	case RTP_FAIL: return "fail";
	case RTP_SKIP: return "skip";
	case RTP_FIGURES: return "figures only";
	default: return "error";
	}
}

int rtp_status_exit(enum rtp_status s)
{
	switch (s) {
	case RTP_PASS: return RTP_EXIT_PASS;
	case RTP_FIGURES: return RTP_EXIT_PASS;
	case RTP_FAIL: return RTP_EXIT_FAIL;
	case RTP_SKIP: return RTP_EXIT_SKIP;
	default: return RTP_EXIT_ERROR;
	}
}

void rtp_verdict_check(struct rtp_verdict *v, const char *name, const char *op,
		       double limit, double observed, const char *unit)
{
	struct rtp_criterion *c;
	bool pass;

	if (!strcmp(op, "<="))
		pass = observed <= limit;
	else if (!strcmp(op, ">="))
		pass = observed >= limit;
	else if (!strcmp(op, "<"))
		pass = observed < limit;
	else if (!strcmp(op, ">"))
		pass = observed > limit;
	else
		pass = observed == limit;
	if (!pass && v->status == RTP_PASS)
		v->status = RTP_FAIL;
	if (v->ncriteria >= RTP_MAX_CRITERIA)
		return;
	c = &v->criteria[v->ncriteria++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->op, sizeof(c->op), "%s", op);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->limit = limit;
	c->observed = observed;
	c->pass = pass;
}

void rtp_verdict_figures_only(struct rtp_verdict *v)
{
	if (v->status == RTP_PASS)
		v->status = RTP_FIGURES;
}
