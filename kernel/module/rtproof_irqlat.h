/* SPDX-License-Identifier: GPL-2.0-or-later WITH Linux-syscall-note */
/*
 * rtproof_irqlat: the interface between rtproof_irqlat.ko and user space.
 *
 * The module raises a software interrupt from a hard hrtimer at a fixed
 * period and timestamps each stage of its way to user space with
 * ktime_get() (CLOCK_MONOTONIC, ns):
 *
 *   (a) expiry_ns   the hrtimer's programmed expiry (the intended time)
 *   (b) hardirq_ns  the primary (hard-IRQ) handler, after its own work
 *                   (the planted delay, when delay_us is set)
 *   (c) thread_ns   the start of the threaded handler (irq/N-rtproof)
 *   (d) wake_ns     the reader blocked in read() on /dev/rtproof_irqlat,
 *                   first thing after it was woken and scheduled
 *
 * read() returns whole records (a multiple of the record size; a buffer
 * smaller than one record is -EINVAL).  It blocks until at least one is
 * queued unless O_NONBLOCK, and never returns 0: a reader woken for a record
 * another reader took waits again.  Records that could not be copied out
 * (a fault) go back to the head of the queue.  poll() gives POLLIN while
 * records are queued; a poll() waiter is not a reader waiting (no (d)).
 * One opener at a time (-EBUSY): the timer runs while the device is open.
 * The queue is bounded: records the reader did not take in time are
 * dropped and counted.
 */
#ifndef RTPROOF_IRQLAT_H
#define RTPROOF_IRQLAT_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define RTP_IRQLAT_DEVICE	"/dev/rtproof_irqlat"
#define RTP_IRQLAT_ABI		1	/* bumped on any incompatible change */
#define RTP_IRQLAT_IRQ_NAME	"rtproof"

/* Record flags. */
#define RTP_IRQLAT_F_TIMER_HARDIRQ	(1u << 0)	/* hrtimer callback ran in hard-IRQ context */
#define RTP_IRQLAT_F_PRIMARY_HARDIRQ	(1u << 1)	/* primary handler ran in hard-IRQ context */
#define RTP_IRQLAT_F_THREAD_KTHREAD	(1u << 2)	/* thread handler ran in a kernel thread */
#define RTP_IRQLAT_F_READER_WAITING	(1u << 3)	/* a reader was blocked at (c): wake_ns is its wake-up */

struct rtp_irqlat_record {
	__u16 abi;		/* RTP_IRQLAT_ABI */
	__u16 size;		/* sizeof(struct rtp_irqlat_record) */
	__u32 flags;		/* RTP_IRQLAT_F_* */
	__u64 seq;		/* event number from 0 since open; a gap = events lost */
	__u64 expiry_ns;	/* (a) */
	__u64 hardirq_entry_ns;	/* primary handler entry, before the planted delay */
	__u64 hardirq_ns;	/* (b) */
	__u64 thread_ns;	/* (c) */
	__u64 wake_ns;		/* (d); 0 unless RTP_IRQLAT_F_READER_WAITING */
	__u32 delay_ns;		/* delay planted in the primary handler for this event */
	__u32 timer_cpu;	/* CPU of the hrtimer and the primary handler */
	__u32 thread_cpu;	/* CPU of the thread handler */
	__u32 thread_pid;	/* the IRQ thread's pid */
	__u64 dropped;		/* so far: records lost to a full queue */
	__u64 busy;		/* so far: expiries that found the line still masked (thread busy) */
	__u64 overruns;		/* so far: periods the hrtimer itself passed over */
};

/* Counters and settings of the open session (RTP_IRQLAT_IOC_INFO). */
struct rtp_irqlat_info {
	__u16 abi;
	__u16 record_size;
	__u32 irq;		/* Linux irq number: the thread is irq/<irq>-rtproof */
	__u64 period_ns;
	__u32 delay_ns;		/* current planted delay */
	__u32 queue_len;	/* records the queue holds */
	__u32 cpu;		/* CPU the hrtimer is pinned to */
	__u32 thread_pid;	/* 0 until the thread handler has run once */
	__u64 fired;		/* interrupts raised */
	__u64 delivered;	/* records handed to read() */
	__u64 dropped;
	__u64 busy;
	__u64 overruns;
	__u32 force_threading;	/* 1: the kernel forces IRQ threading (RT, threadirqs) */
	__u32 hrtimer_hard;	/* 1: the timer expires in hard-IRQ context */
};

#define RTP_IRQLAT_IOC_MAGIC	'r'
#define RTP_IRQLAT_IOC_INFO	_IOR(RTP_IRQLAT_IOC_MAGIC, 0x70, struct rtp_irqlat_info)

#endif /* RTPROOF_IRQLAT_H */
