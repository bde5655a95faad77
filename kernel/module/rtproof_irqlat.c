// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof_irqlat: the stages of a threaded interrupt, timestamped.
 *
 * A software interrupt on an irq domain of the module's own (one line, an
 * irq_chip whose mask and unmask do nothing but let the core track the
 * state) with a primary and a threaded handler (IRQF_ONESHOT: the line
 * stays masked until the thread has run).  A hard, pinned hrtimer raises
 * it at a programmed period through generic_handle_irq().  Each event is
 * timestamped at the timer's programmed expiry (a), in the primary handler
 * (b), at the thread handler's start (c), and when the reader blocked in
 * read() wakes up (d); see rtproof_irqlat.h for the record.
 *
 * "A reader is waiting" means a task blocked in read() (an explicit count,
 * readers_blocked): poll() and epoll waiters sleep on the same wait queue
 * but are not readers, and their records carry no (d).
 *
 * Kernel API differences are decided by what the headers offer (Kbuild
 * probes them), not by version numbers: hrtimer_setup() (6.13 and later;
 * hrtimer_init() is gone in 6.15+) and irq_domain_create_linear() (present
 * on every supported kernel; irq_domain_add_linear() is the legacy name).
 * .llseek is left unset: stream_open() clears FMODE_LSEEK, so lseek is
 * -ESPIPE everywhere, with or without no_llseek (removed in 6.12).
 *
 * Nothing here can hang the machine: the queue is bounded (records the
 * reader does not take are dropped and counted), an expiry that finds the
 * line still masked is counted and raises nothing, the only busy wait is
 * the planted delay (delay_us, at most 1 ms and at most half the period);
 * hold_us makes the thread sleep with the line masked, to test the busy
 * count.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/delay.h>
#include <linux/smp.h>

#include "rtproof_irqlat.h"

#define PERIOD_MIN_US	50
#define PERIOD_MAX_US	1000000
#define DELAY_MAX_US	1000
#define QUEUE_MIN	16
#define QUEUE_MAX	65536
#define HOLD_MAX_US	100000

static unsigned int period_us = 1000;
static unsigned int delay_us;
static unsigned int queue_len = 4096;
static unsigned int hold_us;
static int cpu = -1;

static int set_period(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < PERIOD_MIN_US || v > PERIOD_MAX_US)
		return -ERANGE;
	WRITE_ONCE(period_us, v);
	return 0;
}

static int set_delay(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v > DELAY_MAX_US)
		return -ERANGE;
	WRITE_ONCE(delay_us, v);
	return 0;
}

static int set_queue(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < QUEUE_MIN || v > QUEUE_MAX)
		return -ERANGE;
	WRITE_ONCE(queue_len, v);
	return 0;
}

static int set_hold(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v > HOLD_MAX_US)
		return -ERANGE;
	WRITE_ONCE(hold_us, v);
	return 0;
}

/*
 * A planted kernel warning for the tests of rtproof vm (docs/kernels.md):
 * writing 1 raises a real WARN() with its call trace; nothing else changes.
 */
static int set_plant_warning(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val, &v);

	if (ret)
		return ret;
	WARN(v, "rtproof_irqlat: warning planted through the plant_warning parameter\n");
	return 0;
}

static const struct kernel_param_ops plant_warning_ops = { .set = set_plant_warning };
module_param_cb(plant_warning, &plant_warning_ops, NULL, 0200);
MODULE_PARM_DESC(plant_warning, "write 1: the module raises a kernel WARNING with a call trace "
		 "(a planted warning for tests; nothing else changes)");

static const struct kernel_param_ops period_ops = { .set = set_period, .get = param_get_uint };
static const struct kernel_param_ops delay_ops = { .set = set_delay, .get = param_get_uint };
static const struct kernel_param_ops queue_ops = { .set = set_queue, .get = param_get_uint };
static const struct kernel_param_ops hold_ops = { .set = set_hold, .get = param_get_uint };
module_param_cb(period_us, &period_ops, &period_us, 0644);
MODULE_PARM_DESC(period_us, "timer period in us, 50..1000000 (read at open)");
module_param_cb(delay_us, &delay_ops, &delay_us, 0644);
MODULE_PARM_DESC(delay_us, "delay planted in the primary handler, us, 0..1000 and at most half the period (live)");
module_param_cb(queue_len, &queue_ops, &queue_len, 0644);
MODULE_PARM_DESC(queue_len, "records the queue holds, 16..65536 (read at open)");
module_param_cb(hold_us, &hold_ops, &hold_us, 0644);
MODULE_PARM_DESC(hold_us, "time the thread handler sleeps after handing its record over, us, "
		 "0..100000 (live): the line stays masked, later expiries count as busy");
module_param(cpu, int, 0644);
MODULE_PARM_DESC(cpu, "CPU the timer is pinned to; -1: the opener's CPU (read at open)");

struct irqlat {
	struct irq_domain *domain;
	unsigned int irq;
	struct irq_data *irqd;
	struct hrtimer timer;
	u64 period_ns;
	int cpu;

	/* The event in flight: written by the timer and the primary handler,
	 * read by the thread handler; one at a time (the line is masked from
	 * the primary handler until the thread returns). */
	u64 cur_seq;
	u64 cur_expiry;
	u64 cur_entry;
	u64 cur_hard;
	u32 cur_delay;
	u32 cur_flags;
	u32 cur_cpu;

	/* Counters: the timer's own (hard-IRQ) and the queue's (under lock). */
	u64 fired;
	u64 busy;
	u64 overruns;
	u64 dropped;
	u64 delivered;
	u32 thread_pid;

	/* The bounded queue, under qlock. */
	spinlock_t qlock;
	struct rtp_irqlat_record *q;
	unsigned int qlen, qhead, qcount;
	wait_queue_head_t wq;
	atomic_t readers_blocked;	/* tasks asleep in read(), not poll() */

	atomic_t open;
};

static struct irqlat dev;

static void rtp_irq_noop(struct irq_data *d)
{
}

static struct irq_chip rtp_chip = {
	.name = "rtproof",
	.irq_mask = rtp_irq_noop,
	.irq_unmask = rtp_irq_noop,
	.irq_ack = rtp_irq_noop,
};

static int rtp_domain_map(struct irq_domain *d, unsigned int virq, irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &rtp_chip, handle_level_irq);
	irq_clear_status_flags(virq, IRQ_NOREQUEST | IRQ_NOPROBE);
	irq_set_status_flags(virq, IRQ_NOAUTOEN);
	return 0;
}

static const struct irq_domain_ops rtp_domain_ops = {
	.map = rtp_domain_map,
	.xlate = irq_domain_xlate_onecell,
};

static enum hrtimer_restart rtp_timer_fn(struct hrtimer *t)
{
	u64 expiry = ktime_to_ns(hrtimer_get_expires(t));
	u64 n;

	n = hrtimer_forward_now(t, ns_to_ktime(dev.period_ns));
	if (n > 1)
		WRITE_ONCE(dev.overruns, dev.overruns + n - 1);
	if (irqd_irq_masked(dev.irqd)) {
		/* The thread has not finished the last event: a real level
		 * interrupt would wait; count it and raise nothing. */
		WRITE_ONCE(dev.busy, dev.busy + 1);
		return HRTIMER_RESTART;
	}
	dev.cur_seq = dev.fired;
	dev.cur_expiry = expiry;
	dev.cur_flags = in_hardirq() ? RTP_IRQLAT_F_TIMER_HARDIRQ : 0;
	WRITE_ONCE(dev.fired, dev.fired + 1);
	generic_handle_irq(dev.irq);
	return HRTIMER_RESTART;
}

static irqreturn_t rtp_primary(int irq, void *arg)
{
	u64 entry = ktime_get_ns();
	unsigned int d_us = READ_ONCE(delay_us);

	/* Planted delay for truth tests: bounded by the parameter's range
	 * and by half the period. */
	if (d_us && (u64)d_us * 2000 <= dev.period_ns)
		udelay(d_us);
	else
		d_us = 0;
	dev.cur_hard = ktime_get_ns();
	dev.cur_entry = entry;
	dev.cur_delay = d_us * 1000;
	dev.cur_cpu = raw_smp_processor_id();
	if (in_hardirq())
		dev.cur_flags |= RTP_IRQLAT_F_PRIMARY_HARDIRQ;
	return IRQ_WAKE_THREAD;
}

/* Truth test for the busy count: the thread sleeps (never spins) with the
 * line still masked, after the event's record is out of its hands. */
static void hold(void)
{
	unsigned int h = READ_ONCE(hold_us);

	if (h)
		usleep_range(h, h + h / 16 + 1);
}

static irqreturn_t rtp_thread(int irq, void *arg)
{
	u64 now = ktime_get_ns();
	struct rtp_irqlat_record *r;
	unsigned long fl;
	bool waiting;

	if (!dev.thread_pid)
		WRITE_ONCE(dev.thread_pid, current->pid);
	waiting = atomic_read(&dev.readers_blocked) > 0;
	spin_lock_irqsave(&dev.qlock, fl);
	if (dev.qcount == dev.qlen) {
		dev.dropped++;
		spin_unlock_irqrestore(&dev.qlock, fl);
		hold();
		return IRQ_HANDLED;
	}
	r = &dev.q[(dev.qhead + dev.qcount) % dev.qlen];
	memset(r, 0, sizeof(*r));
	r->abi = RTP_IRQLAT_ABI;
	r->size = sizeof(*r);
	r->flags = dev.cur_flags | (waiting ? RTP_IRQLAT_F_READER_WAITING : 0) |
		   ((current->flags & PF_KTHREAD) ? RTP_IRQLAT_F_THREAD_KTHREAD : 0);
	r->seq = dev.cur_seq;
	r->expiry_ns = dev.cur_expiry;
	r->hardirq_entry_ns = dev.cur_entry;
	r->hardirq_ns = dev.cur_hard;
	r->thread_ns = now;
	r->delay_ns = dev.cur_delay;
	r->timer_cpu = dev.cur_cpu;
	r->thread_cpu = raw_smp_processor_id();
	r->thread_pid = current->pid;
	r->dropped = dev.dropped;
	r->busy = READ_ONCE(dev.busy);
	r->overruns = READ_ONCE(dev.overruns);
	dev.qcount++;
	spin_unlock_irqrestore(&dev.qlock, fl);
	wake_up_interruptible(&dev.wq);
	hold();
	return IRQ_HANDLED;
}

static bool queue_nonempty(void)
{
	return READ_ONCE(dev.qcount) != 0;
}

/* A fault while copying out: the records go back to the head of the queue
 * in their order (the oldest first), as if never taken; those that no longer
 * fit (the handler queued more meanwhile) are counted as dropped. */
static void put_back(struct rtp_irqlat_record *tmp, size_t n)
{
	unsigned long fl;
	size_t i;

	spin_lock_irqsave(&dev.qlock, fl);
	dev.delivered -= n;
	for (i = n; i-- > 0;) {
		if (dev.qcount == dev.qlen) {
			dev.dropped++;
			continue;
		}
		dev.qhead = (dev.qhead + dev.qlen - 1) % dev.qlen;
		tmp[i].wake_ns = 0;
		dev.q[dev.qhead] = tmp[i];
		dev.qcount++;
	}
	spin_unlock_irqrestore(&dev.qlock, fl);
}

static ssize_t rtp_read(struct file *f, char __user *buf, size_t len, loff_t *pos)
{
	struct rtp_irqlat_record tmp[8];	/* 768 bytes of stack */
	size_t want = len / sizeof(tmp[0]), done = 0;
	unsigned long fl;
	u64 woke = ktime_get_ns();	/* (d) when records were already queued */
	int ret;

	if (!want)
		return -EINVAL;
	while (done < want) {
		size_t n = 0, i;

		spin_lock_irqsave(&dev.qlock, fl);
		while (n < ARRAY_SIZE(tmp) && done + n < want && dev.qcount) {
			tmp[n] = dev.q[dev.qhead];
			dev.qhead = (dev.qhead + 1) % dev.qlen;
			dev.qcount--;
			n++;
		}
		dev.delivered += n;
		spin_unlock_irqrestore(&dev.qlock, fl);
		if (!n) {
			if (done)
				break;
			/* Nothing for us: another reader may have taken what
			 * woke us.  A blocking read waits again; it never
			 * returns 0 (there is no end of file). */
			if (f->f_flags & O_NONBLOCK)
				return -EAGAIN;
			atomic_inc(&dev.readers_blocked);
			ret = wait_event_interruptible(dev.wq, queue_nonempty());
			atomic_dec(&dev.readers_blocked);
			if (ret)
				return -ERESTARTSYS;
			woke = ktime_get_ns();	/* (d): the reader runs again */
			continue;
		}
		for (i = 0; i < n; i++)
			if (tmp[i].flags & RTP_IRQLAT_F_READER_WAITING)
				tmp[i].wake_ns = woke;
		if (copy_to_user(buf + done * sizeof(tmp[0]), tmp, n * sizeof(tmp[0]))) {
			put_back(tmp, n);
			return done ? (ssize_t)(done * sizeof(tmp[0])) : -EFAULT;
		}
		done += n;
	}
	return (ssize_t)(done * sizeof(tmp[0]));
}

static __poll_t rtp_poll(struct file *f, poll_table *pt)
{
	poll_wait(f, &dev.wq, pt);
	return queue_nonempty() ? EPOLLIN | EPOLLRDNORM : 0;
}

static void rtp_stop(void)
{
	hrtimer_cancel(&dev.timer);
	disable_irq(dev.irq);	/* waits for the handlers, the thread's too */
}

static void rtp_start_timer(void *unused)
{
	hrtimer_start(&dev.timer, ktime_add_ns(ktime_get(), dev.period_ns),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

static int rtp_open(struct inode *ino, struct file *f)
{
	struct rtp_irqlat_record *q;
	unsigned int qlen = READ_ONCE(queue_len);
	int c = READ_ONCE(cpu), ret;

	if (atomic_cmpxchg(&dev.open, 0, 1))
		return -EBUSY;
	if (c < 0)
		c = raw_smp_processor_id();
	if (c >= nr_cpu_ids || !cpu_online(c)) {
		ret = -EINVAL;
		goto out_open;
	}
	q = kvcalloc(qlen, sizeof(*q), GFP_KERNEL);
	if (!q) {
		ret = -ENOMEM;
		goto out_open;
	}
	spin_lock_irq(&dev.qlock);
	dev.q = q;
	dev.qlen = qlen;
	dev.qhead = dev.qcount = 0;
	dev.dropped = dev.delivered = 0;
	spin_unlock_irq(&dev.qlock);
	dev.fired = dev.busy = dev.overruns = 0;
	dev.period_ns = (u64)READ_ONCE(period_us) * 1000;
	dev.cpu = c;
	enable_irq(dev.irq);
	/* Pinned: the timer lives on the base of the CPU that starts it. */
	ret = smp_call_function_single(c, rtp_start_timer, NULL, 1);
	if (ret) {
		disable_irq(dev.irq);
		goto out_queue;
	}
	return stream_open(ino, f);

out_queue:
	spin_lock_irq(&dev.qlock);
	dev.q = NULL;
	dev.qlen = 0;
	spin_unlock_irq(&dev.qlock);
	kvfree(q);

out_open:
	atomic_set(&dev.open, 0);
	return ret;
}

static int rtp_release(struct inode *ino, struct file *f)
{
	struct rtp_irqlat_record *q;

	rtp_stop();
	spin_lock_irq(&dev.qlock);
	q = dev.q;
	dev.q = NULL;
	dev.qlen = dev.qcount = 0;
	spin_unlock_irq(&dev.qlock);
	kvfree(q);
	atomic_set(&dev.open, 0);
	return 0;
}

static long rtp_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct rtp_irqlat_info in;

	if (cmd != RTP_IRQLAT_IOC_INFO)
		return -ENOTTY;
	memset(&in, 0, sizeof(in));
	in.abi = RTP_IRQLAT_ABI;
	in.record_size = sizeof(struct rtp_irqlat_record);
	in.irq = dev.irq;
	in.period_ns = dev.period_ns;
	in.delay_ns = READ_ONCE(delay_us) * 1000;
	in.cpu = dev.cpu;
	in.thread_pid = READ_ONCE(dev.thread_pid);
	in.fired = READ_ONCE(dev.fired);
	in.busy = READ_ONCE(dev.busy);
	in.overruns = READ_ONCE(dev.overruns);
	spin_lock_irq(&dev.qlock);
	in.queue_len = dev.qlen;
	in.delivered = dev.delivered;
	in.dropped = dev.dropped;
	spin_unlock_irq(&dev.qlock);
	in.force_threading = IS_ENABLED(CONFIG_PREEMPT_RT);
	in.hrtimer_hard = 1;
	if (copy_to_user((void __user *)arg, &in, sizeof(in)))
		return -EFAULT;
	return 0;
}

static const struct file_operations rtp_fops = {
	.owner = THIS_MODULE,
	.open = rtp_open,
	.release = rtp_release,
	.read = rtp_read,
	.poll = rtp_poll,
	.unlocked_ioctl = rtp_ioctl,
};

static struct miscdevice rtp_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rtproof_irqlat",
	.fops = &rtp_fops,
	.mode = 0600,
};

static int __init rtp_init(void)
{
	int ret;

	spin_lock_init(&dev.qlock);
	init_waitqueue_head(&dev.wq);
	atomic_set(&dev.readers_blocked, 0);
#ifdef RTP_HAVE_HRTIMER_SETUP
	hrtimer_setup(&dev.timer, rtp_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
#else
	hrtimer_init(&dev.timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	dev.timer.function = rtp_timer_fn;
#endif

	dev.domain = irq_domain_create_linear(NULL, 1, &rtp_domain_ops, NULL);
	if (!dev.domain)
		return -ENOMEM;
	dev.irq = irq_create_mapping(dev.domain, 0);
	if (!dev.irq) {
		ret = -ENOSPC;
		goto out_domain;
	}
	dev.irqd = irq_get_irq_data(dev.irq);
	ret = request_threaded_irq(dev.irq, rtp_primary, rtp_thread, IRQF_ONESHOT,
				   RTP_IRQLAT_IRQ_NAME, &dev);
	if (ret)
		goto out_mapping;
	ret = misc_register(&rtp_misc);
	if (ret)
		goto out_irq;
	pr_info("irq %u, thread irq/%u-%s, period %u us, %s\n", dev.irq, dev.irq,
		RTP_IRQLAT_IRQ_NAME, period_us,
		IS_ENABLED(CONFIG_PREEMPT_RT) ? "PREEMPT_RT" : "not PREEMPT_RT");
	return 0;

out_irq:
	free_irq(dev.irq, &dev);
out_mapping:
	irq_dispose_mapping(dev.irq);
out_domain:
	irq_domain_remove(dev.domain);
	return ret;
}

static void __exit rtp_exit(void)
{
	misc_deregister(&rtp_misc);
	hrtimer_cancel(&dev.timer);
	free_irq(dev.irq, &dev);
	irq_dispose_mapping(dev.irq);
	irq_domain_remove(dev.domain);
}

module_init(rtp_init);
module_exit(rtp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rtproof: timestamped stages of a threaded software interrupt");
MODULE_AUTHOR("rtproof");
