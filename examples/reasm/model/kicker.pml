/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kicker.pml - a Spin model of the hand-over between reasm's transmit
 * thread and its kicker thread (examples/reasm/cli/kicker.c, K1/K2).
 *
 * The producer counts each burst in `bursts` (K2: the add, then a look at
 * `idle`, signalling under the lock if the kicker is idle); the kicker
 * kicks whenever it finds a count it has not kicked for, and otherwise
 * stores `idle` (K1), takes the lock, looks at the count again and waits
 * on the condition while it is unchanged.
 *
 * What the model leaves out:
 *  - The memory model. Spin explores sequentially consistent interleavings
 *    only; the C code makes K1 and K2 seq_cst, which gives the four
 *    accesses of the Dekker pair one total order, as here.
 *  - Spurious wake-ups. A waiting kicker wakes only when signalled: a
 *    spurious wake-up only makes it look again, and allowing one at any
 *    time would hide a lost wake-up from the end-state check.
 *  - The kick itself: one step that records the count it covers.
 *
 * Properties: after its last hand-over the producer waits until a kick
 * covers every burst (the promise: no burst waits for a later one), then
 * stops the kicker; when nothing can move any more (Spin's timeout) both
 * must have finished, and every kick covered something new.
 *
 * Options (spin -D...): BURSTS, the bursts handed over (3); WAIT_EACH:
 * the producer may wait for each burst to be kicked before the next
 * (chosen at each burst), so that hand-overs also meet a sleeping kicker;
 * MUTANT: the producer signals without taking the lock, so the signal can
 * fall between the kicker's look and its wait; IDLE_LATE: the kicker
 * stores `idle` after its look at the count (K1 out of order), so the
 * producer can miss it.
 *
 * test/model/run.sh runs the checks below: "pass" must find no error,
 * "fail" must find one; every "fail" check and the "quick" ones run in
 * the default suite (model_check), all of them in model_exhaustive.
 * check: quick pass
 * check: quick pass -DWAIT_EACH -DBURSTS=4
 * check: fail -DMUTANT
 * check: fail -DMUTANT -DWAIT_EACH
 * check: fail -DIDLE_LATE
 */

#ifndef BURSTS
#define BURSTS 3
#endif

byte bursts;	/* handed over (the producer's count) */
bool idle;	/* the kicker is asleep or about to be */
bool stop;	/* under the lock */
bool locked;	/* the mutex */
bool waiting;	/* the kicker waits on the condition */
bool signalled; /* a signal the waiting kicker has not taken yet */
byte covered;	/* the count the last kick covered */
bool pdone, kdone;

inline lock()
{
	atomic { !locked -> locked = true }
}

inline unlock()
{
	locked = false
}

/* pthread_cond_signal: wakes the waiter, if any; else nothing. */
inline signal()
{
	if
	:: waiting -> signalled = true
	:: else -> skip
	fi
}

active proctype producer()
{
	byte i = 0;

	do
	:: i < BURSTS ->
#ifdef WAIT_EACH
		if
		:: covered == bursts
		:: true
		fi;
#endif
		bursts++; /* K2: the add ... */
		if
		:: idle -> /* ... then the look at idle */
#ifdef MUTANT
			signal()
#else
			lock();
			signal();
			unlock()
#endif
		:: else -> skip
		fi;
		i++
	:: else -> break
	od;
	covered == bursts; /* the promise: kicked without further help */
	lock();
	stop = true;
	signal();
	unlock();
	pdone = true
}

active proctype kicker()
{
	byte seen = 0, n;
	bool s;

	do
	:: n = bursts;
		if
		:: n != seen ->
			assert(n > seen);
			seen = n;
			covered = n /* kick */
		:: else ->
#ifndef IDLE_LATE
			idle = true; /* K1 */
#endif
			lock();
#ifdef IDLE_LATE
			/* The first look comes before the store. */
			if
			:: !stop && bursts == seen ->
				idle = true;
				atomic { waiting = true; locked = false };
				atomic { signalled -> signalled = false; waiting = false };
				lock()
			:: else -> idle = true
			fi;
#endif
			do
			:: !stop && bursts == seen ->
				/* pthread_cond_wait: unlock and wait, as one
				 * step; woken, take the lock again. */
				atomic { waiting = true; locked = false };
				atomic { signalled -> signalled = false; waiting = false };
				lock()
			:: else -> break
			od;
			s = stop;
			unlock();
			idle = false;
			if
			:: s && bursts == seen -> break
			:: else -> skip
			fi
		fi
	od;
	kdone = true
}

active proctype monitor()
{
	timeout -> assert(pdone && kdone && covered == BURSTS)
}
