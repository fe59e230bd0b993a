/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * event.h - the event-loop side of the sleep protocol (src/ring.c), shared
 * by grain_ring, grain_ring_elem and grain_prio.
 * Private: not installed, not part of any API (libgrain.so does not
 * export it).
 */
#ifndef GRAIN_SRC_EVENT_H
#define GRAIN_SRC_EVENT_H

#include <grain/ring.h>

/* Sleepers as init leaves them: nobody waiting, no event attached. */
void grain_impl_sleepers_init(struct grain_impl_ring_sleepers *s);

/* The one GRAIN_RING_EVENT_* value in @p event, checked: 0 if it is
 * neither or both. */
static inline bool grain_impl_event_ok(unsigned event)
{
	return event == GRAIN_RING_EVENT_IN || event == GRAIN_RING_EVENT_OUT;
}

/* Attach @p fd to @p s, once: 0; -EBUSY if an fd is attached already;
 * -EINVAL if fd < 0. */
int grain_impl_event_attach(struct grain_impl_ring_sleepers *s, int fd);

/* Arm @p s (it counts as a waiter until its next wake, which signals the
 * attached fd), then ask ready(ctx) whether the caller may go on at once
 * without sleeping: its result (1 ready, 0 armed). -ENOENT if no fd is
 * attached (nothing is armed). */
int grain_impl_event_arm(struct grain_impl_ring_sleepers *s,
			 bool (*ready)(const void *ctx), const void *ctx);

/* grain_ring_event_attach() and _arm() without the NULL check, for the
 * element ring too; and the sleepers an event of a ring waits on. */
int grain_impl_ring_event_attach(struct grain_ring *r, unsigned event, int fd);
int grain_impl_ring_event_arm(struct grain_ring *r, unsigned event);
struct grain_impl_ring_sleepers *
grain_impl_ring_event_sleepers(struct grain_ring *r, unsigned event);

#endif /* GRAIN_SRC_EVENT_H */
