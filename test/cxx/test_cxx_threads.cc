// SPDX-License-Identifier: BSD-2-Clause
//
// test_cxx_threads.cc - grain from C++: ring, prio, htab and the spinlock
// through libgrain's exported calls, across two std::threads (and, on one
// thread, grain_ring_elem and zero copy).
//
// Thread A enqueues items 0..N-1 on a ring and dequeues the prio queue;
// thread B enqueues items N..2N-1 on the prio queue's three bands and
// dequeues the ring. Neither ever blocks (each alternates between its two
// jobs), and both record every item they receive in one table guarded by
// a grain_spinlock embedded in a C++ struct. At the end every item must
// have arrived exactly once, in FIFO order on the ring and within each band
// (one producer, one consumer each), and the queues' statistics must agree
// with what the threads counted. Before that: the types C++ shares with C
// by value have C's layout (layout.h), and the queues and the table are
// incomplete types in C++. Exit status 0: every check passed.
//
// Built by test/CMakeLists.txt as C++17 and C++20 with the compiler CMake
// found, and by test/cxx/compilers.sh with g++ and clang++.

#include <grain/grain.h>
#include <grain/grain.h> // the include guards hold in C++ too

#include "layout.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

constexpr unsigned n_items = 20000; // per queue
constexpr unsigned n_bands = 3;

std::atomic<int> failures{ 0 };

void check(bool ok, const char *what)
{
	if (!ok) {
		std::fprintf(stderr, "test_cxx_threads: FAILED: %s\n", what);
		failures++;
	}
}

// The queues and the table are incomplete types in C++: only ever used
// through pointers, made by the _create calls.
template <typename T, typename = void> struct complete : std::false_type {
};
template <typename T>
struct complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {
};
static_assert(!complete<grain_ring>::value && !complete<grain_prio>::value &&
		      !complete<grain_htab>::value,
	      "grain_ring, grain_prio and grain_htab are incomplete in C++");

// The types a program shares with C by value have C's layout (layout.h,
// layout.c).
void check_layout()
{
#define GRAIN_TEST_FACT(e) (e),
	const std::size_t cxx[] = { GRAIN_TEST_LAYOUT(GRAIN_TEST_FACT) };
#undef GRAIN_TEST_FACT
	constexpr std::size_t n = sizeof(cxx) / sizeof(cxx[0]);
	std::size_t c[n] = {};

	check(grain_test_layout_c(c, n) == n, "layout: as many facts in C");
	for (std::size_t i = 0; i < n; i++)
		if (c[i] != cxx[i]) {
			std::fprintf(stderr,
				     "layout fact %zu: C %zu, C++ %zu\n", i,
				     c[i], cxx[i]);
			check(false, "layout: C and C++ agree");
		}
}

struct item {
	unsigned id;
	unsigned band; // prio items: the band it was sent to
};

// Everything the two threads share besides the queues. The lock is
// embedded as a C program would embed it; C++ sees storage of the same
// size and alignment.
struct tally {
	grain_spinlock lock = GRAIN_SPINLOCK_INIT;
	std::vector<unsigned> seen; // per item id: times received
	unsigned contended = 0;	    // trylock failed, lock taken
};

void record(tally &t, const std::vector<const item *> &got)
{
	if (!grain_spin_trylock(&t.lock)) {
		grain_spin_lock(&t.lock);
		t.contended++;
	}
	for (const item *it : got)
		t.seen[it->id]++;
	grain_spin_unlock(&t.lock);
}

// A lost item would leave a consumer waiting for ever: give up instead.
using test_clock = std::chrono::steady_clock;
const test_clock::time_point deadline =
	test_clock::now() + std::chrono::seconds(120);

bool out_of_time()
{
	if (test_clock::now() < deadline)
		return false;
	check(false, "the items arrived within the time limit");
	return true;
}

struct side_result {
	unsigned received = 0;
	bool in_order = true;
	unsigned refused = 0; // prio: enqueues refused (band full)
	unsigned refused_per_band[n_bands] = {};
};

// Thread A: ring producer, prio consumer.
void thread_a(grain_ring *ring, grain_prio *prio,
	      const std::vector<item> &items, tally &t, side_result &res)
{
	unsigned next = 0;		     // next ring item to send
	unsigned last_in_band[n_bands] = {}; // 1 + id of the last one seen
	std::vector<const item *> got;

	while (next < n_items || res.received < n_items) {
		bool progress = false;

		if (next < n_items) {
			if (next % 3 == 0 && n_items - next >= 4 &&
			    grain_ring_free_count(ring) >= 4) {
				void *objs[4];
				for (unsigned i = 0; i < 4; i++)
					objs[i] = const_cast<item *>(
						&items[next + i]);
				// All four or none; -EAGAIN also while a
				// consumer still reads one of the slots.
				int rc = grain_ring_try_enqueue_bulk(ring, objs,
								     4);
				check(rc == 0 || rc == -EAGAIN,
				      "ring bulk enqueue: 0 or -EAGAIN");
				if (rc == 0) {
					next += 4;
					progress = true;
				}
			} else if (grain_ring_try_enqueue(
					   ring, const_cast<item *>(
							 &items[next])) == 0) {
				next++;
				progress = true;
			}
		}

		got.clear();
		void *objs[8];
		int k = grain_prio_try_dequeue_burst(prio, objs, 8);
		check(k >= 0, "prio burst dequeue");
		for (int i = 0; i < k; i++)
			got.push_back(static_cast<const item *>(objs[i]));
		void *obj = nullptr;
		unsigned band = n_bands;
		if (grain_prio_try_dequeue(prio, &obj, &band) == 0) {
			const item *it = static_cast<const item *>(obj);
			check(band == it->band,
			      "prio dequeue reports the band");
			got.push_back(it);
		}
		for (const item *it : got) {
			if (it->id + 1 <= last_in_band[it->band])
				res.in_order = false;
			last_in_band[it->band] = it->id + 1;
		}
		if (!got.empty()) {
			record(t, got);
			res.received += static_cast<unsigned>(got.size());
			progress = true;
		}
		if (!progress) {
			if (out_of_time())
				break;
			grain_cpu_relax();
		}
	}
}

// Thread B: prio producer, ring consumer.
void thread_b(grain_ring *ring, grain_prio *prio,
	      const std::vector<item> &items, tally &t, side_result &res)
{
	unsigned next = n_items; // next prio item to send
	unsigned last = 0;	 // 1 + id of the last ring item seen
	std::vector<const item *> got;

	while (next < 2 * n_items || res.received < n_items) {
		bool progress = false;

		if (next < 2 * n_items) {
			const item &it = items[next];
			void *obj = const_cast<item *>(&it);
			int rc;
			if (next % 5 == 0)
				rc = grain_prio_try_enqueue_burst(prio, it.band,
								  &obj, 1) == 1
					     ? 0
					     : -EAGAIN;
			else
				rc = grain_prio_try_enqueue(prio, it.band, obj);
			if (rc == 0) {
				next++;
				progress = true;
			} else {
				check(rc == -EAGAIN,
				      "prio enqueue: 0 or -EAGAIN");
				res.refused++;
				res.refused_per_band[it.band]++;
			}
		}

		got.clear();
		void *objs[16];
		int k = grain_ring_try_dequeue_burst(ring, objs, 16);
		check(k >= 0, "ring burst dequeue");
		for (int i = 0; i < k; i++)
			got.push_back(static_cast<const item *>(objs[i]));
		void *obj = nullptr;
		if (grain_ring_try_dequeue(ring, &obj) == 0)
			got.push_back(static_cast<const item *>(obj));
		for (const item *it : got) {
			if (it->id + 1 <= last)
				res.in_order = false;
			last = it->id + 1;
		}
		if (!got.empty()) {
			record(t, got);
			res.received += static_cast<unsigned>(got.size());
			progress = true;
		}
		if (!progress) {
			if (out_of_time())
				break;
			std::this_thread::yield();
		}
	}
}

// grain_ring_elem and zero copy through the exported calls: a 16-byte
// element built in place, peeked in place, and a copied round trip.
struct elem16 {
	std::uint32_t w[4];
};

void check_ring_elem()
{
	grain_ring_elem *r = nullptr;
	if (grain_ring_elem_create(&r, 8, sizeof(elem16), GRAIN_RING_SPSC,
				   nullptr) != 0) {
		check(false, "grain_ring_elem_create");
		return;
	}
	check(grain_ring_elem_esize(r) == sizeof(elem16), "elem size");
	grain_ring_zc zc{};
	check(grain_ring_elem_try_reserve_bulk(r, 3, &zc) == 0 && zc.n == 3,
	      "elem reserve");
	check(grain_ring_elem_try_reserve_bulk(r, 1, &zc) == -EBUSY,
	      "elem second reserve");
	for (unsigned i = 0; i < 3; i++) {
		elem16 e{ { i, i + 1, i + 2, i + 3 } };
		std::memcpy(grain_ring_zc_at(&zc, i), &e, sizeof(e));
	}
	check(grain_ring_elem_commit(r, 3) == 0, "elem commit");
	check(grain_ring_elem_count(r) == 3, "elem count");
	check(grain_ring_elem_try_peek_burst(r, 8, &zc) == 3, "elem peek");
	elem16 got{};
	std::memcpy(&got, grain_ring_zc_at(&zc, 2), sizeof(got));
	check(got.w[0] == 2 && got.w[3] == 5, "elem contents in place");
	check(grain_ring_elem_release(r, 1) == 0, "elem release");
	check(grain_ring_elem_try_dequeue(r, &got) == 0 && got.w[0] == 1,
	      "elem copied out");
	elem16 in{ { 7, 8, 9, 10 } };
	check(grain_ring_elem_try_enqueue(r, &in) == 0, "elem copied in");
	elem16 out[3]{};
	check(grain_ring_elem_try_dequeue_burst(r, out, 3) == 2 &&
		      out[1].w[2] == 9,
	      "elem burst out");
	check(grain_ring_elem_empty(r), "elem empty");
	grain_ring_elem_destroy(r);

	grain_ring *p = nullptr;
	if (grain_ring_create(&p, 4, GRAIN_RING_MPMC, nullptr) == 0) {
		check(grain_ring_try_reserve_burst(p, 1, &zc) == -ENOTSUP,
		      "ring zero copy needs SP");
		grain_ring_destroy(p);
	}
}

void check_lock_alone()
{
	struct {
		char before;
		grain_spinlock lock;
		char after;
	} s;
	static_assert(sizeof(grain_spinlock) == sizeof(unsigned),
		      "the lock is one unsigned word");

	s.before = 'b';
	s.after = 'a';
	grain_spin_init(&s.lock);
	check(grain_spin_trylock(&s.lock), "trylock of a free lock");
	check(!grain_spin_trylock(&s.lock), "trylock of a held lock fails");
	grain_spin_unlock(&s.lock);
	grain_spin_lock(&s.lock);
	grain_spin_unlock(&s.lock);
	check(s.before == 'b' && s.after == 'a',
	      "the lock calls stay inside the lock's storage");
}

// grain_htab from C++: two threads insert disjoint keys into one table
// (the exported generic calls), each finds its own and removes half; then
// an RCU table answers lock-free lookups on a registered thread. Every
// removed entry is reclaimed exactly once, every kept one at destroy.
struct entry {
	std::uint64_t key;
	grain_hnode node;
	std::atomic<unsigned> reclaims{ 0 };
};

entry *entry_of(const grain_hnode *n)
{
	return reinterpret_cast<entry *>(reinterpret_cast<std::uintptr_t>(n) -
					 offsetof(entry, node));
}

std::uint64_t entry_hash(const void *key, const grain_hash_key *secret, void *)
{
	return grain_siphash(key, sizeof(std::uint64_t), secret);
}

bool entry_eq(const grain_hnode *n, const void *key, void *)
{
	return entry_of(n)->key == *static_cast<const std::uint64_t *>(key);
}

void entry_reclaim(grain_hnode *n, grain_htab_reason, void *)
{
	entry_of(n)->reclaims++;
}

void check_htab(unsigned flags)
{
	constexpr unsigned per_thread = 5000;
	grain_htab_config cfg{};
	cfg.ops.hash = entry_hash;
	cfg.ops.eq = entry_eq;
	cfg.ops.reclaim = entry_reclaim;
	cfg.stripes = 16;
	cfg.flags = flags;
	grain_htab *h = nullptr;
	if (grain_htab_create(&h, &cfg, nullptr) != 0) {
		check(false, "grain_htab_create");
		return;
	}
	std::vector<entry> e(2 * per_thread);
	auto work = [&](unsigned first) {
		if ((flags & GRAIN_HTAB_NO_RCU) == 0)
			grain_rcu_register_thread();
		for (unsigned i = first; i < first + per_thread; i++) {
			e[i].key = i;
			check(grain_htab_insert(h, &e[i].node, &e[i].key, i,
						1) == 0,
			      "htab insert");
		}
		for (unsigned i = first; i < first + per_thread; i++) {
			grain_htab_scope s;
			std::uint64_t k = i;
			grain_htab_lock(h, &k, &s);
			check(grain_htab_find_locked(&s, &k) == &e[i].node,
			      "htab find_locked");
			grain_htab_unlock(&s);
			if (i % 2 == 0)
				check(grain_htab_remove(h, &k, nullptr) == 0,
				      "htab remove");
		}
		if ((flags & GRAIN_HTAB_NO_RCU) == 0) {
			grain_rcu_read_lock();
			for (unsigned i = first; i < first + per_thread; i++) {
				std::uint64_t k = i;
				grain_hnode *n = grain_htab_lookup(h, &k);
				check(i % 2 == 0 || n == &e[i].node,
				      "htab lookup finds a kept key");
			}
			grain_rcu_read_unlock();
			grain_rcu_unregister_thread();
		}
	};
	std::thread a(work, 0u), b(work, per_thread);
	a.join();
	b.join();
	grain_htab_stats st{}; // no call of that name hides it in C++
	grain_htab_get_stats(h, &st);
	check(st.entries == per_thread &&
		      grain_htab_bytes_exact(h) == per_thread,
	      "htab entries and bytes");
	// A walk with a capture-less lambda as the callback: one visit per
	// entry.
	unsigned visits = 0;
	int rc = grain_htab_walk(
		h,
		[](grain_htab_scope *, grain_hnode *, void *ctx) {
			++*static_cast<unsigned *>(ctx);
			return 0;
		},
		&visits);
	check(rc == 0 && visits == per_thread, "htab walk visits every entry");
	grain_htab_destroy(h); // waits for every deferred reclaim
	unsigned wrong = 0;
	for (const entry &x : e)
		wrong += x.reclaims != 1;
	check(wrong == 0, "every htab entry reclaimed exactly once");
}

} // namespace

int main()
{
	check(std::strcmp(grain_version(), GRAIN_VERSION_STRING) == 0,
	      "grain_version() is GRAIN_VERSION_STRING");
	check(grain_hash_mix64(0) == 0 && grain_hash_mix64(1) != 1,
	      "grain_hash_mix64 (inline in C++)");
	check_layout();
	check_lock_alone();
	check_ring_elem();
	check_htab(GRAIN_HTAB_NO_RCU);
	check_htab(0);

	grain_ring *ring = nullptr;
	if (grain_ring_create(&ring, 64, GRAIN_RING_MPMC, nullptr) != 0) {
		std::fprintf(stderr, "test_cxx_threads: grain_ring_create\n");
		return 1;
	}
	check(grain_ring_capacity(ring) == 64, "ring capacity");
	check(grain_ring_empty(ring) && !grain_ring_full(ring), "ring empty");

	grain_prio_config cfg{};
	cfg.bands = n_bands;
	cfg.capacity = 32;
	grain_prio *prio = nullptr;
	if (grain_prio_create(&prio, &cfg, nullptr) != 0) {
		std::fprintf(stderr, "test_cxx_threads: grain_prio_create\n");
		grain_ring_destroy(ring);
		return 1;
	}
	check(grain_prio_bands(prio) == n_bands, "prio band count");

	std::vector<item> items(2 * n_items);
	for (unsigned i = 0; i < 2 * n_items; i++)
		items[i] = item{ i, i < n_items ? 0u : (i / 7) % n_bands };

	tally t;
	t.seen.assign(2 * n_items, 0);
	side_result ra, rb;
	std::thread a(thread_a, ring, prio, std::cref(items), std::ref(t),
		      std::ref(ra));
	std::thread b(thread_b, ring, prio, std::cref(items), std::ref(t),
		      std::ref(rb));
	a.join();
	b.join();

	unsigned wrong = 0;
	for (unsigned s : t.seen)
		wrong += s != 1;
	check(wrong == 0, "every item arrived exactly once");
	check(ra.received == n_items && rb.received == n_items,
	      "each consumer received its queue's items");
	check(ra.in_order, "FIFO within each prio band");
	check(rb.in_order, "FIFO on the ring");

	uint64_t enq = 0, deq = 0;
	grain_ring_totals(ring, &enq, &deq);
	check(enq == n_items && deq == n_items, "ring totals");
	check(grain_ring_count(ring) == 0 && grain_ring_free_count(ring) == 64,
	      "ring drained");
	check(grain_prio_backlog(prio) == 0, "prio drained");
	uint64_t dropped = 0, accepted = 0;
	for (unsigned bnd = 0; bnd < n_bands; bnd++) {
		grain_prio_band_stats st{};
		check(grain_prio_stats(prio, bnd, &st) == 0, "prio stats");
		check(st.dropped == rb.refused_per_band[bnd],
		      "prio drops are the refused enqueues");
		check(st.enqueued == st.dequeued && st.backlog == 0,
		      "prio band drained");
		dropped += st.dropped;
		accepted += st.enqueued;
	}
	check(dropped == rb.refused, "prio drops in total");
	check(accepted == n_items, "prio accepted every item once");

	grain_prio_destroy(prio);
	grain_ring_destroy(ring);
	if (failures == 0)
		std::printf("test_cxx_threads: grain %s, %u items per queue, "
			    "%u refused enqueues, %u contended locks: ok\n",
			    grain_version(), n_items, rb.refused, t.contended);
	return failures == 0 ? 0 : 1;
}
