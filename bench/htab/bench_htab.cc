/* SPDX-License-Identifier: BSD-2-Clause */
// bench_htab.cc - the lock-granularity benchmark of grain_htab: grain_htab
// with 1, 16, 256 and 4096 stripes and with RCU lookups (memb and qsbr
// flavours), against the two baselines (one mutex; 256 spinlocks) and the
// anchors cds_lfht (liburcu), ck_ht (ConcurrencyKit), oneTBB's
// concurrent_hash_map, libcuckoo, libcds' MichaelHashMap and DPDK's
// rte_hash, on 90/5/5, 50/25/25 and churn at the watermark, side by side
// in one run; and lookups in bursts of 16 and 32 keys, where grain's RCU
// table looks them up one by one and with grain_htab_lookup_bulk, and
// rte_hash with rte_hash_lookup_bulk_data.
//
// A case is htab/WORKLOAD/Nt/TABLE; each of its runs is one
// bench_htab_run() (adapters/harness.c says what a run does and checks),
// and its rate, the counter ops_per_sec, counts the table operations of
// all threads per second.
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 7, quick
// 50 ms x 2, where the tables users pick (oneTBB, libcuckoo, libcds) run
// at 2 threads only; --threads=LIST the thread counts (default 1,2,4).

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

// What each table's runs measure, and how it evicts under churn.
#define GRAIN_AS_1(stripes) \
	"grain_htab, " stripes " stripes, otherwise as grain/1"
#define CHURN_GRAIN                                                        \
	"policy EVICT with mem_high = mem_low = 500000 and a charge of 1 " \
	"per entry: the unlock of each insert evicts the least recently "  \
	"used entry (exact within a stripe, the oldest of 4 sampled "      \
	"stripes across them)"
#define CHURN_RCU CHURN_GRAIN "; evicted nodes freed after a grace period"
#define CHURN_FIFO(lock)                                                   \
	"no LRU of its own: a FIFO of inserted keys (" lock ") names the " \
	"oldest entry, which the inserting thread then removes"

const struct {
	const char *name, *note, *churn;
} kTables[BENCH_HTAB_IMPL_COUNT] = {
	{ "grain/1",
	  "grain_htab with 1 stripe (its global lock), GRAIN_HTAB_NO_RCU, "
	  "2^18 signature buckets of 6 slots in all; lookups "
	  "grain_htab_lock_fast + grain_htab_find_locked_fast + unlock, "
	  "inserts and removes the one-call _fast forms (hash and equality "
	  "inlined); every feature on: LRU, byte accounting, a high "
	  "watermark and a TTL checked at every insert (neither reached in "
	  "the mixed runs)",
	  CHURN_GRAIN },
	{ "grain/16", GRAIN_AS_1("16"), CHURN_GRAIN },
	{ "grain/256", GRAIN_AS_1("256"), CHURN_GRAIN },
	{ "grain/4096", GRAIN_AS_1("4096"), CHURN_GRAIN },
	{ "grain-rcu/256",
	  "grain_htab, 256 stripes, RCU table (liburcu memb): lookups "
	  "grain_htab_lookup_fast between liburcu-memb's inline read_lock "
	  "and read_unlock, no lock; inserts and removes the one-call _fast "
	  "forms; removed nodes freed after a grace period (call_rcu)",
	  CHURN_RCU },
	{ "grain-qsbr/256",
	  "grain_htab, 256 stripes, RCU table with liburcu's qsbr flavour "
	  "(config.flavor): lookups grain_htab_lookup_fast in qsbr's "
	  "inline read-side section (free), each worker announcing a "
	  "quiescent state every 64 operations, counted in the run; "
	  "otherwise as grain-rcu/256",
	  CHURN_RCU },
	{ "mutex",
	  "baseline bench/htab/baselines/mutex_table: chains and an "
	  "insertion-order LRU list under one pthread mutex",
	  "insert and unlink of the oldest entry (its LRU list) in one "
	  "critical section" },
	{ "striped",
	  "baseline bench/htab/baselines/striped_table: chains only, 256 "
	  "grain_spinlock stripes (bucket & 255), no LRU, no accounting, no "
	  "resizing",
	  CHURN_FIFO("under a grain_spinlock") },
	{ "cds_lfht",
	  "anchor liburcu cds_lfht (split-ordered lock-free lists), memb "
	  "flavour, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, 2^19 buckets "
	  "at start, its calls through the shared library; lookups "
	  "cds_lfht_lookup between liburcu-memb's inline read_lock and "
	  "read_unlock (as grain-rcu's), inserts cds_lfht_add_unique, "
	  "removes lookup + cds_lfht_del; removed nodes freed after a grace "
	  "period (call_rcu)",
	  CHURN_FIFO("under a grain_spinlock") "; removed nodes freed after "
					       "a grace period" },
	{ "ck_ht",
	  "anchor ConcurrencyKit ck_ht, CK_HT_MODE_DIRECT | "
	  "CK_HT_WORKLOAD_DELETE, 2^21 slots (it grows past a load of 1/2): "
	  "single writer, many readers, so writers take one pthread mutex "
	  "and readers none; an insert is get + put_spmc under the mutex "
	  "(put_spmc alone may duplicate a key behind a tombstone); the slot "
	  "holds the node's address, freed at once on remove, so lookups "
	  "check the key in the slot and never read the node",
	  CHURN_FIFO("under the writer mutex") "; the insert is put_spmc "
					       "alone (its key is fresh)" },
	{ "tbb_hash_map",
	  "anchor oneTBB concurrent_hash_map<uint64_t, uint64_t>, 2^19 "
	  "buckets reserved, its nodes (key and value) from std::allocator "
	  "(malloc, not TBB's scalable allocator); lookups find with a "
	  "const_accessor (the entry's read lock), inserts "
	  "insert(value_type), removes erase(key), the node freed at once",
	  CHURN_FIFO("under a grain_spinlock") },
	{ "libcuckoo",
	  "anchor libcuckoo cuckoohash_map<uint64_t, item *> (open "
	  "addressing, 4 slots a bucket, bucket locks), room for 10^6 "
	  "entries so that it never grows; the slot holds the node's "
	  "address; lookups find_fn (the node read under the bucket lock), "
	  "inserts insert(key, node), removes erase_fn, the node freed at "
	  "once after the bucket is unlocked",
	  CHURN_FIFO("under a grain_spinlock") },
	{ "libcds_michael",
	  "anchor libcds MichaelHashMap over MichaelKVList (lock-free "
	  "ordered lists), hazard pointers (cds::gc::HP), 2^19 buckets at "
	  "load factor 1 (it never grows), its list nodes from "
	  "std::allocator; lookups find with a functor that reads the value, "
	  "inserts insert(key, value), removes erase(key), removed nodes "
	  "freed after a hazard pointer scan; every worker attaches to "
	  "libcds first",
	  CHURN_FIFO("under a grain_spinlock") "; removed nodes freed after "
					       "a hazard pointer scan" },
	{ "grain-rcu-bulk/256",
	  "grain-rcu/256 whose bursts (bulk workloads only) are looked up "
	  "with grain_htab_lookup_bulk_fast in one liburcu-memb read-side "
	  "section: every key hashed and its bucket line prefetched, then "
	  "the signatures compared and the first candidate node prefetched, "
	  "then the keys compared",
	  CHURN_RCU },
	{ "rte_hash",
	  "anchor DPDK rte_hash (cuckoo, 8 signatures a bucket), "
	  "RTE_HASH_EXTRA_FLAGS_RW_CONCURRENCY_LF, 2 * 10^6 slots, the key's "
	  "grain_hash_mix64 (low 32 bits) as its hash, the node's address "
	  "as its data; lookups rte_hash_lookup_data (bursts: "
	  "rte_hash_lookup_bulk_data) in liburcu-memb's inline read-side "
	  "section, no lock; writers under one grain_spinlock (an insert is "
	  "lookup + add, a remove lookup + delete: rte_hash's add replaces), "
	  "the deleted key's slot and node freed after a grace period "
	  "(call_rcu); the EAL started once, without hugepages",
	  CHURN_FIFO("under a grain_spinlock") "; removed nodes freed after "
					       "a grace period" },
	{ "grain-clock/256",
	  "grain/256 with GRAIN_HTAB_EVICT_CLOCK: no LRU list (inserts and "
	  "removes write none), a reference mark per entry and a hand per "
	  "stripe that gives marked entries a second chance at eviction",
	  "policy EVICT with mem_high = mem_low = 500000 and a charge of 1 "
	  "per entry: the unlock of each insert evicts the entry its "
	  "stripe's hand stops at (CLOCK order)" },
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
// Stands for "grain best striped": the fastest of the striped grain
// configurations without RCU, per workload and thread count.
const bench_htab_impl kBest = BENCH_HTAB_IMPL_COUNT;

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

// The table a side of a ratio stands for (kBest: the fastest striped grain
// configuration, or kBest if none ran), its case ("" if none) and its
// cell, "TABLE: median (min–max)".
bench_htab_impl Resolve(bench_htab_impl side, bench_htab_workload w, unsigned t)
{
	bench_htab_impl best = side;
	double rate = NAN;
	if (side == kBest)
		for (bench_htab_impl i :
		     { BENCH_HTAB_GRAIN_16, BENCH_HTAB_GRAIN_256,
		       BENCH_HTAB_GRAIN_4096 }) {
			double v = Rate(CaseName(i, w, t));
			if (!std::isnan(v) && (std::isnan(rate) || v > rate)) {
				rate = v;
				best = i;
			}
		}
	return best;
}

std::string CaseOf(bench_htab_impl side, bench_htab_workload w, unsigned t)
{
	bench_htab_impl i = Resolve(side, w, t);
	return i == kBest ? "" : CaseName(i, w, t);
}

std::string SideText(bench_htab_impl side, bench_htab_workload w, unsigned t)
{
	std::string name = CaseOf(side, w, t);
	return name.empty() ? "–"
			    : std::string(kTables[Resolve(side, w, t)].name) +
				      ": " + Spread(name, 1e6, 2);
}

std::string ThreadsLabel(unsigned threads)
{
	return std::to_string(threads) +
	       (threads == 1 ? " thread" : " threads") +
	       Oversubscribed(threads);
}

// The targets, at 1 and 2 threads. "Global mutex" is the mutex baseline;
// "grain best striped" the fastest grain configuration without RCU, with
// its LRU, byte accounting, watermark checks and TTL on; grain's own
// 1-stripe table is shown beside them for context.
std::vector<Target> Targets()
{
	const bench_htab_workload r = BENCH_HTAB_READ90, m = BENCH_HTAB_MIX50,
				  c = BENCH_HTAB_CHURN;
	struct Named {
		bench_htab_impl side;
		const char *words;
	};
	const Named best = { kBest, "grain best striped" },
		    striped = { BENCH_HTAB_STRIPED, "striped baseline" },
		    mutex = { BENCH_HTAB_MUTEX, "global mutex" },
		    locked = { BENCH_HTAB_GRAIN_256,
			       "grain locked (256 stripes)" },
		    rcu = { BENCH_HTAB_GRAIN_RCU, "grain RCU lookups" },
		    qsbr = { BENCH_HTAB_GRAIN_QSBR,
			     "grain RCU lookups, qsbr flavour" };
	std::vector<Target> t;
	// "90/5/5, 2 threads: A >= 1.3x B" (2x, 3x for whole goals >= 2);
	// a goal of 0: "(context) ...: A / B", no verdict.
	auto add = [&t](bench_htab_workload w, unsigned n, const Named &a,
			const Named &b, double goal) {
		std::string at =
			std::string(bench_htab_workload_facts(w)->name) + ", " +
			std::to_string(n) +
			(n == 1 ? " thread: " : " threads: ") + a.words;
		if (goal == 0)
			at = "(context) " + at + " / " + b.words;
		else
			at += Fmt(goal >= 2 ? " >= %.0fx " : " >= %.1fx ",
				  goal) +
			      b.words;
		std::string num = CaseOf(a.side, w, n),
			    den = CaseOf(b.side, w, n);
		Target x = { at, Ratio(num, den), goal ? goal : 1.0, num, den };
		x.cells = { SideText(a.side, w, n), SideText(b.side, w, n) };
		x.context = goal == 0;
		t.push_back(x);
	};
	for (bench_htab_workload w : { r, m })
		for (unsigned n : { 1u, 2u })
			add(w, n, best, striped, 1.0);
	for (bench_htab_workload w : { r, m })
		add(w, 1, best, mutex, 1.0);
	for (const Named *x : { &rcu, &qsbr }) {
		for (bench_htab_workload w : { r, m })
			add(w, 2, *x, striped, 1.3);
		for (unsigned n : { 1u, 2u })
			add(r, n, *x, locked, 1.0);
	}
	add(r, 2, best, mutex, 3.0);
	add(r, 2, best, { BENCH_HTAB_LFHT, "cds_lfht" }, 2.0);
	add(r, 2, best, { BENCH_HTAB_CKHT, "ck_ht" }, 1.0);
	// The tables users pick: 1.3x each at both mixes, 1 and 2 threads.
	for (const Named &x :
	     { Named{ BENCH_HTAB_TBB, "TBB concurrent_hash_map" },
	       Named{ BENCH_HTAB_CUCKOO, "libcuckoo" },
	       Named{ BENCH_HTAB_CDS, "libcds MichaelHashMap" } })
		for (bench_htab_workload w : { r, m })
			for (unsigned n : { 1u, 2u })
				add(w, n, best, x, 1.3);
	add(c, 2, best, mutex, 3.0);
	for (bench_htab_workload w : { r, m, c })
		add(w, 2, best, { BENCH_HTAB_GRAIN_1, "grain/1" }, 0);
	// Bulk lookups: against grain's own single-key RCU lookups, and
	// against rte_hash's bulk call; grain's RCU tables against rte_hash
	// in the mixes, for context.
	const Named bulk = { BENCH_HTAB_GRAIN_RCU_BULK, "grain bulk" },
		    rte = { BENCH_HTAB_RTE, "rte_hash" };
	for (bench_htab_workload w : { BENCH_HTAB_BULK16, BENCH_HTAB_BULK32 }) {
		add(w, 1, bulk, { BENCH_HTAB_GRAIN_RCU, "grain single" }, 1.5);
		for (unsigned n : { 1u, 2u })
			add(w, n, bulk, { BENCH_HTAB_RTE, "rte_hash bulk" },
			    1.0);
	}
	for (bench_htab_workload w : { r, m, c })
		for (unsigned n : { 1u, 2u })
			add(w, n, w == c ? best : rcu, rte, 0);
	return t;
}

std::vector<bench_htab_impl> Columns()
{
	std::vector<bench_htab_impl> cols;
	for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++)
		if (bench_htab_available(static_cast<bench_htab_impl>(i)))
			cols.push_back(static_cast<bench_htab_impl>(i));
	return cols;
}

// Million operations per second of every table, then the ratios of
// medians of the pairs below.
std::string Tables(bench_htab_workload w)
{
	const struct {
		const char *title;
		bench_htab_impl num, den;
	} ratios[] = {
		{ "best / mutex", kBest, BENCH_HTAB_MUTEX },
		{ "best / grain/1", kBest, BENCH_HTAB_GRAIN_1 },
		{ "best / striped", kBest, BENCH_HTAB_STRIPED },
		{ "best / cds_lfht", kBest, BENCH_HTAB_LFHT },
		{ "best / ck_ht", kBest, BENCH_HTAB_CKHT },
		{ "best / tbb_hash_map", kBest, BENCH_HTAB_TBB },
		{ "best / libcuckoo", kBest, BENCH_HTAB_CUCKOO },
		{ "best / libcds_michael", kBest, BENCH_HTAB_CDS },
		{ "grain-rcu / striped", BENCH_HTAB_GRAIN_RCU,
		  BENCH_HTAB_STRIPED },
		{ "grain-rcu / cds_lfht", BENCH_HTAB_GRAIN_RCU,
		  BENCH_HTAB_LFHT },
		{ "grain-qsbr / striped", BENCH_HTAB_GRAIN_QSBR,
		  BENCH_HTAB_STRIPED },
		{ "grain-rcu / rte_hash", BENCH_HTAB_GRAIN_RCU,
		  BENCH_HTAB_RTE },
		{ "grain-rcu-bulk / grain-rcu", BENCH_HTAB_GRAIN_RCU_BULK,
		  BENCH_HTAB_GRAIN_RCU },
		{ "grain-rcu-bulk / rte_hash", BENCH_HTAB_GRAIN_RCU_BULK,
		  BENCH_HTAB_RTE },
	};
	std::ostringstream o;
	std::vector<std::string> titles;
	for (bench_htab_impl i : Columns())
		titles.push_back(kTables[i].name);
	o << TableHead("| threads |", titles);
	for (unsigned t : g_threads) {
		o << "| " << ThreadsLabel(t) << " |";
		for (bench_htab_impl i : Columns())
			o << " " << Fmt("%.2f", Rate(CaseName(i, w, t)) / 1e6)
			  << " |";
		o << "\n";
	}
	o << "\nRatios of medians (\"best\": the fastest striped grain "
	     "configuration, no RCU, named in the second column):\n\n";
	titles.clear();
	for (const auto &c : ratios)
		titles.push_back(c.title);
	o << TableHead("| threads | grain best striped |", titles);
	for (unsigned t : g_threads) {
		bench_htab_impl best = Resolve(kBest, w, t);
		o << "| " << ThreadsLabel(t) << " | "
		  << (best == kBest ? "–" : kTables[best].name) << " |";
		for (const auto &c : ratios)
			o << " "
			  << Fmt("%.2f", Ratio(CaseOf(c.num, w, t),
					       CaseOf(c.den, w, t)))
			  << " |";
		o << "\n";
	}
	return o.str();
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;

	Preamble(o, run, true, "tables");
	o << "- liburcu memb flavour: "
	  << (bench_htab_urcu_membarrier()
		      ? "membarrier system call in use (read side without "
			"fences)"
		      : "no membarrier system call (every read-side lock and "
			"unlock has a full fence)")
	  << "\n";
	LoadLines(o, run);
	MethodStart(o, run, false, true);
	o << "A run builds a fresh table holding the odd keys of the "
	     "universe 1.."
	  << BENCH_HTAB_UNIVERSE << " (" << BENCH_HTAB_INITIAL
	  << " entries, inserted in order by one thread, not timed), checks "
	     "it, then starts T threads together; each draws keys and "
	     "operations from its own xorshift64* generator until the "
	     "deadline. ops/s = operations completed by all threads / "
	     "elapsed time. Every key is a uint64_t hashed by "
	     "grain_hash_mix64 in every table; every chained table has "
	  << BENCH_HTAB_BUCKETS
	  << " bucket heads in all (about one entry per bucket), so none "
	     "resizes during a run. Churn: every operation inserts a key "
	     "never used before (per-thread counter) into the full table "
	     "(limit "
	  << BENCH_HTAB_CHURN_LIMIT
	  << " entries of charge 1), so every insert evicts one entry. "
	     "Threads are pinned one per CPU only when T <= "
	  << bench_nproc() << ".\n";
	o << "- Node memory, the same rule for every table: each entry is a "
	     "node malloc'd by the inserting thread (an insert of a key "
	     "already present frees its node again). Tables with lock-free "
	     "readers that follow node pointers (grain-rcu, grain-qsbr, "
	     "cds_lfht) free removed and evicted nodes after an RCU grace "
	     "period (call_rcu of their liburcu flavour, memb or qsbr, freed "
	     "on liburcu's call_rcu thread; grain's RCU tables hand them over "
	     "256 at a time per stripe, config.reclaim_batch), libcds_michael "
	     "after a hazard pointer scan; tables whose readers lock (grain "
	     "with GRAIN_HTAB_NO_RCU, both baselines, tbb_hash_map, "
	     "libcuckoo) free them at once; tbb_hash_map and libcds_michael "
	     "allocate their own nodes (std::allocator, so malloc), the "
	     "others a node of the adapter's; ck_ht "
	     "frees them at once too, which is safe only because its lookups "
	     "never follow the slot's pointer (see its note).\n";
	o << "- Correctness: before timing, each table is checked (entry "
	     "count, 4096 present keys found with the right value, 4096 "
	     "absent keys not found); during the run every value a lookup "
	     "returns is checked; after it, entries = before + inserts - "
	     "removes - evictions must hold (and grain's byte total must "
	     "equal its entry count), and after a mixed run every key of "
	     "the universe is looked up once, untimed: the keys found must "
	     "be the entries counted, each with its value; then 4096 keys "
	     "spread over it are each looked up and removed: the remove "
	     "must say removed exactly where the lookup found the key, and "
	     "the count drop by as many. A failure stops the program with "
	     "a non-zero exit.\n";
	o << "- Tables:\n";
	std::string missing;
	for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++)
		if (bench_htab_available(static_cast<bench_htab_impl>(i)))
			o << "  - " << kTables[i].name << ": "
			  << kTables[i].note << ". Churn: " << kTables[i].churn
			  << ".\n";
		else
			missing += (missing.empty() ? "" : ", ") +
				   std::string(kTables[i].name);
	o << "- Not built in: "
	  << (missing.empty() ? "nothing"
			      : missing + " (library not found at build time)")
	  << "\n\n";
	for (bench_htab_workload w : kWorkloads) {
		const bench_htab_workload_info *wi =
			bench_htab_workload_facts(w);
		o << "### ";
		if (w == BENCH_HTAB_CHURN)
			o << "churn at the high watermark (every operation "
			     "inserts a fresh key into the full table and one "
			     "entry is evicted)";
		else if (wi->burst != 0)
			o << "lookups in " << wi->name
			  << " random keys of the universe (an operation is "
			     "one key; no writers)";
		else
			o << wi->name << " (" << wi->lookup_pct << "% lookup, "
			  << wi->insert_pct << "% insert, " << wi->remove_pct
			  << "% remove)";
		o << ": million operations per second (median)\n\n"
		  << Tables(w) << "\n";
	}
	o << "– : not run (library missing) or not measured.\n";
	o << "\n### Targets\n\n"
	  << "\"Global mutex\" and \"global lock\" are the mutex baseline; "
	     "the (context) rows set grain against its own 1-stripe "
	     "table; \"grain best striped\" is the fastest in the regime "
	     "most runs saw, in every regime's column too.\n\n"
	  << RatioTargets("numerator, M ops/s", "denominator, M ops/s",
			  Targets());
	return o.str();
}

int Setup(const Options &opt)
{
	if (!opt.threads.empty() &&
	    !ParseCounts(opt.threads, BENCH_HTAB_MAX_THREADS, &g_threads)) {
		std::fprintf(stderr, "--threads: a list of 1..%u, e.g. 1,2,4\n",
			     BENCH_HTAB_MAX_THREADS);
		return 2;
	}
	// A quick run (the smoke test) checks the tables users pick at 2
	// threads only, unless --threads says otherwise: each run's set-up
	// (half a million inserts, the checks) costs far more than its
	// timed part, and at every count they would add half a minute.
	auto skipped = [&opt](bench_htab_impl i, unsigned t) {
		return opt.quick && opt.threads.empty() && t != 2 &&
		       (i == BENCH_HTAB_TBB || i == BENCH_HTAB_CUCKOO ||
			i == BENCH_HTAB_CDS);
	};
	for (bench_htab_workload w : kWorkloads)
		for (unsigned t : g_threads)
			for (bench_htab_impl i : Columns())
				if (!skipped(i, t) && Runs(i, w))
					g_cases.push_back(
						{ i, w, t, CaseName(i, w, t) });
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 7 (quick 50 ms x 2); --targets 66 columns.
	return { 50, 300,   2,	     7,	      66,     false, "ops_per_sec",
		 {}, Setup, Summary, Targets, nullptr };
}
