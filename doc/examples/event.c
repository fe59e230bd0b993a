/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * event.c - the EXAMPLE sections of the event-loop calls' man pages
 * (grain_ring_event_attach() and its kin; doc/manpages.py shows each page
 * the shortest example below that uses its name, after these #include
 * lines; test/release/docs/check_examples.sh builds and runs each as its page
 * shows it).
 */
#define _GNU_SOURCE
#include <grain/prio.h>
#include <grain/ring.h>
#include <grain/ring_elem.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* example */
/* An epoll loop that waits on a ring beside its other fds: drain, reset
 * the eventfd, arm, and sleep only if the arming found the ring empty. */
int example_ring_event(void)
{
	struct grain_ring *ring;
	struct epoll_event ev = { .events = EPOLLIN }, got;
	int item = 7, rc = -1, received = 0;
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	uint64_t count;
	void *objs[16];

	if (grain_ring_create(&ring, 64, GRAIN_RING_MPSC | GRAIN_RING_WAIT,
			      NULL) != 0)
		goto out_fds;
	if (efd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev) != 0 ||
	    grain_ring_event_attach(ring, GRAIN_RING_EVENT_IN, efd) != 0)
		goto out;
	for (int round = 0; round < 2; round++) {
		int n = grain_ring_try_dequeue_burst(ring, objs, 16);
		if (n > 0) {
			received += n;
			continue;
		}
		/* Reset; EAGAIN: nothing was signalled since the last. */
		if (read(efd, &count, sizeof(count)) < 0 && errno != EAGAIN)
			goto out;
		if (grain_ring_event_arm(ring, GRAIN_RING_EVENT_IN) != 0)
			continue; /* objects (or a close) already: no sleep */
		/* Another thread would enqueue now; here we do it ourselves,
		 * and the armed ring writes the eventfd. */
		if (grain_ring_try_enqueue(ring, &item) != 0)
			goto out;
		if (epoll_wait(ep, &got, 1, -1) != 1)
			goto out;
	}
	printf("received %d\n", received);
	rc = received == 1 ? 0 : -1;
out:
	grain_ring_destroy(ring);
out_fds:
	if (efd >= 0)
		close(efd);
	if (ep >= 0)
		close(ep);
	return rc;
}

/* example */
/* A producer that learns from an eventfd when a full element ring has
 * room again. */
int example_ring_elem_event(void)
{
	struct grain_ring_elem *ring;
	uint32_t v = 1, out;
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), rc = -1;
	uint64_t count;

	if (efd < 0)
		return -1;
	if (grain_ring_elem_create(&ring, 2, sizeof(v),
				   GRAIN_RING_SPSC | GRAIN_RING_WAIT,
				   NULL) != 0)
		goto out_fd;
	if (grain_ring_elem_event_attach(ring, GRAIN_RING_EVENT_OUT, efd) != 0)
		goto out;
	while (grain_ring_elem_try_enqueue(ring, &v) == 0)
		; /* fill it */
	if (grain_ring_elem_event_arm(ring, GRAIN_RING_EVENT_OUT) != 0)
		goto out; /* 0: full and armed */
	if (grain_ring_elem_try_dequeue(ring, &out) != 0) /* the consumer */
		goto out;
	/* The dequeue signalled the eventfd: one write for the arming. */
	rc = read(efd, &count, sizeof(count)) == sizeof(count) && count == 1
		     ? 0
		     : -1;
out:
	grain_ring_elem_destroy(ring);
out_fd:
	close(efd);
	return rc;
}

/* example */
/* A scheduler thread's loop: one eventfd for the whole queue (objects in
 * any band), and one for a band's room. */
int example_prio_event(void)
{
	struct grain_prio_config cfg = { .bands = 3,
					 .flags = GRAIN_PRIO_WAIT,
					 .capacity = 8 };
	struct grain_prio *prio;
	int in = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	int room = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	int item = 3, rc = -1;
	uint64_t count;
	void *obj;

	if (in < 0 || room < 0 || grain_prio_create(&prio, &cfg, NULL) != 0)
		goto out_fds;
	if (grain_prio_event_attach(prio, GRAIN_RING_EVENT_IN, 0, in) != 0 ||
	    grain_prio_event_attach(prio, GRAIN_RING_EVENT_OUT, 2, room) != 0)
		goto out;
	if (grain_prio_event_arm(prio, GRAIN_RING_EVENT_IN, 0) != 0)
		goto out; /* 0: empty, armed */
	if (grain_prio_try_enqueue(prio, 1, &item) != 0)
		goto out;
	if (read(in, &count, sizeof(count)) != sizeof(count))
		goto out; /* the enqueue into band 1 signalled it */
	if (grain_prio_try_dequeue(prio, &obj, NULL) != 0 || obj != &item)
		goto out;
	rc = grain_prio_event_arm(prio, GRAIN_RING_EVENT_OUT, 2) == 1 ? 0 : -1;
out:
	grain_prio_destroy(prio);
out_fds:
	if (in >= 0)
		close(in);
	if (room >= 0)
		close(room);
	return rc;
}
