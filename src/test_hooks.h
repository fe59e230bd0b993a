/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_hooks.h - points inside the library where a test can stop a thread.
 * Private: not installed, not part of any API.
 *
 * Only the test-only build of the library sources (target grain_hooked in
 * test/CMakeLists.txt, compiled with GRAIN_TEST_HOOKS) defines the hook
 * pointer and calls it. In every other build GRAIN_TEST_HOOK() expands to
 * nothing: no code, no symbol.
 *
 * A test sets grain_test_hook before it starts the threads that may reach
 * a hook point and clears it after they have been joined, so the pointer
 * itself is never written while another thread reads it. The hook runs in
 * the thread that reached the point and may block it (to hold it inside a
 * window of a protocol while other threads go ahead) or just record that
 * the point was reached.
 */
#ifndef GRAIN_TEST_HOOKS_H
#define GRAIN_TEST_HOOKS_H

enum grain_test_point {
	/* grain_impl_prio_settle(), on entry: the dequeuer found band `arg`
	 * of the queue `obj` empty and has not cleared its bit yet. */
	GRAIN_TEST_PRIO_SETTLE,
	/* grain_impl_prio_settle(): the bit is cleared and the fence (C1)
	 * made; the band has not been looked at again yet. */
	GRAIN_TEST_PRIO_CLEARED,
	/* grain_impl_wait(): the caller is registered in the sleepers `obj`
	 * (S2), has read the epoch and failed its re-try; it is about to
	 * sleep on the futex. */
	GRAIN_TEST_WAIT_SLEEP,
	/* grain_impl_ring_close(): the producers' position of the ring `obj`
	 * is frozen; the final position is not published yet (the ring does
	 * not read as closed). */
	GRAIN_TEST_RING_FROZEN,
	/* grain_impl_event_arm(): the event of the sleepers `obj` is armed
	 * (S2 made); the queue has not been checked yet. */
	GRAIN_TEST_EVENT_ARMED,
};

#ifdef GRAIN_TEST_HOOKS
extern void (*grain_test_hook)(enum grain_test_point point, const void *obj,
			       unsigned arg);
#define GRAIN_TEST_HOOK(point, obj, arg)                        \
	do {                                                    \
		if (grain_test_hook != NULL)                    \
			grain_test_hook((point), (obj), (arg)); \
	} while (0)
#else
#define GRAIN_TEST_HOOK(point, obj, arg) ((void)0)
#endif

#endif /* GRAIN_TEST_HOOKS_H */
