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
// Extra flags, taken out before Google Benchmark sees the rest:
//   --quick            short runs (50 ms x 2) for a smoke test
//   --duration_ms=N    length of one run (default 300, quick 50)
//   --reps=N           repetitions per benchmark (default 7, quick 2)
//   --summary[=FILE]   print a markdown table of medians and ratios, and
//                      write it to FILE if given
//   --targets          print each performance target with its measured
//                      ratio and PASS or MISS (a MISS never fails the run)
// The program exits non-zero if any run found a correctness problem (a
// wrong value, a failed pre-check, books that do not balance), or could
// not run.

#include "adapters/adapters.h"
#include "../common/machine.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifndef GRAIN_BENCH_SOURCE_DIR
#define GRAIN_BENCH_SOURCE_DIR "."
#endif
#ifndef GRAIN_BENCH_BUILD_TYPE
#define GRAIN_BENCH_BUILD_TYPE "unknown"
#endif

namespace {

struct Options {
	bool quick = false;
	bool targets = false;
	bool summary = false;
	std::string summary_file;
	unsigned duration_ms = 0; // 0: default for the mode
	int reps = 0;
};

const unsigned kThreads[] = { 1, 2, 4 };

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

struct Runs {
	std::vector<double> rates;
	double hit_ratio = NAN;
};

std::map<std::string, Runs> g_runs; // by benchmark name
bool g_failed = false;
unsigned g_duration_ms = 300;
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
		cfg.duration_ms = g_duration_ms;
		cfg.seed = g_seed++;
		bench_htab_result res{};
		int rc = bench_htab_run(c->impl, &cfg, &res);
		if (rc != 0) {
			std::fprintf(stderr, "%s: bench_htab_run failed: %s\n",
				     c->name.c_str(), std::strerror(-rc));
			g_failed = true;
			state.SkipWithError("bench_htab_run failed");
			break;
		}
		if (res.errors != 0) {
			std::fprintf(
				stderr,
				"%s: %llu correctness errors; first: %s\n",
				c->name.c_str(),
				static_cast<unsigned long long>(res.errors),
				res.error);
			g_failed = true;
			state.SkipWithError("correctness errors");
			break;
		}
		state.SetIterationTime(res.seconds);
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
		Runs &r = g_runs[c->name];
		r.rates.push_back(res.ops_per_sec);
		if (res.lookups != 0)
			r.hit_ratio = static_cast<double>(res.hits) /
				      static_cast<double>(res.lookups);
	}
}

// --- flags -----------------------------------------------------------------

bool TakeFlag(const char *arg, Options *o)
{
	if (std::strcmp(arg, "--quick") == 0) {
		o->quick = true;
	} else if (std::strcmp(arg, "--targets") == 0) {
		o->targets = true;
	} else if (std::strcmp(arg, "--summary") == 0) {
		o->summary = true;
	} else if (std::strncmp(arg, "--summary=", 10) == 0) {
		o->summary = true;
		o->summary_file = arg + 10;
	} else if (std::strncmp(arg, "--duration_ms=", 14) == 0) {
		o->duration_ms = static_cast<unsigned>(
			std::strtoul(arg + 14, nullptr, 10));
	} else if (std::strncmp(arg, "--reps=", 7) == 0) {
		o->reps = std::atoi(arg + 7);
	} else {
		return false;
	}
	return true;
}

// --- machine description ---------------------------------------------------

using namespace grain_bench;

double MedianOf(bench_htab_impl impl, bench_htab_workload w, unsigned threads)
{
	auto it = g_runs.find(CaseName(impl, w, threads));
	return it == g_runs.end() ? NAN : Median(it->second.rates);
}

std::string Fmt(const char *fmt, double v)
{
	if (std::isnan(v) || v < 0)
		return "–";
	char buf[64];
	std::snprintf(buf, sizeof(buf), fmt, v);
	return buf;
}

std::string ThreadsLabel(unsigned threads)
{
	unsigned nproc = bench_nproc();
	std::string s = std::to_string(threads) +
			(threads == 1 ? " thread" : " threads");
	if (threads > nproc)
		s += " (oversubscribed: " + std::to_string(threads) +
		     " threads on " + std::to_string(nproc) + " cores)";
	return s;
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

// "median (min–max)" in millions per second.
std::string Spread(bench_htab_impl impl, bench_htab_workload w,
		   unsigned threads)
{
	auto it = g_runs.find(CaseName(impl, w, threads));
	if (it == g_runs.end() || it->second.rates.empty())
		return "–";
	const std::vector<double> &v = it->second.rates;
	auto mm = std::minmax_element(v.begin(), v.end());
	char buf[96];
	std::snprintf(buf, sizeof(buf), "%.2f (%.2f–%.2f)", Median(v) / 1e6,
		      *mm.first / 1e6, *mm.second / 1e6);
	return buf;
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

struct Target {
	std::string what;
	bench_htab_workload workload;
	unsigned threads;
	Side num, den;
	double goal;
	bool primary; // a target from the issue (else shown for context)
};

bench_htab_impl Resolve(const Side &s, bench_htab_workload w, unsigned t)
{
	return s.best_grain ? BestGrain(w, t).impl : s.impl;
}

double Ratio(const Target &t)
{
	bench_htab_impl n = Resolve(t.num, t.workload, t.threads);
	bench_htab_impl d = Resolve(t.den, t.workload, t.threads);
	if (n == BENCH_HTAB_IMPL_COUNT || d == BENCH_HTAB_IMPL_COUNT)
		return NAN;
	return MedianOf(n, t.workload, t.threads) /
	       MedianOf(d, t.workload, t.threads);
}

// The targets, at 1 and 2 threads. "Global mutex" is the mutex baseline;
// "grain best striped" the fastest grain configuration without RCU, with
// its LRU, byte accounting, watermark checks and TTL on; grain's own
// 1-stripe table is shown beside them for context.
std::vector<Target> Targets()
{
	const bench_htab_workload r = BENCH_HTAB_READ90, m = BENCH_HTAB_MIX50,
				  c = BENCH_HTAB_CHURN;
	const Side mutex = Of(BENCH_HTAB_MUTEX), striped = Of(BENCH_HTAB_STRIPED),
		   rcu = Of(BENCH_HTAB_GRAIN_RCU), locked = Of(BENCH_HTAB_GRAIN_256),
		   qsbr = Of(BENCH_HTAB_GRAIN_QSBR);
	return {
		{ "90/5/5, 1 thread: grain best striped >= 1.0x striped "
		  "baseline", r, 1, kBest, striped, 1.0, true },
		{ "90/5/5, 2 threads: grain best striped >= 1.0x striped "
		  "baseline", r, 2, kBest, striped, 1.0, true },
		{ "50/25/25, 1 thread: grain best striped >= 1.0x striped "
		  "baseline", m, 1, kBest, striped, 1.0, true },
		{ "50/25/25, 2 threads: grain best striped >= 1.0x striped "
		  "baseline", m, 2, kBest, striped, 1.0, true },
		{ "90/5/5, 1 thread: grain best striped >= 1.0x global mutex",
		  r, 1, kBest, mutex, 1.0, true },
		{ "50/25/25, 1 thread: grain best striped >= 1.0x global mutex",
		  m, 1, kBest, mutex, 1.0, true },
		{ "90/5/5, 2 threads: grain RCU lookups >= 1.3x striped "
		  "baseline", r, 2, rcu, striped, 1.3, true },
		{ "50/25/25, 2 threads: grain RCU lookups >= 1.3x striped "
		  "baseline", m, 2, rcu, striped, 1.3, true },
		{ "90/5/5, 1 thread: grain RCU lookups >= 1.0x grain locked "
		  "(256 stripes)", r, 1, rcu, locked, 1.0, true },
		{ "90/5/5, 2 threads: grain RCU lookups >= 1.0x grain locked "
		  "(256 stripes)", r, 2, rcu, locked, 1.0, true },
		{ "90/5/5, 2 threads: grain RCU lookups, qsbr flavour >= 1.3x "
		  "striped baseline", r, 2, qsbr, striped, 1.3, true },
		{ "50/25/25, 2 threads: grain RCU lookups, qsbr flavour >= 1.3x "
		  "striped baseline", m, 2, qsbr, striped, 1.3, true },
		{ "90/5/5, 1 thread: grain RCU lookups, qsbr flavour >= 1.0x "
		  "grain locked (256 stripes)", r, 1, qsbr, locked, 1.0, true },
		{ "90/5/5, 2 threads: grain RCU lookups, qsbr flavour >= 1.0x "
		  "grain locked (256 stripes)", r, 2, qsbr, locked, 1.0, true },
		{ "90/5/5, 2 threads: grain best striped >= 3x global mutex", r,
		  2, kBest, mutex, 3.0, true },
		{ "90/5/5, 2 threads: grain best striped >= 2x cds_lfht", r, 2,
		  kBest, Of(BENCH_HTAB_LFHT), 2.0, true },
		{ "90/5/5, 2 threads: grain best striped >= 1.0x ck_ht", r, 2,
		  kBest, Of(BENCH_HTAB_CKHT), 1.0, true },
		{ "churn, 2 threads: grain best striped >= 3x global mutex", c,
		  2, kBest, mutex, 3.0, true },
		{ "(context) 90/5/5, 2 threads: grain best striped / grain/1",
		  r, 2, kBest, Of(BENCH_HTAB_GRAIN_1), 1.0, false },
		{ "(context) 50/25/25, 2 threads: grain best striped / grain/1",
		  m, 2, kBest, Of(BENCH_HTAB_GRAIN_1), 1.0, false },
		{ "(context) churn, 2 threads: grain best striped / grain/1", c,
		  2, kBest, Of(BENCH_HTAB_GRAIN_1), 1.0, false },
	};
}

std::string Verdict(const Target &t)
{
	double r = Ratio(t);
	if (std::isnan(r))
		return "n/a (not measured)";
	return r >= t.goal ? "PASS" : "MISS";
}

std::string SideText(const Side &s, const Target &t)
{
	bench_htab_impl i = Resolve(s, t.workload, t.threads);
	if (i == BENCH_HTAB_IMPL_COUNT)
		return "–";
	return std::string(ImplName(i)) + ": " +
	       Spread(i, t.workload, t.threads);
}

std::string TargetsTable()
{
	std::ostringstream o;
	o << "| target | ratio of medians | result | numerator, M ops/s "
	     "median (min–max) | denominator, M ops/s median (min–max) |\n"
	     "|---|---:|---|---|---|\n";
	for (const Target &t : Targets())
		o << "| " << t.what << " | " << Fmt("%.2fx", Ratio(t)) << " | "
		  << (t.primary ? Verdict(t) : "–") << " | "
		  << SideText(t.num, t) << " | " << SideText(t.den, t)
		  << " |\n";
	return o.str();
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
	o << "| threads |";
	for (bench_htab_impl i : cols)
		o << " " << ImplName(i) << " |";
	o << "\n|---|";
	for (size_t i = 0; i < cols.size(); i++)
		o << "---:|";
	o << "\n";
	for (unsigned t : kThreads) {
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
	o << "| threads | grain best striped |";
	for (const Col &c : cols)
		o << " " << c.title << " |";
	o << "\n|---|---|";
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		o << "---:|";
	o << "\n";
	for (unsigned t : kThreads) {
		o << "| " << ThreadsLabel(t) << " | "
		  << BestName(BestGrain(w, t)) << " |";
		for (const Col &c : cols) {
			Target x{ "", w, t, c.num, c.den, 0, false };
			o << " " << Fmt("%.2f", Ratio(x)) << " |";
		}
		o << "\n";
	}
	return o.str();
}

std::string Summary(const std::string &command, int reps,
		    const std::string &load_before, const CpuSample &cpu_before,
		    const CpuSample &cpu_after)
{
	std::ostringstream o;
	unsigned nproc = bench_nproc();

	o << "Command: `" << command << "`\n\n";
	o << "- Machine: " << nproc << " online CPUs, " << CpuModel() << " ("
	  << CacheSizes() << "), " << Kernel() << "\n";
	o << "- Compilers: C " << Trim(bench_c_compiler()) << ", C++ "
	  << Trim(CxxCompiler()) << "; build type " << GRAIN_BENCH_BUILD_TYPE
	  << "\n";
	if (std::strcmp(GRAIN_BENCH_BUILD_TYPE, "Debug") == 0)
		o << "- WARNING: unoptimised (Debug) build; these figures say "
		     "nothing about the tables.\n";
	o << "- liburcu memb flavour: "
	  << (bench_htab_urcu_membarrier()
		      ? "membarrier system call in use (read side without "
			"fences)"
		      : "no membarrier system call (every read-side lock and "
			"unlock has a full fence)")
	  << "\n";
	o << "- Load average (1, 5, 15 min) before the run: " << load_before
	  << "; after: " << LoadAverage() << "\n";
	o << "- During the run: " << OtherLoad(cpu_before, cpu_after) << "\n";
	o << "- Source revision: " << GitRevision() << "\n";
	o << "- Method: each figure is the median of " << reps << " runs of "
	  << g_duration_ms
	  << " ms (repetitions of all benchmarks interleaved in random "
	     "order). A run builds a fresh table holding the odd keys of the "
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
	     "memb call_rcu, freed on liburcu's call_rcu thread); tables "
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
	     "table.\n\n"
	  << TargetsTable();
	return o.str();
}

} // namespace

int main(int argc, char **argv)
{
	Options opt;
	std::string command;
	int kept = 1;
	for (int i = 0; i < argc; i++) {
		command += (i ? " " : "") + std::string(argv[i]);
		if (i > 0) {
			if (!TakeFlag(argv[i], &opt))
				argv[kept++] = argv[i];
		}
	}
	argc = kept;
	argv[argc] = nullptr;

	g_duration_ms = opt.duration_ms ? opt.duration_ms
					: (opt.quick ? 50u : 300u);
	int reps = opt.reps > 0 ? opt.reps : (opt.quick ? 2 : 7);

	static std::vector<Case> cases;
	for (bench_htab_workload w : kWorkloads)
		for (unsigned t : kThreads)
			for (int i = 0; i < BENCH_HTAB_IMPL_COUNT; i++) {
				bench_htab_impl impl =
					static_cast<bench_htab_impl>(i);
				bench_htab_config probe{};
				probe.workload = w;
				probe.threads = t;
				probe.duration_ms = 1;
				if (!bench_htab_config_ok(impl, &probe))
					continue;
				cases.push_back(
					{ impl, w, t, CaseName(impl, w, t) });
			}
	for (const Case &c : cases) {
		benchmark::RegisterBenchmark(c.name.c_str(), RunCase, &c)
			->Iterations(1)
			->Repetitions(reps)
			->ReportAggregatesOnly(true)
			->UseManualTime()
			->Unit(benchmark::kMillisecond);
	}

	// Repetitions of all benchmarks are interleaved in random order unless
	// the caller says otherwise: on a machine whose speed drifts (shared
	// or virtual CPUs) drift then spreads over every table instead of
	// favouring whichever ran in a fast stretch.
	std::vector<char *> args(argv, argv + argc);
	static char interleave[] =
		"--benchmark_enable_random_interleaving=true";
	bool has_interleave = false;
	for (int i = 1; i < argc; i++)
		if (std::strncmp(argv[i],
				 "--benchmark_enable_random_interleaving",
				 38) == 0)
			has_interleave = true;
	if (!has_interleave)
		args.push_back(interleave);
	args.push_back(nullptr);
	argc = static_cast<int>(args.size()) - 1;
	argv = args.data();

	std::string load_before = LoadAverage();
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	CpuSample cpu_before = SampleCpu();
	benchmark::RunSpecifiedBenchmarks();
	CpuSample cpu_after = SampleCpu();
	benchmark::Shutdown();

	if (opt.summary) {
		std::string s = Summary(command, reps, load_before, cpu_before,
					cpu_after);
		std::fputs("\n", stdout);
		std::fputs(s.c_str(), stdout);
		if (!opt.summary_file.empty()) {
			std::ofstream f(opt.summary_file);
			f << s;
			if (!f) {
				std::fprintf(stderr, "cannot write %s\n",
					     opt.summary_file.c_str());
				return 2;
			}
		}
	}
	if (opt.targets) {
		std::fputs(
			"\nTargets (timing; a MISS does not fail the run):\n",
			stdout);
		for (const Target &t : Targets()) {
			if (!t.primary)
				continue;
			std::printf("  %-66s %8s  %s\n", t.what.c_str(),
				    Fmt("%.2fx", Ratio(t)).c_str(),
				    Verdict(t).c_str());
		}
	}
	if (g_failed) {
		std::fprintf(stderr, "FAILED: a run reported errors\n");
		return 1;
	}
	return 0;
}
