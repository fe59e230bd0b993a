/* SPDX-License-Identifier: BSD-2-Clause */
// bench_reasm.cc - grain_bench_reasm: examples/reasm's reassembly engine in
// memory, its global lock (1 stripe) against per-bucket-group locks (64
// stripes) side by side in one run, with the figures of the "frag queue per
// hash bucket locking" post (netdev, April 2013) beside ours in the report
// (bench/report.py).
//
// Cases, each run one experiment of adapters/adapters.h:
//   reasm/W/LOCK/NW[/F]  workload W (64K or 3F, alone or under the flood:
//                    64K+DoS, 3F+DoS), LOCK global or stripes64, N workers
//                    (1, 2 and 4; 4 is oversubscribed on 2 CPUs) and, for
//                    N > 1, the fanout F: datagram (each datagram whole to
//                    one worker, as reasm's default --fanout hash and a
//                    NIC that spreads by address give it) or fragment
//                    (fragment k of datagram i to worker (i + k) % W, as
//                    --fanout lb: workers share every datagram)
//   reasm/3F/librte_ip_frag/1W, reasm/3F-v6/librte_ip_frag/1W  the anchor,
//                    DPDK's reassembly on the same frames, where DPDK was
//                    found and its EAL starts (else left out with a message)
//   reasm/3F/libnids/1W  libnids's IPv4 defragmentation on the same frames,
//                    the engine beside it in the same loop, where libnids
//                    was found (counters only)
//   reasm/file-3F/TT the reasm program's file mode (file_mode.cc)
// Counters: dgrams_per_sec (the rate: legitimate datagrams reassembled per
// second), gbit_per_sec (their IP payload), complete_pct (the share of them
// completed), evictions (in the timed passes), flood_fills (flood bytes /
// mem_high), gate_waits and wait_pct (workers waiting for the slowest),
// passes; the anchor's chain_dgrams_per_sec, engine_dgrams_per_sec,
// compared and mismatches (datagrams checked against the engine's),
// filled_dgrams_per_sec (DPDK's rate with the copy of each frame into an
// mbuf charged) and, on one run, probe_64k_offered and
// probe_64k_completed (the 64K pool through DPDK, once).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 9, quick
// 40 ms x 3 with 8 MiB pools; --threads=LIST the worker counts, and
//   --workers=LIST     the same as --threads=LIST (default 1,2,4)
//   --link=raw|ether   frames as raw IPv4 (default) or Ethernet
//   --flood_every=N    legitimate fragments per flood fragment (default 8)
//   --pool_mib=N       MiB of legitimate frames per workload (default 32,
//                      quick 8)
//   --fanout=F         datagram, fragment or both (default): the fanouts
//                      of the cases with more than one worker
//   --pin              pin the workers one per CPU when they fit (default:
//                      the scheduler places them)
// The program exits non-zero if any run failed a check (an output of the
// wrong length, key or content, a datagram lost or completed twice without
// the flood, books that do not balance) or could not run.

#include "bench_reasm.h"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace grain_bench;

namespace reasm_bench {

void Record(benchmark::State &state, const std::string &name, unsigned threads,
	    const Figures &f)
{
	for (const auto &kv : f)
		state.counters[kv.first] = kv.second;
	if (threads > bench_nproc())
		state.SetLabel("oversubscribed: " + std::to_string(threads) +
			       " threads on " + std::to_string(bench_nproc()) +
			       " cores");
	(void)name;
}

} // namespace reasm_bench

using namespace reasm_bench;

namespace {

// --- cases -------------------------------------------------------------------

struct ReasmOptions {
	unsigned pool_mib = 0; // 0: default for the mode
	unsigned flood_every = 8;
	std::string workers;
	std::string link = "raw";
	std::string fanout = "both";
	bool pin = false;
} g_ropt;

const bench_reasm_workload kWorkloads[] = { BENCH_REASM_64K, BENCH_REASM_3F };
const bool kFloods[] = { false, true };
const unsigned kStripes[] = { 1, 64 };

const char kRteCase[] = "reasm/3F/librte_ip_frag/1W";
const char kRte6Case[] = "reasm/3F-v6/librte_ip_frag/1W";

std::vector<unsigned> g_workers;
unsigned g_min_passes = 3;
struct bench_reasm_setup g_setup {};

// How a case with several workers splits the datagrams among them.
enum Fanout { kByDatagram, kByFragment };
const char *const kFanoutName[] = { "datagram", "fragment" };
std::vector<Fanout> g_fanouts;

// @sep and the name of fanout @f in the name of a case or row of @workers
// workers; nothing for one worker, which has no fanout.
std::string FanoutPart(unsigned workers, Fanout f, const char *sep)
{
	return workers > 1 ? sep + std::string(kFanoutName[f]) : "";
}

// One engine case, or (workers 0) one of the anchor.
struct Case {
	bench_reasm_workload workload;
	bool flood;
	unsigned workers, stripes;
	std::string name;
	Fanout fanout;
};
std::vector<Case> g_cases, g_rte_cases;

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
		     unsigned stripes, Fanout f = kByDatagram)
{
	return "reasm/" + WorkloadName(w, flood) + "/" + LockName(stripes) +
	       "/" + std::to_string(workers) + "W" +
	       FanoutPart(workers, f, "/");
}

auto Why(const char *error, uint64_t errors)
{
	return [error, errors] {
		return FirstOf(errors, "check(s) failed", error);
	};
}

void RunEngine(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_reasm_config cfg = {
			c->workload,  c->flood,
			c->workers,   c->stripes,
			DurationMs(), g_min_passes,
			g_ropt.pin,   c->fanout == kByDatagram
		};
		bench_reasm_result r{};
		int rc = bench_reasm_run(&cfg, &r);
		if (!RunOk(state, c->name, "bench_reasm_run", rc, r,
			   "check failed", Why(r.error, r.errors)))
			break;
		Record(state, c->name, c->workers,
		       { { "dgrams_per_sec", r.datagrams_per_sec },
			 { "gbit_per_sec", r.gbit_per_sec },
			 { "complete_pct", r.complete_pct },
			 { "evictions", static_cast<double>(r.evictions) },
			 { "flood_fills", r.flood_fills },
			 { "gate_waits", static_cast<double>(r.gate_waits) },
			 { "wait_pct", r.wait_pct },
			 { "passes", r.passes } });
	}
}

// The fanouts of W workers' cases: none (one case) for one worker.
std::vector<Fanout> FanoutsOf(unsigned W)
{
	return W > 1 ? g_fanouts : std::vector<Fanout>{ kByDatagram };
}

// --- the librte_ip_frag anchor -----------------------------------------------

struct RteState {
	std::string why; // why it did not run, in words
	unsigned max_frags = 0;
	uint64_t compared[2] = {}, mismatches[2] = {}; // IPv4, IPv6
	bool probed = false; // the 64K pool through DPDK, once
	uint64_t probe_offered = 0, probe_completed = 0;
} g_rte;

#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
void RunRte(benchmark::State &state, const Case *c)
{
	const bool v6 = c->workload == BENCH_REASM_3F_V6;
	for (auto _ : state) {
		bench_rte_frag_result r{};
		int rc = bench_rte_frag_run(c->workload, DurationMs(),
					    g_min_passes, &r);
		g_rte.compared[v6] += r.compared;
		g_rte.mismatches[v6] += r.mismatches;
		if (!RunOk(state, c->name, "bench_rte_frag_run", rc, r,
			   "check failed", Why(r.error, r.errors)))
			break;
		Record(state, c->name, 1,
		       { { "dgrams_per_sec", r.datagrams_per_sec },
			 { "chain_dgrams_per_sec", r.chain_datagrams_per_sec },
			 { "engine_dgrams_per_sec",
			   r.engine_datagrams_per_sec },
			 { "compared", static_cast<double>(r.compared) },
			 { "mismatches", static_cast<double>(r.mismatches) },
			 { "passes", r.passes },
			 { "filled_dgrams_per_sec",
			   r.filled_datagrams_per_sec } });
		// Once: how much of the 64K pool DPDK completes, which
		// its fragment limit decides.
		if (!v6 && !g_rte.probed &&
		    bench_rte_frag_probe(BENCH_REASM_64K, &g_rte.probe_offered,
					 &g_rte.probe_completed) == 0) {
			g_rte.probed = true;
			state.counters["probe_64k_offered"] =
				static_cast<double>(g_rte.probe_offered);
			state.counters["probe_64k_completed"] =
				static_cast<double>(g_rte.probe_completed);
		}
	}
}
#endif

// After the engine's cases: start DPDK and register the anchor, or say
// why not. Never an error.
void RteRegister(int reps)
{
#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
	char why[240] = "";
	g_rte.max_frags = bench_rte_frag_max_frags();
	benchmark::AddCustomContext("rte_ip_frag_max_frags",
				    std::to_string(g_rte.max_frags));
	if (bench_rte_frag_start(why, sizeof(why)) != 0) {
		g_rte.why = why;
		benchmark::AddCustomContext("rte_ip_frag", why);
		std::fprintf(stderr,
			     "bench_reasm: %s skipped: DPDK cannot start "
			     "here (%s)\n",
			     kRteCase, why);
		return;
	}
	g_rte_cases = { { BENCH_REASM_3F, false, 0, 0, kRteCase, kByDatagram },
			{ BENCH_REASM_3F_V6, false, 0, 0, kRte6Case,
			  kByDatagram } };
	Register(g_rte_cases, RunRte, reps);
#else
	(void)reps;
	g_rte.why = "DPDK (libdpdk, librte_ip_frag) was not found at build "
		    "time";
	benchmark::AddCustomContext("rte_ip_frag", g_rte.why);
#endif
}

// --- the libnids anchor -------------------------------------------------------

const char kNidsCase[] = "reasm/3F/libnids/1W";
std::vector<Case> g_nids_cases;

#ifdef GRAIN_BENCH_HAVE_NIDS
// libnids and, in the same loop, the engine (adapters.h): counters only.
void RunNids(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_nids_result r{};
		int rc = bench_nids_run(c->workload, DurationMs(), g_min_passes,
					&r);
		if (!RunOk(state, c->name, "bench_nids_run", rc, r,
			   "check failed", Why(r.error, r.errors)))
			break;
		Record(state, c->name, 1,
		       { { "dgrams_per_sec", r.datagrams_per_sec },
			 { "engine_dgrams_per_sec",
			   r.engine_datagrams_per_sec },
			 { "engine_over_nids",
			   r.datagrams_per_sec > 0
				   ? r.engine_datagrams_per_sec /
					     r.datagrams_per_sec
				   : 0 },
			 { "passes", r.passes } });
	}
}
#endif

// After the engine's cases: start libnids and register its case, or say
// why not. Never an error.
void NidsRegister(int reps)
{
#ifdef GRAIN_BENCH_HAVE_NIDS
	char why[240] = "";
	if (bench_nids_start(why, sizeof(why)) != 0) {
		std::fprintf(stderr, "bench_reasm: %s skipped: %s\n", kNidsCase,
			     why);
		return;
	}
	g_nids_cases = { { BENCH_REASM_3F, false, 0, 0, kNidsCase,
			   kByDatagram } };
	Register(g_nids_cases, RunNids, reps);
#else
	(void)reps;
#endif
}

// --- setup -------------------------------------------------------------------

const std::vector<Flag> kFlags = {
	{ "--pool_mib", nullptr, nullptr, &g_ropt.pool_mib },
	{ "--flood_every", nullptr, nullptr, &g_ropt.flood_every },
	{ "--workers", nullptr, &g_ropt.workers, nullptr },
	{ "--link", nullptr, &g_ropt.link, nullptr },
	{ "--pin", &g_ropt.pin, nullptr, nullptr },
	{ "--fanout", nullptr, &g_ropt.fanout, nullptr },
};

int Setup(const Options &opt)
{
	const ReasmOptions &ro = g_ropt;
	std::string bad;
	g_min_passes = opt.quick ? 2u : 3u;
	if (!ParseCounts(!opt.threads.empty()  ? opt.threads
			 : !ro.workers.empty() ? ro.workers
					       : "1,2,4",
			 BENCH_REASM_MAX_WORKERS, &g_workers))
		bad = "--workers: a list of 1.." +
		      std::to_string(BENCH_REASM_MAX_WORKERS) + ", e.g. 1,2,4";
	else if (ro.link != "raw" && ro.link != "ether")
		bad = "--link: raw or ether";
	else if (ro.fanout != "fragment" && ro.fanout != "datagram" &&
		 ro.fanout != "both")
		bad = "--fanout: datagram, fragment or both";
	else if (ro.flood_every == 0)
		bad = "--flood_every: at least 1";
	if (!bad.empty()) {
		std::fprintf(stderr, "%s\n", bad.c_str());
		return 2;
	}
	g_setup = { ro.link == "ether" ? BENCH_REASM_LINK_ETHERNET
				       : BENCH_REASM_LINK_RAW,
		    ro.pool_mib ? ro.pool_mib : (opt.quick ? 8u : 32u),
		    ro.flood_every, g_workers.back() };
	int rc = bench_reasm_setup(&g_setup);
	if (rc != 0) {
		std::fprintf(stderr, "cannot build the frames: %s\n",
			     std::strerror(-rc));
		return 2;
	}
	if (ro.fanout != "fragment")
		g_fanouts.push_back(kByDatagram);
	if (ro.fanout != "datagram")
		g_fanouts.push_back(kByFragment);
	for (bench_reasm_workload w : kWorkloads)
		for (bool flood : kFloods)
			for (unsigned W : g_workers)
				for (Fanout f : FanoutsOf(W))
					for (unsigned s : kStripes)
						g_cases.push_back(
							{ w, flood, W, s,
							  CaseName(w, flood, W,
								   s, f),
							  f });
	Register(g_cases, RunEngine, Reps());
	RteRegister(Reps());
	NidsRegister(Reps());
	return reasm_file::Setup(opt, Reps(), ro.link);
}

void Teardown()
{
#ifdef GRAIN_BENCH_HAVE_RTE_FRAG
	bench_rte_frag_stop();
#endif
	reasm_file::Teardown();
	bench_reasm_teardown();
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 9 (quick 40 ms x 3).
	return {
		40, 300, 3, 9, false, "dgrams_per_sec", kFlags, Setup, Teardown
	};
}
