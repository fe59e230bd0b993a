/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_adapter.c - the hash table anchors from C++ libraries, through
 * cxx_tables.h: oneTBB's concurrent_hash_map, libcuckoo and libcds'
 * MichaelHashMap. None has an LRU: churn goes through the key FIFO (under
 * its grain_spinlock), as for the striped baseline and cds_lfht. libcds'
 * workers attach to its hazard pointers first and detach last.
 */
#include "harness.h"

#include "cxx_tables.h"

/* The churn of table Q: the fresh key in, the oldest out (the key FIFO). */
#define FIFO_CHURN(q)                                                 \
	static int q##_churn(void *table, uint64_t key, uint64_t now) \
	{                                                             \
		(void)now;                                            \
		return bench_htab_fifo_churn(table, key, q##_insert,  \
					     q##_remove);             \
	}

#ifdef GRAIN_BENCH_HAVE_TBB_MAP
FIFO_CHURN(bench_tbb_map)
BENCH_HTAB_ADAPTER(bench_htab_adapter_tbb, bench_tbb_map_lookup,
		   bench_tbb_map_insert, bench_tbb_map_remove,
		   bench_tbb_map_churn, .create = bench_tbb_map_create,
		   .destroy = bench_tbb_map_destroy,
		   .count = bench_tbb_map_count, .fifo = true)
#endif

#ifdef GRAIN_BENCH_HAVE_CUCKOO
FIFO_CHURN(bench_cuckoo)
BENCH_HTAB_ADAPTER(bench_htab_adapter_cuckoo, bench_cuckoo_lookup,
		   bench_cuckoo_insert, bench_cuckoo_remove, bench_cuckoo_churn,
		   .create = bench_cuckoo_create,
		   .destroy = bench_cuckoo_destroy, .count = bench_cuckoo_count,
		   .fifo = true)
#endif

#ifdef GRAIN_BENCH_HAVE_CDS
FIFO_CHURN(bench_cds_map)
BENCH_HTAB_ADAPTER(bench_htab_adapter_cds, bench_cds_map_lookup,
		   bench_cds_map_insert, bench_cds_map_remove,
		   bench_cds_map_churn, .create = bench_cds_map_create,
		   .destroy = bench_cds_map_destroy,
		   .count = bench_cds_map_count, .fifo = true,
		   .thread_enter = bench_cds_map_thread_enter,
		   .thread_exit = bench_cds_map_thread_exit)
#endif
