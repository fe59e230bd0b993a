/* SPDX-License-Identifier: BSD-2-Clause */
// bench_htab.cc - the lock-granularity benchmark of grain_htab: grain_htab
// with 1, 16, 256 and 4096 stripes and in RCU-lookup mode, against the two
// baselines (one mutex; 256 spinlocks) and the anchors cds_lfht (liburcu)
// and ck_ht (ConcurrencyKit), side by side in one run (Google Benchmark
// registration and reporting).
//
// Every benchmark is one timed experiment of bench_htab_run() (adapters.h):
// Iterations(1), manual time = the experiment's measured seconds,
// Repetitions(R), and only the aggregates (median first) are reported. The
// counter ops_per_sec is the number of table operations per second, all
// threads together.
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 7, quick
// 50 ms x 2; --threads=LIST the thread counts (default 1,2,4). The
// program exits non-zero if any run found a correctness problem (a wrong
// value, a failed pre-check, books that do not balance), or could not run.

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

std::vector<unsigned> g_threads = { 1, 2, 4 };

const bench_htab_workload kWorkloads[] = { BENCH_HTAB_READ90, BENCH_HTAB_MIX50,
					   BENCH_HTAB_CHURN };

// The striped grain configurations: "grain best" is the fastest of them.
const bench_htab_impl kGrainStriped[] = { BENCH_HTAB_GRAIN_16,
					  BENCH_HTAB_GRAIN_256,
					  BENCH_HTAB_GRAIN_4096 };

struct Case {
	bench_htab_impl impl;
	bench_htab_workload workload;
	unsigned threads;
	std::string name;
};

uint64_t g_seed = 1;

const char *ImplName(bench_htab_impl impl)
{
	return bench_htab_info(impl)->name;
}

std::string CaseName(bench_htab_impl impl, bench_htab_workload w,
		     unsigned threads)
{
	return std::string("htab/") + bench_htab_workload_facts(w)->label +
	       "/" + std::to_string(threads) + "t/" + ImplName(impl);
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_htab_config cfg{};
		cfg.workload = c->workload;
		cfg.threads = c->threads;
		cfg.duration_ms = DurationMs();
		cfg.seed = g_seed++;
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

double MedianOf(bench_htab_impl impl, bench_htab_workload w, unsigned threads)
{
	return Rate(CaseName(impl, w, threads));
}

std::string ThreadsLabel(unsigned threads)
{
	return std::to_string(threads) +
	       (threads == 1 ? " thread" : " threads") +
	       Oversubscribed(threads);
}

// The fastest striped grain configuration (no RCU) for a workload and
// thread count; impl is BENCH_HTAB_IMPL_COUNT if none ran.
struct Best {
	bench_htab_impl impl = BENCH_HTAB_IMPL_COUNT;
	double rate = NAN;
};

Best BestGrain(bench_htab_workload w, unsigned threads)
{
	Best b;
	for (bench_htab_impl i : kGrainStriped) {
		double v = MedianOf(i, w, threads);
		if (!std::isnan(v) && (std::isnan(b.rate) || v > b.rate)) {
			b.rate = v;
			b.impl = i;
		}
	}
	return b;
}

std::string BestName(const Best &b)
{
	return b.impl == BENCH_HTAB_IMPL_COUNT ? "–" : ImplName(b.impl);
}

// One side of a target: a fixed implementation, or "the best striped grain
// configuration".
struct Side {
	bool best_grain;
	bench_htab_impl impl;
};

const Side kBest = { true, BENCH_HTAB_IMPL_COUNT };

Side Of(bench_htab_impl impl)
{
	return { false, impl };
}

bench_htab_impl Resolve(const Side &s, bench_htab_workload w, unsigned t)
{
	return s.best_grain ? BestGrain(w, t).impl : s.impl;
}

// The case a side stands for; "" when none ran.
std::string CaseOf(const Side &s, bench_htab_workload w, unsigned t)
{
	bench_htab_impl i = Resolve(s, w, t);
	return i == BENCH_HTAB_IMPL_COUNT ? "" : CaseName(i, w, t);
}

std::string SideText(const Side &s, bench_htab_workload w, unsigned t)
{
	std::string name = CaseOf(s, w, t);
	return name.empty() ? "–"
			    : std::string(ImplName(Resolve(s, w, t))) + ": " +
				      Spread(name, 1e6, 2);
}

// A side of a target and its name in the target's words.
struct Named {
	Side side;
	const char *words;
};

// The targets, at 1 and 2 threads. "Global mutex" is the mutex baseline;
// "grain best striped" the fastest grain configuration without RCU, with
// its LRU, byte accounting, watermark checks and TTL on; grain's own
// 1-stripe table is shown beside them for context.
std::vector<Target> Targets()
{
	const bench_htab_workload r = BENCH_HTAB_READ90, m = BENCH_HTAB_MIX50,
				  c = BENCH_HTAB_CHURN;
	const Named best = { kBest, "grain best striped" },
		    striped = { Of(BENCH_HTAB_STRIPED), "striped baseline" },
		    mutex = { Of(BENCH_HTAB_MUTEX), "global mutex" },
		    locked = { Of(BENCH_HTAB_GRAIN_256),
			       "grain locked (256 stripes)" },
		    rcu = { Of(BENCH_HTAB_GRAIN_RCU), "grain RCU lookups" },
		    qsbr = { Of(BENCH_HTAB_GRAIN_QSBR),
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
	add(r, 2, best, { Of(BENCH_HTAB_LFHT), "cds_lfht" }, 2.0);
	add(r, 2, best, { Of(BENCH_HTAB_CKHT), "ck_ht" }, 1.0);
	add(c, 2, best, mutex, 3.0);
	for (bench_htab_workload w : { r, m, c })
		add(w, 2, best, { Of(BENCH_HTAB_GRAIN_1), "grain/1" }, 0);
	return t;
}

std::vector<bench_htab_impl> Columns()
{
	std::vector<bench_htab_impl> cols;
	for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++)
		if (bench_htab_info(static_cast<bench_htab_impl>(i))->available)
			cols.push_back(static_cast<bench_htab_impl>(i));
	return cols;
}

std::string WorkloadTitle(bench_htab_workload w)
{
	const bench_htab_workload_info *wi = bench_htab_workload_facts(w);
	if (wi->churn)
		return "churn at the high watermark (every operation inserts a "
		       "fresh key into the full table and one entry is "
		       "evicted)";
	return std::string(wi->name) + " (" + std::to_string(wi->lookup_pct) +
	       "% lookup, " + std::to_string(wi->insert_pct) + "% insert, " +
	       std::to_string(wi->remove_pct) + "% remove)";
}

std::string ThroughputTable(bench_htab_workload w)
{
	std::vector<bench_htab_impl> cols = Columns();
	std::ostringstream o;
	std::vector<std::string> titles;
	for (bench_htab_impl i : cols)
		titles.push_back(ImplName(i));
	o << TableHead("| threads |", titles);
	for (unsigned t : g_threads) {
		o << "| " << ThreadsLabel(t) << " |";
		for (bench_htab_impl i : cols)
			o << " " << Fmt("%.2f", MedianOf(i, w, t) / 1e6)
			  << " |";
		o << "\n";
	}
	return o.str();
}

std::string RatioTable(bench_htab_workload w)
{
	struct Col {
		const char *title;
		Side num, den;
	};
	const Col cols[] = {
		{ "best / mutex", kBest, Of(BENCH_HTAB_MUTEX) },
		{ "best / grain/1", kBest, Of(BENCH_HTAB_GRAIN_1) },
		{ "best / striped", kBest, Of(BENCH_HTAB_STRIPED) },
		{ "best / cds_lfht", kBest, Of(BENCH_HTAB_LFHT) },
		{ "best / ck_ht", kBest, Of(BENCH_HTAB_CKHT) },
		{ "grain-rcu / striped", Of(BENCH_HTAB_GRAIN_RCU),
		  Of(BENCH_HTAB_STRIPED) },
		{ "grain-rcu / cds_lfht", Of(BENCH_HTAB_GRAIN_RCU),
		  Of(BENCH_HTAB_LFHT) },
		{ "grain-qsbr / striped", Of(BENCH_HTAB_GRAIN_QSBR),
		  Of(BENCH_HTAB_STRIPED) },
	};
	std::ostringstream o;
	std::vector<std::string> titles;
	for (const Col &c : cols)
		titles.push_back(c.title);
	o << TableHead("| threads | grain best striped |", titles);
	for (unsigned t : g_threads) {
		o << "| " << ThreadsLabel(t) << " | "
		  << BestName(BestGrain(w, t)) << " |";
		for (const Col &c : cols)
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
	unsigned nproc = bench_nproc();

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
	  << nproc << ".\n";
	o << "- Node memory, the same rule for every table: each entry is a "
	     "node malloc'd by the inserting thread (an insert of a key "
	     "already present frees its node again). Tables with lock-free "
	     "readers that follow node pointers (grain-rcu, cds_lfht) free "
	     "removed and evicted nodes after an RCU grace period (liburcu "
	     "memb call_rcu, freed on liburcu's call_rcu thread; grain's "
	     "RCU tables hand them over 256 at a time per stripe, "
	     "config.reclaim_batch); tables "
	     "whose readers lock (grain with GRAIN_HTAB_NO_RCU, both "
	     "baselines) free them at once; ck_ht frees them at once too, "
	     "which is safe only because its lookups never follow the slot's "
	     "pointer (see its note).\n";
	o << "- Correctness: before timing, each table is checked (entry "
	     "count, 4096 present keys found with the right value, 4096 "
	     "absent keys not found); during the run every value a lookup "
	     "returns is checked; after it, entries = before + inserts - "
	     "removes - evictions must hold (and grain's byte total must "
	     "equal its entry count). A failure stops the program with a "
	     "non-zero exit.\n";
	o << "- Tables:\n";
	for (bench_htab_impl i : Columns()) {
		const bench_htab_impl_info *info = bench_htab_info(i);
		o << "  - " << info->name << ": " << info->note
		  << ". Churn: " << info->churn << ".\n";
	}
	std::string missing;
	for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++) {
		const bench_htab_impl_info *info =
			bench_htab_info(static_cast<bench_htab_impl>(i));
		if (!info->available)
			missing += (missing.empty() ? "" : ", ") +
				   std::string(info->name);
	}
	o << "- Not built in: "
	  << (missing.empty() ? "nothing"
			      : missing + " (library not found at build time)")
	  << "\n\n";

	for (bench_htab_workload w : kWorkloads) {
		o << "### " << WorkloadTitle(w)
		  << ": million operations per second (median)\n\n"
		  << ThroughputTable(w) << "\n";
		o << "Ratios of medians (\"best\": the fastest striped grain "
		     "configuration, no RCU, named in the second column):\n\n"
		  << RatioTable(w) << "\n";
	}
	o << "– : not run (library missing) or not measured.\n";
	o << "\n### Targets\n\n"
	  << "\"Global mutex\" and \"global lock\" are the mutex baseline; "
	     "the (context) rows set grain against its own 1-stripe "
	     "table; \"grain best striped\" is the fastest in the regime "
	     "most runs saw, in every regime's column too.\n\n"
	  << TargetsTable("ratio of medians",
			  { "numerator, M ops/s median (min–max)",
			    "denominator, M ops/s median (min–max)" },
			  Targets());
	return o.str();
}

std::vector<Case> g_cases;

int Setup(const Options &opt)
{
	if (!opt.threads.empty() &&
	    !ParseCounts(opt.threads, BENCH_HTAB_MAX_THREADS, &g_threads)) {
		std::fprintf(stderr, "--threads: a list of 1..%u, e.g. 1,2,4\n",
			     BENCH_HTAB_MAX_THREADS);
		return 2;
	}
	for (bench_htab_workload w : kWorkloads)
		for (unsigned t : g_threads)
			for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++) {
				bench_htab_impl impl =
					static_cast<bench_htab_impl>(i);
				bench_htab_config probe{};
				probe.workload = w;
				probe.threads = t;
				probe.duration_ms = 1;
				if (!bench_htab_config_ok(impl, &probe))
					continue;
				g_cases.push_back(
					{ impl, w, t, CaseName(impl, w, t) });
			}
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 7 (quick 50 ms x 2); --targets 66 columns.
	return { 50, 300,   2,	     7,	      66,     false, "ops_per_sec",
		 {}, Setup, Summary, Targets, nullptr };
}
