// SPDX-License-Identifier: GPL-2.0-or-later
#include "lockstress.h"
#include <errno.h>
static int r(struct ls_ctx *c) { (void)c; return -ENOSYS; }
static void p(const struct ls_ctx *c) { (void)c; }
static void jm(const struct ls_ctx *c, struct rtp_json *j) { (void)c; (void)j; }
static void vv(const struct ls_ctx *c, struct rtp_verdict *v, char *reason, size_t len) { (void)c; (void)v; (void)reason; (void)len; }
static void d(struct ls_ctx *c) { (void)c; }
const struct ls_scenario_ops ls_rwrec_ops = { "rwrec", r, p, jm, jm, vv, d };
