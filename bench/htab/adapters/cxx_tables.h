/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cxx_tables.h - inside bench/htab/adapters: the C++ anchors (oneTBB's
 * concurrent_hash_map, libcuckoo's cuckoohash_map, libcds' MichaelHashMap)
 * behind C calls of the harness's signatures (harness.h's
 * bench_htab_lookup_fn, _insert_fn and _remove_fn), for cxx_adapter.c to
 * drive. The benchmark is built with link-time optimisation, so the calls
 * may inline across the language boundary.
 */
#ifndef GRAIN_BENCH_HTAB_CXX_TABLES_H
#define GRAIN_BENCH_HTAB_CXX_TABLES_H

#include "adapters.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Q_create (0 or -ENOMEM), Q_destroy, Q_lookup, Q_insert, Q_remove and
 * Q_count of table Q. */
#define BENCH_HTAB_CXX_CALLS(q)                                  \
	int q##_create(void **tablep, enum bench_htab_impl impl, \
		       enum bench_htab_workload w);              \
	void q##_destroy(void *table);                           \
	uint64_t q##_lookup(void *table, uint64_t key);          \
	int q##_insert(void *table, uint64_t key);               \
	int q##_remove(void *table, uint64_t key);               \
	uint64_t q##_count(void *table)
BENCH_HTAB_CXX_CALLS(bench_tbb_map);
BENCH_HTAB_CXX_CALLS(bench_cuckoo);
BENCH_HTAB_CXX_CALLS(bench_cds_map);
/* libcds: every thread that touches its map attaches to its hazard
 * pointers first, and detaches before it ends. */
void bench_cds_map_thread_enter(void);
void bench_cds_map_thread_exit(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_BENCH_HTAB_CXX_TABLES_H */
