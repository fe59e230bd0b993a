/* SPDX-License-Identifier: BSD-2-Clause */
// bench_ring.cc - grain_ring against its baselines and anchors, side by side
// in one run (Google Benchmark registration and reporting).
//
// Every benchmark is one timed experiment of bench_run() (adapters.h):
// Iterations(1), manual time = the experiment's measured seconds,
// Repetitions(R), and only the aggregates (median first) are reported.
// The counter pairs_per_sec is the number of tokens that went through the
// queue per second.
//
// Extra flags, taken out before Google Benchmark sees the rest:
//   --quick            short runs (60 ms x 3) for a smoke test
//   --duration_ms=N    length of one run (default 300, quick 60)
//   --reps=N           repetitions per benchmark (default 5, quick 3)
//   --summary[=FILE]   print a markdown table of medians and ratios, and
//                      write it to FILE if given
//   --targets          print each performance target with its measured
//                      ratio and PASS or MISS (a MISS never fails the run)
// The program exits non-zero if any run reported an ordering or count
// error, or could not run.

#include "adapters/adapters.h"
#include "common/machine.h"

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

struct Config {
	unsigned producers;
	unsigned consumers;
};

// 1P1C, 2P2C and 4P4C are the main configurations; 2P1C and 1P2C add the
// cases where MPSC and SPMC run with more than one thread on their
// multi side.
const Config kConfigs[] = {
	{ 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 }, { 4, 4 },
};

struct Batch {
	bench_kind kind;
	unsigned n;
	const char *label;
};

const Batch kBatches[] = {
	{ BENCH_SINGLE, 1, "single" },	{ BENCH_BULK, 8, "bulk8" },
	{ BENCH_BULK, 32, "bulk32" },	{ BENCH_BURST, 8, "burst8" },
	{ BENCH_BURST, 32, "burst32" },
};

struct Case {
	bench_impl impl;
	Config cfg;
	Batch batch;
	std::string name;
};

struct Runs {
	std::vector<double> rates;
	int deadline_hits = 0; // runs whose drain passed its deadline
};

std::map<std::string, Runs> g_runs; // by benchmark name
bool g_failed = false;
unsigned g_duration_ms = 300;

std::string ConfigName(const Config &c)
{
	return std::to_string(c.producers) + "P" + std::to_string(c.consumers) +
	       "C";
}

std::string CaseName(bench_impl impl, const Config &c, const Batch &b)
{
	const bench_impl_info *info = bench_info(impl);
	return std::string("ring/") + info->mode + "/" + info->name + "/" +
	       ConfigName(c) + "/" + b.label;
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_config cfg{};
		cfg.producers = c->cfg.producers;
		cfg.consumers = c->cfg.consumers;
		cfg.kind = c->batch.kind;
		cfg.batch = c->batch.n;
		cfg.duration_ms = g_duration_ms;
		bench_result res{};
		int rc = bench_run(c->impl, &cfg, &res);
		if (rc != 0) {
			std::fprintf(stderr, "%s: bench_run failed: %s\n",
				     c->name.c_str(), std::strerror(-rc));
			g_failed = true;
			state.SkipWithError("bench_run failed");
			break;
		}
		if (res.errors != 0) {
			std::fprintf(
				stderr, "%s: %llu ordering/count errors\n",
				c->name.c_str(),
				static_cast<unsigned long long>(res.errors));
			g_failed = true;
			state.SkipWithError("ordering/count errors");
			break;
		}
		state.SetIterationTime(res.seconds);
		state.counters["pairs_per_sec"] = res.pairs_per_sec;
		state.counters["drain_s"] = res.stop_seconds;
		state.counters["drain_deadline_hit"] =
			res.drain_deadline_hit ? 1.0 : 0.0;
		// Failed tries per pair moved: how often the ring ran full
		// (producers) or empty (consumers).
		double moved = res.pairs_total
				       ? static_cast<double>(res.pairs_total)
				       : 1.0;
		state.counters["full_per_pair"] =
			static_cast<double>(res.full_tries) / moved;
		state.counters["empty_per_pair"] =
			static_cast<double>(res.empty_tries) / moved;
		// Tokens per successful call: how full bursts really were.
		if (res.put_calls != 0)
			state.counters["per_put"] =
				moved / static_cast<double>(res.put_calls);
		if (res.get_calls != 0)
			state.counters["per_get"] =
				moved / static_cast<double>(res.get_calls);
		Runs &r = g_runs[c->name];
		r.rates.push_back(res.pairs_per_sec);
		r.deadline_hits += res.drain_deadline_hit ? 1 : 0;
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

double MedianOf(bench_impl impl, const Config &c, const Batch &b)
{
	auto it = g_runs.find(CaseName(impl, c, b));
	return it == g_runs.end() ? NAN : Median(it->second.rates);
}

const Config *FindConfig(unsigned p, unsigned c)
{
	for (const Config &cfg : kConfigs)
		if (cfg.producers == p && cfg.consumers == c)
			return &cfg;
	return nullptr;
}

const Batch *FindBatch(const char *label)
{
	for (const Batch &b : kBatches)
		if (std::strcmp(b.label, label) == 0)
			return &b;
	return nullptr;
}

std::string Fmt(const char *fmt, double v)
{
	if (std::isnan(v) || v < 0)
		return "–";
	char buf[64];
	std::snprintf(buf, sizeof(buf), fmt, v);
	return buf;
}

std::string ConfigLabel(const Config &c)
{
	unsigned threads = c.producers + c.consumers, nproc = bench_nproc();
	std::string s = ConfigName(c);
	if (threads > nproc)
		s += " (oversubscribed: " + std::to_string(threads) +
		     " threads on " + std::to_string(nproc) + " cores)";
	return s;
}

// Under 10% of the same queue's 1P1C rate at the same batch: the queue's
// throughput collapsed (its runs still ended at their deadline).
bool Collapsed(bench_impl impl, const Config &c, const Batch &b)
{
	const Config *base = FindConfig(1, 1);
	if (base == nullptr || (c.producers == 1 && c.consumers == 1))
		return false;
	double here = MedianOf(impl, c, b), ref = MedianOf(impl, *base, b);
	return !std::isnan(here) && !std::isnan(ref) && here < 0.1 * ref;
}

// Runs in which the consumers were still draining 200 ms after the
// deadline (threads waiting on preempted peers).
int DeadlineHits(bench_impl impl, const Config &c, const Batch &b)
{
	auto it = g_runs.find(CaseName(impl, c, b));
	return it == g_runs.end() ? 0 : it->second.deadline_hits;
}

std::string ImplHeader(bench_impl impl)
{
	const bench_impl_info *info = bench_info(impl);
	std::string s = info->name;
	if (std::strcmp(info->name, "grain") == 0)
		s += std::string(" ") + info->mode;
	return s;
}

const bench_impl kOthers[] = { BENCH_CK, BENCH_RTE, BENCH_WFCQ, BENCH_MUTEX,
			       BENCH_TWOLOCK };

struct Target {
	std::string what;
	std::string num; // benchmark names of the two sides
	std::string den;
	double goal;
	double ratio;
};

double MedianByName(const std::string &name)
{
	auto it = g_runs.find(name);
	return it == g_runs.end() ? NAN : Median(it->second.rates);
}

// "median (min–max)" in millions per second.
std::string Spread(const std::string &name)
{
	auto it = g_runs.find(name);
	if (it == g_runs.end() || it->second.rates.empty())
		return "–";
	const std::vector<double> &v = it->second.rates;
	auto mm = std::minmax_element(v.begin(), v.end());
	char buf[96];
	std::snprintf(buf, sizeof(buf), "%.1f (%.1f–%.1f)", Median(v) / 1e6,
		      *mm.first / 1e6, *mm.second / 1e6);
	return buf;
}

std::vector<Target> Targets()
{
	const Config c11 = *FindConfig(1, 1), c22 = *FindConfig(2, 2),
		     c44 = *FindConfig(4, 4);
	const Batch single = *FindBatch("single"),
		    burst32 = *FindBatch("burst32");
	auto n = [](bench_impl i, const Config &c, const Batch &b) {
		return CaseName(i, c, b);
	};
	std::vector<Target> t = {
		{ "MPMC 1P1C single: grain >= 5x ck_ring MPMC",
		  n(BENCH_GRAIN_MPMC, c11, single), n(BENCH_CK, c11, single),
		  5.0, NAN },
		{ "MPMC 1P1C single: grain >= 5x rte_ring MP/MC",
		  n(BENCH_GRAIN_MPMC, c11, single), n(BENCH_RTE, c11, single),
		  5.0, NAN },
		{ "MPMC 1P1C single: grain >= 1.0x two-lock baseline",
		  n(BENCH_GRAIN_MPMC, c11, single),
		  n(BENCH_TWOLOCK, c11, single), 1.0, NAN },
		{ "MPMC 1P1C burst32: grain >= 1.0x rte_ring burst32",
		  n(BENCH_GRAIN_MPMC, c11, burst32), n(BENCH_RTE, c11, burst32),
		  1.0, NAN },
		{ "MPMC 4P4C single (oversubscribed): grain >= 0.5x grain 2P2C "
		  "single",
		  n(BENCH_GRAIN_MPMC, c44, single),
		  n(BENCH_GRAIN_MPMC, c22, single), 0.5, NAN },
		{ "MPMC 4P4C single (oversubscribed): grain >= 1.0x two-lock "
		  "baseline",
		  n(BENCH_GRAIN_MPMC, c44, single),
		  n(BENCH_TWOLOCK, c44, single), 1.0, NAN },
		{ "SPSC 1P1C single: grain SPSC >= 1.5x grain MPMC",
		  n(BENCH_GRAIN_SPSC, c11, single),
		  n(BENCH_GRAIN_MPMC, c11, single), 1.5, NAN },
	};
	for (Target &x : t)
		x.ratio = MedianByName(x.num) / MedianByName(x.den);
	return t;
}

std::string Verdict(const Target &t)
{
	if (std::isnan(t.ratio))
		return "n/a (not measured)";
	return t.ratio >= t.goal ? "PASS" : "MISS";
}

std::string TargetsTable()
{
	std::ostringstream o;
	o << "| target | ratio of medians | result | numerator, M/s median "
	     "(min–max) | denominator, M/s median (min–max) |\n"
	     "|---|---:|---|---|---|\n";
	for (const Target &t : Targets())
		o << "| " << t.what << " | " << Fmt("%.2fx", t.ratio) << " | "
		  << Verdict(t) << " | " << t.num << ": " << Spread(t.num)
		  << " | " << t.den << ": " << Spread(t.den) << " |\n";
	return o.str();
}

std::string Summary(const std::string &command, int reps,
		    const std::string &load_before, double pingpong_before,
		    const CpuSample &cpu_before, const CpuSample &cpu_after)
{
	std::ostringstream o;
	unsigned nproc = bench_nproc();

	o << "Command: `" << command << "`\n\n";
	o << "- Machine: " << nproc << " online CPUs, " << CpuModel() << ", "
	  << Kernel() << "\n";
	o << "- Compilers: C " << Trim(bench_c_compiler()) << ", C++ "
	  << Trim(CxxCompiler()) << "; build type " << GRAIN_BENCH_BUILD_TYPE
	  << "\n";
	if (std::strcmp(GRAIN_BENCH_BUILD_TYPE, "Debug") == 0)
		o << "- WARNING: unoptimised (Debug) build; these figures say "
		     "nothing about the queues.\n";
	o << "- Load average (1, 5, 15 min) before the run: " << load_before
	  << "; after: " << LoadAverage() << "\n";
	o << "- During the run: " << OtherLoad(cpu_before, cpu_after) << "\n";
	o << "- Calibration, cache-line round trip CPU 0 <-> CPU 1: "
	  << Fmt("%.0f ns", pingpong_before) << " before the run, "
	  << Fmt("%.0f ns", bench_pingpong_ns(200000)) << " after\n";
	o << "- Source revision: " << GitRevision() << "\n";
	o << "- Method: each figure is the median of " << reps << " runs of "
	  << g_duration_ms
	  << " ms (repetitions of all benchmarks interleaved in random "
	     "order). A run starts P producer and C consumer threads "
	     "together; producers enqueue tokens until the deadline, "
	     "consumers dequeue them and check each producer's order; "
	     "pairs/s = tokens dequeued by the deadline / elapsed time. "
	     "single: one token per call; bulkN: N per call, all-or-nothing "
	     "enqueue and as-many-as-ready dequeue (loops of single calls "
	     "for ck_ring and wfcqueue); burstN: partial enqueue and "
	     "dequeue. A failed try (full or empty) costs every queue the "
	     "same: 8 pauses, and after 64 failures in a row sched_yield(). "
	     "Capacity 1024 for every bounded queue. Threads are pinned one "
	     "per CPU only when P + C <= "
	  << nproc << ".\n";
	o << "- Queues:\n";
	for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
		const bench_impl_info *info =
			bench_info(static_cast<bench_impl>(i));
		if (info->available)
			o << "  - " << ImplHeader(static_cast<bench_impl>(i))
			  << ": " << info->note << "\n";
	}
	o << "- Not built in: ";
	bool any = false;
	for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
		const bench_impl_info *info =
			bench_info(static_cast<bench_impl>(i));
		if (!info->available) {
			o << (any ? ", " : "") << info->name;
			any = true;
		}
	}
	o << (any ? " (library not found at build time)\n" : "nothing\n");
	o << "\n";

	// Throughput table.
	std::vector<bench_impl> cols;
	for (int i = 0; i < BENCH_IMPL_COUNT; i++)
		if (bench_info(static_cast<bench_impl>(i))->available)
			cols.push_back(static_cast<bench_impl>(i));
	o << "### Throughput, million pairs/s (median)\n\n| configuration | "
	     "batch |";
	for (bench_impl i : cols)
		o << " " << ImplHeader(i) << " |";
	o << "\n|---|---|";
	for (size_t i = 0; i < cols.size(); i++)
		o << "---:|";
	o << "\n";
	bool any_collapse = false, any_stall = false;
	for (const Config &c : kConfigs) {
		for (const Batch &b : kBatches) {
			std::ostringstream row;
			bool present = false;
			row << "| " << ConfigLabel(c) << " | " << b.label
			    << " |";
			for (bench_impl i : cols) {
				double v = MedianOf(i, c, b);
				present |= !std::isnan(v);
				row << " " << Fmt("%.2f", v / 1e6);
				if (Collapsed(i, c, b)) {
					row << " (collapsed)";
					any_collapse = true;
				}
				if (int hits = DeadlineHits(i, c, b)) {
					row << " †" << hits;
					any_stall = true;
				}
				row << " |";
			}
			if (present)
				o << row.str() << "\n";
		}
	}
	o << "\n– : not applicable (mode illegal for the configuration, or no "
	     "such call in that queue's API) or not run.\n";
	if (any_collapse)
		o << "(collapsed): under 10% of the same queue's 1P1C rate at "
		     "the same batch; each run was still ended by its deadline "
		     "and the figure is the rate it reached.\n";
	if (any_stall)
		o << "†N: in N of the runs the threads were still busy 200 ms "
		     "after the deadline (waiting on preempted peers); they were "
		     "told to stop and the queue was emptied by the main thread "
		     "(and checked).\n";

	// Ratios.
	o << "\n### Ratios: grain / other queue (same configuration and "
	     "batch)\n\n| configuration | batch | grain |";
	for (bench_impl i : kOthers)
		if (bench_info(i)->available)
			o << " / " << bench_info(i)->name << " |";
	o << "\n|---|---|---|";
	for (bench_impl i : kOthers)
		if (bench_info(i)->available)
			o << "---:|";
	o << "\n";
	for (const Config &c : kConfigs) {
		// MPMC everywhere; the specialised mode where it is legal.
		std::vector<bench_impl> modes = { BENCH_GRAIN_MPMC };
		if (c.producers == 1 && c.consumers == 1)
			modes.push_back(BENCH_GRAIN_SPSC);
		else if (c.consumers == 1)
			modes.push_back(BENCH_GRAIN_MPSC);
		else if (c.producers == 1)
			modes.push_back(BENCH_GRAIN_SPMC);
		for (bench_impl g : modes) {
			for (const Batch &b : kBatches) {
				double gv = MedianOf(g, c, b);
				if (std::isnan(gv))
					continue;
				o << "| " << ConfigLabel(c) << " | " << b.label
				  << " | " << bench_info(g)->mode << " |";
				for (bench_impl i : kOthers) {
					if (!bench_info(i)->available)
						continue;
					o << " "
					  << Fmt("%.2f", gv / MedianOf(i, c, b))
					  << " |";
				}
				o << "\n";
			}
		}
	}

	o << "\n### Targets\n\n" << TargetsTable();
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
					: (opt.quick ? 60u : 300u);
	int reps = opt.reps > 0 ? opt.reps : (opt.quick ? 3 : 5);

	static std::vector<Case> cases;
	for (const Config &c : kConfigs)
		for (const Batch &b : kBatches)
			for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
				bench_impl impl = static_cast<bench_impl>(i);
				bench_config probe{};
				probe.producers = c.producers;
				probe.consumers = c.consumers;
				probe.kind = b.kind;
				probe.batch = b.n;
				probe.duration_ms = 1;
				if (!bench_config_ok(impl, &probe))
					continue;
				cases.push_back(
					{ impl, c, b, CaseName(impl, c, b) });
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
	// or virtual CPUs) drift then spreads over every queue instead of
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
	double pingpong_before = opt.summary ? bench_pingpong_ns(200000) : NAN;
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	CpuSample cpu_before = SampleCpu();
	benchmark::RunSpecifiedBenchmarks();
	CpuSample cpu_after = SampleCpu();
	benchmark::Shutdown();

	if (opt.summary) {
		std::string s = Summary(command, reps, load_before,
					pingpong_before, cpu_before, cpu_after);
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
		for (const Target &t : Targets())
			std::printf("  %-72s %8s  %s\n", t.what.c_str(),
				    Fmt("%.2fx", t.ratio).c_str(),
				    Verdict(t).c_str());
	}
	if (g_failed) {
		std::fprintf(stderr, "FAILED: a run reported errors\n");
		return 1;
	}
	return 0;
}
