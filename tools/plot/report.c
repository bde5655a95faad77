// SPDX-License-Identifier: GPL-2.0-or-later
/* report.html: one self-contained page (inline SVG and CSS, no script, no
 * network) answering: pass or fail, where, how bad, compared with what. */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "culprits.h"
#include "price.h"

/* A document string shown on the page: this many bytes at most. */
#define ESC_MAX 8192

/*
 * Every string on the page that is not a constant of this file goes
 * through esc(): text and attribute values alike (always in double
 * quotes).  Markup characters become entities, control characters spaces;
 * a string longer than ESC_MAX is cut at a character boundary and says so
 * (a 100 MB kernel_release must not become a 100 MB page).
 */
static void esc(FILE *f, const char *s)
{
	rtp_plot_html(f, s, ESC_MAX);
}

/* A class name from a document word (a verdict): the word when it is a
 * plain one, else "other". */
static const char *cls(const char *s)
{
	return s[0] && strlen(s) < 32 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s) ?
		s : "other";
}

/* a document's index into an array: -1 when it is not one */
static size_t idx(double v)
{
	return v >= 0 && v < 1e9 ? (size_t)v : (size_t)-1;
}

static double num(const json_t *o, const char *key, double dflt)
{
	const json_t *v = o ? json_object_get(o, key) : NULL;

	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* status word, with a symbol so it reads without colour */
static void status_cell(FILE *f, const char *st)
{
	const char *w = !strcmp(st, "pass") ? "&#10004; PASS" : !strcmp(st, "fail") ? "&#10008; FAIL" :
		!strcmp(st, "skip") ? "&#8211; SKIP" : !strcmp(st, "error") ? "! ERROR" :
		!strcmp(st, "figures only") ? "&#8226; FIGURES ONLY" : !strcmp(st, "trade") ? "&#8646; TRADE" : NULL;

	fprintf(f, "<td class=\"st st-%s\">", !strcmp(st, "figures only") ? "figures" : st[0] ? cls(st) : "none");
	if (w)
		fputs(w, f);
	else
		esc(f, st[0] ? st : "no verdict");
	fputs("</td>", f);
}

/* shell-quoted argv */
static void command(FILE *f, const json_t *argv)
{
	json_t *a;
	size_t i;

	json_array_foreach(argv, i, a) {
		const char *s = json_string_value(a);

		if (i)
			fputc(' ', f);
		if (!s)
			continue;
		if (s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == strlen(s)) {
			esc(f, s);
		} else {
			fputc('\'', f);
			for (; *s; s++)
				if (*s == '\'')
					fputs("'\\''", f);
				else
					esc(f, (char[]){ *s, 0 });
			fputc('\'', f);
		}
	}
}

static void value_us(FILE *f, double v, const char *unit)
{
	if (isnan(v)) {
		fputs("&#8211;", f);
		return;
	}
	if (!strcmp(unit, "ns"))
		fprintf(f, "%.1f&nbsp;&micro;s", v / 1000.0);
	else {
		fprintf(f, "%g&nbsp;", v);
		esc(f, unit);
	}
}

/* The SVG elements a gnuplot figure is made of; any other tag is shown as
 * text, not markup (a script, a foreignObject, an image, a link). */
static bool svg_element(const char *name, size_t n)
{
	static const char *const ok[] = {
		"svg", "g", "path", "text", "tspan", "title", "desc", "defs", "rect", "circle", "ellipse",
		"line", "polyline", "polygon", "use", "clipPath", "linearGradient", "radialGradient", "stop",
		"pattern", "marker", "symbol", "filter", "feComposite", "feFlood", "feOffset",
		"feGaussianBlur", "feMerge", "feMergeNode", "feBlend", "feColorMatrix",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strlen(ok[i]) == n && !strncmp(ok[i], name, n))
			return true;
	return false;
}

/* an attribute value: id prefixed, a local reference (an href's #id,
 * url(#id)) pointed at the prefixed id, quotes and markup as entities; a
 * colour (fill="#ffffff") is no reference and stays as it is */
static void svg_value(FILE *out, const char *v, size_t n, const char *pre, bool id, bool href, int *groups)
{
	size_t i;

	/* gnuplot repeats its plot groups' ids when it redraws an opaque key */
	if (id && n >= 13 && !strncmp(v, "gnuplot_plot_", 13))
		fprintf(out, "%s%d-", pre, ++*groups);
	else if (id)
		fputs(pre, out);
	for (i = 0; i < n; i++) {
		if (v[i] == '#' && ((i == 0 && href) || (i >= 4 && !strncmp(v + i - 4, "url(", 4)))) {
			fprintf(out, "#%s", pre);
			continue;
		}
		switch (v[i]) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(v[i], out);
		}
	}
}

static const char *svg_attrs(FILE *out, const char *p, const char *pre, int *groups);

/* One tag of the SVG at p ('<'): copied when it is an element gnuplot
 * draws with, without event handlers and without links that leave the
 * figure; comments, CDATA and declarations dropped; anything else shown
 * as text.  Returns where the copy goes on. */
static const char *svg_tag(FILE *out, const char *p, const char *pre, int *groups)
{
	const char *name, *e;
	bool closing = p[1] == '/';
	size_t n;

	if (!strncmp(p, "<!--", 4))
		return (e = strstr(p + 4, "-->")) ? e + 3 : p + strlen(p);
	if (!strncmp(p, "<![CDATA[", 9))
		return (e = strstr(p + 9, "]]>")) ? e + 3 : p + strlen(p);
	if (p[1] == '!' || p[1] == '?')
		return (e = strchr(p, '>')) ? e + 1 : p + strlen(p);
	name = p + 1 + closing;
	n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:_-");
	if (!svg_element(name, n)) {
		fputs("&lt;", out);
		return p + 1;
	}
	fprintf(out, "<%s%.*s", closing ? "/" : "", (int)n, name);
	return svg_attrs(out, name + n, pre, groups);
}

/* The attributes of a tag up to its end, at p: copied as svg_tag says.
 * Returns where the copy goes on (after the '>'). */
static const char *svg_attrs(FILE *out, const char *p, const char *pre, int *groups)
{
	for (;;) {
		const char *an, *v = NULL;
		size_t al, vl = 0;
		char q = 0;

		p += strspn(p, " \t\r\n");
		if (!*p)
			return p;
		if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
			fputs(*p == '>' ? ">" : "/>", out);
			return p + (*p == '>' ? 1 : 2);
		}
		an = p;
		al = strcspn(p, " \t\r\n=/>\"'<");
		if (!al) {	/* not an attribute: skip the character */
			p++;
			continue;
		}
		p += al;
		if (p[strspn(p, " \t\r\n")] == '=') {	/* gnuplot writes fill = 'url(#...)' */
			p += strspn(p, " \t\r\n") + 1;
			p += strspn(p, " \t\r\n");
			if (*p == '"' || *p == '\'') {
				q = *p++;
				v = p;
				vl = strcspn(p, q == '"' ? "\"" : "'");
				p += vl + (p[vl] == q);
			} else {
				v = p;
				vl = strcspn(p, " \t\r\n>");
				p += vl;
			}
		}
		/* event handlers go; so does a link out of the figure */
		if (al > 2 && (an[0] | 0x20) == 'o' && (an[1] | 0x20) == 'n')
			continue;
		if (al >= 4 && !strncasecmp(an + al - 4, "href", 4) && (!v || !vl || v[0] != '#'))
			continue;
		if (al == 5 && !strncasecmp(an, "style", 5))
			continue;
		fprintf(out, " %.*s", (int)al, an);
		if (v) {
			fputs("=\"", out);
			svg_value(out, v, vl, pre, al == 2 && !strncmp(an, "id", 2),
				  al >= 4 && !strncasecmp(an + al - 4, "href", 4), groups);
			fputc('"', out);
		}
	}
}

/* Copies a gnuplot SVG inline: the prologue dropped, every id prefixed so
 * figures do not share ids, a label for screen readers.  The SVG holds
 * document text (titles, legends): gnuplot writes it as text, and the copy
 * keeps only gnuplot's own elements and attributes (svg_tag), so even a
 * figure that is not gnuplot's carries no markup onto the page. */
static int inline_svg(FILE *out, const char *path, int n, const char *label)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *in = fd >= 0 ? fdopen(fd, "r") : NULL;
	char *buf = NULL, *s;
	const char *p;
	size_t cap = 0, len = 0;
	char pre[32];
	int groups = 0;

	if (!in) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (;;) {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 262144);

			if (!nb) {
				free(buf);
				fclose(in);
				return -ENOMEM;
			}
			buf = nb;
		}
		size_t r = fread(buf + len, 1, cap - len - 1, in);

		len += r;
		if (!r)
			break;
	}
	fclose(in);
	buf[len] = 0;
	s = strstr(buf, "<svg");
	if (!s) {
		free(buf);
		return -EINVAL;
	}
	snprintf(pre, sizeof(pre), "f%d-", n);
	fputs("<svg role=\"img\" aria-label=\"", out);
	esc(out, label);
	fputc('"', out);
	p = svg_attrs(out, s + 4, pre, &groups);
	for (;;) {
		const char *lt = strchr(p, '<');

		if (!lt) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, (size_t)(lt - p), out);
		p = svg_tag(out, lt, pre, &groups);
	}
	free(buf);
	return 0;
}

static const char css[] =
	"*{box-sizing:border-box}\n"
	"body{font:16px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;max-width:72rem;margin:0 auto;"
	"padding:1rem;color:#111;background:#fff}\n"
	"h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.3rem;border-bottom:2px solid #333;margin-top:2rem}"
	"h3{font-size:1.05rem;margin:.3rem 0}\n"
	".wrap{overflow-x:auto;max-width:100%}\n"
	"#compare-table{font-size:.85rem;min-width:0}#compare-table th,#compare-table td{padding:.2rem .3rem}"
	"#compare-table td.method{min-width:9rem;font-size:.8rem}\n"
	"#answer{margin:.4rem 0 .8rem;padding-left:1.2rem}#answer li{margin:.2rem 0}\n"
	"#trade-table{font-size:.85rem;min-width:0}#trade-table th,#trade-table td{padding:.2rem .3rem}"
	"#trade-table th{text-align:center}#trade-table td.rung{white-space:nowrap}\n"
	"table{border-collapse:collapse;margin:.5rem 0;min-width:50%}\n"
	"th,td{border:1px solid #888;padding:.25rem .5rem;text-align:left;vertical-align:top}\n"
	"th{background:#eee}td.num{text-align:right;white-space:nowrap}\n"
	".st{font-weight:bold;white-space:nowrap}.st-fail,.st-error,.v-worse{background:#fde0dc}"
	".st-pass,.v-better{background:#e3f4e1}.st-skip,.st-figures,.st-trade{background:#f2f2f2}\n"
	".a-unsuitable,.a-fail,.a-error{border-color:#b3261e}.a-suitable,.a-pass{border-color:#2e7d32}\n"
	".overall{font-size:1.2rem;padding:.5rem .8rem;border:3px solid #333;display:block;overflow-wrap:anywhere}\n"
	"code,.cmd{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;word-break:break-all}\n"
	".cmd{display:block;background:#f6f6f6;border-left:3px solid #888;padding:.3rem .5rem;margin:.2rem 0}\n"
	"figure{margin:1.2rem 0;border:1px solid #bbb;padding:.6rem;break-inside:avoid;page-break-inside:avoid}\n"
	"figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.92rem;color:#333}.where{font-size:.9rem;color:#444;margin:.1rem 0 .4rem}\n"
	".note{border:1px dashed #777;padding:.5rem;margin:1rem 0;background:#fafafa}\n"
	"nav{display:flex;flex-wrap:wrap}nav a{margin-right:.8rem}\n"
	"@media (max-width:40rem){body{font-size:15px;padding:.5rem}th,td{padding:.2rem .3rem}}\n"
	"@media print{body{max-width:none;font-size:11pt}nav{display:none}a{color:inherit;text-decoration:none}"
	"h2{break-after:avoid}.st-fail,.st-error{outline:2px solid #000}}\n";

/* The table of every verdict under the first screen. */
static void verdicts(FILE *f, const struct rtp_plot_set *set)
{
	bool runcol = set->nruns > 1 || set->compare || set->nfailed;
	size_t ri;
	int b;

	fprintf(f, "<div class=\"wrap\"><table id=\"verdicts\"><thead><tr>%s<th>bench</th>"
		"<th>verdict</th><th>why</th><th>measured for</th></tr></thead><tbody>\n",
		runcol ? "<th>run</th>" : "");
	for (ri = 0; ri < set->nruns; ri++)
		for (b = 0; b < RP_NBENCH; b++) {
			const json_t *d = set->runs[ri].doc[b];
			const json_t *v = json_object_get(d, "verdict");
			const char *st = rtp_plot_str(v, "status", "");

			if (!d)
				continue;
			fputs("<tr>", f);
			if (runcol) {
				fputs("<td>", f);
				esc(f, set->runs[ri].label);
				fputs("</td>", f);
			}
			fprintf(f, "<td>%s</td>", rtp_plot_bench_name[b]);
			status_cell(f, st);
			fputs("<td>", f);
			esc(f, rtp_plot_str(v, "reason", ""));
			fputs("</td>", f);
			if (strcmp(st, "skip") && json_is_number(json_object_get(d, "duration_s")))
				fprintf(f, "<td class=\"num\">%.1f&nbsp;s</td></tr>\n", num(d, "duration_s", NAN));
			else
				fputs("<td class=\"num\">&#8211;</td></tr>\n", f);
		}
	for (ri = 0; ri < set->nfailed; ri++) {
		/* a run that left no document: its failure is the verdict */
		fputs("<tr><td>", f);
		esc(f, set->failed[ri]);
		fputs("</td><td>&#8211;</td>", f);
		status_cell(f, "error");
		fputs("<td>no result document: the run failed (its directory holds the VM's serial.log)</td>"
		      "<td class=\"num\">&#8211;</td></tr>\n", f);
	}
	if (set->compare) {
		const json_t *v = json_object_get(set->compare, "verdict"), *r;
		const char *st = rtp_plot_str(v, "status", "");
		bool rt_base = rtp_plot_rt_against_stock(set->compare);
		bool ladder = rt_base || rtp_plot_stock_against_rt(set->compare);
		size_t i, k = 0, rt_better = 0, rt_worse = 0;

		/*
		 * A kernel ladder sets stock against an RT base: there a
		 * "regression" is a stock rung worse than RT (the answer RT is
		 * meant to give), and the question is whether RT is worse
		 * anywhere (a row where the stock rung is better).  That is a
		 * trade, not a pass or a fail: the first screen states it.
		 */
		if (ladder) {
			json_array_foreach(json_object_get(set->compare, "rows"), i, r) {
				const char *verdict = rtp_plot_str(r, "verdict", "");

				if (rt_base && !rtp_plot_new_is_stock(set->compare, r))
					continue;	/* an RT rung against RT */
				rt_better += !strcmp(verdict, rt_base ? "worse" : "better");
				rt_worse += !strcmp(verdict, rt_base ? "better" : "worse");
			}
			st = "trade";
		}
		fputs("<tr><td>comparison</td><td>compare</td>", f);
		status_cell(f, st);
		fputs("<td>", f);
		if (ladder) {
			fprintf(f, "RT against stock: RT significantly better on %zu figure(s), "
				   "significantly worse on %zu (the first screen weighs them)", rt_better, rt_worse);
			json_array_foreach(json_object_get(set->compare, "rows"), i, r) {
				if (strcmp(rtp_plot_str(r, "verdict", ""), rt_base ? "better" : "worse") ||
				    (rt_base && !rtp_plot_new_is_stock(set->compare, r)))
					continue;
				fputs(k++ ? "; " : ": ", f);
				esc(f, rt_base ? rtp_plot_str(json_array_get(json_object_get(set->compare, "new"),
						    idx(json_number_value(json_object_get(r, "new_index")))),
						    "label", "?") :
				    rtp_plot_str(json_object_get(set->compare, "base"), "label", "?"));
				fputs(" better on ", f);
				esc(f, rtp_plot_str(r, "bench", ""));
				fputs(" ", f);
				esc(f, rtp_plot_str(r, "metric", ""));
				fputs(" ", f);
				esc(f, rtp_plot_str(r, "figure", ""));
			}
		} else {
			if (!json_array_size(json_object_get(v, "regressions")))
				fputs("no regression beyond the threshold", f);
			json_array_foreach(json_object_get(v, "regressions"), i, r) {
				fputs(i ? "; " : "regressions: ", f);
				esc(f, json_string_value(r));
			}
		}
		fprintf(f, "</td><td class=\"num\">threshold %g&nbsp;%%</td></tr>\n",
			num(set->compare, "threshold", NAN) * 100);
	}
	fputs("</tbody></table></div>\n", f);
}

static void sysrow(FILE *f, const char *k, const char *v, bool code)
{
	fprintf(f, "<tr><th>%s</th><td>%s", k, code ? "<code>" : "");
	esc(f, v);
	fprintf(f, "%s</td></tr>\n", code ? "</code>" : "");
}

static void systems(FILE *f, const struct rtp_plot_set *set)
{
	size_t ri;

	for (ri = 0; ri < set->nruns; ri++) {
		const struct rtp_plot_run *r = &set->runs[ri];
		json_t *sys = json_object_get(rtp_plot_sysdoc(r), "system");
		json_t *virt = json_object_get(sys, "virtualized");
		char buf[512];

		if (set->nruns > 1) {
			fputs("<h3>", f);
			esc(f, r->label);
			fputs("</h3>\n", f);
		}
		fputs("<div class=\"wrap\"><table class=\"system\"><tbody>\n", f);
		sysrow(f, "kernel", rtp_plot_str(sys, "kernel_release", "not recorded"), false);
		sysrow(f, "kernel version", rtp_plot_str(sys, "kernel_version", "not recorded"), false);
		snprintf(buf, sizeof(buf), "%s (decided by %s)", rtp_plot_str(sys, "preempt", "unknown"),
			 rtp_plot_str(sys, "preempt_source", "?"));
		sysrow(f, "preemption model", buf, false);
		sysrow(f, "kernel command line", rtp_plot_str(sys, "cmdline", "not recorded"), true);
		snprintf(buf, sizeof(buf), "%s; %lld online (%s); %s", rtp_plot_str(sys, "cpu_model", "?"),
			 rtp_plot_ll(num(sys, "cpus_online", 0)), rtp_plot_str(sys, "cpus_online_list", "?"),
			 rtp_plot_str(sys, "machine", ""));
		sysrow(f, "CPU", buf, false);
		sysrow(f, "clocksource", rtp_plot_str(sys, "clocksource", "?"), false);
		snprintf(buf, sizeof(buf), "%s%s%s%s",
			 json_is_true(virt) ? "yes" : json_is_false(virt) ? "no" : "unknown",
			 json_is_true(virt) ? " (detected by " : "",
			 json_is_true(virt) ? rtp_plot_str(sys, "hypervisor", "?") : "",
			 json_is_true(virt) ? "): a VM's figures are not hardware figures" : "");
		sysrow(f, "virtualised", buf, false);
		sysrow(f, "host name", rtp_plot_str(sys, "hostname", "?"), false);
		if (r->vm) {
			snprintf(buf, sizeof(buf), "%s, clock %s: %s; %lld vCPU, %lld MiB%s%s",
				 rtp_plot_str(r->vm, "qemu", "QEMU (version not recorded)"), rtp_plot_str(r->vm, "clock", "?"),
				 rtp_plot_str(r->vm, "time_base", "?"), rtp_plot_ll(num(r->vm, "vcpus", 0)),
				 rtp_plot_ll(num(r->vm, "memory_mib", 0)), rtp_plot_str(r->vm, "note", NULL) ? "; " : "",
				 rtp_plot_str(r->vm, "note", ""));
			sysrow(f, "virtual machine", buf, false);
		}
		fputs("</tbody></table></div>\n", f);
	}
}

/* What the programs set while they ran, as the documents record it. */
static void changes(FILE *f, const struct rtp_plot_set *set)
{
	size_t ri;
	int b;

	fprintf(f, "<div class=\"wrap\"><table id=\"changes\"><thead><tr>%s<th>bench</th>"
		"<th>what it set while it ran</th></tr></thead><tbody>\n", set->nruns > 1 ? "<th>run</th>" : "");
	for (ri = 0; ri < set->nruns; ri++)
		for (b = 0; b < RP_NBENCH; b++) {
			const json_t *d = set->runs[ri].doc[b];
			json_t *p = json_object_get(d, "params"), *t, *dma;
			const char *pol;
			bool any = false;

			if (!d)
				continue;
			fputs("<tr>", f);
			if (set->nruns > 1) {
				fputs("<td>", f);
				esc(f, set->runs[ri].label);
				fputs("</td>", f);
			}
			fprintf(f, "<td>%s</td><td><ul>", rtp_plot_bench_name[b]);
			dma = json_object_get(p, "cpu_dma_latency_us");
			if (dma) {
				if (json_is_number(dma))
					fprintf(f, "<li>held <code>/dev/cpu_dma_latency</code> at %g&nbsp;&micro;s "
						"while it ran (deep idle states kept off)</li>", json_number_value(dma));
				else
					fputs("<li>left <code>/dev/cpu_dma_latency</code> alone</li>", f);
				any = true;
			}
			pol = rtp_plot_str(p, "policy_rt", rtp_plot_str(p, "reader_policy", rtp_plot_str(p, "policy", NULL)));
			if (pol) {
				double pr = num(p, "priority", num(p, "reader_priority", NAN));

				fputs("<li>measuring thread(s): ", f);
				esc(f, pol);
				if (!isnan(pr))
					fprintf(f, " priority %g", pr);
				fputs("</li>", f);
				any = true;
			}
			if (json_is_boolean(json_object_get(p, "mlockall"))) {
				fprintf(f, "<li>memory %s (mlockall)</li>",
					json_is_true(json_object_get(p, "mlockall")) ? "locked" : "not locked");
				any = true;
			}
			t = json_object_get(p, "irq_thread");
			if (json_is_object(t)) {
				fputs("<li>IRQ thread ", f);
				if (json_is_true(json_object_get(t, "found"))) {
					esc(f, rtp_plot_str(t, "name", "?"));
					if (json_is_true(json_object_get(t, "priority_set"))) {
						fprintf(f, " set to %s %g (was %s %g; restored at exit)",
							rtp_plot_str(t, "policy", "?"), num(t, "priority", NAN),
							rtp_plot_str(t, "original_policy", "?"), num(t, "original_priority", NAN));
					} else {
						fprintf(f, " left at %s %g", rtp_plot_str(t, "policy", "?"),
							num(t, "priority", NAN));
					}
					fputs("; threading ", f);
					esc(f, rtp_plot_str(t, "threading", "?"));
				} else {
					fputs("not found: ", f);
					esc(f, rtp_plot_str(t, "note", ""));
				}
				fputs("</li>", f);
				any = true;
			}
			if (num(p, "dsp_load_pct", 0) > 0) {
				fprintf(f, "<li>DSP load %g&nbsp;%% of every period</li>", num(p, "dsp_load_pct", 0));
				any = true;
			}
			if (!any)
				fputs("<li>the document records nothing it changed</li>", f);
			fputs("</ul></td></tr>\n", f);
		}
	fputs("</tbody></table></div>\n", f);
}

static void loads_and_commands(FILE *f, const struct rtp_plot_set *set)
{
	size_t ri;
	int b;

	fputs("<h2 id=\"load\">The load</h2>\n<div class=\"wrap\"><table><thead><tr><th>run</th>"
	      "<th>load</th><th>as recorded</th></tr></thead><tbody>\n", f);
	for (ri = 0; ri < set->nruns; ri++) {
		char l[300];

		rtp_plot_load_text(&set->runs[ri], l, sizeof(l));
		fputs("<tr><td>", f);
		esc(f, set->runs[ri].label);
		fputs("</td><td>", f);
		esc(f, l);
		fputs("</td><td>", f);
		for (b = 0; b < RP_NBENCH; b++) {
			char *s;

			if (!set->runs[ri].doc[b])
				continue;
			s = json_dumps(json_object_get(set->runs[ri].doc[b], "load"), JSON_COMPACT);
			fprintf(f, "%s: <code>", rtp_plot_bench_name[b]);
			esc(f, s ? s : "none");
			fputs("</code><br>", f);
			free(s);
		}
		if (set->runs[ri].vm) {
			fputs("VM guest load: <code>", f);
			esc(f, rtp_plot_str(set->runs[ri].vm, "load", "?"));
			fputs("</code> (started by rtproof vm beside the command)", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n<h2 id=\"commands\">Command lines</h2>\n", f);
	for (ri = 0; ri < set->nruns; ri++) {
		if (set->nruns > 1) {
			fputs("<h3>", f);
			esc(f, set->runs[ri].label);
			fputs("</h3>\n", f);
		}
		if (set->runs[ri].vm) {
			fputs("<p>in QEMU, kernel command line <code>", f);
			esc(f, rtp_plot_str(set->runs[ri].vm, "kernel_cmdline", "?"));
			fputs("</code>; the guest ran <span class=\"cmd\">", f);
			command(f, json_object_get(set->runs[ri].vm, "command"));
			fputs("</span></p>\n", f);
		}
		for (b = 0; b < RP_NBENCH; b++) {
			if (!set->runs[ri].doc[b])
				continue;
			fprintf(f, "<p>%s (<code>", rtp_plot_bench_name[b]);
			esc(f, set->runs[ri].path[b]);
			fputs("</code>):<span class=\"cmd\">", f);
			command(f, json_object_get(set->runs[ri].doc[b], "command"));
			fputs("</span></p>\n", f);
		}
	}
}

static void ci_cell(FILE *f, const json_t *row, const char *vk, const char *ck, const char *unit)
{
	json_t *ci = json_object_get(row, ck);

	fputs("<td class=\"num\">", f);
	value_us(f, num(row, vk, NAN), unit);
	if (json_array_size(ci) == 2 && json_is_number(json_array_get(ci, 0))) {
		fputs("<br><small>[", f);
		value_us(f, json_number_value(json_array_get(ci, 0)), unit);
		fputs(" &ndash; ", f);
		value_us(f, num(json_array_get(ci, 1), NULL, json_number_value(json_array_get(ci, 1))), unit);
		fputs("]</small>", f);
	}
	fputs("</td>", f);
}

static void comparison(FILE *f, const struct rtp_plot_set *set)
{
	const json_t *c = set->compare, *rw, *n;
	bool has_cpu = false, has_th = false;
	bool rt_base = rtp_plot_rt_against_stock(c), stock_base = !rt_base && rtp_plot_stock_against_rt(c);
	size_t i;

	fputs("<h2 id=\"comparison\">Comparison</h2>\n<p>Base: <b>", f);
	esc(f, rtp_plot_str(json_object_get(c, "base"), "label", "?"));
	fputs("</b> (", f);
	esc(f, rtp_plot_str(json_object_get(c, "base"), "kernel_release", "?"));
	fputs(", preempt ", f);
	esc(f, rtp_plot_str(json_object_get(c, "base"), "preempt", "?"));
	fputs("); against: ", f);
	json_array_foreach(json_object_get(c, "new"), i, n) {
		fprintf(f, "%s<b>[%zu] ", i ? ", " : "", i);
		esc(f, rtp_plot_str(n, "label", "?"));
		fputs("</b> (", f);
		esc(f, rtp_plot_str(n, "kernel_release", "?"));
		fputs(", preempt ", f);
		esc(f, rtp_plot_str(n, "preempt", "?"));
		fputs(")", f);
	}
	fprintf(f, ". Intervals are %g&nbsp;%% confidence intervals; a change counts beyond %g&nbsp;%%. "
		"Compared from <code>", num(c, "confidence", NAN) * 100, num(c, "threshold", NAN) * 100);
	esc(f, set->compare_path);
	fputs("</code>.</p>\n", f);
	if (json_array_size(json_object_get(c, "warnings"))) {
		fputs("<ul class=\"warnings\">", f);
		json_array_foreach(json_object_get(c, "warnings"), i, n) {
			fputs("<li>warning: ", f);
			esc(f, json_string_value(n));
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
	}
	/* a CPU (thread) column holds a CPU (thread) or is absent, never "?" */
	json_array_foreach(json_object_get(c, "rows"), i, rw) {
		has_cpu |= json_object_get(rw, "cpu") && !json_is_null(json_object_get(rw, "cpu"));
		has_th |= json_object_get(rw, "thread") && !json_is_null(json_object_get(rw, "thread"));
	}
	fprintf(f, "<div class=\"wrap\" id=\"compare-box\"><table id=\"compare-table\"><thead><tr><th>bench</th>"
		"<th>metric</th>%s%s<th>figure</th><th>base [interval]</th><th>new</th>"
		"<th>new [interval]</th><th>new/base</th><th>verdict</th><th>method</th></tr></thead><tbody>\n",
		has_cpu ? "<th>CPU</th>" : "", has_th ? "<th>thread</th>" : "");
	json_array_foreach(json_object_get(c, "rows"), i, rw) {
		const char *unit = rtp_plot_str(rw, "unit", "");
		const char *v = rtp_plot_str(rw, "verdict", "");
		char cpu[64], th[64];
		double ratio = num(rw, "ratio", NAN);

		rtp_plot_scalar(json_object_get(rw, "cpu"), cpu, sizeof(cpu));
		rtp_plot_scalar(json_object_get(rw, "thread"), th, sizeof(th));
		fputs("<tr><td>", f);
		esc(f, rtp_plot_str(rw, "bench", ""));
		fputs("</td><td>", f);
		esc(f, rtp_plot_str(rw, "metric", ""));
		fputs("</td>", f);
		if (has_cpu) {
			fputs("<td>", f);
			if (json_is_null(json_object_get(rw, "cpu")) || !json_object_get(rw, "cpu"))
				fputs("&#8211;", f);
			else
				esc(f, cpu);
			fputs("</td>", f);
		}
		if (has_th) {
			fputs("<td>", f);
			if (json_is_null(json_object_get(rw, "thread")) || !json_object_get(rw, "thread"))
				fputs("&#8211;", f);
			else
				esc(f, th);
			fputs("</td>", f);
		}
		fputs("<td>", f);
		esc(f, rtp_plot_str(rw, "figure", ""));
		fputs("</td>", f);
		ci_cell(f, rw, "base", "base_ci", unit);
		fputs("<td>", f);
		n = json_array_get(json_object_get(c, "new"), idx(num(rw, "new_index", 0)));
		esc(f, rtp_plot_str(n, "label", "?"));
		fputs("</td>", f);
		ci_cell(f, rw, "new", "new_ci", unit);
		if (isnan(ratio))
			fputs("<td class=\"num\">&#8211;</td>", f);
		else
			fprintf(f, "<td class=\"num\">%.3f (%+.0f&nbsp;%%)</td>", ratio, (ratio - 1) * 100);
		fprintf(f, "<td class=\"st v-%s\">%s", cls(v),
			!strcmp(v, "worse") ? "&#9650; " : !strcmp(v, "better") ? "&#9660; " : "");
		esc(f, v);
		/* a ladder's rows say whose side they favour: "worse" is new against base */
		if (rt_base && (!strcmp(v, "worse") || !strcmp(v, "better")) && rtp_plot_new_is_stock(c, rw))
			fputs(!strcmp(v, "worse") ? " (RT better)" : " (RT worse)", f);
		else if (stock_base && (!strcmp(v, "worse") || !strcmp(v, "better")))
			fputs(!strcmp(v, "worse") ? " (RT worse)" : " (RT better)", f);
		fputs("</td><td class=\"method\">", f);
		esc(f, rtp_plot_str(rw, "method", ""));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

static void figures(FILE *f, const struct rtp_plot_figs *figs, const char *figdir, const char *figrel)
{
	size_t i;
	const char *cur = "";
	int n = 0;

	fputs("<h2 id=\"figures\">Figures</h2>\n", f);
	if (figs->gnuplot_missing)
		fputs("<p class=\"note\">gnuplot is not installed (Debian: <code>apt-get install gnuplot-nox</code>): "
		      "the figures were not drawn. Their gnuplot scripts and data files are beside this page; "
		      "install gnuplot and run <code>rtproof report</code> again.</p>\n", f);
	fputs("<p>Scripts and data of every figure are in <code>", f);
	esc(f, figrel);
	fputs("/</code> (<code>gnuplot NAME.gp</code> redraws NAME.png and NAME.svg).</p>\n", f);
	for (i = 0; i < figs->n; i++) {
		const struct rtp_plot_fig *g = &figs->v[i];
		char p[4096];

		if (strcmp(cur, g->bench)) {
			cur = g->bench;
			fputs("<h3 class=\"bench\">", f);
			esc(f, cur);
			fputs("</h3>\n", f);
		}
		if (!g->plotted) {
			fputs("<div class=\"note fig-note\" id=\"", f);
			esc(f, g->id);
			fputs("\"><b>", f);
			esc(f, g->title);
			fputs("</b><br>", f);
			esc(f, g->note[0] ? g->note : "not drawn (gnuplot is missing)");
			if (figs->gnuplot_missing && !g->note[0]) {
				fputs(" &mdash; script <code>", f);
				esc(f, figrel);
				fputc('/', f);
				esc(f, g->id);
				fputs(".gp</code>", f);
			}
			fputs("</div>\n", f);
			continue;
		}
		fputs("<figure id=\"", f);
		esc(f, g->id);
		fputs("\"><h3>", f);
		esc(f, g->title);
		fputs("</h3><p class=\"where\">", f);
		esc(f, g->where);
		fputs("</p>\n", f);
		snprintf(p, sizeof(p), "%s/%s.svg", figdir, g->id);
		if (inline_svg(f, p, n++, g->title))
			fputs("<p class=\"note\">the SVG could not be read</p>", f);
		fputs("\n<figcaption>", f);
		esc(f, g->caption);
		fputs(" Files:", f);
		{
			static const char *const ext[] = { "png", "svg", "gp", "dat" };
			static const char *const what[] = { "PNG", "SVG", "gnuplot script", "data" };
			size_t e;

			for (e = 0; e < 4; e++) {
				fputs(e ? ", <a href=\"" : " <a href=\"", f);
				esc(f, figrel);
				fputc('/', f);
				esc(f, g->id);
				fprintf(f, ".%s\">%s</a>", ext[e], what[e]);
			}
		}
		fputs(".</figcaption></figure>\n", f);
	}
}

static int write_page(const struct rtp_plot_set *set, const struct rtp_plot_figs *figs,
		      const char *figdir, const char *figrel, const char *html, const char *title,
		      char *tmp, size_t tmplen);

/* the figure id is listed on the page (drawn, or a note in its place) */
static bool figs_has(const struct rtp_plot_figs *figs, const char *id)
{
	size_t i;

	for (i = 0; i < figs->n; i++)
		if (!strcmp(figs->v[i].id, id))
			return true;
	return false;
}

int rtp_report_write(const struct rtp_plot_set *set, const struct rtp_plot_figs *figs,
		     const char *figdir, const char *figrel, const char *html, const char *title)
{
	char tmp[4096];
	sigset_t block, old;
	int ret;

	/* no temporary file left behind by a SIGINT: the signals wait for the rename */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	ret = write_page(set, figs, figdir, figrel, html, title, tmp, sizeof(tmp));
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static int write_page(const struct rtp_plot_set *set, const struct rtp_plot_figs *figs,
		      const char *figdir, const char *figrel, const char *html, const char *title,
		      char *tmp, size_t tmplen)
{
	char when[64];
	FILE *f;
	int fd;
	time_t now = time(NULL);
	size_t i;

	snprintf(tmp, tmplen, "%s.tmp.XXXXXX", html);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644)) {
		close(fd);
		unlink(tmp);
		return -errno;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -ENOMEM;
	}
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
	      "base-uri 'none'; form-action 'none'\">\n"
	      "<title>", f);
	esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<header><h1>", css);
	esc(f, title);
	fprintf(f, "</h1><p>rtproof report, written %s from %zu run(s)%s.</p></header>\n", when, set->nruns,
		set->compare ? " and their comparison" : "");
	fputs("<nav><a href=\"#verdict\">verdict</a><a href=\"#system\">system</a><a href=\"#changes-h\">changes</a>"
	      "<a href=\"#load\">load</a><a href=\"#commands\">commands</a>", f);
	if (rtp_plot_price_any(set->compare))
		fputs("<a href=\"#trade\">trade</a>", f);
	if (set->compare)
		fputs("<a href=\"#comparison\">comparison</a>", f);
	fputs("<a href=\"#figures\">figures</a></nav>\n", f);

	/* the first screen: the answer, then every verdict */
	{
		struct rtp_plot_answer *a = malloc(sizeof(*a));

		if (!a) {
			fclose(f);
			unlink(tmp);
			return -ENOMEM;
		}
		rtp_plot_answer(set, a);
		fprintf(f, "<h2 id=\"verdict\">Verdict</h2>\n<p class=\"overall a-%s\" id=\"overall\">Overall: <b>",
			cls(a->cls));
		esc(f, a->word);
		fputs("</b> &mdash; ", f);
		esc(f, a->head);
		fputs("</p>\n<ul id=\"answer\">", f);
		for (i = 0; i < a->n; i++) {
			fputs("<li>", f);
			esc(f, a->line[i]);
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
		free(a);
		/* a ladder's trade per rung, before the verdict of every run */
		rtp_report_trade_table(f, set, figs_has(figs, "trade-pareto"));
		verdicts(f, set);
	}
	if (set->nwarnings) {
		fputs("<ul class=\"warnings\">", f);
		for (i = 0; i < set->nwarnings; i++) {
			fputs("<li>warning: ", f);
			esc(f, set->warnings[i]);
			fputs("</li>", f);
		}
		fputs("</ul>\n", f);
	}
	if (set->compare)
		comparison(f, set);
	fputs("<h2 id=\"system\">System</h2>\n", f);
	systems(f, set);
	fputs("<h2 id=\"changes-h\">What the tool changed while it ran</h2>\n", f);
	changes(f, set);
	loads_and_commands(f, set);
	rtp_report_culprits(f, set);
	figures(f, figs, figdir, figrel);
	fputs("<footer><p>rtproof report. Latencies are in microseconds unless a unit says otherwise; "
	      "percentiles are histogram bucket upper edges (never understated), minimum and maximum exact.</p>"
	      "</footer>\n</body></html>\n", f);
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		return -EIO;
	}
	if (rename(tmp, html)) {
		int e = -errno;

		unlink(tmp);
		return e;
	}
	return 0;
}
