/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_ring_event.c - event loops on grain_ring and grain_ring_elem
 * (ring.h, "Event loops"): the argument checks, one write per arming, the
 * close, the window between arming and the check (held open by a hook),
 * and epoll loops against many threads with every object received exactly
 * once and no wake-up lost.
 */
#define _GNU_SOURCE
#include <grain/ring.h>
#include <grain/ring_elem.h>

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

#include "../../src/test_hooks.h"
#include "../common/test_event.h"
#include "../common/test_threads.h"
#include "../common/test_util.h"

static struct grain_ring *new_ring(unsigned cap, unsigned flags)
{
	struct grain_ring *r = NULL;
	cr_assert_eq(grain_ring_create(&r, cap, flags, NULL), 0);
	return r;
}

Test(ring_event, arguments)
{
	struct grain_ring *r = new_ring(8, GRAIN_RING_MPMC | GRAIN_RING_WAIT);
	struct grain_ring *plain = new_ring(8, GRAIN_RING_MPMC);
	int fd = test_eventfd();

	cr_expect_eq(grain_ring_event_attach(NULL, GRAIN_RING_EVENT_IN, fd),
		     -EINVAL);
	cr_expect_eq(grain_ring_event_arm(NULL, GRAIN_RING_EVENT_IN), -EINVAL);
	cr_expect_eq(grain_ring_event_attach(plain, GRAIN_RING_EVENT_IN, fd),
		     -EINVAL, "a ring without GRAIN_RING_WAIT");
	cr_expect_eq(grain_ring_event_arm(plain, GRAIN_RING_EVENT_IN), -EINVAL);
	cr_expect_eq(grain_ring_event_attach(r, 0, fd), -EINVAL);
	cr_expect_eq(grain_ring_event_attach(
			     r, GRAIN_RING_EVENT_IN | GRAIN_RING_EVENT_OUT, fd),
		     -EINVAL);
	cr_expect_eq(grain_ring_event_attach(r, 4, fd), -EINVAL);
	cr_expect_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_IN, -1),
		     -EINVAL);
	cr_expect_eq(grain_ring_event_arm(r, 0), -EINVAL);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), -ENOENT,
		     "nothing attached");
	cr_expect_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_IN, fd), 0);
	cr_expect_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_IN, fd),
		     -EBUSY);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), -ENOENT,
		     "OUT has no fd of its own");
	/* A refused arming registers nobody: the ring's next operation
	 * finds no waiter and writes nothing. */
	cr_expect_eq(atomic_load(&r->cons.sleepers.waiters), 0u);
	cr_expect_eq(atomic_load(&r->cons.sleepers.armed), 0u);

	struct grain_ring_elem *e = NULL;
	cr_assert_eq(grain_ring_elem_create(
			     &e, 8, 8, GRAIN_RING_MPMC | GRAIN_RING_WAIT, NULL),
		     0);
	cr_expect_eq(grain_ring_elem_event_attach(NULL, GRAIN_RING_EVENT_IN,
						  fd),
		     -EINVAL);
	cr_expect_eq(grain_ring_elem_event_arm(NULL, GRAIN_RING_EVENT_IN),
		     -EINVAL);
	cr_expect_eq(grain_ring_elem_event_arm(e, GRAIN_RING_EVENT_IN),
		     -ENOENT);
	cr_expect_eq(grain_ring_elem_event_attach(e, 3, fd), -EINVAL);
	grain_ring_elem_destroy(e);
	grain_ring_destroy(r);
	grain_ring_destroy(plain);
	close(fd);
}

/* One write per arming, and only after it; an arming finds objects
 * that are there already and asks the caller not to sleep. */
static void check_in(struct grain_ring *r, int fd)
{
	void *obj = NULL;

	cr_assert_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_IN, fd), 0);
	cr_assert_eq(grain_ring_try_enqueue(r, &obj), 0);
	cr_expect(!test_fd_readable(fd), "not armed: no write");
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 1,
		     "an object is there: do not sleep");
	cr_assert_eq(grain_ring_try_dequeue(r, &obj), 0);
	cr_expect(!test_fd_readable(fd), "a dequeue does not signal consumers");

	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 0, "empty");
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 0,
		     "arming twice is harmless");
	cr_expect_eq(atomic_load(&r->prod.sleepers.waiters), 1u,
		     "one arming counts once");
	cr_expect(!test_fd_readable(fd));
	cr_assert_eq(grain_ring_try_enqueue(r, &obj), 0);
	cr_expect(test_fd_readable(fd),
		  "the enqueue signalled the armed event");
	cr_expect_eq(test_fd_drain(fd), 1u, "one write");
	cr_expect_eq(atomic_load(&r->prod.sleepers.waiters), 0u,
		     "the write took the arming back");
	cr_assert_eq(grain_ring_try_enqueue(r, &obj), 0);
	cr_expect(!test_fd_readable(fd),
		  "disarmed: the next enqueue writes nothing");
}

Test(ring_event, in_one_write_per_arming)
{
	struct grain_ring *r = new_ring(8, GRAIN_RING_MPMC | GRAIN_RING_WAIT);
	int fd = test_eventfd();

	check_in(r, fd);
	grain_ring_destroy(r);
	close(fd);

	/* Every mode: the single sides publish differently. */
	const unsigned modes[] = { GRAIN_RING_SPSC, GRAIN_RING_SPMC,
				   GRAIN_RING_MPSC };
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		r = new_ring(8, modes[i] | GRAIN_RING_WAIT);
		fd = test_eventfd();
		check_in(r, fd);
		grain_ring_destroy(r);
		close(fd);
	}
}

Test(ring_event, out_when_room_frees)
{
	struct grain_ring *r = new_ring(4, GRAIN_RING_MPMC | GRAIN_RING_WAIT);
	int fd = test_eventfd();
	void *objs[4] = { 0 };

	cr_assert_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_OUT, fd), 0);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), 1,
		     "empty: room");
	(void)test_fd_drain(fd);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	(void)test_fd_drain(fd); /* the arming above may have been signalled */
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), 0, "full");
	cr_expect(!test_fd_readable(fd));
	cr_assert_eq(grain_ring_try_dequeue_burst(r, objs, 2), 2);
	cr_expect(test_fd_readable(fd), "room freed");
	cr_expect_eq(test_fd_drain(fd), 1u);
	grain_ring_destroy(r);
	close(fd);
}

Test(ring_event, close_signals_both_events)
{
	struct grain_ring *r = new_ring(4, GRAIN_RING_MPMC | GRAIN_RING_WAIT);
	int in = test_eventfd(), out = test_eventfd();
	void *objs[4] = { 0 };

	cr_assert_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_IN, in), 0);
	cr_assert_eq(grain_ring_event_attach(r, GRAIN_RING_EVENT_OUT, out), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, objs, 4), 0);
	(void)test_fd_drain(out);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 0);
	cr_assert_eq(grain_ring_try_enqueue_bulk(r, objs, 4), 0);
	(void)test_fd_drain(in);
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), 0);
	cr_assert_eq(grain_ring_try_dequeue_bulk(r, objs, 4), 0);
	(void)test_fd_drain(out);
	/* Empty now: both armed, then the close. */
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 0);
	cr_expect(!test_fd_readable(in));
	cr_assert_eq(grain_ring_close(r), 0);
	cr_expect(test_fd_readable(in), "the close signals consumers");
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_IN), 1,
		     "closed: do not sleep");
	cr_expect_eq(grain_ring_event_arm(r, GRAIN_RING_EVENT_OUT), 1);
	grain_ring_destroy(r);
	close(in);
	close(out);
}

/* The window between the arming and the check, held open: an enqueue
 * inside it must both be seen by the check and signal the fd. */
static struct grain_ring *window_ring;
static _Atomic int window_hits;

static void window_hook(enum grain_test_point point, const void *obj,
			unsigned arg)
{
	(void)arg;
	if (point != GRAIN_TEST_EVENT_ARMED ||
	    obj != &window_ring->prod.sleepers)
		return;
	void *item = &window_hits;
	cr_assert_eq(grain_ring_try_enqueue(window_ring, &item), 0);
	atomic_fetch_add(&window_hits, 1);
}

Test(ring_event, enqueue_inside_the_window)
{
	window_ring = new_ring(8, GRAIN_RING_MPMC | GRAIN_RING_WAIT);
	int fd = test_eventfd();

	cr_assert_eq(grain_ring_event_attach(window_ring, GRAIN_RING_EVENT_IN,
					     fd),
		     0);
	grain_test_hook = window_hook;
	int rc = grain_ring_event_arm(window_ring, GRAIN_RING_EVENT_IN);
	grain_test_hook = NULL;
	cr_assert_eq(atomic_load(&window_hits), 1, "the hook ran");
	cr_expect_eq(rc, 1, "the check sees the object");
	cr_expect(test_fd_readable(fd), "and the enqueue found the arming");
	grain_ring_destroy(window_ring);
	close(fd);
}

Test(ring_event, elem_ring)
{
	struct grain_ring_elem *e = NULL;
	int fd = test_eventfd();
	uint64_t v = 42, got = 0;

	cr_assert_eq(grain_ring_elem_create(
			     &e, 8, 8, GRAIN_RING_SPSC | GRAIN_RING_WAIT, NULL),
		     0);
	cr_assert_eq(grain_ring_elem_event_attach(e, GRAIN_RING_EVENT_IN, fd),
		     0);
	cr_expect_eq(grain_ring_elem_event_attach(e, GRAIN_RING_EVENT_IN, fd),
		     -EBUSY);
	cr_expect_eq(grain_ring_elem_event_arm(e, GRAIN_RING_EVENT_IN), 0);
	cr_assert_eq(grain_ring_elem_try_enqueue(e, &v), 0);
	cr_expect(test_fd_readable(fd));
	cr_expect_eq(grain_ring_elem_event_arm(e, GRAIN_RING_EVENT_IN), 1);
	cr_assert_eq(grain_ring_elem_try_dequeue(e, &got), 0);
	cr_expect_eq(got, 42u);
	grain_ring_elem_destroy(e);
	close(fd);
}

/*
 * An epoll loop against many threads. The loop drains with bursts, and
 * when it finds nothing it resets the fd, arms and sleeps in epoll_wait.
 * A sleep of a minute that ends by timeout while the ring holds objects
 * is a lost wake-up, and fails the test: every enqueue after the arming
 * writes the fd, so epoll_wait returns as soon as the loop is scheduled,
 * however busy the machine (only a producer stalled a minute between its
 * claim and its publish could make a ring count objects unannounced).
 */
enum { PRODUCERS = 4, LOOP_CAP = 64 };

struct loop_run {
	struct grain_ring *r;
	unsigned per; /* objects per producer */
	struct test_gate go;
	unsigned *seen;	 /* per object: times received */
	unsigned sleeps; /* epoll_wait calls */
};

static void *producer(void *arg)
{
	struct loop_run *run = arg;
	static _Atomic unsigned next_id;
	unsigned id = atomic_fetch_add(&next_id, 1) % PRODUCERS;
	uint64_t rng = id + 1;

	test_gate_wait(&run->go);
	for (unsigned i = 0; i < run->per; i++) {
		uintptr_t tag = (uintptr_t)id * run->per + i + 1;
		cr_assert_eq(grain_ring_enqueue_wait(run->r, (void *)tag, -1),
			     0);
		test_jitter(&rng);
	}
	return NULL;
}

static void consume(struct loop_run *run, int fd, int ep, unsigned total)
{
	unsigned got = 0;
	void *objs[16];

	while (got < total) {
		int n = grain_ring_try_dequeue_burst(run->r, objs, 16);
		cr_assert_geq(n, 0);
		for (int i = 0; i < n; i++) {
			uintptr_t tag = (uintptr_t)objs[i];
			cr_assert(tag >= 1 && tag <= total);
			run->seen[tag - 1]++;
		}
		got += (unsigned)n;
		if (n > 0)
			continue;
		(void)test_fd_drain(fd);
		int rc = grain_ring_event_arm(run->r, GRAIN_RING_EVENT_IN);
		cr_assert_geq(rc, 0);
		if (rc == 1)
			continue;
		struct epoll_event ev;
		run->sleeps++;
		if (epoll_wait(ep, &ev, 1, 60000) == 0)
			cr_assert_eq(grain_ring_count(run->r), 0u,
				     "a wake-up was lost after %u sleeps",
				     run->sleeps);
	}
}

Test(ring_event, epoll_loop_many_producers, .timeout = 600)
{
	struct loop_run run = { .per = test_scale(20000) };
	const unsigned total = PRODUCERS * run.per;
	struct test_threads threads = { 0 };
	int fd = test_eventfd();
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN };

	run.r = new_ring(LOOP_CAP, GRAIN_RING_MPSC | GRAIN_RING_WAIT);
	run.seen = calloc(total, sizeof(*run.seen));
	cr_assert(run.seen != NULL && ep >= 0);
	cr_assert_eq(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	cr_assert_eq(grain_ring_event_attach(run.r, GRAIN_RING_EVENT_IN, fd),
		     0);
	for (int i = 0; i < PRODUCERS; i++)
		test_spawn(&threads, producer, &run);
	test_gate_open(&run.go);
	consume(&run, fd, ep, total);
	test_join_all(&threads);

	for (unsigned i = 0; i < total; i++)
		cr_assert_eq(run.seen[i], 1u, "object %u received %u times",
			     i + 1, run.seen[i]);
	cr_expect(grain_ring_empty(run.r));
	free(run.seen);
	grain_ring_destroy(run.r);
	close(ep);
	close(fd);
}

/* The producers' side: one loop enqueues through OUT events while
 * consumers take with _wait calls; then it closes the ring and they
 * drain it. Every object once. */
struct out_run {
	struct grain_ring *r;
	unsigned total;
	_Atomic unsigned *seen;
	_Atomic unsigned taken;
};

static void *taker(void *arg)
{
	struct out_run *run = arg;
	void *obj;
	int rc;

	while ((rc = grain_ring_dequeue_wait(run->r, &obj, -1)) == 0) {
		uintptr_t tag = (uintptr_t)obj;
		cr_assert(tag >= 1 && tag <= run->total);
		atomic_fetch_add(&run->seen[tag - 1], 1);
		atomic_fetch_add(&run->taken, 1);
	}
	cr_assert_eq(rc, -EPIPE);
	return NULL;
}

Test(ring_event, epoll_loop_producer_side, .timeout = 600)
{
	enum { TAKERS = 3 };
	struct out_run run = { .total = test_scale(60000) };
	struct test_threads threads = { 0 };
	int fd = test_eventfd();
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned sleeps = 0;

	run.r = new_ring(LOOP_CAP, GRAIN_RING_SPMC | GRAIN_RING_WAIT);
	run.seen = calloc(run.total, sizeof(*run.seen));
	cr_assert(run.seen != NULL && ep >= 0);
	cr_assert_eq(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev), 0);
	cr_assert_eq(grain_ring_event_attach(run.r, GRAIN_RING_EVENT_OUT, fd),
		     0);
	for (int i = 0; i < TAKERS; i++)
		test_spawn(&threads, taker, &run);
	for (unsigned next = 1; next <= run.total;) {
		void *objs[8];
		unsigned k = 0;
		while (k < 8 && next + k <= run.total) {
			objs[k] = (void *)(uintptr_t)(next + k);
			k++;
		}
		int n = grain_ring_try_enqueue_burst(run.r, objs, k);
		cr_assert_geq(n, 0);
		next += (unsigned)n;
		if (n > 0)
			continue;
		(void)test_fd_drain(fd);
		int rc = grain_ring_event_arm(run.r, GRAIN_RING_EVENT_OUT);
		cr_assert_geq(rc, 0);
		if (rc == 1)
			continue;
		sleeps++;
		if (epoll_wait(ep, &ev, 1, 60000) == 0)
			cr_assert_eq(grain_ring_free_count(run.r), 0u,
				     "a wake-up was lost after %u sleeps",
				     sleeps);
	}
	cr_assert_eq(grain_ring_close(run.r), 0);
	test_join_all(&threads);
	cr_expect_eq(atomic_load(&run.taken), run.total);
	for (unsigned i = 0; i < run.total; i++)
		cr_assert_eq(atomic_load(&run.seen[i]), 1u,
			     "object %u taken %u times", i + 1,
			     atomic_load(&run.seen[i]));
	free((void *)run.seen);
	grain_ring_destroy(run.r);
	close(ep);
	close(fd);
}
