// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare: which --explain culprits appeared, grew, shrank or
 * vanished between the base and a new side ("ktimers/1 took 3.10 ms over
 * 40 outliers in NEW, absent in BASE").  Figures, not verdicts: the rows
 * and the exit status are the latencies'.
 */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

#define SHOW 10		/* lines per bench and side */
#define SHARE 0.05	/* a culprit under this share of both sides' time is not shown */

struct pooled_culprit {
	const char *kind, *name;	/* the first document's */
	int kthread;			/* 1 kernel thread, 0 user task, -1 not said */
	double ns[2], outliers[2];	/* per run: [0] base, [1] new */
};

struct cpool {
	struct pooled_culprit *c;
	size_t n;
	double total[2];
	size_t runs[2];
};

static struct pooled_culprit *find(struct cpool *p, const struct rtp_doc_culprit *c)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->c[i].kind, c->kind) && !strcmp(p->c[i].name, c->name) &&
		    p->c[i].kthread == c->kthread)
			return &p->c[i];
	return NULL;
}

/* one side's runs of bench into p->...[w]; false when none ran --explain */
static bool add_side(struct cpool *p, const struct side *s, const char *bench, int w, size_t cap)
{
	size_t r, k;

	for (r = 0; r < s->nruns; r++) {
		const struct rtp_doc *d = run_doc(&s->runs[r], bench);

		if (!d || !d->has_culprits)
			continue;
		p->runs[w]++;
		for (k = 0; k < d->nculprits; k++) {
			struct pooled_culprit *e = find(p, &d->culprits[k]);

			if (!e) {
				if (p->n == cap)
					continue;
				e = &p->c[p->n++];
				memset(e, 0, sizeof(*e));
				e->kind = d->culprits[k].kind;
				e->name = d->culprits[k].name;
				e->kthread = d->culprits[k].kthread;
			}
			e->ns[w] += (double)d->culprits[k].ns;
			e->outliers[w] += (double)d->culprits[k].outliers;
			p->total[w] += (double)d->culprits[k].ns;
		}
	}
	return p->runs[w] > 0;
}

static void fmt_t(double ns, char *buf, size_t len)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
}

/*
 * the culprit for the console: a task by its comm and whether it is a
 * kernel thread (a comm is the task's own choice), the rest with their
 * kind; '?' for the unprintable
 */
static void label(const struct pooled_culprit *e, char *buf, size_t len)
{
	size_t i;

	if (!strcmp(e->kind, "task"))
		snprintf(buf, len, "%s%s", e->name,
			 e->kthread == 1 ? " (kernel thread)" : e->kthread == 0 ? " (user task)" : "");
	else if (!strcmp(e->kind, "idle"))
		snprintf(buf, len, "%s", e->name);
	else
		snprintf(buf, len, "%s %s", e->kind, e->name);
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
			buf[i] = '?';
}

static int by_change(const void *a, const void *b)
{
	const struct pooled_culprit *x = a, *y = b;
	double dx = x->ns[1] - x->ns[0], dy = y->ns[1] - y->ns[0];

	dx = dx < 0 ? -dx : dx;
	dy = dy < 0 ? -dy : dy;
	return dx < dy ? 1 : dx > dy ? -1 : 0;
}

static void one(FILE *f, const struct side *base, const struct side *nw, const char *bench, bool *head)
{
	size_t cap = 2 * RTP_DOC_MAX_CULPRITS * MAX_RUNS, i, shown = 0;
	struct cpool p;
	int w;

	memset(&p, 0, sizeof(p));
	p.c = calloc(cap, sizeof(*p.c));
	if (!p.c)
		return;
	if (!add_side(&p, base, bench, 0, cap) || !add_side(&p, nw, bench, 1, cap))
		goto out;
	for (i = 0; i < p.n; i++)
		for (w = 0; w < 2; w++) {
			p.c[i].ns[w] /= (double)p.runs[w];
			p.c[i].outliers[w] /= (double)p.runs[w];
		}
	for (w = 0; w < 2; w++)
		p.total[w] /= (double)p.runs[w];
	qsort(p.c, p.n, sizeof(*p.c), by_change);
	for (i = 0; i < p.n && shown < SHOW; i++) {
		const struct pooled_culprit *e = &p.c[i];
		double b = e->ns[0], n = e->ns[1];
		char who[96], tb[32], tn[32];

		if (b < SHARE * p.total[0] && n < SHARE * p.total[1])
			continue;
		if (!(b == 0 || n == 0 || n >= 2 * b || 2 * n <= b))
			continue;
		if (!*head) {
			fprintf(f, "\nculprits (--explain: time taken in the outliers' windows%s):\n",
				p.runs[0] > 1 || p.runs[1] > 1 ? ", per run" : "");
			*head = true;
		}
		label(e, who, sizeof(who));
		fmt_t(b, tb, sizeof(tb));
		fmt_t(n, tn, sizeof(tn));
		if (b == 0)
			fprintf(f, "  %s: %s took %s over %.0f outliers in %s, absent in %s\n", bench, who, tn,
				e->outliers[1], nw->label, base->label);
		else if (n == 0)
			fprintf(f, "  %s: %s took %s over %.0f outliers in %s, absent in %s\n", bench, who, tb,
				e->outliers[0], base->label, nw->label);
		else
			fprintf(f, "  %s: %s %s: %s over %.0f outliers in %s, %s over %.0f in %s\n", bench, who,
				n > b ? "grew" : "shrank", tn, e->outliers[1], nw->label, tb, e->outliers[0],
				base->label);
		shown++;
	}
out:
	free(p.c);
}

void cmp_culprits_text(FILE *f, const struct side *sides, int nsides)
{
	static const char *const benches[] = { "cyclic", "irqlat", "audio", "lockstress" };
	bool head = false;
	size_t b;
	int s;

	for (s = 1; s < nsides; s++)
		for (b = 0; b < sizeof(benches) / sizeof(benches[0]); b++)
			one(f, &sides[0], &sides[s], benches[b], &head);
}
