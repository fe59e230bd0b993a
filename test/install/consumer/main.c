/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c - uses an installed grain: a ring round trip through the umbrella
 * header. Exits 0 if every check passes.
 */
#include <grain/grain.h>

#include <stdio.h>

static int check(int ok, const char *what)
{
	if (!ok)
		fprintf(stderr, "consumer: FAILED: %s\n", what);
	return ok ? 0 : 1;
}

int main(void)
{
	struct grain_ring *ring = NULL;
	int a = 1, b = 2;
	void *out = NULL;
	int failed = 0;

	if (grain_ring_create(&ring, 8, GRAIN_RING_MPMC, NULL) != 0) {
		fprintf(stderr, "consumer: FAILED: grain_ring_create\n");
		return 1;
	}
	failed |= check(grain_ring_capacity(ring) == 8, "capacity is 8");
	failed |= check(grain_ring_try_enqueue(ring, &a) == 0, "enqueue a");
	failed |= check(grain_ring_try_enqueue(ring, &b) == 0, "enqueue b");
	failed |= check(grain_ring_count(ring) == 2, "count is 2");
	failed |= check(grain_ring_try_dequeue(ring, &out) == 0 && out == &a,
			"dequeue gives a");
	failed |= check(grain_ring_try_dequeue(ring, &out) == 0 && out == &b,
			"dequeue gives b");
	failed |= check(grain_ring_try_dequeue(ring, &out) == -EAGAIN,
			"empty ring gives -EAGAIN");
	grain_ring_destroy(ring);

	if (!failed)
		printf("consumer: grain %d.%d.%d ring round trip ok\n",
		       GRAIN_VERSION_MAJOR, GRAIN_VERSION_MINOR,
		       GRAIN_VERSION_PATCH);
	return failed;
}
