/* SPDX-License-Identifier: BSD-2-Clause */
// bench_htab.cc - the lock-granularity benchmark of grain_htab: grain_htab
// with 1, 16, 256 and 4096 stripes and with RCU lookups (memb and qsbr
// flavours), against the two baselines (one mutex; 256 spinlocks) and the
// anchors cds_lfht (liburcu), ck_ht (ConcurrencyKit), oneTBB's
// concurrent_hash_map, libcuckoo and libcds' MichaelHashMap, on 90/5/5,
// 50/25/25 and churn at the watermark, side by side in one run.
//
// A case is htab/WORKLOAD/Nt/TABLE; each of its runs is one
// bench_htab_run() (adapters/harness.c says what a run does and checks),
// and its rate, the counter ops_per_sec, counts the table operations of
// all threads per second.
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 7, quick
// 50 ms x 2 at 2 threads only, 90/5/5 left out; --threads=LIST the thread
// counts (default 1,2,4).

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

// Each table's name in the cases (bench/README.md says what each is and
// how it evicts under churn).
const struct {
	const char *name;
} kTables[BENCH_HTAB_IMPL_COUNT] = {
	{ "grain/1" },	      { "grain/16" },
	{ "grain/256" },      { "grain/4096" },
	{ "grain-rcu/256" },  { "grain-qsbr/256" },
	{ "mutex" },	      { "striped" },
	{ "cds_lfht" },	      { "ck_ht" },
	{ "tbb_hash_map" },   { "libcuckoo" },
	{ "libcds_michael" }, { "grain-rcu-bulk/256" },
	{ "rte_hash" },	      { "grain-clock/256" },
};

const bench_htab_workload kWorkloads[] = { BENCH_HTAB_READ90, BENCH_HTAB_MIX50,
					   BENCH_HTAB_CHURN, BENCH_HTAB_BULK16,
					   BENCH_HTAB_BULK32 };

// The bulk workloads run the RCU tables that look up bursts: grain's
// single-key lookups, its bulk call, and rte_hash's; the bulk grain
// table runs nothing else (its other workloads are grain-rcu's).
bool Runs(bench_htab_impl i, bench_htab_workload w)
{
	bool bulk = bench_htab_workload_facts(w)->burst != 0;
	if (i == BENCH_HTAB_GRAIN_RCU_BULK)
		return bulk;
	return !bulk || i == BENCH_HTAB_GRAIN_RCU || i == BENCH_HTAB_RTE;
}
struct Case {
	bench_htab_impl impl;
	bench_htab_workload workload;
	unsigned threads;
	std::string name;
};

std::vector<unsigned> g_threads = { 1, 2, 4 };
std::vector<Case> g_cases;
uint64_t g_seed = 1;

std::string CaseName(bench_htab_impl impl, bench_htab_workload w,
		     unsigned threads)
{
	return std::string("htab/") + bench_htab_workload_facts(w)->label +
	       "/" + std::to_string(threads) + "t/" + kTables[impl].name;
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_htab_config cfg = { c->workload, c->threads, DurationMs(),
					  g_seed++ };
		bench_htab_result res{};
		int rc = bench_htab_run(c->impl, &cfg, &res);
		if (!RunOk(state, c->name, "bench_htab_run", rc, res,
			   "correctness errors", [&res] {
				   return FirstOf(res.errors,
						  "correctness errors",
						  res.error);
			   }))
			break;
		state.counters["ops_per_sec"] = res.ops_per_sec;
		state.counters["setup_s"] = res.setup_seconds;
		if (res.lookups != 0)
			state.counters["hit_ratio"] =
				static_cast<double>(res.hits) /
				static_cast<double>(res.lookups);
		if (res.evictions != 0)
			state.counters["evicted_per_op"] =
				static_cast<double>(res.evictions) /
				static_cast<double>(res.ops);
	}
}

std::vector<bench_htab_impl> Columns()
{
	std::vector<bench_htab_impl> cols;
	for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++)
		if (bench_htab_available(static_cast<bench_htab_impl>(i)))
			cols.push_back(static_cast<bench_htab_impl>(i));
	return cols;
}

int Setup(const Options &opt)
{
	if (!opt.threads.empty() &&
	    !ParseCounts(opt.threads, BENCH_HTAB_MAX_THREADS, &g_threads)) {
		std::fprintf(stderr, "--threads: a list of 1..%u, e.g. 1,2,4\n",
			     BENCH_HTAB_MAX_THREADS);
		return 2;
	}
	benchmark::AddCustomContext("urcu_membarrier",
				    bench_htab_urcu_membarrier()
					    ? "membarrier system call in use"
					    : "no membarrier system call");
	// A quick run (the smoke test) runs every table at 2 threads only, on
	// 50/25/25 and churn (90/5/5 does nothing they do not), unless
	// --threads says otherwise: each run's set-up (half a million inserts,
	// the checks) costs far more than its timed part.
	bool trim = opt.quick && opt.threads.empty();
	if (trim)
		g_threads = { 2 };
	for (bench_htab_workload w : kWorkloads) {
		if (trim && w == BENCH_HTAB_READ90)
			continue;
		for (unsigned t : g_threads)
			for (bench_htab_impl i : Columns())
				if (Runs(i, w))
					g_cases.push_back(
						{ i, w, t, CaseName(i, w, t) });
	}
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 7 (quick 50 ms x 2).
	return { 50, 300, 2, 7, false, "ops_per_sec", {}, Setup, nullptr };
}
