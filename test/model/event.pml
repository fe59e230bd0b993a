/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * event.pml - a Spin model of the event-loop side of the sleep protocol
 * (include/grain/ring.h "Event loops"; grain_impl_event_arm(),
 * event_signal() and grain_impl_ring_wake() in src/ring.c;
 * grain_impl_ring_notify() in include/grain/impl/ring.h): producers that
 * enqueue and then look for waiters, and one consumer that runs the loop
 * ring.h documents: drain the ring; when it finds nothing, reset the
 * eventfd, arm, check the ring again, and sleep on the eventfd unless
 * the check found objects.
 *
 * What the model leaves out, as ring.pml does: the memory model (every
 * step sees all earlier ones; the acquire/release pairs, S1 and S2, are
 * argued in the C code), the slots (the ring is its object count; a
 * producer's enqueue is one step and never finds the ring full), and the
 * futex (no thread sleeps in a _wait call here: the only waiter is the
 * armed event). The eventfd is its counter: a write adds one, the reset
 * sets it to 0, and the loop sleeps until it is not 0 (epoll_wait).
 * Sizes: PRODUCERS producers (2) of OBJS objects each (2).
 *
 * Properties (checked when nothing can move any more, Spin's timeout):
 *  - no wake-up is lost: the loop has received every object (a loop
 *    asleep on an eventfd that nobody will write stops the run before);
 *  - the waiter count never goes below 0, and is 0 at the end unless the
 *    event is still armed (then 1): an arming is taken back once.
 *
 * Mutants (-DMUTANT=n), each a bug the checks must catch:
 *  1. the loop checks the ring before it arms: an enqueue between the
 *     check and the arming finds no waiter, and the loop sleeps;
 *  2. a wake disarms with a load and a later store instead of one
 *     exchange: two wakes both take the arming back;
 *  3. the loop resets the eventfd after arming (reset, then sleep): the
 *     write of an enqueue between the arming and the reset is lost.
 *
 * check: quick pass
 * check: pass -DPRODUCERS=3
 * check: fail -DMUTANT=1
 * check: fail -DMUTANT=2
 * check: fail -DMUTANT=3
 */

#ifndef MUTANT
#define MUTANT 0
#endif
#ifndef PRODUCERS
#define PRODUCERS 2
#endif
#ifndef OBJS
#define OBJS 2
#endif

byte count;	/* objects in the ring */
byte received;	/* objects the loop took */
int waiters;	/* sleepers.waiters */
bit armed;	/* sleepers.armed */
byte efd;	/* the eventfd's counter */

/* grain_impl_ring_wake()'s event_signal(): disarm and write, once per
 * arming. */
inline signal()
{
#if MUTANT == 2
	bit was;
	was = armed;
	if
	:: was -> armed = 0; waiters--; assert(waiters >= 0); efd++
	:: else
	fi
#else
	if
	:: atomic { armed == 1 -> armed = 0 }; waiters--;
	   assert(waiters >= 0); efd++
	:: else -> skip
	fi
#endif
}

proctype producer()
{
	byte i;
	for (i : 1 .. OBJS) {
		count++;	/* the enqueue (published) */
		/* S1: the notify's read-modify-write of waiters */
		if
		:: waiters != 0 -> signal()
		:: else
		fi
	}
}

/* grain_impl_event_arm(): register once per arming (S2). */
inline arm()
{
	atomic {
		if
		:: armed == 0 -> armed = 1; waiters++
		:: else
		fi
	}
}

proctype loop()
{
	bit ready;
	do
	:: received == PRODUCERS * OBJS -> break
	:: else ->
		if
		:: count > 0 -> count--; received++
		:: else ->
#if MUTANT == 1
			ready = count > 0;
			arm();
#elif MUTANT == 3
			arm();
			ready = count > 0;
			efd = 0;
#else
			efd = 0;
			arm();
			ready = count > 0;
#endif
			if
			:: ready
			:: else -> efd > 0	/* epoll_wait */
			fi
		fi
	od
}

active proctype monitor()
{
	timeout ->
	assert(received == PRODUCERS * OBJS);
	assert(waiters == armed)
}

init
{
	byte i;
	atomic {
		for (i : 1 .. PRODUCERS) {
			run producer()
		}
		run loop()
	}
}
