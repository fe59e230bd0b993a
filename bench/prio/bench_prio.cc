/* SPDX-License-Identifier: BSD-2-Clause */
// bench_prio.cc - grain_prio against a classic pfifo_fast (one lock, three
// linked lists) in the qdisc shape, side by side in one run, with the
// figures of the lockless-pfifo_fast post (netdev, July 2016) next to ours.
//
// Every benchmark is one timed experiment of prio_run() (adapters.h):
// Iterations(1), manual time = the experiment's measured seconds,
// Repetitions(R), and only the aggregates (median first) are reported.
// The counter items_per_sec is what the single consumer dequeued per
// second; attempts_per_sec and drop_pct describe the producers.
//
// Cases: 1, 2, 4, 8 and 12 producers x {spinlock baseline, mutex
// baseline, grain_prio (3 bands: scanned), grain_prio_bits (8 bands: the
// non-empty bits)} x {single, burst dequeue} x two placements:
// own_core (the consumer alone on CPU 0, producers on the other CPUs) and
// unpinned (the scheduler places everything).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 9, quick
// 60 ms x 3; --threads=LIST the producer counts (default 1,2,4,8,12), and
//   --burst=N          items per burst dequeue (default 32)
//   --placement=P      own_core, unpinned or both (default both)
// The program exits non-zero if any run failed a check (order, band,
// count, strict priority in the drain, queue statistics) or could not run.

#include "adapters/adapters.h"
#include "../common/driver.h"

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

// pktgen packets per second through pfifo_fast as the root qdisc, the
// classic locked version ("original") against per-band skb_arrays
// ("lockless"), by pktgen thread count.
struct SeedRow {
	unsigned threads;
	double original_pps;
	double lockless_pps;
};

const SeedRow kSeed[] = {
	{ 1, 1418168, 1269450 },  { 2, 1587390, 1553408 },
	{ 4, 1084961, 1683639 },  { 8, 989636, 1522723 },
	{ 12, 1014018, 1348172 },
};

const char kSeedSource[] =
	"netdev, 14 July 2016, \"Re: [RFC PATCH v2 08/10] net: sched: "
	"pfifo_fast use alf_queue\" (John Fastabend, quoting Alexei "
	"Starovoitov's table of Fastabend's pktgen results; Message-ID "
	"57882945.4090101@gmail.com, archived at lists.openwall.net "
	"linux-netdev)";

std::vector<unsigned> g_producers = { 1, 2, 4, 8, 12 };
// The placements this run measures (--placement).
std::vector<prio_placement> g_placements = { PRIO_PLACE_CONSUMER_CORE,
					     PRIO_PLACE_FREE };
const prio_impl kImpls[] = { PRIO_BASE_SPIN, PRIO_BASE_MUTEX, PRIO_GRAIN,
			     PRIO_GRAIN_BITS };
const prio_deq kDeqs[] = { PRIO_DEQ_SINGLE, PRIO_DEQ_BURST };
const unsigned kBandLimit = 1024;

struct Case {
	prio_placement place;
	prio_impl impl;
	prio_deq deq;
	unsigned producers;
	std::string name;
};

// Every run's result, by benchmark name.
std::map<std::string, std::vector<prio_result>> g_runs;
unsigned g_burst = 32;
std::string g_placement = "both";

std::string DeqLabel(prio_deq d)
{
	return d == PRIO_DEQ_SINGLE ? "single"
				    : "burst" + std::to_string(g_burst);
}

const char *PlaceName(prio_placement pl)
{
	return pl == PRIO_PLACE_CONSUMER_CORE ? "own_core" : "unpinned";
}

std::string PlaceText(prio_placement pl)
{
	unsigned nproc = bench_nproc();
	if (pl == PRIO_PLACE_FREE)
		return "no pinning, the scheduler places every thread on the " +
		       std::to_string(nproc) + " CPUs";
	if (nproc < 2)
		return "every thread pinned to CPU 0 (one CPU)";
	if (nproc == 2)
		return "the consumer alone on CPU 0, every producer pinned to "
		       "CPU 1";
	return "the consumer alone on CPU 0, producers pinned round robin "
	       "to CPUs 1.." +
	       std::to_string(nproc - 1);
}

std::string CaseName(prio_placement pl, prio_impl impl, prio_deq deq,
		     unsigned producers)
{
	return std::string("prio/") + PlaceName(pl) + "/" +
	       prio_info(impl)->name + "/" + DeqLabel(deq) + "/" +
	       std::to_string(producers) + "P1C";
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		prio_config cfg{};
		cfg.producers = c->producers;
		cfg.deq = c->deq;
		cfg.burst = g_burst;
		cfg.band_limit = kBandLimit;
		cfg.duration_ms = DurationMs();
		cfg.placement = c->place;
		prio_result res{};
		int rc = prio_run(c->impl, &cfg, &res);
		auto why = [&res] {
			return "check failed: order " +
			       std::to_string(res.order_errors) + ", band " +
			       std::to_string(res.band_errors) + ", count " +
			       std::to_string(res.count_errors) +
			       ", priority " +
			       std::to_string(res.priority_errors) +
			       ", stats " + std::to_string(res.stats_errors);
		};
		if (!RunOk(state, c->name, "prio_run", rc, res, "check failed",
			   why))
			break;
		state.counters["items_per_sec"] = res.items_per_sec;
		state.counters["attempts_per_sec"] = res.attempts_per_sec;
		state.counters["drop_pct"] = 100.0 * res.drop_fraction;
		state.counters["empty_polls"] =
			static_cast<double>(res.empty_polls);
		state.counters["blocked_polls"] =
			static_cast<double>(res.blocked_polls);
		state.counters["consumer_cpu_pct"] =
			res.seconds > 0
				? 100.0 * res.consumer_cpu_seconds / res.seconds
				: 0.0;
		state.counters["drained"] = static_cast<double>(res.drained);
		state.counters["drain_s"] = res.drain_seconds;
		g_runs[c->name].push_back(res);
	}
}

// --- flags -------------------------------------------------------------------

const std::vector<Flag> kFlags = {
	{ "--placement", nullptr, &g_placement, nullptr },
	{ "--burst", nullptr, nullptr, &g_burst },
};

// --- medians -----------------------------------------------------------------

template <typename F>
std::vector<double> Field(prio_placement pl, prio_impl impl, prio_deq deq,
			  unsigned p, F f)
{
	return Each(g_runs, CaseName(pl, impl, deq, p), f);
}

// The median of figure f of one run over a case's runs.
template <typename F>
double Med(F f, prio_placement pl, prio_impl impl, prio_deq deq, unsigned p)
{
	return Median(Field(pl, impl, deq, p, f));
}

const auto kAttempts = [](const prio_result &r) { return r.attempts_per_sec; };
const auto kDropPct = [](const prio_result &r) {
	return 100.0 * r.drop_fraction;
};
const auto kEmptyPolls = [](const prio_result &r) {
	return static_cast<double>(r.empty_polls) / r.seconds;
};
const auto kBlockedPct = [](const prio_result &r) {
	return r.empty_polls ? 100.0 * static_cast<double>(r.blocked_polls) /
				       static_cast<double>(r.empty_polls)
			     : 0.0;
};

double Rate(prio_placement pl, prio_impl impl, prio_deq deq, unsigned p)
{
	return grain_bench::Rate(CaseName(pl, impl, deq, p));
}

// Share (%) of band b in what the consumer dequeued before the stop.
double BandPct(prio_placement pl, prio_impl impl, prio_deq deq, unsigned p,
	       unsigned b)
{
	return Median(Field(pl, impl, deq, p, [b](const prio_result &r) {
		double all = 0;
		for (unsigned i = 0; i < PRIO_BANDS; i++)
			all += static_cast<double>(r.dequeued_band[i]);
		return all > 0 ? 100.0 *
					 static_cast<double>(
						 r.dequeued_band[b]) /
					 all
			       : NAN;
	}));
}

std::string ProducersLabel(unsigned p)
{
	return std::to_string(p) + Oversubscribed(p + 1);
}

// Under 10% of the same queue's rate with one producer (same placement and
// dequeue): its consumer was all but starved.
bool Collapsed(prio_placement pl, prio_impl impl, prio_deq deq, unsigned p)
{
	double here = Rate(pl, impl, deq, p), one = Rate(pl, impl, deq, 1);
	return p != 1 && !std::isnan(here) && !std::isnan(one) &&
	       here < 0.1 * one;
}

// --- targets -----------------------------------------------------------------

std::string TargetText(prio_placement pl, unsigned p, prio_deq deq, double goal)
{
	std::string d = DeqLabel(deq);
	return std::string(PlaceName(pl)) + " " + std::to_string(p) + "P1C " +
	       d + ": grain_prio >= " + Fmt("%.1fx", goal) + " baseline " + d +
	       (p + 1 > bench_nproc() ? " (oversubscribed)" : "");
}

// grain_prio against the spinlock baseline, same placement and dequeue.
std::vector<Target> Targets()
{
	std::vector<Target> t;
	const struct {
		unsigned p;
		double goal;
	} goals[] = { { 1, 1.0 }, { 2, 1.5 }, { 8, 1.5 }, { 12, 1.5 } };
	for (prio_placement pl : g_placements)
		for (const auto &g : goals)
			for (prio_deq d : kDeqs) {
				std::string n = CaseName(pl, PRIO_GRAIN, d,
							 g.p),
					    b = CaseName(pl, PRIO_BASE_SPIN, d,
							 g.p);
				Target x = { TargetText(pl, g.p, d, g.goal),
					     Ratio(n, b), g.goal, n, b };
				x.cells = { Spread(n, 1e6, 2),
					    Spread(b, 1e6, 2) };
				t.push_back(x);
			}
	return t;
}

// --- summary -----------------------------------------------------------------

void MachineSection(std::ostringstream &o, const RunInfo &run)
{
	Preamble(o, run, false, "queues");
	LoadLines(o, run);
	CalibrationLine(o, run,
			" (on a virtual machine it moves with the host's "
			"placement of the virtual CPUs, and so do all figures; "
			"compare ratios within one run)");
	MethodStart(o, run, false, true);
	o << "A run starts P producers and one consumer together. "
	     "Each producer enqueues 64-byte items from its own preallocated "
	     "pool by priority, as fast as it can; a full band drops the item "
	     "and the producer goes on at once (tail drop, as the qdisc). The "
	     "consumer dequeues by strict priority, one item per call "
	     "(single) or up to "
	  << g_burst << " (burst" << g_burst
	  << "), checks each item and hands it back to its producer. "
	     "items/s = items dequeued by the deadline / elapsed time. "
	     "Band limit "
	  << kBandLimit
	  << " items for every band of every queue. On an empty queue the "
	     "consumer pauses 8 times, and calls sched_yield() after 64 "
	     "empty polls in a row.\n";
	o << "- Placements, each measured for every case: ";
	for (prio_placement pl : g_placements)
		o << "**" << PlaceName(pl) << "**: " << PlaceText(pl)
		  << (pl == g_placements.back() ? ".\n" : "; ");
	o << "- Priority stream (every producer, same table, own offset):";
	for (unsigned prio = 0; prio < 16; prio++) {
		double share = prio_stream_share(prio);
		if (share > 0)
			o << " priority " << prio << " -> band "
			  << prio_stream_band(prio) << " "
			  << Fmt("%.1f%%", 100.0 * share) << ";";
	}
	o << " bands by pfifo_fast's prio2band.\n";
	o << "- Checks on every run: per-producer FIFO order in each band, the "
	     "band each single dequeue reports, every accepted item dequeued "
	     "exactly once, the queue's own statistics against the "
	     "producers' counts, and strict priority (bands in order) while "
	     "the consumer drains the queue after the producers stop.\n";
	o << "- Queues:\n";
	for (prio_impl i : kImpls)
		o << "  - " << prio_info(i)->label << ": " << prio_info(i)->note
		  << "\n";
	o << "\n";
}

// One column per (dequeue, queue) pair of the spinlock baseline and
// grain_prio, for the detail tables.
template <typename Cell>
void DetailTable(std::ostringstream &o, prio_placement pl, Cell cell)
{
	o << "| producers |";
	for (prio_deq d : kDeqs)
		for (prio_impl i : { PRIO_BASE_SPIN, PRIO_GRAIN })
			o << " " << prio_info(i)->label << " " << DeqLabel(d)
			  << " |";
	o << "\n|---|---:|---:|---:|---:|\n";
	for (unsigned p : g_producers) {
		o << "| " << ProducersLabel(p) << " |";
		for (prio_deq d : kDeqs)
			for (prio_impl i : { PRIO_BASE_SPIN, PRIO_GRAIN })
				o << " " << cell(pl, i, d, p) << " |";
		o << "\n";
	}
	o << "\n";
}

// The items-per-second table: the spinlock baseline against grain_prio,
// then the mutex baseline, with a note for the collapsed cells.
void RateTable(std::ostringstream &o, prio_placement pl)
{
	std::string b = DeqLabel(PRIO_DEQ_BURST);
	bool any_collapse = false;

	o << "#### Items dequeued per second, millions (median)\n\n"
	     "| producers | baseline single | grain_prio single | ratio single "
	     "| baseline "
	  << b << " | grain_prio " << b << " | ratio " << b
	  << " | mutex baseline single | mutex baseline " << b << " |\n"
	  << "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
	for (unsigned p : g_producers) {
		o << "| " << ProducersLabel(p) << " |";
		for (prio_deq d : kDeqs) {
			double base = Rate(pl, PRIO_BASE_SPIN, d, p);
			double grain = Rate(pl, PRIO_GRAIN, d, p);
			o << " " << Fmt("%.2f", base / 1e6);
			if (Collapsed(pl, PRIO_BASE_SPIN, d, p)) {
				o << " ‡";
				any_collapse = true;
			}
			o << " | " << Fmt("%.2f", grain / 1e6);
			if (Collapsed(pl, PRIO_GRAIN, d, p)) {
				o << " ‡";
				any_collapse = true;
			}
			o << " | " << Fmt("**%.2fx**", grain / base) << " |";
		}
		for (prio_deq d : kDeqs) {
			o << " "
			  << Fmt("%.2f", Rate(pl, PRIO_BASE_MUTEX, d, p) / 1e6);
			if (Collapsed(pl, PRIO_BASE_MUTEX, d, p)) {
				o << " ‡";
				any_collapse = true;
			}
			o << " |";
		}
		o << "\n";
	}
	o << "\nbaseline = one grain_spinlock over three linked lists; ratio = "
	     "grain_prio / baseline with the same dequeue. Oversubscribed "
	     "rows have more threads than CPUs: the scheduler preempts threads "
	     "in the middle of their operations, lock holders included.\n";
	if (any_collapse)
		o << "‡ collapsed: under 10% of the same queue's rate with one "
		     "producer; its consumer was all but starved, and a ratio "
		     "against it measures that starvation, not the queue.\n";
	o << "\n";
}

// grain_prio with the non-empty bits against the spinlock baseline.
void BitsTable(std::ostringstream &o, prio_placement pl)
{
	std::string b = DeqLabel(PRIO_DEQ_BURST);

	o << "#### grain_prio with the non-empty bits (8 bands, the stream in "
	     "0..2), millions per second (median) and ratio to the spinlock "
	     "baseline\n\n"
	     "| producers | bits single | ratio single | bits "
	  << b << " | ratio " << b << " |\n|---|---:|---:|---:|---:|\n";
	for (unsigned p : g_producers) {
		o << "| " << ProducersLabel(p) << " |";
		for (prio_deq d : kDeqs) {
			double bits = Rate(pl, PRIO_GRAIN_BITS, d, p);
			o << " " << Fmt("%.2f", bits / 1e6) << " | "
			  << Fmt("%.2fx", bits / Rate(pl, PRIO_BASE_SPIN, d, p))
			  << " |";
		}
		o << "\n";
	}
	o << "\n";
}

// The producers' attempts and drops, the bands served and the consumer's
// empty polls, one detail table each.
void DetailTables(std::ostringstream &o, prio_placement pl)
{
	o << "#### Producers: enqueue attempts per second (millions) and share "
	     "dropped (median)\n\n";
	DetailTable(
		o, pl,
		[](prio_placement x, prio_impl i, prio_deq d, unsigned p) {
			return Fmt("%.1f", Med(kAttempts, x, i, d, p) / 1e6) +
			       ", " +
			       Fmt("%.1f%% dropped", Med(kDropPct, x, i, d, p));
		});
	o << "A producer never waits: when its item's band is full the item "
	     "is dropped and it goes on with the next.\n\n";

	o << "#### What the consumer served, share per band 0 / 1 / 2 "
	     "(median, %)\n\n";
	DetailTable(o, pl,
		    [](prio_placement x, prio_impl i, prio_deq d, unsigned p) {
			    return Fmt("%.0f", BandPct(x, i, d, p, 0)) + " / " +
				   Fmt("%.0f", BandPct(x, i, d, p, 1)) + " / " +
				   Fmt("%.0f", BandPct(x, i, d, p, 2));
		    });
	o << "The stream is 12.5 / 75 / 12.5 %. A consumer that keeps up serves "
	     "it as it comes; one that falls behind serves band 0 first and "
	     "band 2 last (strict priority). Equal thirds mean the consumer "
	     "emptied every band in turn: while it ran, no producer refilled "
	     "the queue.\n\n";

	o << "#### Consumer: polls that found nothing, per second (median); "
	     "grain_prio: share of them blocked\n\n";
	DetailTable(o, pl,
		    [](prio_placement x, prio_impl i, prio_deq d, unsigned p) {
			    std::string s =
				    Fmt("%.0f", Med(kEmptyPolls, x, i, d, p));
			    if (!prio_info(i)->baseline)
				    s += ", " +
					 Fmt("%.0f%% blocked",
					     Med(kBlockedPct, x, i, d, p));
			    return s;
		    });
	o << "blocked: a poll that failed after 64 or more failed polls in a "
	     "row (the consumer yields the CPU by then) while "
	     "grain_prio_backlog() still counted items: a producer had claimed "
	     "the head slot of a band and not published it for that long "
	     "(preempted in between), or, rarely, an item arrived just then. "
	     "A lock-based queue is never blocked that way; its consumer waits "
	     "inside the lock instead, which no poll counts.\n\n";
}

void PlacementSection(std::ostringstream &o, prio_placement pl)
{
	o << "### " << PlaceName(pl) << ": " << PlaceText(pl) << "\n\n";
	RateTable(o, pl);
	BitsTable(o, pl);
	DetailTables(o, pl);
}

void SeedSection(std::ostringstream &o)
{
	std::string b = DeqLabel(PRIO_DEQ_BURST);
	o << "### Against the seed's table\n\nSeed: " << kSeedSource
	  << ". Its figures are pktgen packets/s through pfifo_fast as the "
	     "root qdisc, by pktgen thread, on the poster's machine, where "
	     "every thread both enqueues and runs the qdisc and no thread is "
	     "preempted inside the qdisc (kernel code, bottom halves off); "
	     "ours are items/s of one consumer thread on this machine. Compare "
	     "ratios, not absolute figures.\n\n"
	     "| threads / producers | seed original pps | seed lockless pps | "
	     "seed ratio |";
	for (prio_placement pl : g_placements)
		o << " " << PlaceName(pl) << " ratio single | " << PlaceName(pl)
		  << " ratio " << b << " |";
	o << "\n|---|---:|---:|---:|";
	for (size_t i = 0; i < 2 * g_placements.size(); i++)
		o << "---:|";
	o << "\n";
	for (const SeedRow &s : kSeed) {
		unsigned p = s.threads;
		o << "| " << ProducersLabel(p) << " | "
		  << Fmt("%.0f", s.original_pps) << " | "
		  << Fmt("%.0f", s.lockless_pps) << " | "
		  << Fmt("%.2fx", s.lockless_pps / s.original_pps) << " |";
		for (prio_placement pl : g_placements)
			for (prio_deq d : kDeqs)
				o << " "
				  << Fmt("%.2fx",
					 Rate(pl, PRIO_GRAIN, d, p) /
						 Rate(pl, PRIO_BASE_SPIN, d, p))
				  << " |";
		o << "\n";
	}
	o << "\n";
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;
	MachineSection(o, run);
	for (prio_placement pl : g_placements)
		PlacementSection(o, pl);
	SeedSection(o);
	o << "### Targets\n\nbaseline = the spinlock baseline, same placement "
	     "and dequeue.\n\n"
	  << TargetsTable("ratio of medians",
			  { "grain_prio, M/s median (min–max)",
			    "baseline, M/s median (min–max)" },
			  Targets());
	return o.str();
}

std::vector<Case> g_cases;

int Setup(const Options &opt)
{
	if (g_placement == "own_core") {
		g_placements = { PRIO_PLACE_CONSUMER_CORE };
	} else if (g_placement == "unpinned") {
		g_placements = { PRIO_PLACE_FREE };
	} else if (g_placement != "both") {
		std::fprintf(stderr,
			     "--placement: own_core, unpinned or both\n");
		return 2;
	}
	if (!opt.threads.empty() &&
	    !ParseCounts(opt.threads, PRIO_MAX_PRODUCERS, &g_producers)) {
		std::fprintf(stderr,
			     "--threads: producer counts 1..%u, e.g. 1,2,4\n",
			     PRIO_MAX_PRODUCERS);
		return 2;
	}
	for (prio_placement pl : g_placements)
		for (unsigned p : g_producers)
			for (prio_deq d : kDeqs)
				for (prio_impl i : kImpls) {
					prio_config probe{};
					probe.producers = p;
					probe.deq = d;
					probe.burst = g_burst;
					probe.band_limit = kBandLimit;
					probe.duration_ms = DurationMs();
					probe.placement = pl;
					if (!prio_config_ok(i, &probe)) {
						std::fprintf(
							stderr,
							"invalid configuration "
							"(--burst 1..%u?)\n",
							PRIO_MAX_BURST);
						return 2;
					}
					g_cases.push_back(
						{ pl, i, d, p,
						  CaseName(pl, i, d, p) });
				}
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 9 (quick 60 ms x 3); --targets 78 columns.
	return { 60,	 300,	3,	 9,	  78,	  true, "items_per_sec",
		 kFlags, Setup, Summary, Targets, nullptr };
}
