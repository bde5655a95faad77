/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef RTP_CHECK_H
#define RTP_CHECK_H

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * rtproof check: is this machine set up for real-time work.  Each check is
 * a table entry that reads /proc, /sys, /etc and the kernel config below a
 * root directory ("/" normally; a fake tree in the tests) and says pass,
 * warn, fail or skip, with one line of what it saw and one line of how to
 * fix it.  The profile decides which bad findings fail and which warn.
 */

enum rtp_check_status { RTP_CHECK_PASS, RTP_CHECK_WARN, RTP_CHECK_FAIL, RTP_CHECK_SKIP };
const char *rtp_check_status_name(enum rtp_check_status s);

enum rtp_check_profile { RTP_PROFILE_LATENCY, RTP_PROFILE_AUDIO };
#define RTP_PROFILE_BIT(p)	(1u << (p))
/* "latency" or "audio" -> profile; -EINVAL otherwise. */
int rtp_check_parse_profile(const char *s, enum rtp_check_profile *out);
const char *rtp_check_profile_name(enum rtp_check_profile p);

#define RTP_CHECK_MAX_GROUPS 64
struct rtp_check_ctx {
	char root[PATH_MAX];		/* "" for the real root, else no trailing '/' */
	enum rtp_check_profile profile;
	int audio_prio;			/* the audio thread's SCHED_FIFO priority */

	/* The user whose limits are checked. */
	char user[64];
	bool user_found;		/* in <root>/etc/passwd */
	bool user_is_self;		/* the invoking process's own user */
	uid_t uid;
	gid_t gid;
	int ngroups;
	char groups[RTP_CHECK_MAX_GROUPS][64];	/* names, primary first */

	cpu_set_t online;
	cpu_set_t cpus;			/* CPUs in use: --cpus, else isolated, else online */
	char cpus_why[32];		/* "--cpus", "isolated", "online" */
	cpu_set_t isolated;		/* isolcpus= / /sys/devices/system/cpu/isolated */

	char release[128];		/* <root>/proc/sys/kernel/osrelease */
	char version[256];		/* <root>/proc/sys/kernel/version (uname -v) */
	char cmdline[4096];
	char *config;			/* whole kernel config, NULL when unreadable */
	char config_src[PATH_MAX + 32];
};

struct rtp_check_result {
	enum rtp_check_status status;
	char seen[768];			/* one line: what was read */
	char fix[512];			/* one line: the command or kernel parameter */
};

struct rtp_check_def {
	const char *id;			/* "preempt", "governor"... */
	const char *group;		/* kernel, cpu, memory, limits, audio */
	const char *title;
	unsigned fail_in;		/* profiles where a bad finding fails (else warns) */
	void (*run)(const struct rtp_check_ctx *c, struct rtp_check_result *r);
};

size_t rtp_check_count(void);
const struct rtp_check_def *rtp_check_get(size_t i);
/* Index of the check named id, or -ENOENT. */
int rtp_check_find(const char *id);

/*
 * Fills the context: root (NULL or "/" for the real one), user (NULL: the
 * invoking user, or SUDO_USER when run as root through sudo), cpus (NULL:
 * the isolated CPUs if any, else every online one).  Returns 0 or a
 * negative errno (-ENAMETOOLONG root, -ENOENT root is not a directory).
 */
int rtp_check_init(struct rtp_check_ctx *c, const char *root, enum rtp_check_profile profile,
		   const char *user, const cpu_set_t *cpus, int audio_prio);
void rtp_check_free(struct rtp_check_ctx *c);

/* Runs check i; a bad finding becomes a warning when the profile says so. */
void rtp_check_run(const struct rtp_check_ctx *c, size_t i, struct rtp_check_result *r);

/* Reads <root>PATH whole into buf (newline cut); 0 or -errno. */
int rtp_check_read(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len);
/* Reads <root>PATH into a malloc'd string; NULL with errno set. */
char *rtp_check_slurp(const struct rtp_check_ctx *c, const char *path, size_t max);

/* ---- parsers (pure text in, figures out; fuzzed) ------------------------ */

#define RTP_LIMIT_UNLIMITED	(~0ull)

/* A "Max ..." line of /proc/PID/limits: soft and hard; 0 or -ENOENT/-EINVAL. */
int rtp_parse_proc_limits(const char *text, const char *name,
			  unsigned long long *soft, unsigned long long *hard);

/*
 * pam_limits lines (limits.conf, limits.d/ *.conf) for rtprio and memlock
 * as they apply to user and its groups.  Later files and lines override
 * earlier ones of the same kind; a user's own line beats a group's line,
 * which beats "*".  Values: memlock in KiB, RTP_LIMIT_UNLIMITED for
 * unlimited/infinity/-1.
 */
struct rtp_limit_entry {
	bool set;
	int rank;			/* 3 user, 2 group, 1 wildcard */
	unsigned long long soft, hard;
	char where[PATH_MAX + 16];	/* file:line of the deciding line */
};
struct rtp_limits_conf {
	struct rtp_limit_entry rtprio, memlock;
};
void rtp_parse_limits_conf(struct rtp_limits_conf *lc, const char *text, const char *file,
			   const char *user, const char (*groups)[64], int ngroups);

/*
 * One /proc/interrupts line: the IRQ name before ':', and the action
 * names (the devices on it, comma separated).  Returns the number of
 * actions (0 for none), -EINVAL for the header or a malformed line.
 */
int rtp_parse_interrupts_line(const char *line, char *irq, size_t irqlen,
			      char *actions, size_t actlen);

/* The "cpu " line of /proc/stat: steal and the sum of all fields (ticks). */
int rtp_parse_stat_steal(const char *text, unsigned long long *steal,
			 unsigned long long *total);

/* /proc/PID/stat: the policy and rt_priority fields (41 and 40). */
int rtp_parse_proc_stat_prio(const char *text, int *policy, int *prio);

/*
 * KEY=value on a kernel command line (or KEY alone: value ""); 1 found,
 * 0 not.  The last occurrence wins, as for the kernel.
 */
int rtp_cmdline_get(const char *cmdline, const char *key, char *val, size_t len);

/* A kernel config symbol: 1 with its value in val, 0 not set, -ENOENT no config. */
int rtp_kconfig_get(const char *config, const char *sym, char *val, size_t len);

#endif /* RTP_CHECK_H */
