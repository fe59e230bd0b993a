// SPDX-License-Identifier: BSD-2-Clause
//
// main.cc - uses an installed grain from C++: a ring, a prio queue and an
// htab through libgrain's exported calls (the C names, extern "C").
// Exits 0 if every check passes.

#include <grain/grain.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int failed = 0;

void check(bool ok, const char *what)
{
	if (!ok) {
		std::fprintf(stderr, "consumer_cxx: FAILED: %s\n", what);
		failed = 1;
	}
}

struct Item {
	grain_hnode node{};
	unsigned key = 0;
};

unsigned reclaimed = 0; // reclaim runs on liburcu's call_rcu thread

uint64_t item_hash(const void *key, const grain_hash_key *s, void *)
{
	return grain_siphash(key, sizeof(unsigned), s);
}

bool item_eq(const grain_hnode *n, const void *key, void *)
{
	return grain_container_of(n, const Item, node)->key ==
	       *static_cast<const unsigned *>(key);
}

void item_reclaim(grain_hnode *, grain_htab_reason, void *)
{
	__atomic_fetch_add(&reclaimed, 1u, __ATOMIC_RELAXED);
}

} // namespace

int main()
{
	check(std::strcmp(grain_version(), GRAIN_VERSION_STRING) == 0,
	      "grain_version() is the headers' version");

	grain_ring *ring = nullptr;
	check(grain_ring_create(&ring, 16, GRAIN_RING_MPMC, nullptr) == 0,
	      "ring");
	std::vector<int> v{ 1, 2, 3 };
	for (int &x : v)
		check(grain_ring_try_enqueue(ring, &x) == 0, "enqueue");
	for (int &x : v) {
		void *out = nullptr;
		check(grain_ring_try_dequeue(ring, &out) == 0 && out == &x,
		      "FIFO");
	}
	grain_ring_destroy(ring);

	grain_prio_config pcfg{};
	pcfg.bands = 2;
	pcfg.capacity = 4;
	grain_prio *q = nullptr;
	check(grain_prio_create(&q, &pcfg, nullptr) == 0, "prio");
	int low = 0, high = 0;
	check(grain_prio_try_enqueue(q, 1, &low) == 0, "enqueue band 1");
	check(grain_prio_try_enqueue(q, 0, &high) == 0, "enqueue band 0");
	void *out = nullptr;
	check(grain_prio_try_dequeue(q, &out, nullptr) == 0 && out == &high,
	      "band 0 first");
	grain_prio_destroy(q);

	grain_htab_config hcfg{};
	hcfg.ops.hash = item_hash;
	hcfg.ops.eq = item_eq;
	hcfg.ops.reclaim = item_reclaim;
	grain_rcu_register_thread();
	grain_htab *h = nullptr;
	check(grain_htab_create(&h, &hcfg, nullptr) == 0, "htab");
	std::vector<Item> items(4);
	for (unsigned k = 0; k < items.size(); k++) {
		items[k].key = k;
		check(grain_htab_insert(h, &items[k].node, &items[k].key, 0,
					1) == 0,
		      "insert");
	}
	grain_rcu_read_lock();
	check(grain_htab_lookup(h, &items[2].key) == &items[2].node,
	      "lookup finds key 2");
	grain_rcu_read_unlock();
	grain_htab_stats st{}; // the struct; the call is grain_htab_get_stats
	grain_htab_get_stats(h, &st);
	check(st.entries == 4, "4 entries");
	grain_htab_destroy(h);
	check(reclaimed == 4, "all reclaimed");
	grain_rcu_unregister_thread();

	if (!failed)
		std::printf("consumer_cxx: grain %s: ring, prio and htab ok\n",
			    grain_version());
	return failed;
}
