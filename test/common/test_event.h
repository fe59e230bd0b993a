/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_event.h - the eventfd helpers of the event-loop tests of the ring
 * and of prio (ring.h, "Event loops"). Criterion asserts: include it from
 * test files only.
 */
#ifndef GRAIN_TEST_EVENT_H
#define GRAIN_TEST_EVENT_H

#include <criterion/criterion.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* A nonblocking eventfd; the test fails if none can be made. */
static inline int test_eventfd(void)
{
	int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	cr_assert_geq(fd, 0, "eventfd");
	return fd;
}

/* Whether the eventfd is readable now. */
static inline bool test_fd_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* Reset the eventfd; the count it held (0: none). */
static inline uint64_t test_fd_drain(int fd)
{
	uint64_t n = 0;
	return read(fd, &n, sizeof(n)) == (ssize_t)sizeof(n) ? n : 0;
}

#endif /* GRAIN_TEST_EVENT_H */
