// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof check, audio: the audio group, sound cards, their IRQs and IRQ
 * threads, USB autosuspend, the timer threads of PREEMPT_RT. */
#include "checks.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"
#include "sysinfo.h"

void check_audio_group(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	bool member = false;

	const char *grp = "audio";

	/* Some distributions grant the limits to "realtime" instead. */
	for (int i = 0; i < c->ngroups; i++) {
		if (!strcmp(c->groups[i], "audio") || !strcmp(c->groups[i], "realtime")) {
			member = true;
			grp = c->groups[i];
		}
	}
	fix(r, "usermod -aG audio %s; log in again", c->user);
	if (member) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s is in group %s", c->user, grp);
		return;
	}
	if (c->uid == 0) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s (uid 0) is not in group audio, and as root need not be", c->user);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%s is not in group audio (groups: %s%s%s%s): the sound devices and the group's "
		"limits are not theirs", c->user, c->ngroups > 0 ? c->groups[0] : "none",
	     c->ngroups > 1 ? ", " : "", c->ngroups > 1 ? c->groups[1] : "", c->ngroups > 2 ? ", ..." : "");
}

#define MAX_CARDS 8
struct cards {
	int n;
	int num[MAX_CARDS];
	char desc[MAX_CARDS][128];
	bool usb[MAX_CARDS];
	bool no_alsa;
};

static void read_cards(const struct rtp_check_ctx *c, struct cards *k)
{
	char *t = rtp_check_slurp(c, "/proc/asound/cards", 1 << 16);

	memset(k, 0, sizeof(*k));
	if (!t) {
		k->no_alsa = true;
		return;
	}
	for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = l, *e;
		char *end;
		long num;
		size_t n;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p) || k->n >= MAX_CARDS)
			continue;
		num = strtol(p, &end, 10);
		if (*end != ' ')
			continue;
		e = strchr(p, '\n');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof(k->desc[0]))
			n = sizeof(k->desc[0]) - 1;
		k->num[k->n] = (int)num;
		memcpy(k->desc[k->n], p, n);
		k->desc[k->n][n] = '\0';
		k->usb[k->n] = strstr(k->desc[k->n], "USB-Audio") != NULL;
		k->n++;
	}
	free(t);
}

static bool no_cards(const struct rtp_check_ctx *c, const struct cards *k,
		     struct rtp_check_result *r, bool skip)
{
	if (k->n)
		return false;
	r->status = skip ? RTP_CHECK_SKIP : RTP_CHECK_FAIL;
	if (k->no_alsa)
		seen(r, "no sound card: %s/proc/asound missing (no ALSA driver loaded)", c->root);
	else
		seen(r, "no sound card in %s/proc/asound/cards", c->root);
	fix(r, "attach a sound card; to exercise the audio path without one: modprobe snd-dummy");
	return true;
}

void check_sound_cards(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct cards k;

	read_cards(c, &k);
	if (no_cards(c, &k, r, false))
		return;
	r->status = RTP_CHECK_PASS;
	seen(r, "%d sound card(s):", k.n);
	for (int i = 0; i < k.n; i++)
		rtp_appendf(r->seen, sizeof(r->seen), "%s %s", i ? ";" : "", k.desc[i]);
}

#define MAX_SND_IRQS 16
struct snd_irqs {
	int n;
	char irq[MAX_SND_IRQS][16];
	int card[MAX_SND_IRQS];
	int actions[MAX_SND_IRQS];	/* -1 not in /proc/interrupts */
	char names[MAX_SND_IRQS][128];
};

static void add_irq(struct snd_irqs *s, const char *irq, int card)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->irq[i], irq))
			return;
	if (s->n >= MAX_SND_IRQS)
		return;
	snprintf(s->irq[s->n], sizeof(s->irq[0]), "%s", irq);
	s->card[s->n] = card;
	s->actions[s->n] = -1;
	s->names[s->n][0] = '\0';
	s->n++;
}

/* The IRQs of each card: MSI vectors, else the PCI line; USB cards: the host controllers'. */
static void sound_irqs(const struct rtp_check_ctx *c, const struct cards *k, struct snd_irqs *s)
{
	char *ints = rtp_check_slurp(c, "/proc/interrupts", 1 << 22);

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < k->n; i++) {
		char rel[128], dir[PATH_MAX + 128], irq[32];
		struct dirent *d;
		DIR *dp;
		bool got = false;

		if (k->usb[i]) {
			for (const char *l = ints; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
				char name[16], act[256];

				if (rtp_parse_interrupts_line(l, name, sizeof(name), act, sizeof(act)) > 0 &&
				    (strstr(act, "xhci_hcd") || strstr(act, "ehci_hcd") ||
				     strstr(act, "ohci_hcd") || strstr(act, "uhci_hcd") || strstr(act, "dwc")))
					add_irq(s, name, k->num[i]);
			}
			continue;
		}
		snprintf(rel, sizeof(rel), "/sys/class/sound/card%d/device/msi_irqs", k->num[i]);
		rpath(c, rel, dir, sizeof(dir));
		dp = opendir(dir);
		while (dp && (d = readdir(dp))) {
			if (isdigit((unsigned char)d->d_name[0])) {
				add_irq(s, d->d_name, k->num[i]);
				got = true;
			}
		}
		if (dp)
			closedir(dp);
		if (!got && !readf(c, irq, sizeof(irq), "/sys/class/sound/card%d/device/irq", k->num[i]) &&
		    atoi(irq) > 0)
			add_irq(s, irq, k->num[i]);
	}
	for (const char *l = ints; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[16], act[128];
		int n = rtp_parse_interrupts_line(l, name, sizeof(name), act, sizeof(act));

		for (int i = 0; n >= 0 && i < s->n; i++) {
			if (!strcmp(s->irq[i], name)) {
				s->actions[i] = n;
				snprintf(s->names[i], sizeof(s->names[0]), "%s", act);
			}
		}
	}
	free(ints);
}

void check_sound_irq(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct snd_irqs s;
	struct cards k;
	int shared = 0, known = 0;

	read_cards(c, &k);
	if (no_cards(c, &k, r, true))
		return;
	sound_irqs(c, &k, &s);
	seen(r, "%s", "");
	for (int i = 0; i < s.n; i++) {
		if (s.actions[i] < 0)
			continue;
		known++;
		rtp_appendf(r->seen, sizeof(r->seen), "%scard %d IRQ %s: %s", known > 1 ? "; " : "", s.card[i],
		       s.irq[i], s.names[i][0] ? s.names[i] : "no action");
		if (s.actions[i] > 1)
			shared++;
	}
	if (!known) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "the cards' IRQs were not found in %s/proc/interrupts "
			"(no device/irq or device/msi_irqs under /sys/class/sound/cardN)", c->root);
		return;
	}
	if (!shared) {
		r->status = RTP_CHECK_PASS;
		rtp_appendf(r->seen, sizeof(r->seen), ": not shared");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	rtp_appendf(r->seen, sizeof(r->seen), ": %d IRQ(s) shared with other devices", shared);
	fix(r, "move the card to another slot or port, or unbind the other device sharing the IRQ "
	       "(echo ADDR > /sys/bus/pci/drivers/DRIVER/unbind); a USB card: its own USB controller");
}

struct irq_threads {
	const struct snd_irqs *s;
	int found, low;
	int audio_prio;
	char list[512];
};

static int find_irq_thread(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	struct irq_threads *t = arg;
	char stat[1024];
	int policy, prio;

	if (strncmp(comm, "irq/", 4))
		return 0;
	for (int i = 0; i < t->s->n; i++) {
		size_t n = strlen(t->s->irq[i]);

		if (strncmp(comm + 4, t->s->irq[i], n) || comm[4 + n] != '-')
			continue;
		if (readf(c, stat, sizeof(stat), "/proc/%s/stat", pid) ||
		    rtp_parse_proc_stat_prio(stat, &policy, &prio))
			continue;
		t->found++;
		if (policy == 0 || prio <= t->audio_prio)
			t->low++;
		rtp_appendf(t->list, sizeof(t->list), "%s%s %s %d", t->found > 1 ? ", " : "", comm,
		       policy == 1 ? "FIFO" : policy == 2 ? "RR" : "OTHER", prio);
	}
	return 0;
}

void check_irq_prio(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct irq_threads t = { 0 };
	struct snd_irqs s;
	struct cards k;

	read_cards(c, &k);
	if (no_cards(c, &k, r, true))
		return;
	sound_irqs(c, &k, &s);
	if (!s.n) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "the cards' IRQs are unknown (no device/irq or msi_irqs under /sys/class/sound)");
		return;
	}
	t.s = &s;
	t.audio_prio = c->audio_prio;
	each_proc(c, find_irq_thread, &t);
	fix(r, "apt-get install rtirq-init (raises sound IRQ threads above the audio thread), or: "
	       "for p in $(pgrep -P 2 '^irq/%s-'); do chrt -f -p %d $p; done", s.irq[0],
	    c->audio_prio + 5 > 99 ? 99 : c->audio_prio + 5);
	if (!t.found) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "no IRQ thread for the sound IRQ(s) %s%s: their handlers are not threaded "
			"and cannot be prioritised", s.irq[0], s.n > 1 ? ",..." : "");
		fix(r, "boot with threadirqs (or a PREEMPT_RT kernel), then apt-get install rtirq-init");
		return;
	}
	if (!t.low) {
		r->status = RTP_CHECK_PASS;
		seen(r, "sound IRQ threads above the audio thread's priority %d: %s", c->audio_prio, t.list);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%d sound IRQ thread(s) at or below the audio thread's priority %d: %s", t.low,
	     c->audio_prio, t.list);
}

void check_usb_autosuspend(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char auto_s[32] = "unread: usbcore not loaded", ctl[32], bad[256] = "", cmd[512] = "";
	int nusb = 0, nbad = 0;
	struct cards k;

	read_cards(c, &k);
	rtp_check_read(c, "/sys/module/usbcore/parameters/autosuspend", auto_s, sizeof(auto_s));
	for (int i = 0; i < k.n; i++) {
		if (!k.usb[i])
			continue;
		nusb++;
		if (readf(c, ctl, sizeof(ctl), "/sys/class/sound/card%d/device/../power/control", k.num[i]))
			continue;
		if (strcmp(ctl, "on") && nbad++ < 4) {
			rtp_appendf(bad, sizeof(bad), "%scard %d power/control %s", nbad > 1 ? ", " : "",
			       k.num[i], ctl);
			rtp_appendf(cmd, sizeof(cmd), " /sys/class/sound/card%d/device/../power/control", k.num[i]);
		}
	}
	if (!nusb) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no USB audio device (usbcore.autosuspend %s)", auto_s);
		return;
	}
	fix(r, "echo on | tee%s (boot: usbcore.autosuspend=-1)", cmd[0] ? cmd : " /sys/class/sound/cardN/device/../power/control");
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%d USB audio device(s) kept powered (power/control on; usbcore.autosuspend=%s)",
		     nusb, auto_s);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "USB audio may autosuspend: %s (usbcore.autosuspend=%s)", bad, auto_s);
}


/*
 * ktimers/N (PREEMPT_RT): soft hrtimers and timer-wheel timers expire in
 * this thread, SCHED_FIFO 1 by default.  A timer-driven sound device
 * (snd-dummy, snd-aloop) signals each period from a soft hrtimer, so the
 * audio thread's wake-up waits until ktimers runs: behind every RT thread
 * at or above its priority, rcuc/N (RCU callbacks, also FIFO 1) included.
 */
struct ktimers {
	int audio_prio, n, low, kt_prio;
	/*
	 * A PipeWire server runs: its timer-driven graph drivers (the dummy
	 * driver, the null sink, ALSA nodes under timer-based scheduling, their
	 * default) wake from a timerfd, a soft hrtimer that expires in
	 * ktimers/N (vm-audio-pipewire.t: a FIFO 90 spinner held its
	 * Dummy-Driver 99 ms).
	 */
	bool pipewire;
	char list[256];
	int n_ahead;
	char ahead[256];		/* RT threads a low ktimers waits behind */
};

static int find_ktimers(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	struct ktimers *t = arg;
	char stat[1024];
	int policy, prio;

	if (!strcmp(comm, "pipewire"))
		t->pipewire = true;
	if (strncmp(comm, "ktimers/", 8) || !isdigit((unsigned char)comm[8]))
		return 0;
	if (readf(c, stat, sizeof(stat), "/proc/%s/stat", pid) || rtp_parse_proc_stat_prio(stat, &policy, &prio))
		return 0;
	if (policy == 0)
		prio = 0;
	t->n++;
	if (prio <= t->audio_prio) {
		t->low++;
		if (!t->kt_prio || prio < t->kt_prio)
			t->kt_prio = prio ? prio : -1;
	}
	if (t->n <= 4)
		rtp_appendf(t->list, sizeof(t->list), "%s%s %s %d", t->n > 1 ? ", " : "", comm,
		       policy == 1 ? "FIFO" : policy == 2 ? "RR" : "OTHER", prio);
	return 0;
}

/* Kernel RT threads at or above ktimers' priority and at or below the audio thread's. */
static int find_ahead(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	struct ktimers *t = arg;
	char stat[1024];
	int policy, prio;

	if (!strncmp(comm, "ktimers/", 8) || t->kt_prio <= 0)
		return 0;
	if (readf(c, stat, sizeof(stat), "/proc/%s/stat", pid) || rtp_parse_proc_stat_prio(stat, &policy, &prio))
		return 0;
	if ((policy != 1 && policy != 2) || prio < t->kt_prio || prio > t->audio_prio)
		return 0;
	if (t->n_ahead++ < 4)
		rtp_appendf(t->ahead, sizeof(t->ahead), "%s%s %d", t->n_ahead > 1 ? ", " : "", comm, prio);
	return 0;
}

void check_ktimers(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct ktimers t = { .audio_prio = c->audio_prio };
	bool timer_card = false;
	struct cards k;

	if (!rt_kernel(c)) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "not a PREEMPT_RT kernel: soft timers expire in softirq context, there are no ktimers/N threads");
		return;
	}
	each_proc(c, find_ktimers, &t);
	if (!t.n) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "PREEMPT_RT kernel without ktimers/N threads (before 6.1-rt, timers expire in "
			"ksoftirqd/N)");
		return;
	}
	read_cards(c, &k);
	for (int i = 0; i < k.n; i++)
		if (strstr(k.desc[i], "]: Dummy ") || strstr(k.desc[i], "]: Loopback "))
			timer_card = true;
	if (!t.low) {
		r->status = RTP_CHECK_PASS;
		seen(r, "timer threads above the audio thread's priority %d: %s%s", c->audio_prio, t.list,
		     t.n > 4 ? ", ..." : "");
		return;
	}
	each_proc(c, find_ahead, &t);
	r->status = timer_card || t.pipewire ? RTP_CHECK_FAIL : RTP_CHECK_WARN;
	seen(r, "%d timer thread(s) at or below the audio thread's priority %d (%s%s): a timer-driven "
		"device's period (%s) wakes the audio thread only when ktimers/N runs", t.low,
	     c->audio_prio, t.list, t.n > 4 ? ", ..." : "",
	     timer_card && t.pipewire ? "snd-dummy or snd-aloop here, and PipeWire running: its timer-driven "
				      "graph drivers wake from a timerfd" :
	     timer_card ? "snd-dummy or snd-aloop here" :
	     t.pipewire ? "PipeWire running here: its timer-driven graph drivers (dummy, null sink, ALSA "
			"nodes under timer-based scheduling) wake from a timerfd" :
	     "snd-dummy, snd-aloop, PipeWire's timer-driven graph drivers; none here");
	if (t.n_ahead)
		rtp_appendf(r->seen, sizeof(r->seen), ", after %s%s", t.ahead, t.n_ahead > 4 ? ", ..." : "");
	fix(r, "for p in $(pgrep '^ktimers/'); do chrt -f -p %d $p; done",
	    c->audio_prio + 1 > 99 ? 99 : c->audio_prio + 1);
}
