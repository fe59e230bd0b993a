// SPDX-License-Identifier: BSD-2-Clause
// cxx_tables.cc - the C++ anchors of the hash table benchmark behind the C
// calls of cxx_tables.h, each with the key, hash and node rule of every
// other table here: uint64_t keys hashed by grain_hash_mix64, a node per
// entry allocated by the inserting thread.
//
// tbb_hash_map: oneTBB's concurrent_hash_map<uint64_t, uint64_t>, its own
// node per entry (key and value in it) from std::allocator (malloc), so
// not TBB's scalable allocator, which no other table has; BENCH_HTAB_BUCKETS
// buckets reserved. lookup: find with a const_accessor (the entry's read
// lock), the value read under it; insert: insert(value_type); remove:
// erase(key), which frees the node at once.
//
// libcuckoo: cuckoohash_map<uint64_t, item *> (open addressing, 4 slots a
// bucket, fine-grained bucket locks), room for BENCH_HTAB_UNIVERSE entries
// so that it never grows during a run; each slot holds the address of a
// malloc'd item, as ck_ht's does. lookup: find_fn, the item read under the
// bucket lock; insert: insert(key, item), the item freed again if the key
// was there; remove: erase_fn, the item freed after the bucket is unlocked
// (no reader can hold it then: readers only see it under that lock).
//
// libcds_michael: MichaelHashMap over MichaelKVList with hazard pointers
// (cds::gc::HP), BENCH_HTAB_BUCKETS buckets at load factor 1 (it never
// grows); its list nodes from std::allocator, freed after a hazard pointer
// scan. lookup: find with a functor that reads the value; insert:
// insert(key, value); remove: erase(key).

#include "cxx_tables.h"

#include <grain/hash.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace {

struct MixHash {
	std::size_t operator()(uint64_t key) const
	{
		return static_cast<std::size_t>(grain_hash_mix64(key));
	}
};

// The value stored with KEY (harness.h's bench_htab_value()).
[[maybe_unused]] uint64_t ValueOf(uint64_t key)
{
	return key * 2u + 1u;
}

} // namespace

#ifdef GRAIN_BENCH_HAVE_TBB_MAP
#include <tbb/concurrent_hash_map.h>

namespace {

struct TbbHashCompare {
	static std::size_t hash(uint64_t key)
	{
		return MixHash()(key);
	}
	static bool equal(uint64_t a, uint64_t b)
	{
		return a == b;
	}
};

using TbbMap = tbb::concurrent_hash_map<
	uint64_t, uint64_t, TbbHashCompare,
	std::allocator<std::pair<const uint64_t, uint64_t>>>;

TbbMap *AsTbb(void *table)
{
	return static_cast<TbbMap *>(table);
}

} // namespace

extern "C" int bench_tbb_map_create(void **tablep, enum bench_htab_impl,
				    enum bench_htab_workload)
{
	*tablep = new (std::nothrow)
		TbbMap(TbbMap::size_type{ BENCH_HTAB_BUCKETS });
	return *tablep != nullptr ? 0 : -ENOMEM;
}

extern "C" void bench_tbb_map_destroy(void *table)
{
	delete AsTbb(table);
}

extern "C" uint64_t bench_tbb_map_lookup(void *table, uint64_t key)
{
	TbbMap::const_accessor a;
	return AsTbb(table)->find(a, key) ? a->second : 0;
}

extern "C" int bench_tbb_map_insert(void *table, uint64_t key)
{
	return AsTbb(table)->insert(std::make_pair(key, ValueOf(key))) ? 1 : 0;
}

extern "C" int bench_tbb_map_remove(void *table, uint64_t key)
{
	return AsTbb(table)->erase(key) ? 1 : 0;
}

extern "C" uint64_t bench_tbb_map_count(void *table)
{
	return AsTbb(table)->size();
}
#endif

#ifdef GRAIN_BENCH_HAVE_CUCKOO
#include <libcuckoo/cuckoohash_map.hh>

namespace {

struct CuckooItem {
	uint64_t key;
	uint64_t value;
};

using CuckooMap = libcuckoo::cuckoohash_map<uint64_t, CuckooItem *, MixHash>;

CuckooMap *AsCuckoo(void *table)
{
	return static_cast<CuckooMap *>(table);
}

} // namespace

extern "C" int bench_cuckoo_create(void **tablep, enum bench_htab_impl,
				   enum bench_htab_workload)
{
	*tablep = new (std::nothrow) CuckooMap(BENCH_HTAB_UNIVERSE);
	return *tablep != nullptr ? 0 : -ENOMEM;
}

// By main, every worker joined: the items, then the table.
extern "C" void bench_cuckoo_destroy(void *table)
{
	{
		auto locked = AsCuckoo(table)->lock_table();
		for (auto &kv : locked)
			std::free(kv.second);
	}
	delete AsCuckoo(table);
}

extern "C" uint64_t bench_cuckoo_lookup(void *table, uint64_t key)
{
	uint64_t v = 0;
	AsCuckoo(table)->find_fn(key, [&v](CuckooItem *const &it) {
		v = it->value;
	});
	return v;
}

extern "C" int bench_cuckoo_insert(void *table, uint64_t key)
{
	auto *it = static_cast<CuckooItem *>(std::malloc(sizeof(CuckooItem)));
	if (it == nullptr)
		return -ENOMEM;
	it->key = key;
	it->value = ValueOf(key);
	if (AsCuckoo(table)->insert(key, it))
		return 1;
	std::free(it);
	return 0;
}

extern "C" int bench_cuckoo_remove(void *table, uint64_t key)
{
	CuckooItem *gone = nullptr;
	AsCuckoo(table)->erase_fn(key, [&gone](CuckooItem *&it) {
		gone = it;
		return true;
	});
	std::free(gone);
	return gone != nullptr ? 1 : 0;
}

extern "C" uint64_t bench_cuckoo_count(void *table)
{
	return AsCuckoo(table)->size();
}
#endif

#ifdef GRAIN_BENCH_HAVE_CDS
#include <cds/container/michael_kvlist_hp.h>
#include <cds/container/michael_map.h>
#include <cds/gc/hp.h>
#include <cds/init.h>

namespace {

struct CdsListTraits : public cds::container::michael_list::traits {
	using less = std::less<uint64_t>;
};
using CdsList = cds::container::MichaelKVList<cds::gc::HP, uint64_t, uint64_t,
					      CdsListTraits>;
struct CdsMapTraits : public cds::container::michael_map::traits {
	using hash = MixHash;
	using item_counter = cds::atomicity::item_counter;
};
using CdsMap =
	cds::container::MichaelHashMap<cds::gc::HP, CdsList, CdsMapTraits>;

CdsMap *AsCds(void *table)
{
	return static_cast<CdsMap *>(table);
}

// libcds and its hazard pointer domain, made by the first create and kept
// until the process ends.
cds::gc::HP *g_hp;

} // namespace

extern "C" void bench_cds_map_thread_enter(void)
{
	cds::threading::Manager::attachThread();
}

extern "C" void bench_cds_map_thread_exit(void)
{
	cds::threading::Manager::detachThread();
}

// The calling thread (main) stays attached: it populates, checks and
// destroys the table.
extern "C" int bench_cds_map_create(void **tablep, enum bench_htab_impl,
				    enum bench_htab_workload)
{
	if (g_hp == nullptr) {
		cds::Initialize();
		// Up to BENCH_HTAB_MAX_THREADS workers, and main.
		g_hp = new (std::nothrow)
			cds::gc::HP(0, BENCH_HTAB_MAX_THREADS + 1u);
		if (g_hp == nullptr)
			return -ENOMEM;
	}
	if (!cds::threading::Manager::isThreadAttached())
		cds::threading::Manager::attachThread();
	*tablep = new (std::nothrow) CdsMap(BENCH_HTAB_BUCKETS, 1);
	return *tablep != nullptr ? 0 : -ENOMEM;
}

extern "C" void bench_cds_map_destroy(void *table)
{
	delete AsCds(table);
	cds::gc::HP::force_dispose();
}

extern "C" uint64_t bench_cds_map_lookup(void *table, uint64_t key)
{
	uint64_t v = 0;
	AsCds(table)->find(key, [&v](std::pair<const uint64_t, uint64_t> &kv) {
		v = kv.second;
	});
	return v;
}

extern "C" int bench_cds_map_insert(void *table, uint64_t key)
{
	return AsCds(table)->insert(key, ValueOf(key)) ? 1 : 0;
}

extern "C" int bench_cds_map_remove(void *table, uint64_t key)
{
	return AsCds(table)->erase(key) ? 1 : 0;
}

extern "C" uint64_t bench_cds_map_count(void *table)
{
	return AsCds(table)->size();
}
#endif
