/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * htab.pml - a Spin model of grain_htab's resize protocol against its
 * lock-free readers: a stripe's bucket array is replaced, never rebuilt in
 * place. A resize fills a new array under the stripe lock, publishes it
 * with one release store (R3), and after the unlock retires the old one,
 * which nothing writes any more; the old array is freed after a grace
 * period. Readers load the stripe's array pointer (A3) inside a read-side
 * section and search that array. Inserts and removes change only the
 * current array, under the lock (include/grain/htab.h, "Layout";
 * htab_relink(), htab_resize_if_due() and grain_htab_resize() in
 * src/htab_resize.c; grain_impl_htab_link(), _unlink_at() and
 * grain_htab_lookup_fast() in include/grain/impl/htab.h; reclaim in
 * src/htab.c).
 *
 * What the model leaves out:
 *  - The memory model. Spin explores sequentially consistent interleavings
 *    only: every atomic operation of the C code is one indivisible step and
 *    every step sees all earlier ones. That R3/A3 (and R1/A1, R2/A2 inside
 *    an array) give the C code the orders the model takes for granted, and
 *    that the stripe lock orders its holders, is argued in impl/htab.h and
 *    src/htab_resize.c, not checked here; a protocol that fails under SC
 *    is broken, one that passes may still need the right orderings.
 *  - The buckets. One stripe (stripes never share arrays). An array has 1
 *    or 2 buckets (the two sizes a resize moves between) of 3 slots, room
 *    for every key, so there are no overflow buckets; a slot holds a key
 *    (the node, its signature and its occupancy bit in one); a key's
 *    bucket is key & (buckets - 1). The C code's signature words, meta
 *    word and node pointer of a slot are one value here.
 *  - Steps under the lock. A writer's reads of the current array, and its
 *    stores into a new array nobody can reach yet, race with nothing but
 *    readers' loads (the lock keeps other writers out), so an insert or a
 *    remove is one step, and each copied slot (a load from the old array
 *    and a store into the new one) is one step. The C code may also
 *    resize inside an insert whose stripe ran out of overflow buckets: the
 *    same copy under the same lock.
 *  - Memory. Arrays come from a pool of NARRAYS, the lowest-numbered
 *    free one first, so that a freed array's memory comes back as the
 *    next array (as with the LIFO allocator of the htab tests); a resize that finds none free fails as on -ENOMEM (the
 *    stripe keeps its array). Freeing overwrites every slot with garbage,
 *    so that a reader still searching a freed array misses.
 *  - The grace period. The reclaimer frees a retired array once no reader
 *    that loaded it is still inside its read-side section: a weaker
 *    guarantee than an RCU grace period (which waits for every reader
 *    that was inside one): every free that RCU would allow, the model
 *    allows too, and more.
 *
 * Properties:
 *  - A lookup never misses KEY0, which is inserted before the readers
 *    start and never removed (assertion in reader).
 *  - A reader never reads a freed array: each of its loads finds the
 *    array it loaded live, not freed since (assertion in reader).
 *  - Only the current array is written, and it holds exactly the keys
 *    present: every insert and remove finds the array it changes current
 *    and, at every unlock, the current array holds KEY0 and each writer's
 *    key while that writer's last call left it in (assertions in writer).
 *
 * Options (spin -D...): MUTANT: the resize publishes the new array (R3)
 * before it copies the slots into it. NO_GRACE: the reclaimer frees a
 * retired array without waiting for its readers. STALE_WRITE: a writer
 * loads the array pointer before it takes the lock and changes that
 * array, which a resize may have replaced meanwhile. WRITERS and READERS
 * (1 or 2), OPS (calls per writer), LOOKUPS (per reader), NARRAYS (2 or
 * 3).
 *
 * test/model/run.sh runs the checks below: "pass" must find no error,
 * "fail" must find one; every "fail" check and the "quick" ones run in
 * the default suite (model_check), all of them in model_exhaustive.
 * check: quick pass
 * check: fail -DMUTANT
 * check: fail -DNO_GRACE
 * check: fail -DSTALE_WRITE
 * check: pass -DWRITERS=1 -DREADERS=2 -DOPS=4
 * check: fail -DMUTANT -DWRITERS=1 -DREADERS=2 -DOPS=4
 * check: pass -DREADERS=2 -DOPS=2
 * check: pass -DNARRAYS=2
 */

#ifndef WRITERS
#define WRITERS 2
#endif
#ifndef READERS
#define READERS 1
#endif
#ifndef OPS
#define OPS 3
#endif
#ifndef LOOKUPS
#define LOOKUPS 2
#endif
#ifndef NARRAYS
#define NARRAYS 3
#endif

#if WRITERS < 1 || WRITERS > 2 || READERS < 1 || READERS > 2
#error "WRITERS and READERS must be 1 or 2"
#endif

#define SLOTS 3              /* per bucket */
#define MAXB 2               /* buckets of the larger size */
#define ASLOTS (MAXB * SLOTS) /* slots an array has room for */
#define EMPTY 0
#define KEY0 1               /* present for the whole run */
#define KEY(w) (2 + (w))     /* writer w's key */
#define GARBAGE 7            /* what a freed array's slots hold */
#define NONE 255             /* no array */

/* Array states. */
#define FREE 0      /* in the allocator: garbage */
#define NEW 1       /* being filled by a resize, not reachable */
#define CURRENT 2   /* the stripe's array (dir) */
#define REPLACED 3  /* no longer dir, not yet handed to the grace period */
#define RETIRED 4   /* waiting for its grace period */

/* The stripe. */
byte dir;                    /* h->dir[stripe]: the current array */
bit lock;                    /* the stripe lock */
byte slot[NARRAYS * ASLOTS];
byte nb[NARRAYS];            /* buckets: 1 or 2 */
byte state[NARRAYS];

/* The grace period's view of the readers: the array each reader loaded,
 * while it is inside its read-side section (NONE otherwise). */
byte holds[READERS];

/* Observers: not part of the protocol. */
bit present[WRITERS];        /* writer w's key is in the table */
bit freed_under[READERS];    /* an array was freed while this reader held it */

#define AT(a, b, s) ((a) * ASLOTS + (b) * SLOTS + (s))
#define BUCKET(a, k) ((k) & (nb[a] - 1))

#if READERS == 1
#define HELD(a) (holds[0] == (a))
#else
#define HELD(a) (holds[0] == (a) || holds[1] == (a))
#endif

/* Is key k in bucket BUCKET(a, k) of array a? (Under the lock.) */
#define IN_BUCKET(a, k) \
	(slot[AT(a, BUCKET(a, k), 0)] == (k) || \
	 slot[AT(a, BUCKET(a, k), 1)] == (k) || \
	 slot[AT(a, BUCKET(a, k), 2)] == (k))

/* Keys in array a (slots that hold a key, not garbage). */
inline count_keys(a, s, c)
{
	c = 0;
	for (s : 0 .. ASLOTS - 1) {
		if
		:: s < nb[a] * SLOTS && slot[a * ASLOTS + s] != EMPTY -> c++
		:: else -> skip
		fi
	}
	s = 0
}

/* Put key k in the first empty slot of its bucket of array a. */
inline put(a, k, s)
{
	s = 0;
	do
	:: slot[AT(a, BUCKET(a, k), s)] == EMPTY ->
		slot[AT(a, BUCKET(a, k), s)] = k;
		break
	:: else ->
		s++;
		assert(s < SLOTS)  /* room for every key */
	od;
	s = 0
}

/* At an unlock (in its step): the current array holds exactly the keys
 * present. */
inline unlock_checked(s, c)
{
	d_step {
		assert(state[dir] == CURRENT && IN_BUCKET(dir, KEY0));
		assert(present[0] == IN_BUCKET(dir, KEY(0)));
#if WRITERS == 2
		assert(present[1] == IN_BUCKET(dir, KEY(1)));
#endif
		count_keys(dir, s, c);
		assert(c == 1 + present[0]
#if WRITERS == 2
			    + present[1]
#endif
		      );
		c = 0;
		lock = 0
	}
}

/* The lowest free array, or NONE. */
inline find_free(n)
{
	n = 0;
	do
	:: n < NARRAYS && state[n] != FREE -> n++
	:: n < NARRAYS && state[n] == FREE -> break
	:: n == NARRAYS -> n = NONE; break
	od
}

/* R3: dir = n, the old array a is replaced. */
inline publish(a, n)
{
	atomic {
		dir = n;
		state[n] = CURRENT;
		state[a] = REPLACED
	}
}

/*
 * htab_relink() under the lock: allocate the other size (zeroed), copy
 * every slot of the current array a into it, publish it, and keep a to
 * be retired after the unlock. ok: whether it was done.
 */
inline relink(a, n, i, k, s, ok)
{
	atomic {
		a = dir;
		find_free(n);
		if
		:: n == NONE -> ok = 0  /* -ENOMEM: the stripe keeps a */
		:: else ->
			ok = 1;
			state[n] = NEW;
			nb[n] = (nb[a] == 1 -> 2 : 1);
			for (i : 0 .. ASLOTS - 1) {
				slot[n * ASLOTS + i] = EMPTY
			}
			i = 0
		fi
	};
	if
	:: ok ->
#ifdef MUTANT
		publish(a, n);
#endif
		/* for_each_slot(old, fill_one(new)): one step per slot */
		for (i : 0 .. ASLOTS - 1) {
			atomic {
				if
				:: i < nb[a] * SLOTS &&
				   slot[a * ASLOTS + i] != EMPTY ->
					assert(state[n] == NEW || state[n] == CURRENT);
					k = slot[a * ASLOTS + i];
					put(n, k, s);
					k = 0
				:: else -> skip
				fi
			}
		};
		i = 0;
#ifndef MUTANT
		publish(a, n)
#else
		skip
#endif
	:: else -> skip
	fi
}

/* One writer: OPS calls, each an insert or remove of its own key (insert
 * when absent, remove when present) or a resize of the stripe. */
proctype writer(byte w)
{
	byte op, a, n, i, k, s, c;
	bit ok;

	for (op : 1 .. OPS) {
		if
		:: /* grain_htab_insert / grain_htab_remove */
#ifdef STALE_WRITE
			a = dir;  /* the bug: loaded before the lock */
#endif
			atomic { lock == 0 -> lock = 1 };
			atomic {
#ifndef STALE_WRITE
				a = dir;
#endif
				assert(state[a] == CURRENT);  /* only dir is written */
				if
				:: !present[w] ->
					put(a, KEY(w), s);
					present[w] = 1
				:: else ->
					/* unlink_at(): the key's slot */
					s = 0;
					do
					:: slot[AT(a, BUCKET(a, KEY(w)), s)] == KEY(w) ->
						slot[AT(a, BUCKET(a, KEY(w)), s)] = EMPTY;
						break
					:: else ->
						s++;
						assert(s < SLOTS)
					od;
					s = 0;
					present[w] = 0
				fi;
				a = 0
			};
			unlock_checked(s, c)
		:: /* grain_htab_resize / htab_resize_if_due */
			atomic { lock == 0 -> lock = 1 };
			relink(a, n, i, k, s, ok);
			unlock_checked(s, c);
			/* htab_process_retired(): hand a to the grace period */
			atomic {
				if
				:: ok -> state[a] = RETIRED
				:: else -> skip
				fi;
				a = 0;
				n = 0;
				ok = 0
			}
		fi
	}
}

/* Can retired array a be freed? Its grace period is over once no reader
 * that loaded it is inside its read-side section. */
#ifndef NO_GRACE
#define FREEABLE(a) (state[a] == RETIRED && !HELD(a))
#else
#define FREEABLE(a) (state[a] == RETIRED)
#endif

/* htab_array_free(a): garbage in, back to the allocator. */
inline free_array(a, i)
{
	for (i : 0 .. READERS - 1) {
		if
		:: holds[i] == a -> freed_under[i] = 1
		:: else -> skip
		fi
	};
	for (i : 0 .. ASLOTS - 1) {
		slot[a * ASLOTS + i] = GARBAGE
	};
	state[a] = FREE;
	i = 0
}

/* The reclaimer (call_rcu's thread, or ops.defer): frees each retired
 * array once its grace period is over. */
active proctype reclaimer()
{
	byte i;

end_wait:
	do
	:: atomic { FREEABLE(0) -> free_array(0, i) }
	:: atomic { FREEABLE(1) -> free_array(1, i) }
#if NARRAYS == 3
	:: atomic { FREEABLE(2) -> free_array(2, i) }
#elif NARRAYS != 2
#error "NARRAYS must be 2 or 3"
#endif
	od
}

/* One reader: LOOKUPS lookups of KEY0, each in its own read-side
 * section (grain_htab_lookup_fast: A3, then search). */
proctype reader(byte r)
{
	byte t, a, s, k;
	bit found;

	for (t : 1 .. LOOKUPS) {
		/* rcu_read_lock(); A3: a = dir */
		atomic {
			a = dir;
			holds[r] = a;
			freed_under[r] = 0
		};
		/* grain_impl_htab_search(a, KEY0): the key's bucket, slot by
		 * slot (each an acquire load) */
		s = 0;
		do
		:: atomic {
			s < SLOTS && !found ->
			assert(state[a] != FREE && !freed_under[r]);
			k = slot[AT(a, BUCKET(a, KEY0), s)];
			found = (k == KEY0);
			k = 0;
			s++
		   }
		:: else -> break
		od;
		assert(found);  /* a present key is never missed */
		/* rcu_read_unlock() */
		atomic {
			holds[r] = NONE;
			a = 0;
			s = 0;
			found = 0
		}
	}
}

init
{
	byte i;

	atomic {
		/* The table: array 0, one bucket, holding KEY0. */
		for (i : 0 .. NARRAYS * ASLOTS - 1) {
			slot[i] = GARBAGE
		}
		for (i : 0 .. ASLOTS - 1) {
			slot[i] = EMPTY
		}
		slot[0] = KEY0;
		nb[0] = 1;
		state[0] = CURRENT;
		dir = 0;
		for (i : 1 .. NARRAYS - 1) {
			nb[i] = 1
		}
		for (i : 0 .. READERS - 1) {
			holds[i] = NONE;
			run reader(i)
		}
		for (i : 0 .. WRITERS - 1) {
			run writer(i)
		}
		i = 0
	}
}
