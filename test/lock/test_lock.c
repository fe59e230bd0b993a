/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_lock.c - grain_spinlock on its own: mutual exclusion (a plain
 * counter and a two-field invariant updated under the lock come out
 * exact), trylock from other threads, both initialisers and the all-zero
 * unlocked word, how a waiter waits (it only reads a held lock's word and
 * yields the CPU), and progress when the holder sleeps or computes while
 * more threads than cores spin (the spinners back off and yield, so
 * everyone gets through).
 */
#define _GNU_SOURCE
#include <grain/lock.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/test_util.h"
#include "../common/test_table.h"
#include "../common/test_threads.h"

#define MAX_THREADS 16

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* --- mutual exclusion --------------------------------------------------- */

struct counted {
	struct grain_spinlock lock;
	uint64_t count; /* plain: only touched under the lock */
	uint64_t a, b;	/* a == b whenever the lock is free */
	unsigned per_thread;
	_Atomic(unsigned) torn;
};

struct count_arg {
	struct counted *c;
	struct test_gate *go; /* all threads start together */
	bool use_trylock;
};

static void *count_worker(void *arg)
{
	struct count_arg *ca = arg;
	struct counted *c = ca->c;

	test_gate_wait(ca->go);
	for (unsigned i = 0; i < c->per_thread; i++) {
		if (ca->use_trylock) {
			while (!grain_spin_trylock(&c->lock))
				grain_cpu_relax();
		} else {
			grain_spin_lock(&c->lock);
		}
		if (c->a != c->b)
			atomic_fetch_add_explicit(&c->torn, 1,
						  memory_order_relaxed);
		c->a++;
		c->count++;
		c->b++;
		grain_spin_unlock(&c->lock);
	}
	return NULL;
}

static const unsigned thread_counts[] = { 1, 2, 4, 8, 16 };

TABLE_PARAMS(lock, counter_exact, thread_counts);

ParameterizedTest(unsigned *threads, lock, counter_exact, .timeout = 120)
{
	static struct counted c = { .lock = GRAIN_SPINLOCK_INIT };
	struct count_arg args[MAX_THREADS];
	struct test_threads workers = { .n = 0 };
	struct test_gate go = { .open = false };

	c.count = c.a = c.b = 0;
	c.per_thread = test_scale(400000) / *threads;
	for (unsigned i = 0; i < *threads; i++) {
		/* Every other thread takes the lock through trylock only. */
		args[i] = (struct count_arg){ &c, &go, (i & 1) != 0 };
		test_spawn(&workers, count_worker, &args[i]);
	}
	test_gate_open(&go);
	test_join_all(&workers);
	cr_assert_eq(c.count, (uint64_t)c.per_thread * *threads,
		     "lost increments: %llu", (unsigned long long)c.count);
	cr_assert_eq(atomic_load(&c.torn), 0u, "a critical section overlapped");
	cr_assert(grain_spin_trylock(&c.lock), "free after the run");
	grain_spin_unlock(&c.lock);
}

/* --- trylock from another thread ---------------------------------------- */

struct try_arg {
	struct grain_spinlock *lock;
	bool take, release; /* what the helper does */
	bool got;
};

static void *try_helper(void *arg)
{
	struct try_arg *ta = arg;

	if (ta->take)
		ta->got = grain_spin_trylock(ta->lock);
	if (ta->release)
		grain_spin_unlock(ta->lock);
	return NULL;
}

static bool helper(struct grain_spinlock *l, bool take, bool release)
{
	struct try_arg ta = { l, take, release, false };
	struct test_threads threads = { .n = 0 };

	test_spawn(&threads, try_helper, &ta);
	test_join_all(&threads);
	return ta.got;
}

Test(lock, trylock_across_threads)
{
	struct grain_spinlock l = GRAIN_SPINLOCK_INIT;

	grain_spin_lock(&l);
	cr_assert(!helper(&l, true, false), "trylock fails while held");
	cr_assert(!grain_spin_trylock(&l), "not recursive");
	grain_spin_unlock(&l);
	cr_assert(helper(&l, true, false), "trylock succeeds once free");
	/* The helper thread now holds it. */
	cr_assert(!grain_spin_trylock(&l), "held by the other thread");
	cr_assert(!helper(&l, true, false));
	/* Released by a thread handed the ownership (the main thread here,
	 * after the holder's join): unlocking needs no thread identity. */
	grain_spin_unlock(&l);
	cr_assert(grain_spin_trylock(&l));
	helper(&l, false, true);
	cr_assert(grain_spin_trylock(&l), "free after the helper's unlock");
	grain_spin_unlock(&l);
}

/* --- initialisers ------------------------------------------------------- */

/* lock.h: C++ sees the lock as one unsigned, of the same size and
 * alignment, whose unlocked state is all zero bytes. */
_Static_assert(sizeof(struct grain_spinlock) == sizeof(unsigned),
	       "struct grain_spinlock is the size of an unsigned");
_Static_assert(alignof(struct grain_spinlock) == alignof(unsigned),
	       "struct grain_spinlock is aligned as an unsigned");

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return false;
	return true;
}

static struct grain_spinlock static_lock = GRAIN_SPINLOCK_INIT;

Test(lock, initialisers)
{
	struct {
		struct grain_spinlock l;
		unsigned guard;
	} s;

	cr_assert(grain_spin_trylock(&static_lock),
		  "GRAIN_SPINLOCK_INIT is free");
	cr_assert(!grain_spin_trylock(&static_lock));
	grain_spin_unlock(&static_lock);

	cr_assert(all_zero(&static_lock, sizeof(static_lock)),
		  "unlocked is all zero bytes after an unlock");

	memset(&s, 0xA5, sizeof(s));
	grain_spin_init(&s.l);
	cr_assert(all_zero(&s.l, sizeof(s.l)),
		  "grain_spin_init leaves all zero bytes");
	cr_assert(grain_spin_trylock(&s.l), "grain_spin_init makes it free");
	cr_assert(!grain_spin_trylock(&s.l));
	grain_spin_unlock(&s.l);
	grain_spin_lock(&s.l);
	grain_spin_unlock(&s.l);
	cr_assert(all_zero(&s.l, sizeof(s.l)));
	cr_assert_eq(s.guard, 0xA5A5A5A5u, "init touches only the lock");

	/* grain_spin_init frees a lock that was held. */
	grain_spin_lock(&s.l);
	grain_spin_init(&s.l);
	cr_assert(grain_spin_trylock(&s.l));
	grain_spin_unlock(&s.l);

	/* A zeroed lock is the same state as GRAIN_SPINLOCK_INIT. */
	struct grain_spinlock z;
	memset(&z, 0, sizeof(z));
	cr_assert(grain_spin_trylock(&z));
	grain_spin_unlock(&z);
}

/* --- how a waiter waits ------------------------------------------------- */

/*
 * The contended path of grain_spin_lock() calls sched_yield(). This
 * definition takes the place of the C library's in the whole program: it
 * still yields (through the system call), and it counts the calls made by
 * a thread that has pointed yield_counter at a counter. Once such a
 * thread has yielded it is past its first attempt and waiting; every
 * further yield is one more round of its wait.
 */
static _Thread_local _Atomic(unsigned) *yield_counter;

int sched_yield(void)
{
	if (yield_counter != NULL)
		atomic_fetch_add_explicit(yield_counter, 1,
					  memory_order_relaxed);
	return (int)syscall(SYS_sched_yield);
}

/* A lock alone on its own page, so that the page can be made read-only
 * while the lock is held: any write to the lock word then faults. */
static struct grain_spinlock *page_lock(size_t *page)
{
	*page = (size_t)sysconf(_SC_PAGESIZE);
	void *mem = mmap(NULL, *page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert_neq(mem, MAP_FAILED);
	grain_spin_init(mem);
	return mem;
}

static void page_protect(struct grain_spinlock *l, size_t page, bool ro)
{
	cr_assert_eq(mprotect(l, page, ro ? PROT_READ : PROT_READ | PROT_WRITE),
		     0);
}

struct waiter {
	struct grain_spinlock *lock;
	_Atomic(unsigned) yields; /* sched_yield() calls inside the lock */
	_Atomic(bool) got;
};

static void *wait_worker(void *arg)
{
	struct waiter *w = arg;

	yield_counter = &w->yields;
	grain_spin_lock(w->lock);
	yield_counter = NULL;
	atomic_store(&w->got, true);
	grain_spin_unlock(w->lock);
	return NULL;
}

/* Waits (without a clock) until the waiter has yielded @n times. */
static void await_yields(struct waiter *w, unsigned n)
{
	while (atomic_load(&w->yields) < n)
		sched_yield();
}

Test(lock, waiter_only_reads_a_held_lock_and_yields, .timeout = 60)
{
	/* lock.h: waiters spin on a plain load, with no bus-locked
	 * operation while the lock is held, and yield the CPU after a long
	 * spin. The waiter must come to yield while the lock stays held
	 * (without it the test hangs and times out); then, with the lock's
	 * page read-only, it must go on waiting through many more rounds
	 * without writing the word (a write would crash the test), and take
	 * the lock once it is released. */
	size_t page;
	struct grain_spinlock *l = page_lock(&page);
	struct waiter w = { .lock = l };
	struct test_threads threads = { .n = 0 };

	grain_spin_lock(l);
	test_spawn(&threads, wait_worker, &w);
	await_yields(&w, 1);
	page_protect(l, page, true);
	unsigned base = atomic_load(&w.yields);
	await_yields(&w, base + 200);
	cr_assert_not(atomic_load(&w.got), "taken while held");
	page_protect(l, page, false);
	grain_spin_unlock(l);
	test_join_all(&threads);
	cr_assert(atomic_load(&w.got), "the waiter took the lock");
	cr_assert(grain_spin_trylock(l), "and released it");
	grain_spin_unlock(l);
	munmap(l, page);
}

Test(lock, trylock_only_reads_a_held_lock)
{
	/* A thread that waits by calling grain_spin_trylock() in a loop is
	 * a waiter too: a failed trylock reads the word and writes nothing
	 * (the page is read-only: a write would crash the test). */
	size_t page;
	struct grain_spinlock *l = page_lock(&page);

	grain_spin_lock(l);
	page_protect(l, page, true);
	for (unsigned i = 0; i < 10; i++) {
		cr_assert_not(grain_spin_trylock(l));
		cr_assert_not(helper(l, true, false), "from another thread");
	}
	page_protect(l, page, false);
	grain_spin_unlock(l);
	cr_assert(grain_spin_trylock(l));
	grain_spin_unlock(l);
	munmap(l, page);
}

/* --- progress with a slow holder ---------------------------------------- */

struct slow {
	struct grain_spinlock lock;
	unsigned rounds;
	long hold_ms;	/* the holder sleeps this long under the lock */
	bool compute;	/* ... or computes this long instead */
	uint64_t count; /* under the lock */
	_Atomic(unsigned) inside;
	_Atomic(unsigned) overlaps;
};

static void hold(struct slow *s)
{
	if (!s->compute) {
		pause_ms(s->hold_ms);
		return;
	}
	int64_t end = test_now_ns() + s->hold_ms * 1000000;
	while (test_now_ns() < end)
		grain_cpu_relax();
}

static void *slow_worker(void *arg)
{
	struct slow *s = arg;

	for (unsigned i = 0; i < s->rounds; i++) {
		grain_spin_lock(&s->lock);
		if (atomic_fetch_add(&s->inside, 1) != 0)
			atomic_fetch_add(&s->overlaps, 1);
		s->count++;
		hold(s);
		atomic_fetch_sub(&s->inside, 1);
		grain_spin_unlock(&s->lock);
		sched_yield();
	}
	return NULL;
}

struct slow_param {
	unsigned threads;
	bool compute;
};

static struct slow_param slow_holder_rows[] = {
	{ 2, false }, { 4, false }, { 8, false }, { 16, false },
	{ 2, true },  { 4, true },  { 8, true },  { 16, true },
};

TABLE_PARAMS(lock, slow_holder, slow_holder_rows);

ParameterizedTest(struct slow_param *p, lock, slow_holder, .timeout = 120)
{
	/* Every thread in turn holds the lock for 2 ms, sleeping or
	 * computing, while the others spin. More threads than cores: a
	 * spinner that never gave up its CPU would keep a computing holder
	 * off it. Everyone must get through, in about the time the holds
	 * add up to (the bound is loose: the machine is shared). */
	struct slow s = { .lock = GRAIN_SPINLOCK_INIT,
			  .rounds = 10,
			  .hold_ms = 2,
			  .compute = p->compute };
	struct test_threads threads = { .n = 0 };

	int64_t t0 = test_now_ns();
	for (unsigned i = 0; i < p->threads; i++)
		test_spawn(&threads, slow_worker, &s);
	test_join_all(&threads);
	int64_t took_ms = (test_now_ns() - t0) / 1000000;
	int64_t held_ms = (int64_t)p->threads * s.rounds * s.hold_ms;

	cr_assert_eq(s.count, (uint64_t)p->threads * s.rounds);
	cr_assert_eq(atomic_load(&s.overlaps), 0u);
	cr_assert_lt(
		took_ms, 20 * held_ms + 5000,
		"%lld ms for %lld ms of holding: spinners starve the holder",
		(long long)took_ms, (long long)held_ms);
}

Test(lock, sleeping_holder_with_waiters, .timeout = 60)
{
	/* The holder sleeps 200 ms while waiters spin; they get the lock
	 * soon after it is released, and not before. */
	enum { K = 4 };
	struct slow s = { .lock = GRAIN_SPINLOCK_INIT,
			  .rounds = 1,
			  .hold_ms = 0 };
	struct test_threads threads = { .n = 0 };

	grain_spin_lock(&s.lock);
	for (unsigned i = 0; i < K; i++)
		test_spawn(&threads, slow_worker, &s);
	pause_ms(200);
	cr_assert_eq(s.count, 0u, "nobody got in while it was held");
	int64_t t0 = test_now_ns();
	grain_spin_unlock(&s.lock);
	test_join_all(&threads);
	cr_assert_eq(s.count, (uint64_t)K);
	cr_assert_lt(test_now_ns() - t0, 5000LL * 1000000);
}
