/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * close.pml - a Spin model of grain_ring_close() on a multi-producer,
 * multi-consumer ring with GRAIN_RING_WAIT: producers and consumers in
 * _wait calls, the freeze of the producers' position by one
 * read-modify-write, the final position published after it, the wake of
 * both sides, and the check a failed call makes (include/grain/ring.h,
 * "Synchronization table" and "Closing"; grain_impl_ring_close() and
 * grain_impl_ring_fail() in src/ring.c; grain_impl_ring_claim() in
 * include/grain/impl/ring.h).
 *
 * What the model leaves out, as test/model/ring.pml does (see there): the
 * memory model (every step sees all earlier ones; the acquire/release
 * pairs are argued in the C code), the owner's object stores and loads
 * between its claim and its release (made in steps of their own here
 * anyway), and the futex (a sleeper waits until the epoch differs from the
 * value it read; no spurious wake-ups, no timeouts). An owner's store of
 * its object (and the test's record of it) is made in the step of its
 * claim, as ring.pml does. Positions do not wrap
 * (ring.pml checks the wrap); the freeze is a flag changed in the same
 * step as the position it freezes, as the C code's 2^62 added to it: a
 * claim compares position and flag at once. Sizes: capacity 2, producer 0
 * with OBJS0 objects (2: the ring gets full and producers sleep),
 * producer 1 with one, CONSUMERS consumers (1 or 2) and one closer, each
 * at any point of the others' runs. Every call is a _wait call of
 * one object with no timeout; a consumer loops until -EPIPE, a producer
 * until its objects are in or -EPIPE. A _wait call's first attempt,
 * made before it registers as a sleeper, is left out: it changes nothing
 * when it fails, and what it can do when it succeeds, or finds -EPIPE,
 * the registered attempt that follows can do too.
 *
 * Properties (checked when nothing can move any more, Spin's timeout, or
 * when every process has finished):
 *  - nobody hangs: every process finishes (a sleeper never woken would
 *    stop the run before that);
 *  - every object whose enqueue returned success is dequeued exactly
 *    once, and no other object is: nothing enqueued before the close is
 *    lost, nothing enqueued after it is taken;
 *  - after the close has published the final position, no enqueue
 *    succeeds.
 *
 * Mutants (-DMUTANT=n), each a bug the checks must catch:
 *  1. the close wakes nobody: a sleeper is left asleep;
 *  2. a failed dequeue of a closed ring returns -EPIPE without comparing
 *     the consumers' position with the final one: an object claimed
 *     before the close and published after it is lost;
 *  3. the close reads the producers' position instead of freezing it: a
 *     producer claims after that read and its object is lost.
 *
 * CONSUMERS=2 (consumers racing for the last objects) is beyond a
 * complete search in run.sh's 4 GiB; the C tests cover it
 * (test_ring_close, test_prio_close).
 *
 * check: pass
 * check: quick pass -DOBJS0=1
 * check: fail -DMUTANT=1
 * check: fail -DMUTANT=2
 * check: fail -DMUTANT=3
 */

#ifndef MUTANT
#define MUTANT 0
#endif

#ifndef CONSUMERS
#define CONSUMERS 1
#endif
#ifndef OBJS0
#define OBJS0 2
#endif
#define CAP 2
#define NOBJ (OBJS0 + 1) /* objects 1..NOBJ; producer 1 has the last */
#define NPROC (3 + CONSUMERS) /* 2 producers, the consumers, the closer */

#define OPEN 0
#define CLOSING 1
#define CLOSED 2

/* The producers' position and its freeze: one word in the C code. */
byte tail = 0;
bool frozen = false;
byte head = 0;
byte seq[CAP];
byte obj[CAP];
byte shut = OPEN;
byte fin = 0; /* the final position (life.end) */

/* Sleepers: consumers wait on the producers' side, producers on the
 * consumers' side. */
byte cwaiters = 0;
byte cepoch = 0;
byte pwaiters = 0;
byte pepoch = 0;

bool queued[NOBJ + 1];
byte taken[NOBJ + 1];
byte done = 0;

/* One enqueue attempt of object v: res 1 queued, 2 -EPIPE, 0 to sleep. */
inline put_attempt(v, res)
{
	res = 0;
	do
	:: atomic { pos = tail; fz = frozen };
		if
		:: fz -> break /* frozen: no slot reads as free */
		:: !fz && seq[pos % CAP] != pos -> break /* full */
		:: !fz && seq[pos % CAP] == pos ->
			if
			:: atomic { tail == pos && !frozen -> tail = pos + 1; res = 1;
				    obj[pos % CAP] = v; queued[v] = true }
			:: atomic { !(tail == pos && !frozen) -> skip }
			fi;
			if
			:: res == 1 -> break
			:: else -> skip
			fi
		fi
	od;
	if
	:: res == 1 ->
		assert(shut != CLOSED || fin > pos);
		seq[pos % CAP] = pos + 1; /* R1 */
		w = cwaiters; /* S1 */
		if
		:: w > 0 -> cepoch++
		:: else -> skip
		fi
	:: else ->
		if
		:: shut == CLOSED -> res = 2
		:: else -> skip
		fi
	fi;
	d_step { pos = 0; fz = false; w = 0 } /* dead: fewer states */
}

/* One dequeue attempt: res 1 taken, 2 -EPIPE, 0 to sleep. */
inline take_attempt(res)
{
	res = 0;
	do
	:: h = head;
		if
		:: seq[h % CAP] == h + 1 ->
			if
			:: atomic { head == h -> head = h + 1; res = 1;
				    v = obj[h % CAP]; assert(queued[v]); taken[v]++ }
			:: atomic { head != h -> skip }
			fi;
			if
			:: res == 1 -> break
			:: else -> skip
			fi
		:: seq[h % CAP] > h + 1 -> skip /* taken meanwhile: reload */
		:: seq[h % CAP] < h + 1 -> break /* not ready */
		fi
	od;
	if
	:: res == 1 ->
		seq[h % CAP] = h + CAP; /* R2 */
		w = pwaiters; /* S1 */
		if
		:: w > 0 -> pepoch++
		:: else -> skip
		fi
	:: else ->
		if
		:: shut == CLOSED ->
#if MUTANT == 2
			res = 2
#else
			f = fin;
			if
			:: f <= head -> res = 2
			:: else -> skip
			fi
#endif
		:: else -> skip
		fi
	fi;
	d_step { h = 0; v = 0; w = 0; f = 0 } /* dead: fewer states */
}

proctype producer(byte first; byte n)
{
	byte i = 0, v, pos, w, e, res;
	bool fz;

	do
	:: i == n -> break
	:: else ->
		v = first + i;
		do
		::	pwaiters++; /* S2 */
			e = pepoch;
			put_attempt(v, res);
			if
			:: res == 0 -> pepoch != e /* asleep */
			:: else -> skip
			fi;
			pwaiters--;
			if
			:: res != 0 -> break
			:: else -> skip
			fi
		od;
		if
		:: res == 2 -> break
		:: else -> i++
		fi
	od;
	done++
}

proctype consumer()
{
	byte h, v, w, e, f, res;

	do
	::	cwaiters++; /* S2 */
		e = cepoch;
		take_attempt(res);
		if
		:: res == 0 -> cepoch != e /* asleep */
		:: else -> skip
		fi;
		cwaiters--;
		e = 0;
		if
		:: res == 2 -> break
		:: else -> skip
		fi
	od;
	done++
}

proctype closer()
{
	byte e;

	atomic { shut == OPEN -> shut = CLOSING };
#if MUTANT == 3
	e = tail;
	frozen = false;
#else
	atomic { e = tail; frozen = true }; /* the freeze */
#endif
	fin = e;
	shut = CLOSED;
#if MUTANT == 3
	/* The producers still find slots free: only the state stops them,
	 * read after their claim. */
#endif
#if MUTANT != 1
	pepoch++;
	cepoch++;
#endif
	done++
}

active proctype monitor()
{
	byte i;

	if
	:: done == NPROC -> skip
	:: timeout -> assert(done == NPROC) /* someone hangs */
	fi;
	for (i : 1 .. NOBJ) {
		assert(taken[i] == (queued[i] -> 1 : 0))
	}
}

init
{
	byte i;

	for (i : 0 .. CAP - 1) {
		seq[i] = i
	}
	atomic {
		run producer(1, OBJS0);
		run producer(OBJS0 + 1, 1);
		run consumer();
#if CONSUMERS == 2
		run consumer();
#endif
		run closer()
	}
}
