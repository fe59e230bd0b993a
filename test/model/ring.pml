/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring.pml - a Spin model of grain_ring with GRAIN_RING_WAIT in its four modes:
 * the per-slot sequence numbers of a multi side, the claim of n positions with
 * one compare-and-swap (single; bulk, all or nothing; burst, as many as are
 * ready), the release of a batch last slot first, a single producer's claim
 * without CAS, the published position of a single consumer (SC) and, in SPSC,
 * the producer's cached copy of it; and the sleep protocol of the _wait calls
 * on both sides (include/grain/ring.h, "The algorithm and its ordering";
 * grain_impl_ring_claim_slots(), _claim_index(), _room_sp(), _ready_sc(),
 * _put(), _get() and _notify() in include/grain/impl/ring.h; grain_impl_wait()
 * and grain_impl_ring_wake() in src/ring.c).
 *
 * What the model leaves out:
 *  - The memory model. Spin explores sequentially consistent interleavings
 *    only: every atomic operation of the C code is one indivisible step and
 *    every step sees all earlier ones. That the acquire/release pairs
 *    (A1/R2: a consumer is done with a slot before its next producer
 *    writes it; R1/A2: a producer's object is in the slot before its
 *    consumer reads it) and the read-modify-write pair S1/S2 give the C
 *    code the orders the model takes for granted is argued in impl/ring.h
 *    and src/ring.c, not checked here; a protocol that fails under SC is
 *    broken, one that passes may still need the right orderings. Plain
 *    accesses are single steps too, so a data race would not show.
 *  - Steps on owned slots. Between a thread's successful CAS and its
 *    release of the slots it claimed (R1 for a producer, R2 for a
 *    consumer) no other thread touches those slots' objects, so the
 *    owner's object stores (producer) or loads (consumer) commute with
 *    every other step in between; the model makes them in the step of the
 *    CAS. (PUBLISH_FIRST, below, breaks that ownership on purpose and makes
 *    its late stores steps of their own.)
 *  - Sizes. Capacity 2; two producers, producer 0 with OBJS0 objects and
 *    producer 1 with OBJS1 (2 and 1: slot 0 is used twice); two consumers.
 *    Positions are POSMOD-bit counters, the C code's 64-bit arithmetic
 *    with 2^64 replaced by POSMOD (8). Both start at POSMOD - 2, as
 *    grain_impl_ring_reset() puts them just below 2^64 in the tests, so
 *    they wrap to 0 within the run. Comparisons are made on signed
 *    differences, as in the C code; they are exact while no thread acts
 *    on a position POSMOD / 2 or more behind the current one, which holds
 *    here (a thread is never more than NOBJ - 1 behind) and, with 2^64,
 *    in practice. MPMC by default; -DSP (with PRODUCERS=1) and -DSC (with
 *    CONSUMERS=1) select the single-side protocols.
 *  - The compare-and-swap is strong: a weak one's spurious failures only
 *    add retries that reload the position.
 *  - The futex and the epoch. Instead of the epoch's value each thread's
 *    view of it is kept: whether it holds a value read from the epoch
 *    and, if so, whether a bump has happened since (what "epoch !=
 *    value" tells as long as the 32-bit word does not wrap in between,
 *    2^32 wake-ups). A bump (FUTEX_WAKE follows it and wakes every
 *    sleeper) makes every held value stale; sleeping waits until the
 *    sleeper's value is stale, which covers "the kernel sees a changed
 *    word and returns at once". No spurious wake-ups and no timeouts: a
 *    sleeper sleeps until woken, so a lost wake-up is a sleeper that never
 *    wakes.
 *  - The calls. Every enqueue and dequeue is a _wait call with no timeout;
 *    its first attempt is the non-blocking call of the same form. Each
 *    process's calls take the forms its mask allows (P0_FORMS, P1_FORMS,
 *    C0_FORMS, C1_FORMS: SINGLE, BULK, BURST or ANY, chosen anew for each
 *    call; by default producer 0 makes one bulk of 2, producer 1 a
 *    single, consumer 0 bursts of 2 and consumer 1 bulks of 2). Producers
 *    stop when their objects are in; consumers loop for ever, so "the
 *    consumers keep trying" holds. Consumer 0 must never ask for a bulk:
 *    two consumers that both wait for two objects may rightly leave a
 *    last one in the ring.
 *
 * Properties:
 *  - Every object exactly once: each object a consumer reads from a slot
 *    it claimed was not read before; when nothing can move any more
 *    (Spin's timeout), every producer is done and every object was
 *    dequeued: none stranded.
 *  - FIFO per producer: the objects a claim takes are, for each producer,
 *    the next ones that producer enqueued, none skipped.
 *  - Bulk all or nothing: a bulk claim takes n positions or none; a burst
 *    at most n.
 *  - No lost wake-up: when nothing can move any more, nothing is stranded
 *    (above, in monitor), and the LTL claim no_lost_wakeup: never, from
 *    some point on for ever, a sleeper whose call could succeed (a
 *    consumer with as many ready objects at the head as it asks for, one
 *    for a burst; a producer with as many free slots at the tail).
 *
 * Options (spin -D...): MUTANT: notify() reads `waiters` with a plain load
 * instead of the S1 read-modify-write. Nothing then orders that load after
 * the slot's release store (store->load reordering, which x86 allows too),
 * so the model lets it take effect before the sequence store: the lost
 * wake-up that S1/S2 exist to prevent. PUBLISH_FIRST: a producer stores a
 * slot's sequence (R1) before its object, so a consumer may take the slot
 * before it is filled. FREE_FIRST (with SC): the consumer publishes its position
 * before it reads the objects, so a producer may overwrite one first.
 * P0_FORMS, P1_FORMS, C0_FORMS, C1_FORMS, OBJS0,
 * OBJS1, POSMOD, PRODUCERS and CONSUMERS (1 or 2); NO_MONITOR: leave out the end-state assertion, so that
 * only the LTL claim can find a lost wake-up.
 *
 * test/model/run.sh runs the checks below: "pass" must find no error,
 * "fail" must find one; every "fail" check and the "quick" ones run in
 * the default suite (model_check), all of them in model_exhaustive.
 * check: quick pass
 * check: fail -DMUTANT
 * check: fail -DMUTANT -DNO_MONITOR
 * check: fail -DPUBLISH_FIRST
 * check: pass -DP0_FORMS=BURST -DC0_FORMS=SINGLE -DC1_FORMS=BURST
 * check: pass -DP0_FORMS=SINGLE -DC0_FORMS=SINGLE -DC1_FORMS=SINGLE
 * check: fail -DMUTANT -DP0_FORMS=SINGLE -DC0_FORMS=SINGLE -DC1_FORMS=SINGLE
 * check: pass -DP0_FORMS=ANY
 * check: pass -DOBJS1=2 -DP1_FORMS=BURST
 * check: pass -DOBJS1=2 -DP1_FORMS=BURST -DC0_FORMS=SINGLE
 * check: quick pass -DSP -DPRODUCERS=1 -DOBJS0=3
 * check: pass -DSP -DPRODUCERS=1 -DOBJS0=3 -DP0_FORMS=ANY -DC1_FORMS=SINGLE
 * check: fail -DSP -DPRODUCERS=1 -DOBJS0=3 -DPUBLISH_FIRST
 * check: fail -DSP -DPRODUCERS=1 -DOBJS0=3 -DMUTANT
 * check: quick pass -DSC -DCONSUMERS=1
 * check: pass -DSC -DCONSUMERS=1 -DOBJS1=2 -DP1_FORMS=BURST -DC0_FORMS=SINGLE
 * check: fail -DSC -DCONSUMERS=1 -DFREE_FIRST
 * check: fail -DSC -DCONSUMERS=1 -DPUBLISH_FIRST
 * check: quick pass -DSP -DSC -DPRODUCERS=1 -DCONSUMERS=1 -DOBJS0=3
 * check: pass -DSP -DSC -DPRODUCERS=1 -DCONSUMERS=1 -DOBJS0=3 -DP0_FORMS=ANY -DC0_FORMS=SINGLE
 * check: fail -DSP -DSC -DPRODUCERS=1 -DCONSUMERS=1 -DOBJS0=3 -DPUBLISH_FIRST
 * check: fail -DSP -DSC -DPRODUCERS=1 -DCONSUMERS=1 -DOBJS0=3 -DFREE_FIRST
 * check: fail -DSP -DSC -DPRODUCERS=1 -DCONSUMERS=1 -DOBJS0=3 -DMUTANT
 */

#ifndef PRODUCERS
#define PRODUCERS 2
#endif
#ifndef OBJS0
#define OBJS0 2
#endif
#ifndef OBJS1
#define OBJS1 1
#endif
#ifndef CONSUMERS
#define CONSUMERS 2
#endif
#ifndef POSMOD
#define POSMOD 8
#endif

#if defined(SP) && PRODUCERS != 1
#error "SP wants PRODUCERS=1"
#endif
#if defined(SC) && CONSUMERS != 1
#error "SC wants CONSUMERS=1"
#endif

#define CAP 2
#define MASK 1
#if PRODUCERS == 1
#define NOBJ OBJS0
#else
#define NOBJ (OBJS0 + OBJS1)
#endif
/* Producer 0 enqueues objects 0 .. OBJS0 - 1, producer 1 the next OBJS1. */
#define OBJS(p) ((p) == 0 -> OBJS0 : OBJS1)
#define FIRST(p) ((p) == 0 -> 0 : OBJS0)
#define PROD_OF(o) ((o) < OBJS0 -> 0 : 1)
#define NONE 255 /* an empty slot's object: no object */
#define BASE (POSMOD - 2)

/* (a - b) as a signed POSMOD-bit number, as the C code's (int64_t)(a - b). */
#define WRAP(x) (((x) + POSMOD) % POSMOD)
#define SDIFF(a, b) \
	(WRAP((a) - (b)) >= POSMOD / 2 -> WRAP((a) - (b)) - POSMOD : WRAP((a) - (b)))

/* The ring. */
byte ppos = BASE;  /* prod.pos: next position to claim by producers */
byte cpos = BASE;  /* cons.pos */
byte seq[CAP];     /* slot sequence: p free for producer p, p + 1 ready */
byte obj[CAP];
/* SPSC: the producer's copy of cpos (private). */
byte pcache = BASE;

/* The sleepers: prod.sleepers (consumers waiting for objects) and
 * cons.sleepers (producers waiting for room). */
byte pwaiters, cwaiters;
/* The epochs, as each thread sees them: 0, it holds no value read from
 * the epoch; 1, it read the epoch and no bump has happened since; 2, a
 * bump has happened since its read. (pseen: the consumers' view of
 * prod.sleepers.epoch; cseen: the producers' of cons.sleepers.epoch.) */
byte pseen[2];
byte cseen[2];
#define PROD 0 /* prod.sleepers */
#define CONS 1 /* cons.sleepers */

/* Observers: not part of the protocol. */
bit delivered[NOBJ];
byte fifo_next[PRODUCERS];  /* the next object of each producer to claim */
byte sent[PRODUCERS];       /* objects each producer has enqueued */
bit c_asleep[CONSUMERS];
byte c_want[CONSUMERS];     /* ready objects a sleeping consumer needs */
bit p_asleep[PRODUCERS];
byte p_want[PRODUCERS];     /* free slots a sleeping producer needs */

/* Could a call that needs n objects (n slots) succeed now? */
#define READY_AT(q) (seq[(q) & MASK] == WRAP((q) + 1))
#define FREE_AT(q) (seq[(q) & MASK] == (q))
#define CAN_DEQ(n) (READY_AT(cpos) && ((n) < 2 || READY_AT(WRAP(cpos + 1))))
#ifdef SC
#define CAN_ENQ(n) (WRAP(cpos + CAP - ppos) >= (n))
#else
#define CAN_ENQ(n) (FREE_AT(ppos) && ((n) < 2 || FREE_AT(WRAP(ppos + 1))))
#endif
/* What a request for n may take of avail: n, or a burst what there is. */
#define FIT(avail, n, burst) ((avail) >= (n) -> (n) : (burst -> (avail) : 0))

#if CONSUMERS == 1
#define C_LOST (c_asleep[0] && CAN_DEQ(c_want[0]))
#elif CONSUMERS == 2
#define C_LOST ((c_asleep[0] && CAN_DEQ(c_want[0])) || \
		(c_asleep[1] && CAN_DEQ(c_want[1])))
#else
#error "CONSUMERS must be 1 or 2"
#endif
#if PRODUCERS == 1
#define P_LOST (p_asleep[0] && CAN_ENQ(p_want[0]))
#elif PRODUCERS == 2
#define P_LOST ((p_asleep[0] && CAN_ENQ(p_want[0])) || \
		(p_asleep[1] && CAN_ENQ(p_want[1])))
#else
#error "PRODUCERS must be 1 or 2"
#endif

ltl no_lost_wakeup { [] <> !(C_LOST || P_LOST) }

/* A consumer's reads of the k slots it claimed from pos: each object is
 * one not read before (exactly once) and, for its producer, the next one
 * that producer enqueued (FIFO, none skipped). */
inline take(pos, k, o)
{
	o = obj[pos & MASK];
	assert(o < NOBJ && delivered[o] == 0);
	assert(o - FIRST(PROD_OF(o)) == fifo_next[PROD_OF(o)]);
	delivered[o] = 1;
	fifo_next[PROD_OF(o)]++;
	if
	:: k == 2 ->
		o = obj[(pos + 1) & MASK];
		assert(o < NOBJ && delivered[o] == 0);
		assert(o - FIRST(PROD_OF(o)) == fifo_next[PROD_OF(o)]);
		delivered[o] = 1;
		fifo_next[PROD_OF(o)]++
	:: else -> skip
	fi;
	o = 0
}

/* A producer's stores of objects o0, o0 + 1 into the k slots it claimed
 * from pos. */
inline fill(pos, k, o0)
{
	obj[pos & MASK] = o0;
	if
	:: k == 2 -> obj[(pos + 1) & MASK] = o0 + 1
	:: else -> skip
	fi
}

/*
 * grain_impl_ring_claim(): claim up to n (1 or 2) positions of one side
 * (SIDE: ppos or cpos) whose slots hold the sequence position + READY
 * (0: free, 1: ready). k gets the count (0: nothing claimed), pos the
 * first position. Each step makes one access to the protocol's shared
 * state; d keeps only the sign of the last difference. The CAS step also
 * makes the claimer's accesses to the slots it now owns, which no other
 * thread touches until the owner's release (R1, R2) and so commute with
 * every step in between: a producer fills its slots (o0: its first
 * object), a consumer reads them.
 */
inline claim(SIDE, READY, n, burst, pos, k, d, o0, o)
{
	pos = SIDE;  /* relaxed load */
	do
	:: atomic {
		/* A1/A2: the next slot's sequence */
		k < n && d == 0 ->
		d = SDIFF(seq[(pos + k) & MASK], WRAP(pos + k + READY));
		if
		:: d == 0 -> k++
		:: d > 0 -> d = 1
		:: d < 0 && (!burst || k == 0) ->
			/* full or empty (bulk: not enough) */
			k = 0;
			d = 0;
			pos = 0;
			break
		:: else -> d = -1  /* a burst takes what it found */
		fi
	   }
	:: atomic {
		/* claimed by another thread of this side since we read
		 * pos: start again from now */
		d > 0 ->
		k = 0;
		d = 0;
		pos = SIDE
	   }
	:: atomic {
		/* compare_exchange(&side->pos, &pos, pos + k) */
		(k == n || d < 0) ->
		d = 0;
		if
		:: SIDE == pos ->
			SIDE = WRAP(pos + k);
			assert(k <= n && (burst || k == n));  /* bulk: all */
			if
			:: READY -> take(pos, k, o)
			:: else ->
#ifndef PUBLISH_FIRST
				fill(pos, k, o0)
#else
				skip
#endif
			fi;
			break
		:: else ->
			k = 0;
			pos = SIDE
		fi
	   }
	od
}

/*
 * grain_impl_ring_claim_index(): multiple producers (SIDE) claim against
 * the position OTHER that the single consumer publishes, LIM (CAP) past
 * it. As claim(), the CAS step also makes the owner's accesses to its
 * slots. d: 0, read the bound; -1, our pos
 * was read before the side moved past the bound, read it again; 1, k is
 * what the CAS tries to claim.
 */
inline claim_index(SIDE, OTHER, LIM, READY, n, burst, pos, k, d, o0, o)
{
	pos = SIDE;  /* relaxed load */
	d = 0;
	do
	:: atomic {
		/* A1'/A2': the other side's published position */
		d == 0 ->
		d = SDIFF(WRAP(OTHER + LIM), pos);
		if
		:: d < 0 -> d = -1
		:: else ->
			k = FIT(d, n, burst);
			if
			:: k == 0 ->
				d = 0;
				pos = 0;
				break
			:: else -> d = 1
			fi
		fi
	   }
	:: atomic { d == -1 -> pos = SIDE; d = 0 }
	:: atomic {
		/* compare_exchange(&side->pos, &pos, pos + k) */
		d == 1 ->
		d = 0;
		if
		:: SIDE == pos ->
			SIDE = WRAP(pos + k);
			assert(k <= n && (burst || k == n));
			if
			:: READY -> take(pos, k, o)
			:: else ->
#ifndef PUBLISH_FIRST
				fill(pos, k, o0)
#else
				skip
#endif
			fi;
			break
		:: else ->
			k = 0;
			pos = SIDE
		fi
	   }
	od
}

/*
 * grain_impl_ring_room_sp(): the single producer's room at pos = ppos
 * (its own): SC, from its cached copy of cpos, reading cpos (A1') only
 * when the copy falls short; MC, the consumers' per-slot sequences, in
 * which no slot can be ahead of a single producer (asserted).
 */
inline room_sp(n, burst, pos, k, d)
{
	pos = ppos;
#ifdef SC
	if
	:: CAP - WRAP(pos - pcache) >= n -> skip
	:: else -> pcache = cpos  /* A1' */
	fi;
	d = CAP - WRAP(pos - pcache);
	k = FIT(d, n, burst);
	d = 0
#else
	k = 0;
	do
	:: atomic {
		k < n ->
		/* A1 */
		d = SDIFF(seq[(pos + k) & MASK], WRAP(pos + k));
		assert(d <= 0);
		if
		:: d == 0 -> k++
		:: else -> break
		fi
	   }
	:: else -> break
	od;
	d = 0;
	if
	:: k < n && !burst -> k = 0
	:: else -> skip
	fi
#endif
}

/* grain_impl_ring_ready_sc(): the single consumer's ready objects at pos =
 * cpos, from the producers' per-slot sequences, in which no slot can be
 * ahead of a single consumer (asserted). */
inline ready_sc(n, burst, pos, k, d)
{
	pos = cpos;
	k = 0;
	do
	:: atomic {
		k < n ->
		/* A2 */
		d = SDIFF(seq[(pos + k) & MASK], WRAP(pos + k + 1));
		assert(d <= 0);
		if
		:: d == 0 -> k++
		:: else -> break
		fi
	   }
	:: else -> break
	od;
	d = 0;
	if
	:: k < n && !burst -> k = 0
	:: else -> skip
	fi
}

/* grain_impl_ring_wake(): the epoch's fetch_add. Everyone holding a value
 * read from it now holds a stale one. */
#define STALE(x) x = (x == 1 -> 2 : x)
inline bump(side)
{
	atomic {
		if
		:: side == PROD ->
			STALE(pseen[0]);
			STALE(pseen[1])
		:: else ->
			STALE(cseen[0]);
			STALE(cseen[1])
		fi
	}
}

/*
 * grain_impl_ring_notify() on the sleepers of side (PROD or CONS, waiters
 * W), after a successful call: the S1 read-modify-write of W and, if
 * anyone waits,
 * grain_impl_ring_wake(): bump the epoch (then FUTEX_WAKE). MUTANT: the
 * value of waiters was read earlier, into w, before the sequence stores.
 */
inline notify(W, side, w)
{
	if
#ifdef MUTANT
	:: w != 0 -> bump(side)
#else
	:: W != 0 -> bump(side)  /* S1 */
#endif
	:: else -> skip
	fi;
	w = 0
}

/* The early read of the mutant: a plain load passing the release stores. */
inline early_read(W, w)
{
#ifdef MUTANT
	w = W
#else
	skip
#endif
}

/* grain_impl_ring_enqueue() by producer id of objects first, first + 1
 * (n of them at most); k gets the count enqueued. */
inline enqueue(id, first, n, burst, pos, k, d, w, o)
{
#if defined(SP)
	room_sp(n, burst, pos, k, d);
#elif defined(SC)
	claim_index(ppos, cpos, CAP, 0, n, burst, pos, k, d, first, o);
#else
	claim(ppos, 0, n, burst, pos, k, d, first, o);
#endif
	if
	:: k == 0
	:: else ->
		early_read(pwaiters, w);
#if defined(SP) && !defined(PUBLISH_FIRST)
		/* The single producer's own store of ppos (no one reads it
		 * for readiness) and its objects, owned since room_sp(). */
		ppos = WRAP(pos + k);
		fill(pos, k, first);
#elif defined(SP)
		ppos = WRAP(pos + k);
#endif
		/* Last slot first. R1: pairs with A2. */
		if
		:: atomic { k == 2 -> seq[(pos + 1) & MASK] = WRAP(pos + 2) }
		:: else
		fi;
		atomic {
			seq[pos & MASK] = WRAP(pos + 1);
			sent[id] = sent[id] + k  /* observer */
		};
#ifdef PUBLISH_FIRST
		/* The bug: the objects after the sequence. */
		fill(pos, k, first);
#endif
		pos = 0;
		notify(pwaiters, PROD, w)
	fi
}

/* grain_impl_ring_dequeue(): k gets the count dequeued. */
inline dequeue(n, burst, pos, k, d, w, o)
{
#ifdef SC
	ready_sc(n, burst, pos, k, d);
	if
	:: k == 0
	:: else ->
		early_read(cwaiters, w);
		/* The reads, then R2': publish the position. */
#ifndef FREE_FIRST
		take(pos, k, o);
#endif
		cpos = WRAP(pos + k);
#ifdef FREE_FIRST
		take(pos, k, o);
#endif
		pos = 0;
		notify(cwaiters, CONS, w)
	fi
#else
	claim(cpos, 1, n, burst, pos, k, d, 0, o);
	if
	:: k == 0
	:: else ->
		early_read(cwaiters, w);
		/* Last slot first. R2: pairs with A1. */
		if
		:: atomic { k == 2 -> seq[(pos + 1) & MASK] = WRAP(pos + 1 + CAP) }
		:: else
		fi;
		atomic {
			seq[pos & MASK] = WRAP(pos + CAP);
			pos = 0
		};
		notify(cwaiters, CONS, w)
	fi
#endif
}

/*
 * grain_impl_wait() around one attempt, ATTEMPT (which sets k), on the
 * sleepers' waiters W, SEEN being the thread's view of their epoch:
 * attempt; if nothing moved, S2, read the epoch, attempt again, and sleep
 * until the epoch has moved since the read. ASLEEP and WANT are the
 * observers' view of the sleeper; SLEEP is the label of its sleep.
 */
#define WAIT_LOOP(ATTEMPT, W, SEEN, ASLEEP, WANT, SLEEP) \
	do \
	:: ATTEMPT; \
		if \
		:: k != 0 -> break \
		:: else -> skip \
		fi; \
		W++;          /* S2 */ \
		SEEN = 1;     /* read the epoch (acquire) */ \
		ATTEMPT; \
		if \
		:: atomic { \
			k == 0 -> \
			WANT = (burst -> 1 : n); \
			ASLEEP = 1 \
		   }; \
SLEEP:			atomic { \
				SEEN == 2 -> ASLEEP = 0; WANT = 0 \
			} \
		:: else -> skip \
		fi; \
		atomic { \
			W--; \
			SEEN = 0 \
		}; \
		if \
		:: k != 0 -> break \
		:: else -> skip \
		fi \
	od

/* The forms a process's calls may take, as a mask: SINGLE (n = 1), BULK
 * and BURST (n = 2, only while two objects are left to enqueue). Each
 * call chooses one of them; a call that has only one object left, or
 * whose mask allows neither single nor what is left, is a single. */
#define SINGLE 1
#define BULK 2
#define BURST 4
#define ANY (SINGLE | BULK | BURST)
inline choose_form(forms, left, n, burst)
{
	if
	:: (forms & SINGLE) || left < 2 || (forms & (BULK | BURST)) == 0 ->
		n = 1; burst = 0
	:: (forms & BULK) && left > 1 -> n = 2; burst = 0
	:: (forms & BURST) && left > 1 -> n = 2; burst = 1
	fi
}

#ifndef P0_FORMS
#define P0_FORMS BULK
#endif
#ifndef P1_FORMS
#define P1_FORMS SINGLE
#endif
#ifndef C0_FORMS
#define C0_FORMS BURST
#endif
#ifndef C1_FORMS
#define C1_FORMS BULK
#endif

/* A producer: enqueue_wait, enqueue_bulk_wait or enqueue_burst_wait
 * until its objects are in. */
proctype producer(byte id)
{
	byte i, n, pos, k, w, o, o0;
	int d;
	bit burst;
	byte forms = (id == 0 -> P0_FORMS : P1_FORMS);
	byte objs = OBJS(id);
	byte first = FIRST(id);

	do
	:: i == objs -> break
	:: else ->
		choose_form(forms, objs - i, n, burst);
		o0 = first + i;
		WAIT_LOOP(enqueue(id, o0, n, burst, pos, k, d, w, o),
			  cwaiters, cseen[id], p_asleep[id], p_want[id], p_sleep);
		atomic {
			i = i + k;
			o0 = 0;
			k = 0;
			n = 0;
			burst = 0
		}
	od
}

/* A consumer: dequeue_wait, dequeue_bulk_wait or dequeue_burst_wait, for
 * ever. */
proctype consumer(byte id)
{
	byte n, pos, k, w, o;
	int d;
	bit burst;
	byte forms = (id == 0 -> C0_FORMS : C1_FORMS);

	do
	:: choose_form(forms, 2, n, burst);
		WAIT_LOOP(dequeue(n, burst, pos, k, d, w, o),
			  pwaiters, pseen[id], c_asleep[id], c_want[id], end_sleep);
		atomic {
			k = 0;
			n = 0;
			burst = 0
		}
	od
}

#ifndef NO_MONITOR
/* When nothing can move any more: every producer done, every object
 * dequeued. */
active proctype monitor()
{
	byte i;

	timeout ->
	for (i : 0 .. PRODUCERS - 1) {
		assert(sent[i] == OBJS(i))
	}
	for (i : 0 .. NOBJ - 1) {
		assert(delivered[i] == 1)
	}
}
#endif

init
{
	byte i;

	atomic {
		/* grain_impl_ring_reset(r, BASE): slot i is free for the
		 * first position >= BASE that maps to it. */
		for (i : 0 .. CAP - 1) {
			seq[i] = WRAP(BASE + ((i - BASE + POSMOD) & MASK));
			obj[i] = NONE
		}
		for (i : 0 .. PRODUCERS - 1) {
			run producer(i)
		}
		for (i : 0 .. CONSUMERS - 1) {
			run consumer(i)
		}
		i = 0
	}
}
