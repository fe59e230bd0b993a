// SPDX-License-Identifier: BSD-2-Clause
/*
 * layer.cc - the C++ layer, <grain/grain.hpp> (CTests cxx_layer and
 * cxx_layer_instr, test/cxx/layer.sh).
 *
 * With no argument, checks behaviour:
 *   - layout: the part of grain_htab's layout that the typed lookup reads
 *     is, as C++ sees it, what the C compiler makes of impl/htab.h;
 *   - owning types: every create is matched by its destroy (an allocator
 *     that counts), through moves, move assignments over a held object,
 *     reset and release; a typed table's destructor reclaims every node;
 *   - the lock scope: its destructor unlocks (the stripe's lock is free
 *     after it, and another thread takes it), unlock() and then the
 *     destructor release the lock once (it is taken again between the
 *     two and still held after the destructor), and a counter that two
 *     threads increment under scopes stays exact;
 *   - queues through the wrappers: producers and consumers of a ring, a
 *     ring_elem and a prio, shut down by close(): every item is dequeued
 *     exactly once;
 *   - the typed table: its inline lookup agrees with the C _fast lookup
 *     on every key, present or not, across resizes; and with a writer
 *     replacing, removing and inserting, readers in read guards find
 *     every stable key and only nodes holding the key asked for;
 *   - RCU guards of the qsbr flavour (built with GRAIN_LAYER_QSBR).
 * Exit status 0 when all pass; 1 with a message otherwise.
 *
 * --instr c|cxx|cxx_ref|generic N: N lookups (half of them misses)
 *     through the C _fast call, the typed table's view, the typed table
 *     by reference, or the exported generic call, each inside its own
 *     layer_measure_*() (callgrind counts that; layer.sh compares).
 * --time R N: R rounds of N lookups of each of the four, each first in
 *     turn; best and median ns per lookup of each.
 */
#include <grain/grain.hpp>

#include "layer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#ifdef GRAIN_LAYER_QSBR
#include <urcu/urcu-qsbr.h>
#endif

namespace {

int failures = 0;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, \
				     __LINE__, #cond);                        \
			failures++;                                           \
		}                                                             \
	} while (0)

/* Fatal: a hang or worse would follow. */
#define REQUIRE(cond)                                                         \
	do {                                                                  \
		if (!(cond)) {                                                \
			std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, \
				     __LINE__, #cond);                        \
			std::exit(1);                                         \
		}                                                             \
	} while (0)

struct node : grain_hnode {
	std::uint64_t key;
};

struct key_hash {
	std::uint64_t operator()(const std::uint64_t &k,
				 const grain_hash_key &secret) const noexcept
	{
		return grain_hash_mix64(k ^ secret.k0);
	}
};

struct key_eq {
	bool operator()(const node &n, const std::uint64_t &k) const noexcept
	{
		return n.key == k;
	}
};

using table = grain::htab<std::uint64_t, node, key_hash, key_eq>;

std::atomic<long> reclaimed{ 0 };

void reclaim_node(grain_hnode *n, grain_htab_reason, void *)
{
	reclaimed.fetch_add(1, std::memory_order_relaxed);
	delete static_cast<node *>(n);
}

grain_htab_config table_config(unsigned flags = 0)
{
	grain_htab_config cfg{};
	cfg.ops.reclaim = reclaim_node;
	cfg.flags = flags;
	cfg.stripes = 4;
	cfg.buckets = 2;
	return cfg;
}

node *new_node(std::uint64_t key)
{
	node *n = new node{};
	n->key = key;
	return n;
}

/* --- layout -------------------------------------------------------------- */

void test_layout()
{
	namespace d = grain::detail;
	const std::size_t cxx[] = {
		offsetof(d::htab_head, dir),
		offsetof(d::htab_head, smask),
		offsetof(d::htab_head, ops),
		offsetof(d::htab_head, ctx),
		offsetof(d::htab_head, secret),
		offsetof(d::htab_head, flags),
		sizeof(d::htab_bucket),
		alignof(d::htab_bucket),
		offsetof(d::htab_bucket, sig1),
		offsetof(d::htab_bucket, meta),
		offsetof(d::htab_bucket, node),
		d::htab_slots,
		d::htab_next_mask,
		d::htab_dir_log,
		d::htab_sse2 ? 1u : 0u,
	};
	const std::size_t n = sizeof(cxx) / sizeof(cxx[0]);
	std::size_t c[n + 1];
	REQUIRE(layer_c_facts(c, n + 1) == n);
	for (std::size_t i = 0; i < n; i++) {
		if (c[i] != cxx[i]) {
			std::fprintf(stderr,
				     "layout fact %zu: C %zu, C++ %zu\n", i,
				     c[i], cxx[i]);
			failures++;
		}
	}
	// node is not standard-layout (a base and a member): no offsetof.
	node x{};
	CHECK(reinterpret_cast<char *>(&x.key) - reinterpret_cast<char *>(&x) ==
	      static_cast<std::ptrdiff_t>(offsetof(layer_c_node, key)));
	CHECK(static_cast<grain_hnode *>(&x) ==
	      reinterpret_cast<grain_hnode *>(&x));
	CHECK(sizeof(node) == sizeof(layer_c_node));
}

/* --- owning types --------------------------------------------------------- */

std::atomic<long> live_allocs{ 0 };

void *count_alloc(std::size_t size, std::size_t align, void *)
{
	void *p = std::aligned_alloc(align, (size + align - 1) / align * align);
	if (p != nullptr)
		live_allocs.fetch_add(1);
	return p;
}

void count_free(void *p, std::size_t, std::size_t, void *)
{
	if (p != nullptr)
		live_allocs.fetch_sub(1);
	std::free(p);
}

const grain_alloc counting{ count_alloc, count_free, nullptr };

void test_owners()
{
	{
		grain::ring a;
		CHECK(!a);
		CHECK(a.try_enqueue(nullptr) == -EINVAL); // empty: the C rule
		REQUIRE(a.create(64, GRAIN_RING_WAIT, &counting) == 0);
		CHECK(live_allocs.load() == 1);
		int x = 0;
		CHECK(a.try_enqueue(&x) == 0);
		grain::ring b(std::move(a));
		CHECK(!a && b && b.count() == 1);
		int *out = nullptr;
		CHECK(b.try_dequeue(out) == 0 && out == &x);
		grain::ring c;
		REQUIRE(c.create(8, 0, &counting) == 0);
		CHECK(live_allocs.load() == 2);
		c = std::move(b); // destroys c's first ring
		CHECK(live_allocs.load() == 1);
		CHECK(c.create(3, 0, &counting) == -EINVAL);
		CHECK(c && live_allocs.load() == 1);	  // kept on error
		REQUIRE(c.create(16, 0, &counting) == 0); // replaces
		CHECK(live_allocs.load() == 1 && c.capacity() == 16);
	}
	CHECK(live_allocs.load() == 0);
	{
		grain::ring_elem e;
		REQUIRE(e.create(16, sizeof(std::uint64_t), 0, &counting) == 0);
		std::uint64_t v = 7, w = 0;
		CHECK(e.try_enqueue(v) == 0);
		std::uint32_t small = 0;
		CHECK(e.try_enqueue(small) == -EINVAL); // wrong size
		CHECK(e.try_dequeue(w) == 0 && w == 7);
		grain::prio q;
		grain_prio_config pc{};
		pc.bands = 2;
		pc.capacity = 8;
		REQUIRE(q.create(pc, &counting) == 0);
		grain::prio q2 = std::move(q);
		grain_ring_elem *raw = e.release();
		CHECK(!e && raw != nullptr);
		grain_ring_elem_destroy(raw);
		CHECK(live_allocs.load() == 1);
		q2.reset();
		CHECK(live_allocs.load() == 0);
	}
	CHECK(live_allocs.load() == 0);
	{
		long before = reclaimed.load();
		grain::rcu_thread rt;
		{
			table t;
			REQUIRE(t.create(table_config(), &counting) == 0);
			CHECK(live_allocs.load() > 0);
			for (std::uint64_t k = 1; k <= 100; k++) {
				node *n = new_node(k);
				int rc = t.insert(n, k, 0, 10);
				CHECK(rc == 0);
				if (rc != 0)
					delete n;
			}
			table u = std::move(t);
			CHECK(!t && u);
			grain::htab_ptr raw;
			grain_htab_config cfg = table_config();
			cfg.ops.hash = layer_c_hash;
			cfg.ops.eq = [](const grain_hnode *, const void *,
					void *) { return false; };
			REQUIRE(raw.create(cfg, &counting) == 0);
		}
		// Every node reclaimed by destroy (its rcu_barrier ran),
		// every allocation of both tables freed.
		CHECK(reclaimed.load() - before == 100);
		CHECK(live_allocs.load() == 0);
	}
}

/* --- the lock scope -------------------------------------------------------- */

bool wait_for(const std::atomic<bool> &flag)
{
	for (int i = 0; i < 120000 && !flag.load(); i++)
		std::this_thread::sleep_for(std::chrono::milliseconds(1));
	return flag.load();
}

void test_scope()
{
	grain::rcu_thread rt;
	table t;
	REQUIRE(t.create(table_config(GRAIN_HTAB_NO_RCU)) == 0);
	const std::uint64_t k = 42;
	grain_spinlock *lk = nullptr;
	{
		auto s = t.lock(k);
		lk = layer_c_scope_lock(s.untyped().get());
		REQUIRE(lk != nullptr);
		CHECK(!grain_spin_trylock(lk)); // held by s
		CHECK(s.held() && s.find() == nullptr);
		node *n = new_node(k);
		CHECK(s.insert(n, 1, 8) == 0);
		CHECK(s.find() == n);
	}				 // unlocked here
	REQUIRE(grain_spin_trylock(lk)); // free again
	grain_spin_unlock(lk);

	// unlock() and then the destructor: one unlock. The stripe's lock is
	// taken again (directly) between the two: a second release by the
	// destructor would free it under its new holder.
	{
		auto s = t.lock(k);
		s.unlock();
		CHECK(!s.held());
		grain_spin_lock(lk);
	}
	CHECK(!grain_spin_trylock(lk)); // not released by the destructor
	grain_spin_unlock(lk);

	// Another thread takes the stripe after a scope.
	{
		auto s = t.lock(k);
		CHECK(s.find() != nullptr);
	}
	std::atomic<bool> done{ false };
	std::thread other([&] {
		auto s = t.lock(k);
		CHECK(s.find() != nullptr);
		done.store(true);
	});
	REQUIRE(wait_for(done)); // generous: only a lock left held fails
	other.join();

	long counter = 0;
	const int per = 20000;
	auto bump = [&] {
		for (int i = 0; i < per; i++) {
			auto s = t.lock(k);
			counter++;
		}
	};
	{
		auto s = t.lock(k);
		std::thread a(bump), b(bump);
		s.unlock();
		a.join();
		b.join();
	}
	CHECK(counter == 2L * per);

	// The untyped scope on a NULL table: empty, every call fails.
	grain::htab_scope none(nullptr, &k);
	CHECK(none.find(&k) == nullptr);
	CHECK(none.remove(nullptr) == -EINVAL);
}

/* --- queues -------------------------------------------------------------- */

constexpr unsigned producers = 2, consumers = 2;
constexpr unsigned per_producer = 20000;

template <class Queue, class Put, class Take>
void run_queue(const char *name, Queue &q, Put put, Take take)
{
	const unsigned total = producers * per_producer;
	std::vector<std::atomic<unsigned>> seen(total);
	std::atomic<unsigned> bad{ 0 };
	std::vector<std::thread> threads;
	for (unsigned c = 0; c < consumers; c++)
		threads.emplace_back([&] {
			for (;;) {
				unsigned idx;
				int rc = take(q, idx);
				if (rc == -EPIPE)
					return;
				if (rc != 0 || idx >= total) {
					bad.fetch_add(1);
					return;
				}
				seen[idx].fetch_add(1);
			}
		});
	std::vector<std::thread> prods;
	for (unsigned p = 0; p < producers; p++)
		prods.emplace_back([&, p] {
			for (unsigned i = 0; i < per_producer; i++)
				if (put(q, p * per_producer + i) != 0)
					bad.fetch_add(1);
		});
	for (auto &th : prods)
		th.join();
	CHECK(q.close() == 0);
	for (auto &th : threads)
		th.join();
	unsigned once = 0;
	for (auto &s : seen)
		once += s.load() == 1;
	if (once != total || bad.load() != 0) {
		std::fprintf(stderr,
			     "%s: %u of %u items exactly once, %u bad\n", name,
			     once, total, bad.load());
		failures++;
	}
}

void test_queues()
{
	// Pointers 1..total (never NULL) stand for the items.
	auto as_ptr = [](unsigned i) {
		return reinterpret_cast<void *>(std::uintptr_t{ i } + 1);
	};
	auto as_idx = [](void *p) {
		return static_cast<unsigned>(
			reinterpret_cast<std::uintptr_t>(p) - 1);
	};
	{
		grain::ring r;
		REQUIRE(r.create(256, GRAIN_RING_WAIT) == 0);
		run_queue(
			"ring", r,
			[&](grain::ring &q, unsigned i) {
				return q.enqueue_wait(as_ptr(i),
						      grain::forever);
			},
			[&](grain::ring &q, unsigned &i) {
				void *p = nullptr;
				int rc = q.dequeue_wait(p, grain::forever);
				if (rc == 0)
					i = as_idx(p);
				return rc;
			});
		CHECK(r.closed());
	}
	{
		struct item {
			std::uint32_t idx, check;
		};
		grain::ring_elem r;
		REQUIRE(r.create(256, sizeof(item), GRAIN_RING_WAIT) == 0);
		run_queue(
			"ring_elem", r,
			[](grain::ring_elem &q, unsigned i) {
				item it{ i, ~i };
				return q.enqueue_wait(it, grain::forever);
			},
			[](grain::ring_elem &q, unsigned &i) {
				item it{};
				int rc = q.dequeue_wait(it, grain::forever);
				if (rc == 0)
					i = it.check == ~it.idx ? it.idx : ~0u;
				return rc;
			});
	}
	{
		grain::prio q;
		grain_prio_config pc{};
		pc.bands = 3;
		pc.capacity = 64;
		pc.flags = GRAIN_PRIO_WAIT;
		REQUIRE(q.create(pc) == 0);
		run_queue(
			"prio", q,
			[&](grain::prio &p, unsigned i) {
				return p.enqueue_wait(i % 3, as_ptr(i),
						      grain::forever);
			},
			[&](grain::prio &p, unsigned &i) {
				void *v = nullptr;
				unsigned band = 99;
				int rc = p.dequeue_wait(v, grain::forever,
							&band);
				if (rc == 0)
					i = band == as_idx(v) % 3 ? as_idx(v)
								  : ~0u;
				return rc;
			});
	}
}

/* --- the typed table ------------------------------------------------------- */

void test_table()
{
	grain::rcu_thread rt;
	long before = reclaimed.load();
	long inserted = 0;
	{
		table t;
		REQUIRE(t.create(table_config()) == 0);
		// Inserted one by one from 2 buckets per stripe: many
		// resizes, and overflow buckets on the way.
		const std::uint64_t n = 20000;
		for (std::uint64_t i = 0; i < n; i++) {
			node *nd = new_node(i * 2);
			int rc = t.insert(nd, i * 2, 0, 1);
			CHECK(rc == 0);
			if (rc == 0)
				inserted++;
			else
				delete nd;
		}
		{
			grain::rcu_read_guard g;
			unsigned disagree = 0, wrong = 0;
			for (std::uint64_t k = 0; k < 2 * n + 64; k++) {
				node *a = t.lookup(k);
				grain_hnode *b = layer_c_lookup(t.get(), k);
				disagree += a != b;
				wrong += (k % 2 == 0 && k < 2 * n) !=
					 (a != nullptr);
				if (a != nullptr && a->key != k)
					wrong++;
			}
			CHECK(disagree == 0);
			CHECK(wrong == 0);
		}
		// The one-call forms, typed.
		node *found = nullptr;
		node *dup = new_node(4);
		CHECK(t.find_or_insert(4, dup, 0, 1, &found) == -EEXIST);
		CHECK(found != nullptr && found != dup && found->key == 4);
		CHECK(t.insert(dup, 4, 0, 1) == -EEXIST);
		node *old = nullptr;
		CHECK(t.replace(4, dup, 0, 1, &old) == 0);
		CHECK(old == found);
		inserted++;
		node *removed = nullptr;
		CHECK(t.remove(6, &removed) == 0 && removed != nullptr &&
		      removed->key == 6);
		CHECK(t.remove(6) == -ENOENT);
		{
			grain::rcu_read_guard g;
			CHECK(t.lookup(4) == dup);
			CHECK(t.lookup(6) == nullptr);
		}

		// A writer churns the odd keys below 2000 and replaces the
		// even ones; readers check what they find.
		std::atomic<bool> stop{ false };
		std::atomic<long> churned{ 0 };
		std::atomic<unsigned> bad{ 0 };
		std::thread writer([&] {
			grain::rcu_thread wr;
			for (int round = 0; round < 30; round++) {
				for (std::uint64_t k = 1; k < 2000; k += 2) {
					node *nd = new_node(k);
					if (t.insert(nd, k, 0, 1) == 0)
						churned.fetch_add(1);
					else
						delete nd;
				}
				for (std::uint64_t k = 8; k < 2000; k += 2) {
					node *nd = new_node(k);
					node *o = nullptr;
					if (t.replace(k, nd, 0, 1, &o) == 0)
						churned.fetch_add(1);
					else
						delete nd;
				}
				for (std::uint64_t k = 1; k < 2000; k += 2)
					if (t.remove(k) != 0)
						bad.fetch_add(1);
			}
			stop.store(true);
		});
		auto reader = [&] {
			grain::rcu_thread rr;
			while (!stop.load()) {
				grain::rcu_read_guard g;
				for (std::uint64_t k = 0; k < 4000; k++) {
					node *nd = t.lookup(k);
					if (nd != nullptr && nd->key != k)
						bad.fetch_add(1);
					// Even keys (not 6) never go away:
					// replaced in place.
					if (k % 2 == 0 && k != 6 &&
					    nd == nullptr)
						bad.fetch_add(1);
				}
			}
		};
		std::thread r1(reader), r2(reader);
		writer.join();
		r1.join();
		r2.join();
		CHECK(bad.load() == 0);
		inserted += churned.load();
	}
	// Destroyed: every node that was ever linked is reclaimed once.
	CHECK(reclaimed.load() - before == inserted);
}

#ifdef GRAIN_LAYER_QSBR
void test_qsbr()
{
	long before = reclaimed.load();
	grain::rcu_flavor_thread main_thread(urcu_qsbr_flavor);
	{
		table t;
		grain_htab_config cfg = table_config();
		cfg.flavor = &urcu_qsbr_flavor;
		REQUIRE(t.create(cfg) == 0);
		for (std::uint64_t k = 0; k < 1000; k++) {
			node *nd = new_node(k);
			if (t.insert(nd, k, 0, 1) != 0)
				delete nd;
		}
		std::atomic<bool> stop{ false };
		std::atomic<unsigned> bad{ 0 };
		std::thread reader([&] {
			grain::rcu_flavor_thread th(urcu_qsbr_flavor);
			while (!stop.load()) {
				{
					grain::rcu_flavor_read_guard g(
						urcu_qsbr_flavor);
					for (std::uint64_t k = 0; k < 1000; k++)
						if (t.lookup(k) == nullptr ||
						    t.lookup(k)->key != k)
							bad.fetch_add(1);
				}
				th.quiescent_state();
			}
			th.offline();
			th.online();
		});
		for (int round = 0; round < 20; round++)
			for (std::uint64_t k = 0; k < 1000; k++) {
				node *nd = new_node(k);
				if (t.replace(k, nd, 0, 1) != 0)
					delete nd;
				main_thread.quiescent_state();
			}
		stop.store(true);
		reader.join();
		CHECK(bad.load() == 0);
		main_thread.offline(); // destroy waits for grace periods
		t.reset();
		main_thread.online();
	}
	CHECK(reclaimed.load() - before == 1000 + 20 * 1000);
}
#endif

/* --- measurement ---------------------------------------------------------- */

struct bench {
	table t;
	std::vector<std::uint64_t> keys;

	explicit bench(std::size_t n)
	{
		grain_htab_config cfg = table_config();
		cfg.buckets = 1024;
		cfg.stripes = 64;
		REQUIRE(t.create(cfg) == 0);
		// Present: even keys; asked for: as many odd ones (misses),
		// in a fixed shuffled order.
		for (std::size_t i = 0; i < n / 2; i++) {
			node *nd = new_node(2 * i);
			REQUIRE(t.insert(nd, 2 * i, 0, 1) == 0);
			keys.push_back(2 * i);
			keys.push_back(2 * i + 1);
		}
		std::uint64_t s = 88172645463325252ull;
		for (std::size_t i = keys.size(); i > 1; i--) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			std::swap(keys[i - 1], keys[s % i]);
		}
	}
};

} // namespace

/* The typed lookup through a view: the table's pointer by value, as the
 * C loop has it. */
extern "C" __attribute__((noinline)) std::uint64_t
layer_measure_cxx(table::view v, const std::uint64_t *keys, std::size_t n)
{
	std::uint64_t found = 0;
	for (std::size_t i = 0; i < n; i++)
		found += v.lookup(keys[i]) != nullptr;
	return found;
}

/* The typed lookup through a reference to the owning table. */
extern "C" __attribute__((noinline)) std::uint64_t
layer_measure_cxx_ref(const table &t, const std::uint64_t *keys, std::size_t n)
{
	std::uint64_t found = 0;
	for (std::size_t i = 0; i < n; i++)
		found += t.lookup(keys[i]) != nullptr;
	return found;
}

/* What C++ had before the layer: the exported generic lookup (a call
 * through the PLT, the hash and equality through the table's ops). */
extern "C" __attribute__((noinline)) std::uint64_t
layer_measure_generic(grain_htab *h, const std::uint64_t *keys, std::size_t n)
{
	std::uint64_t found = 0;
	for (std::size_t i = 0; i < n; i++)
		found += grain_htab_lookup(h, &keys[i]) != nullptr;
	return found;
}

namespace {

int run_instr(const char *which, std::size_t n)
{
	grain::rcu_thread rt;
	bench b(n);
	std::uint64_t found;
	{
		grain::rcu_read_guard g;
		const std::uint64_t *k = b.keys.data();
		std::size_t m = b.keys.size();
		if (std::strcmp(which, "c") == 0)
			found = layer_measure_c(b.t.get(), k, m);
		else if (std::strcmp(which, "cxx") == 0)
			found = layer_measure_cxx(b.t.as_view(), k, m);
		else if (std::strcmp(which, "cxx_ref") == 0)
			found = layer_measure_cxx_ref(b.t, k, m);
		else
			found = layer_measure_generic(b.t.get(), k, m);
	}
	std::printf("%s lookups=%zu found=%llu\n", which, b.keys.size(),
		    static_cast<unsigned long long>(found));
	return found == n / 2 ? 0 : 1;
}

int run_time(int rounds, std::size_t n)
{
	using clock = std::chrono::steady_clock;
	grain::rcu_thread rt;
	bench b(n);
	std::vector<double> ns[4];
	const char *names[4] = { "C _fast", "typed view", "typed ref",
				 "generic (PLT)" };
	grain::rcu_read_guard g;
	const std::uint64_t *k = b.keys.data();
	std::size_t m = b.keys.size();
	for (int r = 0; r < rounds; r++) {
		for (int j = 0; j < 4; j++) {
			int which = (r + j) % 4; // each goes first in turn
			auto t0 = clock::now();
			std::uint64_t f =
				which == 0 ? layer_measure_c(b.t.get(), k, m)
				: which == 1
					? layer_measure_cxx(b.t.as_view(), k, m)
				: which == 2 ? layer_measure_cxx_ref(b.t, k, m)
					     : layer_measure_generic(b.t.get(),
								     k, m);
			auto t1 = clock::now();
			REQUIRE(f == n / 2);
			ns[which].push_back(
				std::chrono::duration<double, std::nano>(t1 -
									 t0)
					.count() /
				static_cast<double>(m));
		}
	}
	std::printf("lookup ns (%zu keys, %d rounds, best / median):", m,
		    rounds);
	for (int j = 0; j < 4; j++) {
		std::sort(ns[j].begin(), ns[j].end());
		std::printf(" %s %.2f / %.2f;", names[j], ns[j].front(),
			    ns[j][ns[j].size() / 2]);
	}
	std::printf("\n");
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 4 && std::strcmp(argv[1], "--instr") == 0)
		return run_instr(argv[2], std::strtoul(argv[3], nullptr, 10));
	if (argc == 4 && std::strcmp(argv[1], "--time") == 0)
		return run_time(std::atoi(argv[2]),
				std::strtoul(argv[3], nullptr, 10));
	test_layout();
	test_owners();
	test_scope();
	test_queues();
	test_table();
#ifdef GRAIN_LAYER_QSBR
	test_qsbr();
#endif
	if (failures != 0) {
		std::fprintf(stderr, "layer: %d check(s) failed\n", failures);
		return 1;
	}
	std::printf("layer: ok\n");
	return 0;
}
