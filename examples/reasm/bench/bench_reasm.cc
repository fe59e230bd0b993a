/* SPDX-License-Identifier: BSD-2-Clause */
// bench_reasm.cc - grain_bench_reasm: examples/reasm's reassembly engine in
// memory, its global lock (1 stripe) against per-bucket-group locks (64
// stripes) side by side in one run, with the figures of the "frag queue per
// hash bucket locking" post (netdev, April 2013) beside ours.
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
// compared and mismatches (datagrams checked against the engine's).
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
#include <sstream>

using namespace grain_bench;

namespace reasm_bench {

std::map<std::string, std::vector<Figures>> g_runs;

void Record(benchmark::State &state, const std::string &name, unsigned threads,
	    const Figures &f)
{
	for (const auto &kv : f)
		if (kv.first[0] != '.')
			state.counters[kv.first] = kv.second;
	if (threads > bench_nproc())
		state.SetLabel("oversubscribed: " + std::to_string(threads) +
			       " threads on " + std::to_string(bench_nproc()) +
			       " cores");
	g_runs[name].push_back(f);
}

std::vector<double> Field(const std::string &name, const char *figure)
{
	return Each(g_runs, name,
		    [figure](const Figures &f) { return f.at(figure); });
}

} // namespace reasm_bench

using namespace reasm_bench;

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
const SeedRow &kSeedB = kSeed[1], &kSeedC = kSeed[2];

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
const unsigned kGlobal = 1, kStriped = 64;
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
			 { ".filled", r.filled_datagrams_per_sec } });
		if (!v6 && !g_rte.probed)
			g_rte.probed = bench_rte_frag_probe(
					       BENCH_REASM_64K,
					       &g_rte.probe_offered,
					       &g_rte.probe_completed) == 0;
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
	if (bench_rte_frag_start(why, sizeof(why)) != 0) {
		g_rte.why = why;
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

// --- medians and ratios --------------------------------------------------------

double Med(const char *figure, bench_reasm_workload w, bool flood,
	   unsigned workers, unsigned stripes, Fanout f = kByDatagram)
{
	return Median(Field(CaseName(w, flood, workers, stripes, f), figure));
}

double Rate(bench_reasm_workload w, bool flood, unsigned workers,
	    unsigned stripes, Fanout f = kByDatagram)
{
	return grain_bench::Rate(CaseName(w, flood, workers, stripes, f));
}

// stripes64 / global, same workload, workers and fanout.
double LockRatio(bench_reasm_workload w, bool flood, unsigned workers,
		 Fanout f = kByDatagram)
{
	return Rate(w, flood, workers, kStriped, f) /
	       Rate(w, flood, workers, kGlobal, f);
}

// 1 - legitimate rate under the flood / rate without it.
double FloodCost(bench_reasm_workload w, unsigned workers, unsigned stripes,
		 Fanout f = kByDatagram)
{
	return 1.0 - Rate(w, true, workers, stripes, f) /
			     Rate(w, false, workers, stripes, f);
}

// The fanouts a row of W workers has: none (one row) for one worker.
std::vector<Fanout> FanoutsOf(unsigned W)
{
	return W > 1 ? g_fanouts : std::vector<Fanout>{ kByDatagram };
}

// "2", "2, by datagram", "4 (oversubscribed: ...), by fragment".
std::string RowName(unsigned W, Fanout f)
{
	return std::to_string(W) + Oversubscribed(W) +
	       FanoutPart(W, f, ", by ");
}

// The engine, 1 worker, 3F alone; NaN if not run.
double Engine1W(unsigned stripes)
{
	return Rate(BENCH_REASM_3F, false, 1, stripes);
}

bool RteRan()
{
	return !g_runs[kRteCase].empty();
}

std::string Pct(double v)
{
	return Fmt("%.0f%%", 100.0 * v);
}

std::string Row(const std::vector<std::string> &cells)
{
	std::string s = "|";
	for (const std::string &c : cells)
		s += " " + c + " |";
	return s + "\n";
}

// "1 worker", "2 workers by datagram", "4 workers (oversubscribed: ...) by
// fragment".
std::string WorkersText(unsigned w, Fanout f = kByDatagram)
{
	return std::to_string(w) + (w == 1 ? " worker" : " workers") +
	       Oversubscribed(w) + FanoutPart(w, f, " by ");
}

// The anchor target's detail: the rates, or why there are none.
std::string RteDetail()
{
	if (!RteRan())
		return g_rte.why.empty()
			       ? "librte_ip_frag not measured"
			       : "librte_ip_frag skipped: " + g_rte.why;
	auto k = [](double v) { return Fmt("%.1f", v / 1e3); };
	return "k dgrams/s engine stripes64 " + k(Engine1W(kStriped)) +
	       ", global " + k(Engine1W(kGlobal)) +
	       "; librte_ip_frag contiguous " + Spread(kRteCase, 1e3, 1) +
	       ", mbuf chain " +
	       k(Median(Field(kRteCase, "chain_dgrams_per_sec"))) + "; " +
	       std::to_string(g_rte.mismatches[0]) + " of " +
	       std::to_string(g_rte.compared[0]) + " datagrams differ";
}

// --- targets -----------------------------------------------------------------

std::vector<Target> Targets()
{
	const unsigned W = 2;
	const bench_reasm_workload f3 = BENCH_REASM_3F;
	std::vector<Target> t;
	// The seed's figure is a cell, and follows the verdict in --targets.
	auto add = [&t](Target x, const char *fmt, const std::string &seed,
			const std::string &detail) {
		x.fmt = fmt;
		x.cells = { seed, detail };
		x.seed = seed;
		t.push_back(x);
	};
	// Each with every fanout run: neither stands alone.
	for (Fanout f : g_fanouts) {
		std::string ws = std::to_string(W) + " workers by " +
				 kFanoutName[f],
			    dos = CaseName(f3, true, W, kStriped, f),
			    global = CaseName(f3, true, W, kGlobal, f),
			    alone = CaseName(f3, false, W, kStriped, f);
		add({ "3F+DoS, " + ws + ": stripes64 >= 1.3x global",
		      LockRatio(f3, true, W, f), 1.3, dos, global },
		    "%.2fx",
		    "1.28x (" + Fmt("%.2f", kSeedB.m3f_dos) + " -> " +
			    Fmt("%.2f", kSeedC.m3f_dos) +
			    " Mbit/s, rows B -> C)",
		    "k dgrams/s stripes64 " + Spread(dos, 1e3, 1) +
			    ", global " + Spread(global, 1e3, 1));
		Target cost = { "flood cost on 3F, " + ws +
					", stripes64: <= 20%",
				100.0 * FloodCost(f3, W, kStriped, f), 20.0,
				dos, alone };
		cost.at_most = true;
		cost.of = [](double r) { return 100.0 * (1.0 - r); };
		add(cost, "%.0f%%",
		    Pct(1.0 - kSeedC.m3f_dos / kSeedC.m3f) + " (" +
			    Fmt("%.1f", kSeedC.m3f) + " -> " +
			    Fmt("%.2f", kSeedC.m3f_dos) + " Mbit/s, row C)",
		    "k dgrams/s 3F " + Spread(alone, 1e3, 1) + ", 3F+DoS " +
			    Spread(dos, 1e3, 1));
		for (bench_reasm_workload w : kWorkloads)
			add({ WorkloadName(w, true) + ", " + ws +
				      ", stripes64: >= 95% of legitimate "
				      "datagrams complete",
			      Med("complete_pct", w, true, W, kStriped, f),
			      95.0 },
			    "%.1f%%", "not reported",
			    "evictions per run " +
				    Fmt("%.0f", Med("evictions", w, true, W,
						    kStriped, f)));
	}
	add({ "engine >= 2x librte_ip_frag, 1 worker, 3F",
	      RteRan() ? Engine1W(kStriped) / grain_bench::Rate(kRteCase) : NAN,
	      2.0, CaseName(f3, false, 1, kStriped), kRteCase },
	    "%.2fx", "not reported", RteDetail());
	t.push_back(reasm_file::Goal());
	return t;
}

// --- summary -----------------------------------------------------------------

void MethodLines(std::ostringstream &o, const RunInfo &run)
{
	const bench_reasm_workload_info *k64 =
		bench_reasm_workload_facts(BENCH_REASM_64K);
	const bench_reasm_workload_info *k3 =
		bench_reasm_workload_facts(BENCH_REASM_3F);

	Preamble(o, run, true, "engine");
	LoadLines(o, run);
	MethodStart(o, run, false, false);
	o << "A run creates a fresh engine (examples/reasm, policy strict, "
	     "mem_high 4 MiB, mem_low 3 MiB, evict LRU; 1 stripe = its global "
	     "lock, 64 stripes = per-bucket-group locks), fans a pool of "
	     "pre-built frames out to W worker threads, each with its own "
	     "struct reasm_worker, and runs the pool as "
	     "passes: one untimed warm-up pass, then timed passes until "
	  << run.duration_ms << " ms have passed (at least " << g_min_passes
	  << ", and under the flood until it has brought twice mem_high). "
	     "Each pass gives the frames a new IP ID (header checksum updated "
	     "in place), so every pass is a new set of datagrams. All workers "
	     "end a pass together, and within a pass no worker runs more than "
	     "about 1 MiB of legitimate datagrams ahead of the slowest (a "
	     "bounded receive queue). The emit callback of each worker checks "
	     "and frees every output; per-worker counters, no shared atomic on "
	     "the per-fragment path. dgrams/s = legitimate datagrams "
	     "reassembled in the timed passes / their time; Gbit/s = their IP "
	     "payload (UDP header and data) in bits / time. "
	  << (g_ropt.pin
		      ? "Workers are pinned one per CPU when they fit (W <= " +
				std::to_string(bench_nproc()) +
				"), else left to the scheduler (--pin).\n"
		      : "Workers are not pinned: the scheduler places them (on "
			"a shared machine a pinned worker cannot leave a CPU "
			"another process takes, and with the fanout the "
			"slowest worker sets the pace).\n")
	  << "- Fanout, with more than one worker: **by datagram**, datagram "
	     "i whole to worker i % W, as reasm's default `--fanout hash` "
	     "(the kernel's flow hash of a fragment covers its addresses, not "
	     "its offset) and as the seed's NICs, which spread packets by "
	     "address; **by fragment**, fragment k of datagram i to worker "
	     "(i + k) % W, as `--fanout lb`, so that the workers share every "
	     "datagram and its state moves between their caches. Each row "
	     "says which.\n"
	  << "- Frames: "
	  << (g_setup.link == BENCH_REASM_LINK_ETHERNET ? "Ethernet"
							: "raw IPv4")
	  << ", MTU 1500 (1480 payload bytes per fragment), correct IPv4 "
	     "header and UDP checksums, built before timing. **64K**: UDP "
	     "datagrams of "
	  << k64->ip_payload << " IP payload bytes, " << k64->frags
	  << " fragments each, " << k64->datagrams
	  << " per pass. **3F**: " << k3->ip_payload << " bytes, " << k3->frags
	  << " fragments, " << k3->datagrams
	  << " per pass. Virtual capture clock: 100 ns per legitimate "
	     "fragment, so LRU ages differ and nothing reaches the 30 s "
	     "timeout.\n- Flood (+DoS): one fragment after every "
	  << g_setup.flood_every << " legitimate fragments of each worker ("
	  << Fmt("%.1f%%", 100.0 / (g_setup.flood_every + 1))
	  << " of the frames), each a distinct datagram (its own source "
	     "address), offset 0, MF set, 1480 payload bytes, never completed. "
	     "Before the warm-up the engine is filled with flood fragments "
	     "until it first evicts, so the timed passes run on a full table; "
	     "in them the flood brings "
	  << Fmt("%.0f", Med("flood_fills", BENCH_REASM_3F, true, 2, kStriped,
			     g_fanouts.front()))
	  << " (3F) and "
	  << Fmt("%.0f", Med("flood_fills", BENCH_REASM_64K, true, 2, kStriped,
			     g_fanouts.front()))
	  << " (64K) times mem_high per run (median, 2 workers by "
	  << kFanoutName[g_fanouts.front()]
	  << ", stripes64): "
	     "evictions run throughout.\n- Checks on every run: each output is "
	     "a legitimate datagram of the right length, key, header checksum "
	     "and pass (IP ID), and one in 256 has its payload compared byte "
	     "for byte; without the flood every datagram of every pass "
	     "completes exactly once; after reasm_destroy() the books balance "
	     "(ReasmReqds = frames given = reassembled + dropped + discarded + "
	     "pending fragments, ReasmOKs = outputs seen), with no timeout, "
	     "duplicate, overlap or malformed fragment; under the flood the "
	     "engine must have evicted in the timed passes. A failure exits "
	     "non-zero.\n\n";
}

// Row W, F of the rate table of workload W, FLOOD: every figure for the
// global lock, then for stripes64.
std::string RateRow(bench_reasm_workload w, bool flood, unsigned W, Fanout f)
{
	static const struct {
		const char *figure, *fmt;
	} kBoth[] = { { "complete_pct", "%.1f" },
		      { "evictions", "%.0f" },
		      { "wait_pct", "%.0f" } };
	std::vector<std::string> r = { RowName(W, f) };
	for (unsigned s : kStripes) {
		r.push_back(Fmt("%.1f", Rate(w, flood, W, s, f) / 1e3));
		r.push_back(
			Fmt("%.2f", Med("gbit_per_sec", w, flood, W, s, f)));
	}
	r.push_back(Fmt("**%.2fx**", LockRatio(w, flood, W, f)));
	for (const auto &b : kBoth)
		r.push_back(
			Fmt(b.fmt, Med(b.figure, w, flood, W, kGlobal, f)) +
			" / " +
			Fmt(b.fmt, Med(b.figure, w, flood, W, kStriped, f)));
	return Row(r);
}

void RateTables(std::ostringstream &o)
{
	for (bench_reasm_workload w : kWorkloads)
		for (bool flood : kFloods) {
			o << "### " << WorkloadName(w, flood)
			  << ": legitimate datagrams reassembled (median)\n\n"
			  << TableHead("| workers |",
				       { "global k dgrams/s", "global Gbit/s",
					 "stripes64 k dgrams/s",
					 "stripes64 Gbit/s",
					 "stripes64 / global",
					 "completed % global / stripes64",
					 "evictions per run global / stripes64",
					 "workers waiting % global / "
					 "stripes64" });
			for (unsigned W : g_workers)
				for (Fanout f : FanoutsOf(W))
					o << RateRow(w, flood, W, f);
			o << "\n";
		}
	o << "stripes64 / global: ratio of the medians. Workers waiting: the "
	     "share of the workers' time in the timed passes spent waiting for "
	     "the slowest one, to come within the window or to end the pass "
	     "(time the harness, not the engine, takes). Oversubscribed rows "
	     "have more threads than CPUs: the scheduler preempts workers in "
	     "the middle of a datagram, lock holders included, and the others "
	     "wait for them at the window and at the end of each pass.\n\n"
	     "### Flood cost: 1 - (legitimate rate with the flood / rate "
	     "without it), medians\n\n"
	  << TableHead("| workers |", { "64K global", "64K stripes64",
					"3F global", "3F stripes64" });
	for (unsigned W : g_workers)
		for (Fanout f : FanoutsOf(W)) {
			std::vector<std::string> r = { RowName(W, f) };
			for (bench_reasm_workload w : kWorkloads)
				for (unsigned s : kStripes)
					r.push_back(Pct(FloodCost(w, W, s, f)));
			o << Row(r);
		}
	o << "\n";
}

void SeedSection(std::ostringstream &o)
{
	o << "### Against the seed's table\n\nSeed: netdev, April 2013, \"Re: "
	     "[net-next PATCH 3/3] net: frag queue per hash bucket locking\" "
	     "(Jesper Dangaard Brouer's table of his 20 Gbit/s fragment tests: "
	     "rows B, before, and C, after, are the same tree without and with "
	     "per-hash-bucket locks). Its figures are Mbit/s of UDP traffic "
	     "reassembled by the Linux kernel's IPv4 defragmentation in a 20 "
	     "Gbit/s test setup; ours are in-memory reassembly on this "
	     "machine. Compare ratios, not absolute figures. The +MQ columns "
	     "are not reproduced (the quoted message does not define them)."
	     "\n\n"
	  << TableHead("| row | tree |",
		       { "20G64K", "20G3F", "20G64K+DoS", "20G3F+DoS",
			 "20G64K+MQ", "20G3F+MQ" });
	for (const SeedRow &s : kSeed)
		o << Row({ s.row, s.what, Fmt("%.1f", s.m64k),
			   Fmt("%.1f", s.m3f), Fmt("%.2f", s.m64k_dos),
			   Fmt("%.2f", s.m3f_dos), Fmt("%.1f", s.m64k_mq),
			   Fmt("%.1f", s.m3f_mq) });
	o << "\nBefore -> after, side by side: the seed's C / B against our "
	     "stripes64 / global (median datagrams/s, same run).\n\n"
	  << TableHead("| |", { "64K", "3F", "64K+DoS", "3F+DoS" })
	  << Row({ "seed C / B", Fmt("%.2fx", kSeedC.m64k / kSeedB.m64k),
		   Fmt("%.2fx", kSeedC.m3f / kSeedB.m3f),
		   Fmt("%.2fx", kSeedC.m64k_dos / kSeedB.m64k_dos),
		   Fmt("%.2fx", kSeedC.m3f_dos / kSeedB.m3f_dos) });
	for (unsigned W : g_workers)
		for (Fanout f : FanoutsOf(W)) {
			std::vector<std::string> r = { "ours, " +
						       WorkersText(W, f) };
			for (bool flood : kFloods)
				for (bench_reasm_workload w : kWorkloads)
					r.push_back(
						Fmt("%.2fx",
						    LockRatio(w, flood, W, f)));
			o << Row(r);
		}
	o << "\nFlood cost, 1 - (+DoS / alone): the seed's rows B and C "
	     "against ours.\n\n"
	  << TableHead("| |", { "64K", "3F" });
	for (const SeedRow *s : { &kSeedB, &kSeedC })
		o << Row({ s == &kSeedB ? "seed B (one lock)"
					: "seed C (per-bucket locks)",
			   Pct(1.0 - s->m64k_dos / s->m64k),
			   Pct(1.0 - s->m3f_dos / s->m3f) });
	for (unsigned W : g_workers)
		for (Fanout f : FanoutsOf(W))
			for (unsigned s : kStripes)
				o << Row({ "ours, " + WorkersText(W, f) + ", " +
						   LockName(s),
					   Pct(FloodCost(BENCH_REASM_64K, W, s,
							 f)),
					   Pct(FloodCost(BENCH_REASM_3F, W, s,
							 f)) });
	o << "\n";
}

void RteSection(std::ostringstream &o)
{
	o << "### Anchor: DPDK librte_ip_frag, 3F, 1 worker\n\n";
	if (!RteRan()) {
		o << "Not run: "
		  << (g_rte.why.empty() ? "case filtered out" : g_rte.why)
		  << ".\n\n";
		return;
	}
	o << "DPDK's rte_ipv4_frag_reassemble_packet (librte_ip_frag, "
	     "RTE_LIBRTE_IP_FRAG_MAX_FRAG "
	  << g_rte.max_frags
	  << " fragments per datagram), EAL started in this process "
	     "(--no-huge, --no-pci, --no-shconf, no telemetry), one thread, on "
	     "the same "
	  << bench_reasm_workload_facts(BENCH_REASM_3F)->datagrams
	  << " 3F datagrams per pass as the engine cases, each pass with its "
	     "own IP ID, on the same virtual clock. Copying a frame into an "
	     "mbuf (a NIC's DMA) is not timed; the engine's copy of each "
	     "fragment into its datagram is. DPDK returns the datagram as an "
	     "mbuf chain (one segment per fragment); the engine emits it "
	     "contiguous. **contiguous**: the chain copied into one malloc'd "
	     "buffer and its IPv4 header checksum filled in (DPDK leaves it 0 "
	     "for the NIC), as the engine's output is; **chain**: reassembly "
	     "and freeing the chain only. The target compares the engine "
	     "case (stripes64, the engine's default) against contiguous, "
	     "both a contiguous datagram out; the engine case's time also "
	     "holds what its harness "
	     "does per frame and per output (each frame's IP ID and checksum "
	     "rewritten, each output's header checked), where DPDK's IP ID "
	     "is written in the untimed copy into mbufs and its output only "
	     "has its length checked. The row \"in the anchor's loop\" is a "
	     "cross-check without the harness: an engine fed each batch right "
	     "after DPDK, on frames still warm from the copy into mbufs, its "
	     "outputs only counted and their lengths checked.\n\nBefore the "
	     "timed passes of every run, each datagram of the pool is "
	     "reassembled by DPDK and by a fresh engine (strict, one worker) "
	     "from the same frames and the two compared byte for byte (link "
	     "header, IPv4 header, payload): "
	  << g_rte.mismatches[0] << " of " << g_rte.compared[0]
	  << " differ (any difference fails the case). 64K ("
	  << bench_reasm_workload_facts(BENCH_REASM_64K)->frags
	  << " fragments per datagram) is past DPDK's limit: of the "
	  << g_rte.probe_offered << " datagrams of one 64K pass it returned "
	  << g_rte.probe_completed
	  << " (the engine: all of them), so 64K is not compared. IPv6: "
	     "below.\n\n"
	  << TableHead("| 1 worker, 3F |", { "k dgrams/s, median (min–max)",
					     "engine stripes64 / this" });
	auto row = [&o](const std::string &what, const std::vector<double> &v,
			double engine) {
		o << Row({ what, Spread(v, 1e3, 1),
			   Fmt("%.2fx", engine / Median(v)) });
	};
	const double e3 = Engine1W(kStriped);
	row("engine, stripes64",
	    Rates(CaseName(BENCH_REASM_3F, false, 1, kStriped)), e3);
	row("engine, global",
	    Rates(CaseName(BENCH_REASM_3F, false, 1, kGlobal)), e3);
	row("engine, in the anchor's loop (after DPDK, same batches)",
	    Field(kRteCase, "engine_dgrams_per_sec"), e3);
	row("librte_ip_frag, contiguous", Field(kRteCase, "dgrams_per_sec"),
	    e3);
	row("librte_ip_frag, mbuf chain",
	    Field(kRteCase, "chain_dgrams_per_sec"), e3);
	row("librte_ip_frag, contiguous, with the copy into mbufs",
	    Field(kRteCase, ".filled"), e3);
	if (g_runs[kRte6Case].empty()) {
		o << "\n";
		return;
	}
	o << "\nIPv6 (" << kRte6Case
	  << "): as many datagrams as 3F, 4296 UDP bytes each in 3 fragments "
	     "(1448 + 1448 + 1400), the Fragment header right after the IPv6 "
	     "header (librte_ip_frag looks nowhere else: datagrams with other "
	     "extension headers before it are not generated). Both sides are "
	     "timed by the anchor's own loop, in the same batches: the engine "
	     "(strict, one worker) on the frames, DPDK as above. Compared byte "
	     "for byte first: "
	  << g_rte.mismatches[1] << " of " << g_rte.compared[1]
	  << " differ.\n\n"
	  << TableHead("| 1 worker, IPv6 3F |",
		       { "k dgrams/s, median (min–max)", "engine / this" });
	const double e6 = Median(Field(kRte6Case, "engine_dgrams_per_sec"));
	row("engine", Field(kRte6Case, "engine_dgrams_per_sec"), e6);
	row("librte_ip_frag, contiguous", Field(kRte6Case, "dgrams_per_sec"),
	    e6);
	row("librte_ip_frag, mbuf chain",
	    Field(kRte6Case, "chain_dgrams_per_sec"), e6);
	o << "\n";
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;
	MethodLines(o, run);
	RateTables(o);
	SeedSection(o);
	RteSection(o);
	o << reasm_file::Section() << "### Targets\n\n"
	  << TargetsTable("measured", { "seed", "detail, median (min–max)" },
			  Targets());
	return o.str();
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
