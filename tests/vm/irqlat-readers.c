// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqlat-readers: the read() API of /dev/rtproof_irqlat, checked in a guest
 * with the module loaded (tests/integration/vm-irqlat-readers.t).
 *
 *   two    two threads block in read() of one record each on one open file:
 *          neither may ever get 0 (EOF), every record reaches exactly one
 *          (needs two CPUs to race; PER_READER reads each, default 300)
 *   fault  a read into a buffer whose second page faults: what fitted is
 *          returned, the records that could not be copied are put back
 *          (the next read goes on from the next sequence number)
 *   poll   a poll() waiter is not a reader blocked in read(): its records
 *          carry no READER_WAITING flag; poll reports POLLIN when records
 *          are queued
 *
 * Prints TAP-style lines "ok"/"not ok" with figures; exits 0 when all pass.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rtproof_irqlat.h"

#define REC sizeof(struct rtp_irqlat_record)
#ifndef PER_READER
#define PER_READER 300
#endif

static int fd, fails;
static uint8_t seen[2 * PER_READER + 64];

static void report(int good, const char *what)
{
	printf("%s - %s\n", good ? "ok" : "not ok", what);
	if (!good)
		fails++;
}

struct reader {
	int eof, errors, got;
	uint64_t max_seq;
};

static void *reader(void *arg)
{
	struct reader *r = arg;
	struct rtp_irqlat_record rec;
	int i;

	for (i = 0; i < PER_READER; i++) {
		ssize_t n = read(fd, &rec, REC);

		if (n == 0) {
			r->eof++;
			continue;
		}
		if (n != (ssize_t)REC) {
			r->errors++;
			continue;
		}
		r->got++;
		if (rec.seq < sizeof(seen))
			__atomic_add_fetch(&seen[rec.seq], 1, __ATOMIC_RELAXED);
		if (rec.seq > r->max_seq)
			r->max_seq = rec.seq;
	}
	return NULL;
}

static int open_dev(int flags)
{
	int f = open(RTP_IRQLAT_DEVICE, O_RDONLY | flags);

	if (f < 0) {
		printf("not ok - open %s: %s\n", RTP_IRQLAT_DEVICE, strerror(errno));
		exit(1);
	}
	return f;
}

static void test_two(void)
{
	struct reader r[2];
	pthread_t t[2];
	char what[256];
	unsigned i, dup = 0;
	uint64_t top;
	int k;

	memset(r, 0, sizeof(r));
	fd = open_dev(0);
	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, reader, &r[k]);
	for (k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	close(fd);
	top = r[0].max_seq > r[1].max_seq ? r[0].max_seq : r[1].max_seq;
	for (i = 0; i < sizeof(seen) && i <= top; i++)
		dup += seen[i] > 1;
	snprintf(what, sizeof(what),
		 "two blocking readers: %d and %d records, %d and %d EOF (0) returns, "
		 "%d errors, %u records seen twice", r[0].got, r[1].got, r[0].eof, r[1].eof,
		 r[0].errors + r[1].errors, dup);
	report(!r[0].eof && !r[1].eof && !r[0].errors && !r[1].errors &&
	       r[0].got == PER_READER && r[1].got == PER_READER && !dup, what);
}

static void test_fault(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct rtp_irqlat_record after;
	struct rtp_irqlat_info in;
	uint8_t *buf;
	size_t fit = (size_t)pg / REC;	/* whole records in the good page */
	size_t chunk = fit / 8 * 8;	/* the module copies 8 at a time */
	char what[256];
	ssize_t n;

	buf = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || mprotect(buf + pg, pg, PROT_NONE)) {
		report(0, "fault: mmap/mprotect");
		return;
	}
	fd = open_dev(0);
	usleep(200000);	/* let well over a page's worth of records queue */
	n = read(fd, buf, 2 * pg);	/* fills the first page, faults on the second */
	if (n < 0) {
		snprintf(what, sizeof(what), "fault: read returned %s", strerror(errno));
		report(0, what);
		close(fd);
		return;
	}
	if (read(fd, &after, REC) != (ssize_t)REC) {
		report(0, "fault: the read after the fault failed");
		close(fd);
		return;
	}
	memset(&in, 0, sizeof(in));
	ioctl(fd, RTP_IRQLAT_IOC_INFO, &in);
	close(fd);
	snprintf(what, sizeof(what),
		 "a faulting buffer: read returned %zd bytes (%zd records, %zu expected), the next "
		 "read starts at seq %llu (want %zd: nothing lost); delivered %llu, dropped %llu",
		 n, n / (ssize_t)REC, chunk, (unsigned long long)after.seq, n / (ssize_t)REC,
		 (unsigned long long)in.delivered, (unsigned long long)in.dropped);
	report(n == (ssize_t)(chunk * REC) && after.seq == (uint64_t)(n / (ssize_t)REC) &&
	       in.dropped == 0, what);
	munmap(buf, 2 * pg);
}

static void test_poll(void)
{
	struct rtp_irqlat_record recs[64];
	int i, flagged = 0, total = 0, timeouts = 0, noin = 0, blocked = 0;
	char what[256];

	fd = open_dev(O_NONBLOCK);
	for (i = 0; i < 200; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int k, pr;

		/* drained: poll() has to sleep on the wait queue */
		n = read(fd, recs, sizeof(recs));
		if (n < 0 && errno == EAGAIN)
			blocked++;
		else if (n > 0)
			total += (int)(n / (ssize_t)REC);
		pr = poll(&p, 1, 2000);
		if (pr == 0) {
			timeouts++;
			continue;
		}
		if (!(p.revents & POLLIN))
			noin++;
		n = read(fd, recs, sizeof(recs));
		if (n <= 0)
			continue;
		for (k = 0; k < n / (ssize_t)REC; k++)
			flagged += !!(recs[k].flags & RTP_IRQLAT_F_READER_WAITING);
		total += (int)(n / (ssize_t)REC);
	}
	close(fd);
	snprintf(what, sizeof(what),
		 "a poll() reader: %d records, %d flagged READER_WAITING (want 0), %d polls "
		 "without POLLIN, %d timeouts, %d polls on an empty queue", total, flagged, noin,
		 timeouts, blocked);
	report(total >= 200 && flagged == 0 && noin == 0 && timeouts == 0 && blocked >= 100, what);
}

int main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "two"))
			test_two();
		else if (!strcmp(argv[i], "fault"))
			test_fault();
		else if (!strcmp(argv[i], "poll"))
			test_poll();
		else {
			fprintf(stderr, "irqlat-readers: error: %s: unknown test (two, fault, poll)\n",
				argv[i]);
			return 1;
		}
	}
	return fails ? 2 : 0;
}
