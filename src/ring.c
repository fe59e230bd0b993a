/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring.c - grain_ring's cold paths: sizing, initialisation, creation and
 * the futex sleep protocol of the _wait calls.
 *
 * Design. The hot paths live inline in include/grain/impl/ring.h: a
 * bounded queue with a sequence number per slot (the per-cell sequence
 * scheme of D. Vyukov's bounded MPMC queue), extended here to claim n
 * slots with one CAS for bulk and burst operations, and with single-side
 * modes that replace the CAS by a plain store and the per-slot sequence
 * by the side's published position (SPSC: Lamport's queue with cached
 * indices).
 *
 * Sleeping is an event count on a futex word. A sleeper announces itself
 * with a read-modify-write on `waiters` (S2), reads the epoch, re-tries
 * its operation and only then sleeps on "epoch unchanged". The other side,
 * after every successful operation, makes a read-modify-write of the same
 * word (S1, adding 0); if anyone waits it bumps the epoch and wakes
 * everyone. RMWs of one word are totally ordered: either S1 reads the
 * sleeper's increment, or S2 reads from S1 and so acquires the new ring
 * state that the re-try then sees. A bump that lands between the epoch
 * read and the futex call makes the kernel return at once.
 * Everyone is woken (not one per object) because sleepers may want
 * different counts (bulk waits): waking one that cannot proceed while
 * another could would lose a wake-up.
 *
 * An event loop takes part in the same protocol without a thread asleep
 * (grain_ring_event_arm()): arming counts as one waiter (S2, once per arm
 * however often it is called), and the next wake, which the other side's
 * S1 then cannot miss, disarms it (one exchange) and writes 1 to the
 * attached eventfd. After arming the caller checks the ring again, as a
 * sleeper re-tries before it sleeps: a wake it raced with either reads
 * its arming, and signals the fd, or came first, and the check sees what
 * that wake announced.
 *
 * References: Vyukov, "Bounded MPMC queue" (1024cores.net); Linux
 * include/linux/ptr_ring.h (separate producer/consumer state); DPDK
 * lib/ring (bulk/burst semantics, memsize + init); futex(2), FUTEX_WAIT_BITSET.
 */
#define _GNU_SOURCE /* syscall(), clock_gettime() */
#include <grain/ring.h>

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "create.h"
#include "event.h"
#include "test_hooks.h"

#define RING_KNOWN_FLAGS (GRAIN_RING_SP | GRAIN_RING_SC | GRAIN_RING_WAIT)

static bool capacity_ok(unsigned capacity)
{
	return capacity >= GRAIN_RING_MIN_CAPACITY &&
	       capacity <= GRAIN_RING_MAX_CAPACITY &&
	       (capacity & (capacity - 1)) == 0;
}

size_t grain_ring_memsize(unsigned capacity)
{
	if (!capacity_ok(capacity))
		return 0;
	/* At most 2^31 slots of 16 bytes: no overflow in 64 bits. */
	uint64_t size =
		sizeof(struct grain_ring) +
		(uint64_t)capacity * sizeof(struct grain_impl_ring_slot);
	/* Round up so the last slot's line is not shared with a neighbour. */
	size = (size + GRAIN_CACHELINE - 1) & ~(uint64_t)(GRAIN_CACHELINE - 1);
	return size > SIZE_MAX ? 0 : (size_t)size;
}

static void side_init(struct grain_impl_ring_side *side, unsigned capacity,
		      unsigned flags)
{
	atomic_init(&side->pos, 0);
	side->mask = capacity - 1;
	side->flags = flags;
	grain_impl_sleepers_init(&side->sleepers);
	atomic_init(&side->cache, 0);
	side->zc = 0;
	side->esize = 0;
}

void grain_impl_ring_reset(struct grain_ring *r, uint64_t pos)
{
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(r);
	uint64_t mask = r->prod.mask;

	atomic_store_explicit(&r->prod.pos, pos, memory_order_relaxed);
	atomic_store_explicit(&r->cons.pos, pos, memory_order_relaxed);
	atomic_store_explicit(&r->prod.cache, pos, memory_order_relaxed);
	atomic_store_explicit(&r->cons.cache, pos, memory_order_relaxed);
	r->prod.zc = 0;
	r->cons.zc = 0;
	r->life.base = pos;
	/* Slot i is free for the first position >= pos that maps to it. */
	for (uint64_t i = 0; i <= mask; i++) {
		uint64_t p = pos + ((i - pos) & mask);

		atomic_store_explicit(&slots[i].seq, p, memory_order_relaxed);
		slots[i].obj = NULL;
	}
}

int grain_ring_init(struct grain_ring *ring, unsigned capacity, unsigned flags)
{
	if (ring == NULL || ((uintptr_t)ring & (GRAIN_CACHELINE - 1)) != 0 ||
	    !capacity_ok(capacity) || (flags & ~RING_KNOWN_FLAGS) != 0)
		return -EINVAL;
	memset(&ring->life, 0, sizeof(ring->life));
	ring->life.memsize = grain_ring_memsize(capacity);
	atomic_init(&ring->life.shut, GRAIN_IMPL_RING_OPEN);
	atomic_init(&ring->life.end, 0);
	side_init(&ring->prod, capacity, flags);
	side_init(&ring->cons, capacity, flags);
	struct grain_impl_ring_slot *slots = grain_impl_ring_slots(ring);
	for (unsigned i = 0; i < capacity; i++) {
		atomic_init(&slots[i].seq, i);
		slots[i].obj = NULL;
	}
	return 0;
}

struct ring_args {
	unsigned capacity;
	unsigned flags;
};

static int ring_init_mem(void *mem, const void *arg)
{
	const struct ring_args *a = arg;

	return grain_ring_init(mem, a->capacity, a->flags);
}

int grain_impl_ring_create(struct grain_ring **ringp, size_t size,
			   unsigned flags, const struct grain_alloc *alloc,
			   int (*init)(void *mem, const void *arg),
			   const void *arg)
{
	const struct grain_impl_life_at at = {
		offsetof(struct grain_ring, life.alloc),
		offsetof(struct grain_ring, life.created),
	};

	if (ringp == NULL || size == 0 || (flags & ~RING_KNOWN_FLAGS) != 0)
		return -EINVAL;
	void *mem;
	int rc = grain_impl_create(&mem, size, alloc, init, arg, at);
	if (rc == 0)
		*ringp = mem;
	return rc;
}

int grain_ring_create(struct grain_ring **ringp, unsigned capacity,
		      unsigned flags, const struct grain_alloc *alloc)
{
	const struct ring_args args = { capacity, flags };

	return grain_impl_ring_create(ringp, grain_ring_memsize(capacity),
				      flags, alloc, ring_init_mem, &args);
}

void grain_ring_destroy(struct grain_ring *ring)
{
	if (ring != NULL && ring->life.created)
		grain_impl_destroy(ring, &ring->life.alloc, ring->life.memsize);
}

/* --- closing ------------------------------------------------------------ */

int grain_impl_ring_fail(struct grain_ring *r, bool enq, unsigned need)
{
	/* Acquire: pairs with the release that publishes CLOSED, so end is
	 * the final position. */
	if (atomic_load_explicit(&r->life.shut, memory_order_acquire) !=
	    GRAIN_IMPL_RING_CLOSED)
		return -EAGAIN;
	if (enq)
		return -EPIPE;
	uint64_t end = atomic_load_explicit(&r->life.end, memory_order_relaxed);
	/* The consumers' position as it is now: a single consumer's own, or
	 * the latest in its modification order (a read-modify-write), so
	 * that a consumer never reads as "left" what others already took
	 * and then sleeps with no one left to wake it. */
	uint64_t head =
		(r->cons.flags & GRAIN_RING_SC)
			? atomic_load_explicit(&r->cons.pos,
					       memory_order_relaxed)
			: atomic_fetch_add_explicit(&r->cons.pos, 0,
						    memory_order_relaxed);
	/* Positions below end were all claimed by producers before the
	 * freeze and will all be published: while any is not yet taken,
	 * the call may still succeed. */
	return end - head < need ? -EPIPE : -EAGAIN;
}

int grain_impl_ring_fail_put(struct grain_ring *r)
{
	return grain_impl_ring_fail(r, true, 1);
}

int grain_impl_ring_fail_take(struct grain_ring *r)
{
	return grain_impl_ring_fail(r, false, 1);
}

int grain_impl_ring_close(struct grain_ring *r)
{
	struct grain_impl_ring_side *prod = &r->prod;
	const bool sp = (prod->flags & GRAIN_RING_SP) != 0;
	uint32_t open = GRAIN_IMPL_RING_OPEN;

	/* A single producer's reservation would publish from the position
	 * the freeze moves. */
	if (sp && prod->zc != 0)
		return -EBUSY;
	if (!atomic_compare_exchange_strong_explicit(
		    &r->life.shut, &open, GRAIN_IMPL_RING_CLOSING,
		    memory_order_relaxed, memory_order_relaxed))
		return -EPIPE;
	uint64_t pos = atomic_load_explicit(&prod->pos, memory_order_relaxed);
	if (sp) {
		/* We are ordered with the single producer's calls (ring.h,
		 * "Closing"): nobody else writes its position. Its cached
		 * copy of the consumers' position is set to send every later
		 * call to the check that sees the freeze. */
		atomic_store_explicit(&prod->pos, pos + GRAIN_IMPL_RING_FREEZE,
				      memory_order_relaxed);
		atomic_store_explicit(&prod->cache,
				      pos + GRAIN_IMPL_RING_FREEZE -
					      ((uint64_t)prod->mask + 1),
				      memory_order_relaxed);
	} else {
		/* The close point: claims and this read-modify-write are
		 * totally ordered on the word. A claim before it succeeded
		 * below pos; none can succeed after it. */
		while (!atomic_compare_exchange_weak_explicit(
			&prod->pos, &pos, pos + GRAIN_IMPL_RING_FREEZE,
			memory_order_relaxed, memory_order_relaxed))
			;
	}
	GRAIN_TEST_HOOK(GRAIN_TEST_RING_FROZEN, r, 0);
	atomic_store_explicit(&r->life.end, pos, memory_order_relaxed);
	/* Release: pairs with the acquire in grain_impl_ring_fail(). */
	atomic_store_explicit(&r->life.shut, GRAIN_IMPL_RING_CLOSED,
			      memory_order_release);
	/* Wake every sleeper of both sides: their next attempt fails with
	 * -EPIPE, or (consumers) takes what is left. A sleeper that read
	 * the epoch after our bump reads CLOSED too (release bump, acquire
	 * read); one that read it before is woken by the futex call. */
	if (prod->flags & GRAIN_RING_WAIT) {
		grain_impl_ring_wake(&r->prod.sleepers);
		grain_impl_ring_wake(&r->cons.sleepers);
	}
	return 0;
}

bool grain_impl_ring_closed(const struct grain_ring *r)
{
	struct grain_ring *w = (struct grain_ring *)r;

	return atomic_load_explicit(&w->life.shut, memory_order_acquire) ==
	       GRAIN_IMPL_RING_CLOSED;
}

int grain_ring_close(struct grain_ring *ring)
{
	return ring != NULL ? grain_impl_ring_close(ring) : -EINVAL;
}

bool grain_ring_closed(const struct grain_ring *ring)
{
	return ring != NULL && grain_impl_ring_closed(ring);
}

/* --- event loops -------------------------------------------------------- */

/* The sleepers an event waits on: consumers (IN) are woken by producers,
 * on the producers' side, and producers (OUT) by consumers. */
struct grain_impl_ring_sleepers *
grain_impl_ring_event_sleepers(struct grain_ring *r, unsigned event)
{
	return event == GRAIN_RING_EVENT_IN ? &r->prod.sleepers
					    : &r->cons.sleepers;
}

int grain_impl_ring_event_attach(struct grain_ring *r, unsigned event, int fd)
{
	if (!grain_impl_event_ok(event) || !(r->prod.flags & GRAIN_RING_WAIT))
		return -EINVAL;
	return grain_impl_event_attach(grain_impl_ring_event_sleepers(r, event),
				       fd);
}

static bool ring_in_ready(const void *ctx)
{
	const struct grain_ring *r = ctx;

	return grain_ring_count(r) != 0 || grain_impl_ring_closed(r);
}

static bool ring_out_ready(const void *ctx)
{
	const struct grain_ring *r = ctx;

	return grain_ring_free_count(r) != 0 || grain_impl_ring_closed(r);
}

int grain_impl_ring_event_arm(struct grain_ring *r, unsigned event)
{
	if (!grain_impl_event_ok(event) || !(r->prod.flags & GRAIN_RING_WAIT))
		return -EINVAL;
	return grain_impl_event_arm(
		grain_impl_ring_event_sleepers(r, event),
		event == GRAIN_RING_EVENT_IN ? ring_in_ready : ring_out_ready,
		r);
}

int grain_ring_event_attach(struct grain_ring *ring, unsigned event, int fd)
{
	return ring != NULL ? grain_impl_ring_event_attach(ring, event, fd)
			    : -EINVAL;
}

int grain_ring_event_arm(struct grain_ring *ring, unsigned event)
{
	return ring != NULL ? grain_impl_ring_event_arm(ring, event) : -EINVAL;
}

/* --- sleeping ----------------------------------------------------------- */

void grain_impl_sleepers_init(struct grain_impl_ring_sleepers *s)
{
	atomic_init(&s->waiters, 0);
	atomic_init(&s->epoch, 0);
	atomic_init(&s->armed, 0);
	atomic_init(&s->fd, -1);
}

/* Disarm an armed event and signal its fd: one wake per arming. */
static void event_signal(struct grain_impl_ring_sleepers *s)
{
	if (atomic_load_explicit(&s->armed, memory_order_relaxed) == 0 ||
	    atomic_exchange_explicit(&s->armed, 0, memory_order_acq_rel) == 0)
		return;
	/* The arming's waiter is ours to take back. */
	atomic_fetch_sub_explicit(&s->waiters, 1, memory_order_relaxed);
	int fd = atomic_load_explicit(&s->fd, memory_order_relaxed);
	uint64_t one = 1;
	/* An eventfd counter that would overflow (EAGAIN) is readable
	 * anyway; any other failure is the fd owner's to see. */
	ssize_t rc = write(fd, &one, sizeof(one));
	(void)rc;
}

void grain_impl_ring_wake(struct grain_impl_ring_sleepers *s)
{
	/* Release: a sleeper that reads the new epoch (acquire) sees the
	 * operation that made us wake it. */
	atomic_fetch_add_explicit(&s->epoch, 1, memory_order_release);
	int saved = errno; /* no grain call sets errno */
	syscall(SYS_futex, (uint32_t *)&s->epoch, FUTEX_WAKE_PRIVATE, INT_MAX,
		NULL, NULL, 0);
	event_signal(s);
	errno = saved;
}

int grain_impl_event_attach(struct grain_impl_ring_sleepers *s, int fd)
{
	int32_t none = -1;

	if (fd < 0)
		return -EINVAL;
	/* Relaxed: the fd is a number; its eventfd is the caller's. */
	return atomic_compare_exchange_strong_explicit(&s->fd, &none, fd,
						       memory_order_relaxed,
						       memory_order_relaxed)
		       ? 0
		       : -EBUSY;
}

int grain_impl_event_arm(struct grain_impl_ring_sleepers *s,
			 bool (*ready)(const void *ctx), const void *ctx)
{
	if (atomic_load_explicit(&s->fd, memory_order_relaxed) < 0)
		return -ENOENT;
	/* S2, as a sleeper's: the arming (or, already armed, a read of the
	 * count that orders us after every S1 before it) pairs with S1 in
	 * grain_impl_ring_notify(). */
	uint32_t add = atomic_exchange_explicit(&s->armed, 1,
						memory_order_relaxed) == 0;
	atomic_fetch_add_explicit(&s->waiters, add, memory_order_acq_rel);
	GRAIN_TEST_HOOK(GRAIN_TEST_EVENT_ARMED, s, 0);
	return ready(ctx) ? 1 : 0;
}

static void futex_sleep(struct grain_impl_ring_sleepers *s, uint32_t epoch,
			const struct timespec *deadline)
{
	/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline, so
	 * early returns (EINTR, EAGAIN, spurious) need no recomputation.
	 * Those returns set errno, which no grain call may change. */
	int saved = errno;
	syscall(SYS_futex, (uint32_t *)&s->epoch, FUTEX_WAIT_BITSET_PRIVATE,
		epoch, deadline, NULL, FUTEX_BITSET_MATCH_ANY);
	errno = saved;
}

static bool past(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec ||
	       (now.tv_sec == deadline->tv_sec &&
		now.tv_nsec >= deadline->tv_nsec);
}

int grain_impl_wait(struct grain_impl_ring_sleepers *s,
		    int (*attempt)(void *ctx), void *ctx, int64_t timeout_ns)
{
	struct timespec deadline, *dl = NULL;

	if (timeout_ns > 0) {
		/* The largest time_t (32 or 64 bits), computed without
		 * overflow; a deadline beyond it means forever. */
		const int64_t time_max =
			(int64_t)((UINT64_C(1)
				   << (sizeof(time_t) * CHAR_BIT - 1)) -
				  1);
		int64_t sec = timeout_ns / 1000000000;
		long nsec = (long)(timeout_ns % 1000000000);

		clock_gettime(CLOCK_MONOTONIC, &deadline);
		nsec += deadline.tv_nsec; /* < 2 * 10^9: fits a 32-bit long */
		if (sec < time_max - (int64_t)deadline.tv_sec - 1) {
			deadline.tv_sec += (time_t)sec + nsec / 1000000000;
			deadline.tv_nsec = nsec % 1000000000;
			dl = &deadline;
		}
	}
	for (;;) {
		int k = attempt(ctx);
		if (k != 0)
			return k;
		if (timeout_ns == 0 || (dl != NULL && past(dl)))
			return -ETIMEDOUT;

		/* S2: pairs with S1 in grain_impl_ring_notify(). */
		atomic_fetch_add_explicit(&s->waiters, 1, memory_order_acq_rel);
		/* Acquire: pairs with the release bump in
		 * grain_impl_ring_wake(). */
		uint32_t epoch =
			atomic_load_explicit(&s->epoch, memory_order_acquire);
		k = attempt(ctx);
		if (k == 0) {
			GRAIN_TEST_HOOK(GRAIN_TEST_WAIT_SLEEP, s, 0);
			futex_sleep(s, epoch, dl);
		}
		atomic_fetch_sub_explicit(&s->waiters, 1, memory_order_relaxed);
		if (k != 0)
			return k;
	}
}

struct wait_op {
	struct grain_ring *ring;
	bool enqueue;
	bool burst;
	void **objs;
	unsigned n;
};

int grain_impl_ring_attempt_result(struct grain_ring *r, unsigned k, unsigned n,
				   bool burst, bool enq)
{
	if (k != 0)
		return (int)k;
	/* Nothing moved: -EPIPE ends the wait, anything else sleeps. */
	return grain_impl_ring_fail(r, enq, burst ? 1 : n) == -EPIPE ? -EPIPE
								     : 0;
}

static int wait_attempt(void *ctx)
{
	const struct wait_op *op = ctx;
	unsigned k = op->enqueue ? grain_impl_ring_enqueue(op->ring, op->objs,
							   op->n, op->burst)
				 : grain_impl_ring_dequeue(op->ring, op->objs,
							   op->n, op->burst);

	return grain_impl_ring_attempt_result(op->ring, k, op->n, op->burst,
					      op->enqueue);
}

static int ring_wait(struct grain_ring *r, struct wait_op *op,
		     int64_t timeout_ns)
{
	/* Enqueuers wait for room, which dequeuers announce on their side. */
	struct grain_impl_ring_sleepers *s = op->enqueue ? &r->cons.sleepers
							 : &r->prod.sleepers;

	op->ring = r;
	int rc = grain_impl_wait(s, wait_attempt, op, timeout_ns);
	return rc > 0 && !op->burst ? 0 : rc;
}

static bool wait_args_ok(const struct grain_ring *r, const void *objs,
			 unsigned n, unsigned limit)
{
	return r != NULL && (r->prod.flags & GRAIN_RING_WAIT) != 0 &&
	       objs != NULL && n != 0 && n <= limit;
}

int grain_ring_enqueue_wait(struct grain_ring *ring, void *obj,
			    int64_t timeout_ns)
{
	if (!wait_args_ok(ring, &obj, 1, 1))
		return -EINVAL;
	struct wait_op op = { NULL, true, false, &obj, 1 };
	return ring_wait(ring, &op, timeout_ns);
}

int grain_ring_dequeue_wait(struct grain_ring *ring, void **objp,
			    int64_t timeout_ns)
{
	if (!wait_args_ok(ring, objp, 1, 1))
		return -EINVAL;
	struct wait_op op = { NULL, false, false, objp, 1 };
	return ring_wait(ring, &op, timeout_ns);
}

int grain_ring_enqueue_bulk_wait(struct grain_ring *ring, void *const *objs,
				 unsigned n, int64_t timeout_ns)
{
	if (ring != NULL && n == 0 && (ring->prod.flags & GRAIN_RING_WAIT))
		return 0;
	if (!wait_args_ok(ring, objs, n, ring ? grain_ring_capacity(ring) : 0))
		return -EINVAL;
	struct wait_op op = { NULL, true, false, (void **)(uintptr_t)objs, n };
	return ring_wait(ring, &op, timeout_ns);
}

int grain_ring_dequeue_bulk_wait(struct grain_ring *ring, void **objs,
				 unsigned n, int64_t timeout_ns)
{
	if (ring != NULL && n == 0 && (ring->prod.flags & GRAIN_RING_WAIT))
		return 0;
	if (!wait_args_ok(ring, objs, n, ring ? grain_ring_capacity(ring) : 0))
		return -EINVAL;
	struct wait_op op = { NULL, false, false, objs, n };
	return ring_wait(ring, &op, timeout_ns);
}

int grain_ring_enqueue_burst_wait(struct grain_ring *ring, void *const *objs,
				  unsigned n, int64_t timeout_ns)
{
	if (!wait_args_ok(ring, objs, n, (unsigned)INT32_MAX))
		return -EINVAL;
	struct wait_op op = { NULL, true, true, (void **)(uintptr_t)objs, n };
	return ring_wait(ring, &op, timeout_ns);
}

int grain_ring_dequeue_burst_wait(struct grain_ring *ring, void **objs,
				  unsigned n, int64_t timeout_ns)
{
	if (!wait_args_ok(ring, objs, n, (unsigned)INT32_MAX))
		return -EINVAL;
	struct wait_op op = { NULL, false, true, objs, n };
	return ring_wait(ring, &op, timeout_ns);
}
