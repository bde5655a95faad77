// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-lockstress: command-line options and the scenario list parsers. */
#include "lockstress.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "log.h"
#include "opt.h"

const char *const ls_scenario_names[LS_NSCEN] = {
	"inversion", "pi-chain", "contention", "spin-preempt", "percpu", "rwlock-recursion",
};
const char *const ls_protocol_names[LS_NPROTO] = { "none", "inherit", "protect" };
const char *const ls_kind_names[LS_NKIND] = {
	"mutex", "pi-mutex", "spin", "rwlock", "rwlock-writer",
};

enum {
	OPT_SCENARIO = 256, OPT_PROTOCOL, OPT_ITER, OPT_CPU, OPT_CPUS, OPT_KIND, OPT_THREADS,
	OPT_POLICY, OPT_HOLD, OPT_BURN, OPT_MARGIN, OPT_CS, OPT_THINK, OPT_READ, OPT_CHAIN,
	OPT_WATCHDOG, OPT_SPINTO, OPT_ATTEMPT, OPT_PCPU_THREADS, OPT_BURNERS, OPT_BREAK,
	OPT_PLANT, OPT_CONTROL,
};

const struct option ls_longopts[] = {
	{ "scenario", required_argument, NULL, OPT_SCENARIO },
	{ "protocol", required_argument, NULL, OPT_PROTOCOL },
	{ "control", no_argument, NULL, OPT_CONTROL },
	{ "iterations", required_argument, NULL, OPT_ITER },
	{ "priority", required_argument, NULL, 'p' },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "hold", required_argument, NULL, OPT_HOLD },
	{ "burn", required_argument, NULL, OPT_BURN },
	{ "margin", required_argument, NULL, OPT_MARGIN },
	{ "cs", required_argument, NULL, OPT_CS },
	{ "think", required_argument, NULL, OPT_THINK },
	{ "read-share", required_argument, NULL, OPT_READ },
	{ "chain", required_argument, NULL, OPT_CHAIN },
	{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
	{ "spin-timeout", required_argument, NULL, OPT_SPINTO },
	{ "attempt-timeout", required_argument, NULL, OPT_ATTEMPT },
	{ "percpu-threads", required_argument, NULL, OPT_PCPU_THREADS },
	{ "burners", required_argument, NULL, OPT_BURNERS },
	{ "test-break-lock", no_argument, NULL, OPT_BREAK },
	{ "test-plant-deadlock", no_argument, NULL, OPT_PLANT },
	{ NULL, 0, NULL, 0 },
};
const char ls_shortopts[] = "p:";

const char ls_synopsis[] =
"What lock choices mean for a real-time thread: priority inversion and its\n"
"protocols, PI chains, contention, spinlock holder preemption, locked per-CPU\n"
"variables and rwlock recursion.  See docs/lockstress.md.\n";

const char ls_help[] =
"      --scenario LIST    inversion, pi-chain, contention, spin-preempt, percpu,\n"
"                         rwlock-recursion or all; comma list or repeated\n"
"                         (default inversion,contention)\n"
"      --protocol LIST    inversion: none, inherit, protect or all (default inherit,protect)\n"
"      --control          inversion: protocol none is the control: it must show the\n"
"                         unbounded inversion (else the scenario failed); the verdict\n"
"                         bounds the other protocols\n"
"      --iterations N     inversion (per protocol) and pi-chain rounds (default 20)\n"
"  -p, --priority N       highest SCHED_FIFO priority used (default 40)\n"
"      --cpu N            CPU of the one-CPU scenarios (default: the last online)\n"
"      --cpus LIST        contention/percpu CPUs, e.g. 0-3 (default: all online)\n"
"      --kind LIST        contention: mutex, pi-mutex, spin, rwlock, rwlock-writer or all\n"
"      --threads LIST     contention thread counts, e.g. 2,4 (default: 2 and 2 per CPU)\n"
"      --policy P         contention/percpu threads: other or fifo (default other)\n"
"      --hold T           inversion/pi-chain: holder's CPU time in the lock (default 20ms)\n"
"      --burn T           inversion/pi-chain: medium burner's CPU time (default 300ms)\n"
"      --margin T         bound = hold + margin (default max(2ms, hold/2))\n"
"      --cs T             contention critical section, busy (default 1us)\n"
"      --think T          contention time between acquisitions, busy (default 1us)\n"
"      --read-share PCT   rwlock kinds: percent of read acquisitions (default 80)\n"
"      --chain N          pi-chain threads, 2..8 (default 3)\n"
"      --watchdog T       pi-chain: a lock wait this long is a stall (default 2s)\n"
"      --spin-timeout T   spin-preempt: longest spin before backing off (default 1ms)\n"
"      --attempt-timeout T  rwlock-recursion: bound of each attempt (default 200ms)\n"
"      --percpu-threads N   percpu threads (default 2 per CPU)\n"
"      --burners B        none, or cpu: this program's own SCHED_OTHER CPU burners\n"
"                         on the other CPUs (default none)\n"
"      --test-break-lock      test only: drop the lock before the protected update\n"
"      --test-plant-deadlock  test only: close the pi-chain into a cycle\n";

const char ls_epilog[] =
"Exit: 0 pass, 1 error, 2 fail (unbounded inversion, lost update, deadlock or stall),\n"
"4 skip (no RT privilege).\n";

void ls_defaults(void *oo)
{
	struct ls_opts *o = oo;
	cpu_set_t online;
	int c;

	memset(o, 0, sizeof(*o));
	rtp_common_defaults(&o->co);
	o->iterations = 20;
	o->co.duration_ns = 1000000000ull;
	o->priority = 40;
	o->cpu = 0;
	if (rtp_cpus_online(&online))
		CPU_ZERO(&online);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &online))
			o->cpu = c;
	o->cpus = online;
	o->policy = SCHED_OTHER;
	o->hold_ns = 20000000ull;
	o->burn_ns = 300000000ull;
	o->cs_ns = 1000;
	o->think_ns = 1000;
	o->read_share = 80;
	o->chain = 3;
	o->watchdog_ns = 2000000000ull;
	o->spin_timeout_ns = 1000000ull;
	o->attempt_timeout_ns = 200000000ull;
	o->burners = LS_BURNERS_NONE;
}

int ls_parse_names(const char *s, const char *const *names, int nnames, int *out, int *nout,
		   char *badbuf, size_t badlen)
{
	const char *p = s, *e;
	int add[32], nadd = 0, i, k;

	if (!s || !*s) {
		snprintf(badbuf, badlen, "%s", "");
		return -EINVAL;
	}
	for (;;) {
		size_t len;
		bool found = false;

		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		if (len == 3 && !strncmp(p, "all", 3)) {
			for (i = 0; i < nnames && nadd < 32; i++)
				add[nadd++] = i;
			found = true;
		}
		for (i = 0; !found && i < nnames; i++) {
			if (strlen(names[i]) == len && !strncmp(p, names[i], len)) {
				if (nadd < 32)
					add[nadd++] = i;
				found = true;
			}
		}
		if (!found) {
			snprintf(badbuf, badlen, "%.*s", (int)len, p);
			return -EINVAL;
		}
		if (!e)
			break;
		p = e + 1;
	}
	for (i = 0; i < nadd; i++) {
		bool dup = false;

		for (k = 0; k < *nout; k++)
			dup |= out[k] == add[i];
		if (!dup && *nout < nnames)
			out[(*nout)++] = add[i];
	}
	return 0;
}

int ls_parse_int_list(const char *s, int min, int max, int *out, int *nout, int max_n)
{
	char buf[256], *tok, *save = NULL;
	int vals[LS_MAX_TLIST * 4], n = 0, v, i, ret;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		ret = rtp_parse_int(tok, min, max, &v);
		if (ret)
			return ret;
		if (n >= max_n)
			return -E2BIG;
		vals[n++] = v;
	}
	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		out[i] = vals[i];
	*nout = n;
	return 0;
}

bool ls_needs_rt(const struct ls_opts *o)
{
	int i;

	for (i = 0; i < o->nscen; i++) {
		switch (o->scen[i]) {
		case LS_INVERSION:
		case LS_PICHAIN:
		case LS_SPINPREEMPT:
			return true;
		case LS_CONTENTION:
		case LS_PERCPU:
			if (o->policy == SCHED_FIFO)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

uint64_t ls_margin_ns(const struct ls_opts *o)
{
	if (o->margin_ns)
		return o->margin_ns;
	return o->hold_ns / 2 > 2000000ull ? o->hold_ns / 2 : 2000000ull;
}

#define bad rtp_opt_bad

/* A duration with a unit, or 0 when allow_zero; bounded above by max_ns. */
static int dur(const char *name, const char *arg, uint64_t min_ns, uint64_t max_ns,
	       uint64_t *out, const char *why)
{
	uint64_t v;

	if (rtp_parse_duration_ns(arg, &v) || v < min_ns || v > max_ns)
		return bad(name, arg, why);
	*out = v;
	return 0;
}

int ls_option(void *oo, int c, const char *name, const char *arg, int argc, char **argv)
{
	struct ls_opts *o = oo;
	char badw[64], why[160];
	cpu_set_t online;
	int ret = 0, i;

	(void)argc;
	(void)argv;
	if (rtp_cpus_online(&online))
		CPU_ZERO(&online);
	switch (c) {
	case OPT_SCENARIO:
		if (ls_parse_names(arg, ls_scenario_names, LS_NSCEN, o->scen, &o->nscen,
				   badw, sizeof(badw))) {
			snprintf(why, sizeof(why), "unknown scenario '%s' (inversion, pi-chain, "
				 "contention, spin-preempt, percpu, rwlock-recursion or all)", badw);
			return bad(name, arg, why);
		}
		break;
	case OPT_PROTOCOL:
		if (ls_parse_names(arg, ls_protocol_names, LS_NPROTO, o->proto, &o->nproto,
				   badw, sizeof(badw)))
			return bad(name, arg, "protocol must be none, inherit or protect");
		break;
	case OPT_KIND:
		if (ls_parse_names(arg, ls_kind_names, LS_NKIND, o->kind, &o->nkind,
				   badw, sizeof(badw)))
			return bad(name, arg, "kind must be mutex, pi-mutex, spin, rwlock "
				   "or rwlock-writer");
		break;
	case OPT_THREADS:
		if (ls_parse_int_list(arg, 1, 1024, o->threads, &o->nthr, LS_MAX_TLIST))
			return bad(name, arg, "threads must be a list of 1..1024, at most 8 entries");
		break;
	case OPT_ITER:
		if (rtp_parse_u64(arg, 1, 1000000, &o->iterations))
			return bad(name, arg, "iterations must be 1..1000000");
		break;
	case 'p':
		if (rtp_parse_prio(arg, 1, 99, &o->priority))
			return bad(name, arg, "priority must be 1..99");
		break;
	case OPT_CPU:
		if (rtp_parse_int(arg, 0, CPU_SETSIZE - 1, &o->cpu))
			return bad(name, arg, "CPU must be a CPU number");
		if (CPU_COUNT(&online) && !CPU_ISSET(o->cpu, &online))
			return bad(name, arg, "CPU is not online");
		break;
	case OPT_CPUS:
		ret = rtp_parse_cpulist(arg, &o->cpus);
		if (ret || CPU_COUNT(&o->cpus) == 0)
			return bad(name, arg, "malformed CPU list (use 0-3,6)");
		for (i = 0; CPU_COUNT(&online) && i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &o->cpus) && !CPU_ISSET(i, &online))
				return bad(name, arg, "a CPU of the list is not online");
		break;
	case OPT_POLICY:
		if (!strcmp(arg, "other"))
			o->policy = SCHED_OTHER;
		else if (!strcmp(arg, "fifo"))
			o->policy = SCHED_FIFO;
		else
			return bad(name, arg, "policy must be other or fifo");
		break;
	case OPT_HOLD:
		ret = dur(name, arg, 10000ull, 10000000000ull, &o->hold_ns,
			  "hold must be 10us .. 10s");
		break;
	case OPT_BURN:
		ret = dur(name, arg, 10000ull, 10000000000ull, &o->burn_ns,
			  "burn must be 10us .. 10s");
		break;
	case OPT_MARGIN:
		ret = dur(name, arg, 1ull, 10000000000ull, &o->margin_ns,
			  "margin must be 1ns .. 10s");
		break;
	case OPT_CS:
		ret = dur(name, arg, 0, 1000000000ull, &o->cs_ns,
			  "critical section must be 0 .. 1s");
		break;
	case OPT_THINK:
		ret = dur(name, arg, 0, 1000000000ull, &o->think_ns,
			  "think time must be 0 .. 1s");
		break;
	case OPT_READ:
		if (rtp_parse_int(arg, 0, 100, &o->read_share))
			return bad(name, arg, "read share must be 0..100 (percent)");
		break;
	case OPT_CHAIN:
		if (rtp_parse_int(arg, 2, 8, &o->chain))
			return bad(name, arg, "chain must be 2..8 threads");
		break;
	case OPT_WATCHDOG:
		ret = dur(name, arg, 10000000ull, 600000000000ull, &o->watchdog_ns,
			  "watchdog must be 10ms .. 10m");
		break;
	case OPT_SPINTO:
		ret = dur(name, arg, 10000ull, 1000000000ull, &o->spin_timeout_ns,
			  "spin timeout must be 10us .. 1s");
		break;
	case OPT_ATTEMPT:
		ret = dur(name, arg, 1000000ull, 60000000000ull, &o->attempt_timeout_ns,
			  "attempt timeout must be 1ms .. 60s");
		break;
	case OPT_PCPU_THREADS:
		if (rtp_parse_int(arg, 1, 1024, &o->percpu_threads))
			return bad(name, arg, "percpu threads must be 1..1024");
		break;
	case OPT_BURNERS:
		if (!strcmp(arg, "none"))
			o->burners = LS_BURNERS_NONE;
		else if (!strcmp(arg, "cpu"))
			o->burners = LS_BURNERS_CPU;
		else
			return bad(name, arg, "burners must be none or cpu");
		break;
	case OPT_BREAK:
		o->break_lock = true;
		break;
	case OPT_PLANT:
		o->plant_deadlock = true;
		break;
	case OPT_CONTROL:
		o->control = true;
		break;
	}
	return ret;
}

int ls_check(void *oo)
{
	struct ls_opts *o = oo;
	char why[160];
	int i;

	if (o->co.duration_ns < 1000000ull || o->co.duration_ns > 86400000000000ull) {
		char val[32];

		snprintf(val, sizeof(val), "%.9g", (double)o->co.duration_ns / 1e9);
		return bad("-D", val, "duration must be 1ms .. 1d, like 500ms, 2s");
	}
	if (!o->nscen) {
		o->scen[o->nscen++] = LS_INVERSION;
		o->scen[o->nscen++] = LS_CONTENTION;
	}
	if (!o->nproto) {
		o->proto[o->nproto++] = LS_PROTO_INHERIT;
		o->proto[o->nproto++] = LS_PROTO_PROTECT;
	}
	if (o->control) {
		for (i = 0; i < o->nproto && o->proto[i] != LS_PROTO_NONE; i++)
			;
		if (i == o->nproto) {
			char list[64] = "";

			for (i = 0; i < o->nproto; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? "," : "", ls_protocol_names[o->proto[i]]);
			rtp_error("--control: the control is protocol none, not in --protocol %s", list);
			return RTP_EXIT_ERROR;
		}
	}
	if (!o->nkind)
		for (i = 0; i < LS_NKIND; i++)
			o->kind[o->nkind++] = i;
	if (!o->nthr) {
		int n2 = 2 * CPU_COUNT(&o->cpus);

		o->threads[o->nthr++] = 2;
		if (n2 > 2)
			o->threads[o->nthr++] = n2;
	}
	if (o->priority < o->chain + 2) {
		char val[16];

		snprintf(val, sizeof(val), "%d", o->priority);
		snprintf(why, sizeof(why), "priority must be at least %d for a chain of %d "
			 "(the scenarios use priorities below it)", o->chain + 2, o->chain);
		return bad("-p", val, why);
	}
	return 0;
}
