/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_prio_event.c - event loops on grain_prio (prio.h, "Event loops"):
 * the argument checks, the consumers' event signalled by an enqueue into
 * any band, a band's producer event, the close, and an epoll loop against
 * producers on every band with every object received exactly once and no
 * wake-up lost.
 */
#define _GNU_SOURCE
#include <grain/prio.h>

#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "../common/test_event.h"
#include "../common/test_threads.h"
#include "../common/test_util.h"

static struct grain_prio *new_prio(unsigned bands, unsigned cap, unsigned flags)
{
	struct grain_prio_config cfg = { .bands = bands,
					 .flags = flags,
					 .capacity = cap };
	struct grain_prio *p = NULL;
	cr_assert_eq(grain_prio_create(&p, &cfg, NULL), 0);
	return p;
}

Test(prio_event, arguments)
{
	struct grain_prio *p = new_prio(3, 4, GRAIN_PRIO_WAIT);
	struct grain_prio *plain = new_prio(3, 4, 0);
	int fd = test_eventfd();

	cr_expect_eq(grain_prio_event_attach(NULL, GRAIN_RING_EVENT_IN, 0, fd),
		     -EINVAL);
	cr_expect_eq(grain_prio_event_arm(NULL, GRAIN_RING_EVENT_IN, 0),
		     -EINVAL);
	cr_expect_eq(grain_prio_event_attach(plain, GRAIN_RING_EVENT_IN, 0, fd),
		     -EINVAL, "a queue without GRAIN_PRIO_WAIT");
	cr_expect_eq(grain_prio_event_attach(p, 0, 0, fd), -EINVAL);
	cr_expect_eq(grain_prio_event_attach(p, 3, 0, fd), -EINVAL);
	cr_expect_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 1, fd),
		     -EINVAL, "IN names no band");
	cr_expect_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_OUT, 3, fd),
		     -EINVAL, "band out of range");
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_OUT, 3), -EINVAL);
	cr_expect_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 0, -5),
		     -EINVAL);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_IN, 0), -ENOENT);
	cr_expect_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 0, fd), 0);
	cr_expect_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 0, fd),
		     -EBUSY);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_OUT, 1), -ENOENT,
		     "each band's OUT has its own fd");
	grain_prio_destroy(p);
	grain_prio_destroy(plain);
	close(fd);
}

Test(prio_event, in_any_band)
{
	struct grain_prio *p = new_prio(3, 4, GRAIN_PRIO_WAIT);
	int fd = test_eventfd();
	void *obj = NULL;
	unsigned band = 9;

	cr_assert_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 0, fd), 0);
	for (unsigned b = 0; b < 3; b++) {
		cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_IN, 0), 0,
			     "empty");
		cr_expect(!test_fd_readable(fd));
		cr_assert_eq(grain_prio_try_enqueue(p, b, &obj), 0);
		cr_expect(test_fd_readable(fd),
			  "an enqueue into band %u signals", b);
		cr_expect_eq(test_fd_drain(fd), 1u);
		cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_IN, 0), 1,
			     "an object waits in band %u", b);
		cr_assert_eq(grain_prio_try_dequeue(p, &obj, &band), 0);
		cr_expect_eq(band, b);
		(void)test_fd_drain(fd);
	}
	grain_prio_destroy(p);
	close(fd);
}

Test(prio_event, out_per_band_and_close)
{
	struct grain_prio *p = new_prio(2, 2, GRAIN_PRIO_WAIT);
	int out1 = test_eventfd(), in = test_eventfd();
	void *obj = NULL;

	cr_assert_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_OUT, 1, out1),
		     0);
	cr_assert_eq(grain_prio_event_attach(p, GRAIN_RING_EVENT_IN, 0, in), 0);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_OUT, 1), 1,
		     "room in band 1");
	for (int i = 0; i < 2; i++)
		cr_assert_eq(grain_prio_try_enqueue(p, 1, &obj), 0);
	cr_assert_eq(grain_prio_try_enqueue(p, 0, &obj), 0);
	(void)test_fd_drain(out1);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_OUT, 1), 0,
		     "band 1 full");
	/* Strict order: the first dequeue takes band 0's object, which
	 * frees no room in band 1. */
	cr_assert_eq(grain_prio_try_dequeue(p, &obj, NULL), 0);
	cr_expect(!test_fd_readable(out1),
		  "band 0's dequeue does not signal band 1");
	cr_assert_eq(grain_prio_try_dequeue(p, &obj, NULL), 0);
	cr_expect(test_fd_readable(out1), "band 1's dequeue does");
	cr_expect_eq(test_fd_drain(out1), 1u);

	cr_assert_eq(grain_prio_try_dequeue(p, &obj, NULL), 0);
	(void)test_fd_drain(in);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_IN, 0), 0);
	cr_assert_eq(grain_prio_close(p), 0);
	cr_expect(test_fd_readable(in), "the close signals consumers");
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_IN, 0), 1);
	cr_expect_eq(grain_prio_event_arm(p, GRAIN_RING_EVENT_OUT, 1), 1);
	grain_prio_destroy(p);
	close(out1);
	close(in);
}

/* One epoll loop takes from a queue that producers fill on every band;
 * then the last producer's close ends it. A minute's timeout with objects
 * queued is a lost wake-up (see test_ring_event.c). */
enum { BANDS = 3, PRODUCERS = 3 };

struct run {
	struct grain_prio *p;
	unsigned per;
	struct test_gate go;
	_Atomic unsigned done;
};

static void *producer(void *arg)
{
	struct run *run = arg;
	static _Atomic unsigned next_id;
	unsigned id = atomic_fetch_add(&next_id, 1) % PRODUCERS;
	uint64_t rng = id + 7;

	test_gate_wait(&run->go);
	for (unsigned i = 0; i < run->per; i++) {
		uintptr_t tag = (uintptr_t)id * run->per + i + 1;
		cr_assert_eq(grain_prio_enqueue_wait(run->p, i % BANDS,
						     (void *)tag, -1),
			     0);
		test_jitter(&rng);
	}
	if (atomic_fetch_add(&run->done, 1) == PRODUCERS - 1)
		cr_assert_eq(grain_prio_close(run->p), 0);
	return NULL;
}

Test(prio_event, epoll_loop_many_producers, .timeout = 600)
{
	struct run run = { .per = test_scale(15000) };
	const unsigned total = PRODUCERS * run.per;
	unsigned *seen = calloc(total, sizeof(*seen));
	struct test_threads threads = { 0 };
	int fd = test_eventfd();
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned got = 0, sleeps = 0;

	run.p = new_prio(BANDS, 32, GRAIN_PRIO_WAIT | GRAIN_PRIO_SC);
	cr_assert(seen != NULL && ep >= 0);
	cr_assert_eq(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	cr_assert_eq(grain_prio_event_attach(run.p, GRAIN_RING_EVENT_IN, 0, fd),
		     0);
	for (int i = 0; i < PRODUCERS; i++)
		test_spawn(&threads, producer, &run);
	test_gate_open(&run.go);
	for (;;) {
		void *objs[8];
		int n = grain_prio_try_dequeue_burst(run.p, objs, 8);
		if (n == -EPIPE)
			break;
		cr_assert_geq(n, 0);
		for (int i = 0; i < n; i++) {
			uintptr_t tag = (uintptr_t)objs[i];
			cr_assert(tag >= 1 && tag <= total);
			seen[tag - 1]++;
		}
		got += (unsigned)n;
		if (n > 0)
			continue;
		(void)test_fd_drain(fd);
		int rc = grain_prio_event_arm(run.p, GRAIN_RING_EVENT_IN, 0);
		cr_assert_geq(rc, 0);
		if (rc == 1)
			continue;
		sleeps++;
		if (epoll_wait(ep, &ev, 1, 60000) == 0)
			cr_assert_eq(grain_prio_backlog(run.p), 0u,
				     "a wake-up was lost after %u sleeps",
				     sleeps);
	}
	test_join_all(&threads);
	cr_expect_eq(got, total);
	for (unsigned i = 0; i < total; i++)
		cr_assert_eq(seen[i], 1u, "object %u received %u times", i + 1,
			     seen[i]);
	free(seen);
	grain_prio_destroy(run.p);
	close(ep);
	close(fd);
}
