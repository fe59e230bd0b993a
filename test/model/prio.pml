/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio.pml - a Spin model of grain_prio's wake-up protocols: the non-empty
 * bits, the dequeuer's settle (clear, look again, set back) of a band that gave
 * it nothing, the bands a burst drained and passes over, strict and weighted
 * dequeue, and the sleepers of dequeue_wait; and, with -DSCAN, the scanned
 * queue of few bands, which has no bits (include/grain/prio.h "Scanned queues
 * and the non-empty bits"; include/grain/impl/prio.h; src/prio.c;
 * grain_impl_wait() in src/ring.c).
 *
 * What the model leaves out:
 *  - The memory model. Spin explores sequentially consistent interleavings
 *    only: every atomic operation of the C code is one indivisible step
 *    and every step sees all earlier ones. That the C code's fences (P1,
 *    C1) and read-modify-write pairs (S1, S2) give it the orders the model
 *    takes for granted is argued in prio.h and impl/ring.h, not checked
 *    here; a protocol that fails under SC is broken, one that passes may
 *    still need the right fences.
 *  - The ring. Each band is a linearisable FIFO: a dequeue takes, in one
 *    step, up to n consecutive ready objects from the head, or nothing if
 *    the head is not ready. A producer claims its slot and publishes it in
 *    two steps, so a claimed but unpublished slot can block the head. The
 *    rings never fill (no drops) and slots are never reused.
 *  - The futex. Waking bumps the epoch (FUTEX_WAKE, which follows, wakes
 *    every sleeper); sleeping waits until the epoch differs from the value
 *    read before the last attempt, which covers "the kernel sees a changed
 *    word and returns at once". No spurious wake-ups and no timeouts: a
 *    sleeper sleeps until woken, so a lost wake-up is a sleeper that never
 *    wakes.
 *  - The scheduler lock of weighted mode is a test-and-set; the
 *    statistics, priomap and drop counters are not modelled.
 *  - Size: PRODUCERS producers enqueue PER_PROD objects each, POLLERS
 *    dequeuers (try_dequeue, or dequeue_burst of POLL_N) make TRIES
 *    attempts each and stop, and WAITERS threads loop on dequeue_wait (or
 *    dequeue_burst_wait of WAIT_N) for ever. Without SCAN each band's
 *    bit starts set or clear, both being states an empty band can be in.
 *
 * Properties:
 *  - Every object exactly once: each dequeue asserts that its object was
 *    not dequeued before; when nothing can move any more (Spin's timeout),
 *    every object has been dequeued.
 *  - No lost wake-up: when nothing can move any more, no object is queued
 *    (assertion in monitor), and the LTL claim no_lost_wakeup: never, from
 *    some point on for ever, an object queued (its band's bit set or not)
 *    while every waiter sleeps.
 *
 * Options (spin -D...): MUTANT: settle sets a bit back without waking the
 * sleepers (the bug this model was written for), or with SCAN a producer
 * that wakes the sleepers before its object is published; SCAN: no bits,
 * dequeuers look at every band's head (strict: one pass, highest band
 * first; weighted: the heads choose the next band); WEIGHTED; SC (one waiter,
 * no pollers, and no wake on the set-back, as the C code does under
 * GRAIN_PRIO_SC); BANDS, PRODUCERS, PER_PROD, POLLERS, TRIES, POLL_N,
 * WAITERS, WAIT_N; NO_MONITOR: leave out the end-state assertion, so that
 * only the LTL claim can find a lost wake-up.
 *
 * test/model/run.sh runs the checks below: "pass" must find no error,
 * "fail" must find one; every "fail" check and the "quick" ones run in
 * the default suite (model_check), all of them in model_exhaustive.
 * The weighted mutant passes: there every dequeuer,
 * dequeue_wait's attempts included, settles under the scheduler lock, so
 * no other dequeuer can look at the bits inside the window.
 * check: quick pass
 * check: fail -DMUTANT
 * check: fail -DMUTANT -DNO_MONITOR
 * check: pass -DPOLL_N=2 -DWAIT_N=2 -DPER_PROD=3
 * check: fail -DMUTANT -DPOLL_N=2 -DWAIT_N=2 -DPER_PROD=3
 * check: pass -DBANDS=2 -DPRODUCERS=2 -DPER_PROD=1 -DTRIES=2
 * check: pass -DWAITERS=2
 * check: pass -DWEIGHTED -DBANDS=2 -DPRODUCERS=2 -DPER_PROD=1
 * check: quick pass -DWEIGHTED -DMUTANT
 * check: quick pass -DSC -DPRODUCERS=2
 * check: pass -DBANDS=2 -DPRODUCERS=2 -DPER_PROD=1 -DPOLL_N=2 -DTRIES=2
 * check: quick pass -DSCAN
 * check: fail -DSCAN -DMUTANT
 * check: fail -DSCAN -DMUTANT -DNO_MONITOR
 * check: pass -DSCAN -DBANDS=2 -DPRODUCERS=2 -DPER_PROD=2 -DPOLL_N=2 -DWAIT_N=2
 * check: pass -DSCAN -DWAITERS=2
 * check: pass -DSCAN -DWEIGHTED -DBANDS=2 -DPRODUCERS=2 -DPER_PROD=1
 * check: quick pass -DSCAN -DSC -DPRODUCERS=2
 */

#ifndef BANDS
#define BANDS 1
#endif
#ifndef PRODUCERS
#define PRODUCERS 1
#endif
#ifndef PER_PROD
#define PER_PROD 2
#endif
#ifdef SC
#undef POLLERS
#define POLLERS 0
#undef WAITERS
#define WAITERS 1
#endif
#ifndef POLLERS
#define POLLERS 1
#endif
#ifndef TRIES
#define TRIES 1
#endif
#ifndef POLL_N
#define POLL_N 1
#endif
#ifndef WAITERS
#define WAITERS 1
#endif
#ifndef WAIT_N
#define WAIT_N 1
#endif

#define NOBJ (PRODUCERS * PER_PROD)
#define CAP NOBJ /* per band: never full, no slot reused */
/* Object o goes to band o % BANDS: with two producers of one object
 * each, one object per band. */
#define BAND_OF(o) ((o) % BANDS)
/* Weighted mode: band 0 weighs 2, the others 1. */
#define WEIGHT(b) ((b) == 0 -> 2 : 1)

/* The queue. */
byte nonempty;             /* bit b: band b may hold objects */
byte head[BANDS];          /* next position to dequeue */
byte tail[BANDS];          /* next position to claim */
bit ready[BANDS * CAP];    /* slot published */
byte obj_at[BANDS * CAP];  /* the object in the slot */
byte s_cur = BANDS - 1;    /* weighted: round-robin position ... */
byte s_credit;             /* ... and what is left of its turn */
bit lock;                  /* weighted: the scheduler lock */

/* The sleepers (struct grain_impl_ring_sleepers). */
byte waiters;
byte epoch;

/* Observers: not part of the protocol. */
byte queued;               /* published and not yet dequeued */
byte delivered[NOBJ];
bit asleep[WAITERS];

#if WAITERS == 1
#define ALL_ASLEEP (asleep[0])
#elif WAITERS == 2
#define ALL_ASLEEP (asleep[0] && asleep[1])
#else
#error "WAITERS must be 1 or 2"
#endif

ltl no_lost_wakeup { [] <> (queued == 0 || !ALL_ASLEEP) }

/* grain_impl_ring_notify(): a read-modify-write of waiters (S1); if
 * anyone waits, grain_impl_ring_wake() bumps the epoch. */
inline notify()
{
	if
	:: waiters > 0 -> epoch++
	:: else -> skip
	fi
}

/* One step: take up to n ready objects from the head of band bb, k of
 * them, and count them in got. */
inline ring_dequeue(bb, n, k, got)
{
	atomic {
		k = 0;
		do
		:: k < n && head[bb] < tail[bb] &&
		   ready[bb * CAP + head[bb]] ->
			assert(delivered[obj_at[bb * CAP + head[bb]]] == 0);
			delivered[obj_at[bb * CAP + head[bb]]]++;
			queued--;
			head[bb]++;
			k++
		:: else -> break
		od;
		got = got + k
	}
}

/* b = the lowest set bit of m (band order: 0 is the highest). */
inline lowest(m, b)
{
	b = 0;
	do
	:: m != 0 && ((m >> b) & 1) == 0 -> b++
	:: else -> break
	od
}

/* grain_impl_prio_settle(bb). */
inline settle(bb)
{
	nonempty = nonempty & ~(1 << bb);  /* clear (RMW), then C1 */
	if
	:: head[bb] < tail[bb] && ready[bb * CAP + head[bb]] ->
		nonempty = nonempty | (1 << bb);
#if !defined(MUTANT) && !defined(SC)
		notify()
#else
		skip
#endif
	:: else -> skip
	fi
}

/* grain_impl_prio_dequeue(), strict: the lowest set bit first; a band
 * that gives nothing is settled, then the bits are read again; a band that
 * gives some but fewer than asked (drained, dr) keeps its bit and is
 * passed over for the rest of the call. */
inline dequeue_strict(want, got)
{
	atomic {
		got = 0;
		dr = 0;
		m = nonempty;
		lowest(m, b)
	}
	do
	:: m == 0 -> break
	:: else ->
		ring_dequeue(b, want - got, k, got);
		if
		:: got == want -> break
		:: k != 0 && got < want ->
			atomic {
				dr = dr | (1 << b);
				m = m & ~dr;
				lowest(m, b)
			}
		:: else ->
			settle(b);
			atomic {
				m = nonempty & ~dr;
				lowest(m, b)
			}
		fi
	od;
	/* Dead locals: no state differs by a stale value. */
	atomic {
		m = 0;
		b = 0;
		k = 0;
		dr = 0
	}
}

/* grain_impl_prio_dequeue_scan(): every band's head in turn, one pass,
 * highest band first; no bits. */
inline dequeue_scan(want, got)
{
	got = 0;
	b = 0;
	do
	:: b < BANDS && got < want ->
		ring_dequeue(b, want - got, k, got);
		b++
	:: else -> break
	od;
	atomic {
		b = 0;
		k = 0
	}
}

/* band_mask() of a scanned queue: the bands whose head is ready, one look
 * per band. */
inline scan_mask(m)
{
	m = 0;
	b = 0;
	do
	:: b < BANDS ->
		if
		:: head[b] < tail[b] && ready[b * CAP + head[b]] ->
			m = m | (1 << b)
		:: else -> skip
		fi;
		b++
	:: else -> break
	od;
	b = 0
}

/* grain_impl_prio_dequeue_weighted(). */
inline dequeue_weighted(want, got)
{
	atomic {
#ifndef SC
		lock == 0 -> lock = 1;
#endif
		cur = s_cur;
		credit = s_credit;
		got = 0
	}
	do
	:: got == want -> break
	:: else ->
#ifdef SCAN
		scan_mask(m);
#else
		m = nonempty;
#endif
		if
		:: m == 0 -> break
		:: else -> skip
		fi;
		d_step {
			if
			:: credit == 0 || ((m >> cur) & 1) == 0 ->
				/* next_band(): the next set bit after cur */
				cur = (cur + 1) % BANDS;
				do
				:: (m >> cur) & 1 -> break
				:: else -> cur = (cur + 1) % BANDS
				od;
				credit = WEIGHT(cur)
			:: else -> skip
			fi;
			n = (want - got < credit -> want - got : credit)
		}
		ring_dequeue(cur, n, k, got);
		credit = credit - k;
		if
		:: k != 0 && k == n -> skip
		:: else ->
			/* fewer than asked: the band may be empty */
#ifndef SCAN
			settle(cur);
#endif
			credit = 0
		fi
	od;
	atomic {
		s_cur = cur;
		s_credit = credit;
		lock = 0;
		m = 0;
		k = 0;
		n = 0;
		cur = 0;
		credit = 0
	}
}

#ifdef WEIGHTED
#define dequeue(want, got) dequeue_weighted(want, got)
#elif defined(SCAN)
#define dequeue(want, got) dequeue_scan(want, got)
#else
#define dequeue(want, got) dequeue_strict(want, got)
#endif

/* Locals of every dequeuer (inlines share their caller's scope). */
#define DEQUEUER_LOCALS byte got, m, b, k, cur, credit, n, dr

proctype producer(byte id)
{
	byte i, o, bb, slot;
	bit seen;

	for (i : 0 .. PER_PROD - 1) {
		atomic {
			o = id * PER_PROD + i;
			bb = BAND_OF(o);
			slot = tail[bb];  /* claim */
			tail[bb]++
		}
#if defined(SCAN) && defined(MUTANT)
		notify();                 /* too early: nothing to see yet */
#endif
		atomic {                  /* publish (R1) */
			obj_at[bb * CAP + slot] = o;
			ready[bb * CAP + slot] = 1;
			queued++;
			slot = 0
		}
#ifndef SCAN
		seen = (nonempty >> bb) & 1;       /* P1, then the look */
		if
		:: !seen -> nonempty = nonempty | (1 << bb)
		:: else -> seen = 0
		fi;
#endif
#if !(defined(SCAN) && defined(MUTANT))
		notify()
#endif
	}
}

/* try_dequeue / dequeue_burst: TRIES attempts, then it goes away. */
proctype poller(byte id)
{
	DEQUEUER_LOCALS;
	byte t;

	for (t : 1 .. TRIES) {
		dequeue(POLL_N, got)
	}
}

/* dequeue_wait / dequeue_burst_wait (grain_impl_wait()) in a loop. */
proctype waiter(byte id)
{
	DEQUEUER_LOCALS;
	byte e;

	do
	:: dequeue(WAIT_N, got);
		if
		:: got > 0 -> skip  /* returns; called again */
		:: else ->
			waiters++;  /* S2 */
			e = epoch;
			dequeue(WAIT_N, got);
			if
			:: atomic { got == 0 -> asleep[id] = 1 };
end_sleep:			atomic {
					epoch != e -> asleep[id] = 0
				}
			:: else -> skip
			fi;
			atomic {
				waiters--;
				e = 0
			}
		fi
	od
}

#ifndef NO_MONITOR
/* When nothing can move any more: nothing queued, everything delivered. */
active proctype monitor()
{
	byte o;

	timeout ->
	assert(queued == 0);
	for (o : 0 .. NOBJ - 1) {
		assert(delivered[o] == 1)
	}
}
#endif

init
{
	byte i;

	atomic {
#ifndef SCAN
		/* Empty bands, each with its bit set or clear. */
		for (i : 0 .. BANDS - 1) {
			if
			:: nonempty = nonempty | (1 << i)
			:: skip
			fi
		}
#endif
		for (i : 0 .. PRODUCERS - 1) {
			run producer(i)
		}
		for (i : 0 .. WAITERS - 1) {
			run waiter(i)
		}
		i = 0;
		do
		:: i < POLLERS -> run poller(i); i++
		:: else -> break
		od
	}
}
