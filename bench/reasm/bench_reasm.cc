/* SPDX-License-Identifier: BSD-2-Clause */
// bench_reasm.cc - examples/reasm's reassembly engine in memory, its
// global lock (1 stripe) against per-bucket-group locks (64 stripes), side
// by side in one run, with the figures of the "frag queue per hash bucket
// locking" post (netdev, April 2013) next to ours.
//
// Every benchmark is one experiment of bench_reasm_run() (adapters.h):
// Iterations(1), manual time = the experiment's timed seconds,
// Repetitions(R), and only the aggregates (median first) are reported. The
// counters: dgrams_per_sec and gbit_per_sec, legitimate datagrams
// reassembled per second and their IP payload in Gbit/s; complete_pct,
// the share of legitimate datagrams completed; evictions, datagrams the
// engine evicted in the timed passes.
//
// Cases: workloads 64K and 3F, each alone and with the flood (+DoS) x 1, 2
// and 4 workers (4 is oversubscribed on a 2-CPU machine) x stripes 1
// ("global") and 64 ("stripes64"); and, where DPDK was found and its EAL
// starts, the anchor reasm/3F/librte_ip_frag/1W (adapters/rte_frag.h:
// DPDK's IPv4 reassembly on the same 3F frames, one thread, its datagrams
// compared byte for byte with the engine's). When the EAL cannot start,
// that case is left out with a message and the run goes on. And the reasm
// program's file mode at 1, 2 and 4 threads on a 3F capture (file_mode.h).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 9, quick
// 40 ms x 3 with 8 MiB pools; --threads=LIST the worker counts, and
//   --workers=LIST     the same as --threads=LIST (default 1,2,4)
//   --link=raw|ether   frames as raw IPv4 (default) or Ethernet
//   --flood_every=N    legitimate fragments per flood fragment (default 8)
//   --pool_mib=N       MiB of legitimate frames per workload (default 32,
//                      quick 8)
//   --fanout=F         fragment (default: fragment k of datagram i to
//                      worker (i + k) % W) or datagram (datagram i whole to
//                      worker i % W: a diagnostic, no shared datagrams)
//   --pin              pin the workers one per CPU when they fit (default:
//                      the scheduler places them)
// The program exits non-zero if any run failed a check (an output of the
// wrong length, key or content, a datagram lost or completed twice without
// the flood, books that do not balance) or could not run.

#include "adapters/adapters.h"
#include "file_mode.h"
#include "../common/driver.h"

#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
#include "adapters/rte_frag.h"
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

// --- the seed's table --------------------------------------------------------

// Mbit/s of the seed's tests, by row. B is the tree before per-bucket
// locking, C the same tree with it.
struct SeedRow {
	const char *row;
	const char *what;
	double m64k, m3f, m64k_dos, m3f_dos, m64k_mq, m3f_mq;
};

const SeedRow kSeed[] = {
	{ "A", "Patch-02", 18848.7, 13230.1, 4103.04, 5310.36, 130.0, 440.2 },
	{ "B", "1b5ab0de (before: one lock)", 18841.5, 13156.8, 4101.08,
	  5314.57, 129.0, 424.2 },
	{ "C", "Patch-03v1 (after: per-bucket locks)", 18838.0, 13490.5,
	  4405.11, 6814.72, 196.6, 461.6 },
	{ "D", "a210576c", 18321.5, 11250.4, 3635.34, 5160.13, 119.1, 405.2 },
	{ "E", "Patch-03 with _bh", 17247.3, 11492.6, 3994.74, 6405.29, 166.7,
	  413.6 },
	{ "F", "Patch-03 without _bh", 17471.3, 11298.7, 3818.05, 6102.11,
	  165.7, 406.3 },
};
const SeedRow &kSeedB = kSeed[1];
const SeedRow &kSeedC = kSeed[2];

const char kSeedSource[] =
	"netdev, April 2013, \"Re: [net-next PATCH 3/3] net: frag queue per "
	"hash bucket locking\" (Jesper Dangaard Brouer's table of his "
	"20 Gbit/s fragment tests: rows B, before, and C, after, are the "
	"same tree without and with per-hash-bucket locks)";

// The driver's own flags.
struct ReasmOptions {
	unsigned pool_mib = 0; // 0: default for the mode
	unsigned flood_every = 8;
	std::string workers;
	std::string link = "raw";
	std::string fanout = "fragment";
	bool pin = false;
} g_ropt;

const bench_reasm_workload kWorkloads[] = { BENCH_REASM_64K, BENCH_REASM_3F };
const bool kFloods[] = { false, true };
const unsigned kStripes[] = { 1, 64 };
const unsigned kGlobal = 1, kStriped = 64;
std::vector<unsigned> g_workers;

// One benchmark: workload, flood or not, workers, stripes, and its name.
struct Case {
	bench_reasm_workload workload;
	bool flood;
	unsigned workers, stripes;
	std::string name;
};

std::map<std::string, std::vector<bench_reasm_result>> g_runs; // by name
unsigned g_min_passes = 3;
unsigned g_flood_every = 8;
bench_reasm_link g_link = BENCH_REASM_LINK_RAW;
bool g_whole_datagrams = false;
bool g_pin = false;

std::string WorkloadName(bench_reasm_workload w, bool flood)
{
	return std::string(bench_reasm_workload_facts(w)->name) +
	       (flood ? "+DoS" : "");
}

std::string LockName(unsigned stripes)
{
	return stripes == 1 ? "global" : "stripes" + std::to_string(stripes);
}

std::string CaseName(bench_reasm_workload w, bool flood, unsigned workers,
		     unsigned stripes)
{
	return "reasm/" + WorkloadName(w, flood) + "/" + LockName(stripes) +
	       "/" + std::to_string(workers) + "W";
}

bool Oversubscribed(unsigned workers)
{
	return workers > bench_nproc();
}

std::string WorkersLabel(unsigned workers)
{
	return std::to_string(workers) + grain_bench::Oversubscribed(workers);
}

// "1 worker", "2 workers", "4 workers (oversubscribed: ...)".
std::string WorkersText(unsigned workers)
{
	return std::to_string(workers) +
	       (workers == 1 ? " worker" : " workers") +
	       grain_bench::Oversubscribed(workers);
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_reasm_config cfg{};
		cfg.workload = c->workload;
		cfg.flood = c->flood;
		cfg.workers = c->workers;
		cfg.stripes = c->stripes;
		cfg.duration_ms = DurationMs();
		cfg.min_passes = g_min_passes;
		cfg.whole_datagrams = g_whole_datagrams;
		cfg.pin = g_pin;
		bench_reasm_result res{};
		int rc = bench_reasm_run(&cfg, &res);
		auto why = [&res] {
			return FirstOf(res.errors, "check(s) failed",
				       res.error);
		};
		if (!RunOk(state, c->name, "bench_reasm_run", rc, res,
			   "check failed", why))
			break;
		state.counters["dgrams_per_sec"] = res.datagrams_per_sec;
		state.counters["gbit_per_sec"] = res.gbit_per_sec;
		state.counters["complete_pct"] = res.complete_pct;
		state.counters["evictions"] =
			static_cast<double>(res.evictions);
		state.counters["flood_fills"] =
			static_cast<double>(res.flood_bytes) /
			BENCH_REASM_MEM_HIGH;
		state.counters["gate_waits"] =
			static_cast<double>(res.gate_waits);
		state.counters["wait_pct"] = res.wait_pct;
		state.counters["passes"] = res.passes;
		if (Oversubscribed(c->workers))
			state.SetLabel(
				"oversubscribed: " +
				std::to_string(c->workers) + " threads on " +
				std::to_string(bench_nproc()) + " cores");
		g_runs[c->name].push_back(res);
	}
}

// --- flags -------------------------------------------------------------------

const std::vector<Flag> kFlags = {
	{ "--pool_mib", nullptr, nullptr, &g_ropt.pool_mib },
	{ "--flood_every", nullptr, nullptr, &g_ropt.flood_every },
	{ "--workers", nullptr, &g_ropt.workers, nullptr },
	{ "--link", nullptr, &g_ropt.link, nullptr },
	{ "--pin", &g_ropt.pin, nullptr, nullptr },
	{ "--fanout", nullptr, &g_ropt.fanout, nullptr },
};

// --- medians -----------------------------------------------------------------

// A figure of one run; Field() gives it for each of a case's runs, Med()
// its median.
using Figure = double (*)(const bench_reasm_result &);

const Figure kGbit = [](const bench_reasm_result &r) { return r.gbit_per_sec; };
const Figure kCompletePct = [](const bench_reasm_result &r) {
	return r.complete_pct;
};
const Figure kEvictions = [](const bench_reasm_result &r) {
	return static_cast<double>(r.evictions);
};
const Figure kFloodFills = [](const bench_reasm_result &r) {
	return static_cast<double>(r.flood_bytes) / BENCH_REASM_MEM_HIGH;
};
const Figure kWaitPct = [](const bench_reasm_result &r) { return r.wait_pct; };

std::vector<double> Field(bench_reasm_workload w, bool flood, unsigned workers,
			  unsigned stripes, Figure f)
{
	return Each(g_runs, CaseName(w, flood, workers, stripes), f);
}

double Med(Figure f, bench_reasm_workload w, bool flood, unsigned workers,
	   unsigned stripes)
{
	return Median(Field(w, flood, workers, stripes, f));
}

double Rate(bench_reasm_workload w, bool flood, unsigned workers,
	    unsigned stripes)
{
	return grain_bench::Rate(CaseName(w, flood, workers, stripes));
}

// stripes64 / global, same workload and workers.
double LockRatio(bench_reasm_workload w, bool flood, unsigned workers)
{
	return Rate(w, flood, workers, kStriped) /
	       Rate(w, flood, workers, kGlobal);
}

// 1 - legitimate rate under the flood / rate without it.
double FloodCost(bench_reasm_workload w, unsigned workers, unsigned stripes)
{
	return 1.0 - Rate(w, true, workers, stripes) /
			     Rate(w, false, workers, stripes);
}

// --- the librte_ip_frag anchor -----------------------------------------------

const char kRteCase[] = "reasm/3F/librte_ip_frag/1W";
const char kRte6Case[] = "reasm/3F-v6/librte_ip_frag/1W";

struct RteState {
	bool built = false;   // compiled in
	bool started = false; // the EAL started: the case is registered
	std::string why;      // why not, in words
	std::vector<double> rate, chain_rate, filled_rate; // per repetition
	std::vector<double> engine_rate; // the engine in the anchor's loop
	uint64_t compared = 0, mismatches = 0;
	bool probed = false; // the 64K pool through DPDK, once
	uint64_t probe_offered = 0, probe_completed = 0;
	unsigned max_frags = 0;
	// IPv6, both sides timed by the anchor, per repetition.
	std::vector<double> v6_engine, v6_rate, v6_chain_rate;
	uint64_t v6_compared = 0, v6_mismatches = 0;
} g_rte;

#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
void RunRte(benchmark::State &state)
{
	for (auto _ : state) {
		bench_rte_frag_result res{};
		int rc = bench_rte_frag_run(BENCH_REASM_3F, DurationMs(),
					    g_min_passes, &res);
		auto why = [&res] {
			return FirstOf(res.errors, "check(s) failed",
				       res.error);
		};
		g_rte.compared += res.compared;
		g_rte.mismatches += res.mismatches;
		if (!RunOk(state, kRteCase, "bench_rte_frag_run", rc, res,
			   "check failed", why))
			break;
		state.counters["dgrams_per_sec"] = res.datagrams_per_sec;
		state.counters["chain_dgrams_per_sec"] =
			res.chain_datagrams_per_sec;
		state.counters["compared"] = static_cast<double>(res.compared);
		state.counters["mismatches"] =
			static_cast<double>(res.mismatches);
		state.counters["passes"] = res.passes;
		g_rte.rate.push_back(res.datagrams_per_sec);
		g_rte.chain_rate.push_back(res.chain_datagrams_per_sec);
		g_rte.filled_rate.push_back(res.filled_datagrams_per_sec);
		g_rte.engine_rate.push_back(res.engine_datagrams_per_sec);
		state.counters["engine_dgrams_per_sec"] =
			res.engine_datagrams_per_sec;
		if (!g_rte.probed) {
			g_rte.probed = bench_rte_frag_probe(
					       BENCH_REASM_64K,
					       &g_rte.probe_offered,
					       &g_rte.probe_completed) == 0;
		}
	}
}
#endif

void RunRte6(benchmark::State &state)
{
	for (auto _ : state) {
		bench_rte_frag6_result res{};
		int rc = bench_rte_frag_run6(DurationMs(), g_min_passes, &res);
		auto why = [&res] {
			return FirstOf(res.errors, "check(s) failed",
				       res.error);
		};
		g_rte.v6_compared += res.compared;
		g_rte.v6_mismatches += res.mismatches;
		if (!RunOk(state, kRte6Case, "bench_rte_frag_run6", rc, res,
			   "check failed", why))
			break;
		state.counters["engine_dgrams_per_sec"] =
			res.engine_datagrams_per_sec;
		state.counters["dgrams_per_sec"] = res.dpdk.datagrams_per_sec;
		state.counters["chain_dgrams_per_sec"] =
			res.dpdk.chain_datagrams_per_sec;
		state.counters["compared"] = static_cast<double>(res.compared);
		state.counters["mismatches"] =
			static_cast<double>(res.mismatches);
		state.counters["passes"] = res.passes;
		g_rte.v6_engine.push_back(res.engine_datagrams_per_sec);
		g_rte.v6_rate.push_back(res.dpdk.datagrams_per_sec);
		g_rte.v6_chain_rate.push_back(res.dpdk.chain_datagrams_per_sec);
	}
}

// After the engine's cases are registered: start DPDK and register the
// anchor, or say why not. Never an error.
void RteRegister(int reps)
{
#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
	char why[240] = "";
	g_rte.built = true;
	g_rte.max_frags = bench_rte_frag_max_frags();
	if (bench_rte_frag_start(why, sizeof(why)) != 0) {
		g_rte.why = why;
		std::fprintf(stderr,
			     "bench_reasm: %s skipped: DPDK cannot start "
			     "here (%s)\n",
			     kRteCase, why);
		return;
	}
	g_rte.started = true;
	Add(kRteCase, RunRte, reps);
	Add(kRte6Case, RunRte6, reps);
#else
	(void)reps;
	g_rte.why = "DPDK (libdpdk, librte_ip_frag) was not found at build "
		    "time";
#endif
}

void RteStop()
{
#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
	bench_rte_frag_stop();
#endif
}

bool HaveWorkers(unsigned w)
{
	for (unsigned x : g_workers)
		if (x == w)
			return true;
	return false;
}

// The engine, 1 worker, 3F alone, with `stripes`; NaN if not run.
double EngineRate1W(unsigned stripes)
{
	return HaveWorkers(1) ? Rate(BENCH_REASM_3F, false, 1, stripes) : NAN;
}

// engine (stripes64, the default) / DPDK linearised, medians; NaN when
// either is missing.
double RteRatio()
{
	if (g_rte.rate.empty())
		return NAN;
	return EngineRate1W(kStriped) / grain_bench::Rate(kRteCase);
}

std::string RteDetail()
{
	if (g_rte.rate.empty())
		return g_rte.why.empty()
			       ? "librte_ip_frag not measured"
			       : "librte_ip_frag skipped: " + g_rte.why;
	auto k = [](double v) { return Fmt("%.1f", v / 1e3); };
	return "k dgrams/s engine stripes64 " + k(EngineRate1W(kStriped)) +
	       ", global " + k(EngineRate1W(kGlobal)) +
	       "; librte_ip_frag contiguous " +
	       grain_bench::Spread(kRteCase, 1e3, 1) + ", mbuf chain " +
	       k(Median(Kept(kRteCase, g_rte.chain_rate))) + "; " +
	       std::to_string(g_rte.mismatches) + " of " +
	       std::to_string(g_rte.compared) + " datagrams differ";
}

void RteSection(std::ostringstream &o)
{
	o << "### Anchor: DPDK librte_ip_frag, 3F, 1 worker\n\n";
	if (g_rte.rate.empty()) {
		o << "Not run: "
		  << (g_rte.why.empty() ? std::string("case filtered out")
					: g_rte.why)
		  << ".\n\n";
		return;
	}
	const bench_reasm_workload_info *k3 =
		bench_reasm_workload_facts(BENCH_REASM_3F);
	const bench_reasm_workload_info *k64 =
		bench_reasm_workload_facts(BENCH_REASM_64K);
	o << "DPDK's rte_ipv4_frag_reassemble_packet (librte_ip_frag, "
	     "RTE_LIBRTE_IP_FRAG_MAX_FRAG "
	  << g_rte.max_frags
	  << " fragments per datagram), EAL started in this process "
	     "(--no-huge, --no-pci, --no-shconf, no telemetry), one "
	     "thread, on the same "
	  << k3->datagrams
	  << " 3F datagrams per pass as the engine cases, each pass with "
	     "its own IP ID, on the same virtual clock. Copying a frame "
	     "into an mbuf (a NIC's DMA) is not timed; the engine's copy "
	     "of each fragment into its datagram is. DPDK returns the "
	     "datagram as an mbuf chain (one segment per fragment); the "
	     "engine emits it contiguous. **contiguous**: the chain copied "
	     "into one malloc'd buffer and its IPv4 header checksum filled "
	     "in (DPDK leaves it 0 for the NIC), as the engine's output is; "
	     "**chain**: reassembly and freeing the chain only. The target "
	     "compares like with like: the engine case (stripes64, the "
	     "engine's default) against contiguous. The row \"in the "
	     "anchor's loop\" is a cross-check without the harness: an "
	     "engine fed each batch right after DPDK, on frames still warm "
	     "from the copy into mbufs.\n\n"
	     "Before the timed passes of every run, each datagram of the "
	     "pool is reassembled by DPDK and by a fresh engine (strict, "
	     "one worker) from the same frames and the two compared byte "
	     "for byte (link header, IPv4 header, payload): "
	  << g_rte.mismatches << " of " << g_rte.compared
	  << " differ (any difference fails the case). 64K (" << k64->frags
	  << " fragments per datagram) is past DPDK's limit: of the "
	  << g_rte.probe_offered << " datagrams of one 64K pass it returned "
	  << g_rte.probe_completed
	  << " (the engine: all of them), so 64K is not compared. IPv6: "
	     "below.\n\n"
	     "| 1 worker, 3F | k dgrams/s, median (min–max) | engine "
	     "stripes64 / this |\n|---|---:|---:|\n";
	auto row = [&o](const std::string &what, const std::vector<double> &v) {
		o << "| " << what << " | " << grain_bench::Spread(v, 1e3, 1)
		  << " | " << Fmt("%.2fx", EngineRate1W(kStriped) / Median(v))
		  << " |\n";
	};
	// The anchor's runs of the regime the engine's figures keep.
	auto dpdk = [](const std::vector<double> &v) {
		return Kept(kRteCase, v);
	};
	row("engine, stripes64",
	    Rates(CaseName(BENCH_REASM_3F, false, 1, kStriped)));
	row("engine, global",
	    Rates(CaseName(BENCH_REASM_3F, false, 1, kGlobal)));
	row("engine, in the anchor's loop (after DPDK, same batches)",
	    dpdk(g_rte.engine_rate));
	row("librte_ip_frag, contiguous", dpdk(g_rte.rate));
	row("librte_ip_frag, mbuf chain", dpdk(g_rte.chain_rate));
	row("librte_ip_frag, contiguous, with the copy into mbufs",
	    dpdk(g_rte.filled_rate));
	o << "\n";
	if (g_rte.v6_rate.empty())
		return;
	o << "IPv6 (" << kRte6Case
	  << "): as many datagrams as 3F, 4296 UDP bytes each in 3 "
	     "fragments (1448 + 1448 + 1400), the Fragment header right "
	     "after the IPv6 header (librte_ip_frag looks nowhere else: "
	     "datagrams with other extension headers before it are not "
	     "generated). Both sides are timed by the anchor's own loop, in "
	     "the same batches: the engine (strict, one worker) on the "
	     "frames, DPDK as above. Compared byte for byte first: "
	  << g_rte.v6_mismatches << " of " << g_rte.v6_compared
	  << " differ.\n\n| 1 worker, IPv6 3F | k dgrams/s, median "
	     "(min–max) | engine / this |\n|---|---:|---:|\n";
	double e6 = Median(Kept(kRte6Case, g_rte.v6_engine));
	auto row6 = [&o, e6](const std::string &what,
			     const std::vector<double> &all) {
		std::vector<double> v = Kept(kRte6Case, all);
		o << "| " << what << " | " << grain_bench::Spread(v, 1e3, 1)
		  << " | " << Fmt("%.2fx", e6 / Median(v)) << " |\n";
	};
	row6("engine", g_rte.v6_engine);
	row6("librte_ip_frag, contiguous", g_rte.v6_rate);
	row6("librte_ip_frag, mbuf chain", g_rte.v6_chain_rate);
	o << "\n";
}

// --- targets -----------------------------------------------------------------

std::vector<Target> Targets()
{
	const unsigned W = 2;
	const bench_reasm_workload f3 = BENCH_REASM_3F;
	std::vector<Target> t;
	std::string ws = std::to_string(W) + " workers",
		    dos = CaseName(f3, true, W, kStriped),
		    global = CaseName(f3, true, W, kGlobal),
		    alone = CaseName(f3, false, W, kStriped);
	// The seed's figure is a cell, and follows the verdict in --targets.
	auto add = [&t](Target x, const char *fmt, const std::string &seed,
			const std::string &detail) {
		x.fmt = fmt;
		x.cells = { seed, detail };
		x.seed = seed;
		t.push_back(x);
	};
	add({ "3F+DoS, " + ws + ": stripes64 >= 1.3x global",
	      LockRatio(f3, true, W), 1.3, dos, global },
	    "%.2fx",
	    "1.28x (" + Fmt("%.2f", kSeedB.m3f_dos) + " -> " +
		    Fmt("%.2f", kSeedC.m3f_dos) + " Mbit/s, rows B -> C)",
	    "k dgrams/s stripes64 " + Spread(dos, 1e3, 1) + ", global " +
		    Spread(global, 1e3, 1));
	Target cost = { "flood cost on 3F, " + ws + ", stripes64: <= 20%",
			100.0 * FloodCost(f3, W, kStriped), 20.0, dos, alone };
	cost.at_most = true;
	cost.of = [](double r) { return 100.0 * (1.0 - r); };
	add(cost, "%.0f%%",
	    Fmt("%.0f%%", 100.0 * (1.0 - kSeedC.m3f_dos / kSeedC.m3f)) + " (" +
		    Fmt("%.1f", kSeedC.m3f) + " -> " +
		    Fmt("%.2f", kSeedC.m3f_dos) + " Mbit/s, row C)",
	    "k dgrams/s 3F " + Spread(alone, 1e3, 1) + ", 3F+DoS " +
		    Spread(dos, 1e3, 1));
	for (bench_reasm_workload w : kWorkloads)
		add({ WorkloadName(w, true) + ", " + ws +
			      ", stripes64: >= 95% of legitimate datagrams "
			      "complete",
		      Med(kCompletePct, w, true, W, kStriped), 95.0 },
		    "%.1f%%", "not reported",
		    "evictions per run " +
			    Fmt("%.0f", Med(kEvictions, w, true, W, kStriped)));
	add({ "engine >= 2x librte_ip_frag, 1 worker, 3F", RteRatio(), 2.0,
	      CaseName(f3, false, 1, kStriped), kRteCase },
	    "%.2fx", "not reported", RteDetail());
	t.push_back(reasm_file::Goal());
	return t;
}

// --- summary -----------------------------------------------------------------

void MachineSection(std::ostringstream &o, const RunInfo &run)
{
	unsigned nproc = bench_nproc();
	const bench_reasm_workload_info *k64 =
		bench_reasm_workload_facts(BENCH_REASM_64K);
	const bench_reasm_workload_info *k3 =
		bench_reasm_workload_facts(BENCH_REASM_3F);

	Preamble(o, run, true, "engine");
	LoadLines(o, run);
	MethodStart(o, run, false, false);
	o << "A run creates a fresh engine (examples/reasm, policy "
	     "strict, mem_high 4 MiB, mem_low 3 MiB, evict LRU; 1 stripe = "
	     "its global lock, 64 stripes = per-bucket-group locks), fans a "
	     "pool of pre-built frames out to W worker threads "
	  << (g_whole_datagrams
		      ? "(**diagnostic fanout**: datagram i whole to worker "
			"i % W, so no two workers share a datagram)"
		      : "(fragment k of datagram i to worker (i + k) % W, so "
			"workers contend on the same datagrams)")
	  << ", each with its own struct reasm_worker, and runs the pool "
	     "as passes: one untimed warm-up pass, then timed passes until "
	  << run.duration_ms << " ms have passed (at least " << g_min_passes
	  << ", and under the flood until it has brought twice mem_high). "
	     "Each pass gives the frames a new IP ID (header checksum "
	     "updated in place), so every pass is a new set of datagrams. "
	     "All workers end a pass together, and within a pass no worker "
	     "runs more than about 1 MiB of legitimate datagrams ahead of "
	     "the slowest (a bounded receive queue). The emit callback of "
	     "each worker checks and frees every output; per-worker "
	     "counters, no shared atomic on the per-fragment path. "
	     "dgrams/s = legitimate datagrams reassembled in the timed "
	     "passes / their time; Gbit/s = their IP payload (UDP header and "
	     "data) in bits / time. "
	  << (g_pin ? "Workers are pinned one per CPU when they fit (W <= " +
			      std::to_string(nproc) +
			      "), else left to the scheduler (--pin).\n"
		    : "Workers are not pinned: the scheduler places them "
		      "(on a shared machine a pinned worker cannot leave "
		      "a CPU another process takes, and with the fanout "
		      "the slowest worker sets the pace).\n");
	o << "- Frames: " << bench_reasm_link_name(g_link)
	  << ", MTU 1500 (1480 payload bytes per fragment), correct IPv4 "
	     "header and UDP checksums, built before timing. **64K**: UDP "
	     "datagrams of "
	  << k64->ip_payload << " IP payload bytes, " << k64->frags
	  << " fragments each, " << k64->datagrams
	  << " per pass. **3F**: " << k3->ip_payload << " bytes, " << k3->frags
	  << " fragments, " << k3->datagrams
	  << " per pass. Virtual capture clock: 100 ns per legitimate "
	     "fragment, so LRU ages differ and nothing reaches the 30 s "
	     "timeout.\n";
	o << "- Flood (+DoS): one fragment after every " << g_flood_every
	  << " legitimate fragments of each worker ("
	  << Fmt("%.1f%%", 100.0 / (g_flood_every + 1))
	  << " of the frames), each a distinct datagram (its own source "
	     "address), offset 0, MF set, 1480 payload bytes, never "
	     "completed. Before the warm-up the engine is filled with flood "
	     "fragments until it first evicts, so the timed passes run on a "
	     "full table; in them the flood brings "
	  << Fmt("%.0f", Med(kFloodFills, BENCH_REASM_3F, true, 2, kStriped))
	  << " (3F) and "
	  << Fmt("%.0f", Med(kFloodFills, BENCH_REASM_64K, true, 2, kStriped))
	  << " (64K) times mem_high per run (median, 2 workers, "
	     "stripes64): evictions run throughout.\n";
	o << "- Checks on every run: each output is a legitimate datagram of "
	     "the right length, key, header checksum and pass (IP ID), and one "
	     "in 256 has its payload compared byte for byte; without the "
	     "flood every datagram of every pass completes exactly once; "
	     "after reasm_destroy() the books balance (ReasmReqds = frames "
	     "given = reassembled + dropped + discarded + pending fragments, "
	     "ReasmOKs = outputs seen), with no timeout, duplicate, overlap or "
	     "malformed fragment; under the flood the engine must have "
	     "evicted in the timed passes. A failure exits non-zero.\n\n";
}

std::string RateTable(bench_reasm_workload w, bool flood)
{
	std::ostringstream o;
	o << "| workers | global k dgrams/s | global Gbit/s | stripes64 k "
	     "dgrams/s | stripes64 Gbit/s | stripes64 / global | completed % "
	     "global / stripes64 | evictions per run global / stripes64 | "
	     "workers waiting % global / stripes64 |\n"
	     "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
	for (unsigned W : g_workers) {
		// "global / stripes64" of figure f.
		auto both = [w, flood, W](Figure f, const char *fmt) {
			return Fmt(fmt, Med(f, w, flood, W, kGlobal)) + " / " +
			       Fmt(fmt, Med(f, w, flood, W, kStriped));
		};
		o << "| " << WorkersLabel(W) << " | "
		  << Fmt("%.1f", Rate(w, flood, W, kGlobal) / 1e3) << " | "
		  << Fmt("%.2f", Med(kGbit, w, flood, W, kGlobal)) << " | "
		  << Fmt("%.1f", Rate(w, flood, W, kStriped) / 1e3) << " | "
		  << Fmt("%.2f", Med(kGbit, w, flood, W, kStriped)) << " | "
		  << Fmt("**%.2fx**", LockRatio(w, flood, W)) << " | "
		  << both(kCompletePct, "%.1f") << " | "
		  << both(kEvictions, "%.0f") << " | " << both(kWaitPct, "%.0f")
		  << " |\n";
	}
	return o.str();
}

std::string FloodCostTable()
{
	std::ostringstream o;
	o << "| workers |";
	for (bench_reasm_workload w : kWorkloads)
		for (unsigned s : kStripes)
			o << " " << bench_reasm_workload_facts(w)->name << " "
			  << LockName(s) << " |";
	o << "\n|---|---:|---:|---:|---:|\n";
	for (unsigned W : g_workers) {
		o << "| " << WorkersLabel(W) << " |";
		for (bench_reasm_workload w : kWorkloads)
			for (unsigned s : kStripes)
				o << " "
				  << Fmt("%.0f%%", 100.0 * FloodCost(w, W, s))
				  << " |";
		o << "\n";
	}
	return o.str();
}

void SeedSection(std::ostringstream &o)
{
	o << "### Against the seed's table\n\nSeed: " << kSeedSource
	  << ". Its figures are Mbit/s of UDP traffic reassembled by the "
	     "Linux kernel's IPv4 defragmentation in a 20 Gbit/s test "
	     "setup; ours are in-memory reassembly on this machine. "
	     "Compare ratios, not absolute figures. The +MQ columns are not reproduced (the "
	     "quoted message does not define them).\n\n"
	     "| row | tree | 20G64K | 20G3F | 20G64K+DoS | 20G3F+DoS | "
	     "20G64K+MQ | 20G3F+MQ |\n"
	     "|---|---|---:|---:|---:|---:|---:|---:|\n";
	for (const SeedRow &s : kSeed)
		o << "| " << s.row << " | " << s.what << " | "
		  << Fmt("%.1f", s.m64k) << " | " << Fmt("%.1f", s.m3f) << " | "
		  << Fmt("%.2f", s.m64k_dos) << " | " << Fmt("%.2f", s.m3f_dos)
		  << " | " << Fmt("%.1f", s.m64k_mq) << " | "
		  << Fmt("%.1f", s.m3f_mq) << " |\n";
	o << "\nBefore -> after, side by side: the seed's C / B against our "
	     "stripes64 / global (median datagrams/s, same run).\n\n"
	     "| | 64K | 3F | 64K+DoS | 3F+DoS |\n|---|---:|---:|---:|---:|\n"
	  << "| seed C / B | " << Fmt("%.2fx", kSeedC.m64k / kSeedB.m64k)
	  << " | " << Fmt("%.2fx", kSeedC.m3f / kSeedB.m3f) << " | "
	  << Fmt("%.2fx", kSeedC.m64k_dos / kSeedB.m64k_dos) << " | "
	  << Fmt("%.2fx", kSeedC.m3f_dos / kSeedB.m3f_dos) << " |\n";
	for (unsigned W : g_workers)
		o << "| ours, " << WorkersText(W) << " | "
		  << Fmt("%.2fx", LockRatio(BENCH_REASM_64K, false, W)) << " | "
		  << Fmt("%.2fx", LockRatio(BENCH_REASM_3F, false, W)) << " | "
		  << Fmt("%.2fx", LockRatio(BENCH_REASM_64K, true, W)) << " | "
		  << Fmt("%.2fx", LockRatio(BENCH_REASM_3F, true, W)) << " |\n";
	o << "\nFlood cost, 1 - (+DoS / alone): the seed's rows B and C "
	     "against ours.\n\n"
	     "| | 64K | 3F |\n|---|---:|---:|\n"
	  << "| seed B (one lock) | "
	  << Fmt("%.0f%%", 100.0 * (1.0 - kSeedB.m64k_dos / kSeedB.m64k))
	  << " | " << Fmt("%.0f%%", 100.0 * (1.0 - kSeedB.m3f_dos / kSeedB.m3f))
	  << " |\n| seed C (per-bucket locks) | "
	  << Fmt("%.0f%%", 100.0 * (1.0 - kSeedC.m64k_dos / kSeedC.m64k))
	  << " | " << Fmt("%.0f%%", 100.0 * (1.0 - kSeedC.m3f_dos / kSeedC.m3f))
	  << " |\n";
	for (unsigned W : g_workers)
		for (unsigned s : kStripes)
			o << "| ours, " << WorkersText(W) << ", " << LockName(s)
			  << " | "
			  << Fmt("%.0f%%",
				 100.0 * FloodCost(BENCH_REASM_64K, W, s))
			  << " | "
			  << Fmt("%.0f%%",
				 100.0 * FloodCost(BENCH_REASM_3F, W, s))
			  << " |\n";
	o << "\n";
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;
	MachineSection(o, run);
	for (bench_reasm_workload w : kWorkloads)
		for (bool flood : kFloods)
			o << "### " << WorkloadName(w, flood)
			  << ": legitimate datagrams reassembled (median)\n\n"
			  << RateTable(w, flood) << "\n";
	o << "stripes64 / global: ratio of the medians. Workers waiting: "
	     "the share of the workers' time in the timed passes spent "
	     "waiting for the slowest one, to come within the window or to "
	     "end the pass (time the harness, not the engine, takes). "
	     "Oversubscribed rows have more threads than CPUs: the "
	     "scheduler preempts workers in the middle of a datagram, lock "
	     "holders included, and the others wait for them at the window "
	     "and at the end of each pass.\n\n";
	o << "### Flood cost: 1 - (legitimate rate with the flood / rate "
	     "without it), medians\n\n"
	  << FloodCostTable() << "\n";
	SeedSection(o);
	RteSection(o);
	o << reasm_file::Section();
	o << "### Targets\n\n"
	  << TargetsTable("measured", { "seed", "detail, median (min–max)" },
			  Targets());
	return o.str();
}

std::vector<Case> g_cases;

int Setup(const Options &opt)
{
	const ReasmOptions &ro = g_ropt;
	g_min_passes = opt.quick ? 2u : 3u;
	std::string workers = !opt.threads.empty()  ? opt.threads
			      : !ro.workers.empty() ? ro.workers
						    : "1,2,4";
	if (!ParseCounts(workers, BENCH_REASM_MAX_WORKERS, &g_workers)) {
		std::fprintf(stderr, "--workers: a list of 1..%u, e.g. 1,2,4\n",
			     BENCH_REASM_MAX_WORKERS);
		return 2;
	}
	if (ro.link == "raw") {
		g_link = BENCH_REASM_LINK_RAW;
	} else if (ro.link == "ether") {
		g_link = BENCH_REASM_LINK_ETHERNET;
	} else {
		std::fprintf(stderr, "--link: raw or ether\n");
		return 2;
	}
	if (ro.fanout == "datagram") {
		g_whole_datagrams = true;
	} else if (ro.fanout != "fragment") {
		std::fprintf(stderr, "--fanout: fragment or datagram\n");
		return 2;
	}
	if (ro.flood_every == 0) {
		std::fprintf(stderr, "--flood_every: at least 1\n");
		return 2;
	}
	g_flood_every = ro.flood_every;
	g_pin = ro.pin;

	struct bench_reasm_setup setup {};
	setup.link = g_link;
	setup.pool_mib = ro.pool_mib ? ro.pool_mib : (opt.quick ? 8u : 32u);
	setup.flood_every = g_flood_every;
	setup.max_workers = g_workers.back();
	int rc = bench_reasm_setup(&setup);
	if (rc != 0) {
		std::fprintf(stderr, "cannot build the frames: %s\n",
			     std::strerror(-rc));
		return 2;
	}
	for (bench_reasm_workload w : kWorkloads)
		for (bool flood : kFloods)
			for (unsigned W : g_workers)
				for (unsigned s : kStripes)
					g_cases.push_back(
						{ w, flood, W, s,
						  CaseName(w, flood, W, s) });
	rc = Register(g_cases, RunCase, Reps());
	RteRegister(Reps());
	return rc != 0 ? rc : reasm_file::Setup(opt, Reps(), ro.link);
}

void Teardown()
{
	RteStop();
	reasm_file::Teardown();
	bench_reasm_teardown();
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 9 (quick 40 ms x 3); --targets 72 columns.
	return { 40,
		 300,
		 3,
		 9,
		 72,
		 false,
		 "dgrams_per_sec",
		 kFlags,
		 Setup,
		 Summary,
		 Targets,
		 Teardown };
}
