/* SPDX-License-Identifier: BSD-2-Clause */
// bench_prio.cc - grain_prio against a classic pfifo_fast (one lock, three
// linked lists) in the qdisc shape, side by side in one run, with the
// figures of the lockless-pfifo_fast post (netdev, July 2016) next to ours.
//
// Cases, prio/PLACEMENT/QUEUE/DEQUEUE/PxC: 1, 2, 4, 8 and 12 producers and
// one consumer; the spinlock and the mutex baseline, grain_prio (3 bands:
// scanned) and grain_prio_bits (8 bands: the non-empty bits); single and
// burst dequeue; own_core (the consumer alone on CPU 0, producers on the
// other CPUs) and unpinned; producers that go on at once after a full band
// refused their item, and producers that yield their CPU first (PLACEMENT
// is own_core, unpinned, own_core_yield or unpinned_yield). Each run is
// one prio_run() (adapters/harness.c says what it does and checks); the
// rate, items_per_sec, is what the consumer dequeued per second.
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 9, quick
// 60 ms x 3; --threads=LIST the producer counts (default 1,2,4,8,12), and
//   --burst=N          items per burst dequeue (default 32)
//   --placement=P      own_core, unpinned or both (default both)
//   --producer=W       what a producer does after a full band: drop (go
//                      on at once), yield, or both (default both)

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

// pktgen packets per second through pfifo_fast as the root qdisc, the
// classic locked version ("original") against per-band skb_arrays
// ("lockless"), by pktgen thread count.
const struct {
	unsigned threads;
	double original_pps, lockless_pps;
} kSeed[] = {
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

// Each queue's name in cases, in tables, and what exactly is measured.
const struct {
	const char *name, *label, *note;
} kQueues[PRIO_IMPL_COUNT] = {
	{ "pfifo_spin", "baseline (spinlock)",
	  "bench/prio/baselines/pfifo_list: classic pfifo_fast, one "
	  "grain_spinlock over three intrusive linked lists, prio2band + "
	  "bitmap2band; burst = one lock hold for the whole burst" },
	{ "pfifo_mutex", "baseline (mutex)",
	  "the same baseline with a pthread mutex (default attributes) "
	  "instead of the spinlock" },
	{ "grain_prio", "grain_prio",
	  "grain_prio, 3 bands, GRAIN_PRIO_SC, strict; "
	  "grain_prio_try_enqueue_prio() through the default priomap; "
	  "grain_prio_try_dequeue() (single) or "
	  "grain_prio_try_dequeue_burst() (burst); with 3 bands it keeps no "
	  "non-empty bits (a dequeue scans the band heads)" },
	{ "grain_prio_bits", "grain_prio (bits)",
	  "the same calls on a grain_prio of 8 bands, of which the stream "
	  "uses 0..2: more than GRAIN_PRIO_SCAN_BANDS, so it keeps the "
	  "non-empty bits" },
};

const prio_deq kDeqs[] = { PRIO_DEQ_SINGLE, PRIO_DEQ_BURST };

// Where the threads run and what a producer does after a full band: a
// placement (adapters.h) with producer_yield off, then on.
enum Place { kOwnCore, kUnpinned, kOwnCoreYield, kUnpinnedYield };
const struct {
	const char *name;
	prio_placement placement;
	bool yield;
} kPlaces[] = {
	{ "own_core", PRIO_PLACE_CONSUMER_CORE, false },
	{ "unpinned", PRIO_PLACE_FREE, false },
	{ "own_core_yield", PRIO_PLACE_CONSUMER_CORE, true },
	{ "unpinned_yield", PRIO_PLACE_FREE, true },
};
const unsigned kBandLimit = 1024;

struct Case {
	Place place;
	prio_impl impl;
	prio_deq deq;
	unsigned producers;
	std::string name;
};

std::vector<unsigned> g_producers = { 1, 2, 4, 8, 12 };
std::vector<Place> g_placements = { kOwnCore, kUnpinned, kOwnCoreYield,
				    kUnpinnedYield };
std::vector<Case> g_cases;
std::map<std::string, std::vector<prio_result>> g_runs; // by case name
unsigned g_burst = 32;
std::string g_placement = "both", g_producer = "both";

const std::vector<Flag> kFlags = {
	{ "--placement", nullptr, &g_placement, nullptr },
	{ "--producer", nullptr, &g_producer, nullptr },
	{ "--burst", nullptr, nullptr, &g_burst },
};

std::string DeqLabel(prio_deq d)
{
	return d == PRIO_DEQ_SINGLE ? "single"
				    : "burst" + std::to_string(g_burst);
}

const char *PlaceName(Place pl)
{
	return kPlaces[pl].name;
}

std::string PlaceText(Place pl)
{
	unsigned nproc = bench_nproc();
	std::string after = kPlaces[pl].yield
				    ? "; a producer whose item a full band "
				      "refused yields its CPU before its next"
				    : "; a producer whose item a full band "
				      "refused goes on with its next at once";
	if (kPlaces[pl].placement == PRIO_PLACE_FREE)
		return "no pinning, the scheduler places every thread on the " +
		       std::to_string(nproc) + " CPUs" + after;
	if (nproc < 2)
		return "every thread pinned to CPU 0 (one CPU)" + after;
	if (nproc == 2)
		return "the consumer alone on CPU 0, every producer pinned to "
		       "CPU 1" +
		       after;
	return "the consumer alone on CPU 0, producers pinned round robin "
	       "to CPUs 1.." +
	       std::to_string(nproc - 1) + after;
}

std::string CaseName(Place pl, prio_impl impl, prio_deq deq, unsigned producers)
{
	return std::string("prio/") + PlaceName(pl) + "/" + kQueues[impl].name +
	       "/" + DeqLabel(deq) + "/" + std::to_string(producers) + "P1C";
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		prio_config cfg = { c->producers,
				    c->deq,
				    g_burst,
				    kBandLimit,
				    DurationMs(),
				    kPlaces[c->place].placement,
				    kPlaces[c->place].yield };
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
			100.0 * res.consumer_cpu_seconds / res.seconds;
		state.counters["drained"] = static_cast<double>(res.drained);
		state.counters["drain_s"] = res.drain_seconds;
		g_runs[c->name].push_back(res);
	}
}

double Rate(Place pl, prio_impl impl, prio_deq deq, unsigned p)
{
	return grain_bench::Rate(CaseName(pl, impl, deq, p));
}

// The median of F(result) over the case's runs of the majority regime.
double Med(Place pl, prio_impl impl, prio_deq deq, unsigned p,
	   const std::function<double(const prio_result &)> &f)
{
	return Median(Each(g_runs, CaseName(pl, impl, deq, p), f));
}

// QUEUE's rate over the spinlock baseline's, same placement and dequeue.
std::string ToBase(const char *fmt, Place pl, prio_impl impl, prio_deq deq,
		   unsigned p)
{
	return Fmt(fmt,
		   Rate(pl, impl, deq, p) / Rate(pl, PRIO_BASE_SPIN, deq, p));
}

// The consumer's share of its CPU, and items per second of it.
double ConsumerPct(const prio_result &r)
{
	return 100.0 * r.consumer_cpu_seconds / r.seconds;
}

double PerConsumerCpu(const prio_result &r)
{
	return r.consumer_cpu_seconds > 0
		       ? r.items_per_sec * r.seconds / r.consumer_cpu_seconds
		       : NAN;
}

// Figures of one run for the detail tables.
double EmptyPolls(const prio_result &r)
{
	return static_cast<double>(r.empty_polls) / r.seconds;
}

double BlockedPct(const prio_result &r)
{
	return r.empty_polls ? 100.0 * static_cast<double>(r.blocked_polls) /
				       static_cast<double>(r.empty_polls)
			     : 0.0;
}

// Share (%) of band B in what the consumer dequeued before the stop.
double BandPct(const prio_result &r, unsigned b)
{
	double all = 0;
	for (uint64_t n : r.dequeued_band)
		all += static_cast<double>(n);
	return all > 0 ? 100.0 * static_cast<double>(r.dequeued_band[b]) / all
		       : NAN;
}

std::string ProducersLabel(unsigned p)
{
	return std::to_string(p) + Oversubscribed(p + 1);
}

// " ‡" when the rate is under 10% of the same queue's with one producer
// (same placement and dequeue): its consumer was all but starved.
std::string Collapsed(Place pl, prio_impl impl, prio_deq deq, unsigned p,
		      bool *any)
{
	double here = Rate(pl, impl, deq, p), one = Rate(pl, impl, deq, 1);
	bool collapsed = p != 1 && !std::isnan(here) && !std::isnan(one) &&
			 here < 0.1 * one;
	*any |= collapsed;
	return collapsed ? " ‡" : "";
}

// A table of one row per producer count (LEAD and a column per title),
// each row's cells " a | b |" from ROW.
void Table(std::ostringstream &o, const std::vector<std::string> &titles,
	   const std::function<std::string(unsigned)> &row,
	   const std::vector<unsigned> &rows = g_producers,
	   const char *lead = "| producers |")
{
	o << TableHead(lead, titles);
	for (unsigned p : rows)
		o << "| " << ProducersLabel(p) << " |" << row(p) << "\n";
	o << "\n";
}

std::string TargetText(Place pl, unsigned p, prio_deq deq, double goal)
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
	for (Place pl : g_placements)
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
	// Context where the scheduler decides: the same cases per second
	// of the consumer's CPU time, each queue's median.
	for (Place pl : g_placements)
		for (unsigned p : g_producers)
			for (prio_deq d : kDeqs) {
				if (kPlaces[pl].placement != PRIO_PLACE_FREE ||
				    p + 1 <= bench_nproc())
					continue;
				double g = Med(pl, PRIO_GRAIN, d, p,
					       PerConsumerCpu),
				       b = Med(pl, PRIO_BASE_SPIN, d, p,
					       PerConsumerCpu);
				Target x = {
					std::string(PlaceName(pl)) + " " +
						std::to_string(p) + "P1C " +
						DeqLabel(d) +
						": grain_prio / baseline, "
						"per second of consumer CPU",
					g / b, 0
				};
				x.context = true;
				x.cells = { Fmt("%.2f", g / 1e6),
					    Fmt("%.2f", b / 1e6) };
				t.push_back(x);
			}
	return t;
}

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
	     "(tail drop, as the qdisc), and the producer goes on with its "
	     "next item at once or, in the *_yield placements, after "
	     "sched_yield(). The consumer dequeues by strict priority, one "
	     "item per call (single) or up to "
	  << g_burst << " (burst" << g_burst
	  << "), checks each item and hands it back to its producer. "
	     "items/s = items dequeued by the deadline / elapsed time. "
	     "Band limit "
	  << kBandLimit
	  << " items for every band of every queue. On an empty queue the "
	     "consumer pauses 8 times, and calls sched_yield() after 64 "
	     "empty polls in a row (an item may come any moment from a "
	     "producer on the other CPU; past those 64, grain_prio's "
	     "consumer also reads grain_prio_backlog() before each yield, "
	     "for the blocked count); a producer in the *_yield "
	     "placements calls sched_yield() after each refused item at once "
	     "(only the consumer can make room, and pausing would keep the "
	     "CPU from it and from the other producers).\n";
	o << "- Placements, each measured for every case: ";
	for (Place pl : g_placements)
		o << "**" << PlaceName(pl) << "**: " << PlaceText(pl)
		  << (pl == g_placements.back() ? ".\n" : ". ");
	o << "- Priority stream (every producer, same table, own offset):";
	for (unsigned prio = 0; prio < 16; prio++)
		if (prio_stream_share(prio) > 0)
			o << " priority " << prio << " -> band "
			  << prio_stream_band(prio) << " "
			  << Fmt("%.1f%%", 100.0 * prio_stream_share(prio))
			  << ";";
	o << " bands by pfifo_fast's prio2band.\n";
	o << "- Checks on every run: per-producer FIFO order in each band, the "
	     "band each single dequeue reports, every accepted item dequeued "
	     "exactly once, the queue's own statistics against the "
	     "producers' counts, and strict priority (bands in order) while "
	     "the consumer drains the queue after the producers stop; then, "
	     "alone on the empty queue, up to 8 items a band put in and "
	     "taken out by the run's own dequeue must come out by band, in "
	     "order, each once.\n";
	o << "- Queues:\n";
	for (const auto &q : kQueues)
		o << "  - " << q.label << ": " << q.note << "\n";
	o << "\n";
}

// The items-per-second table (the spinlock baseline against grain_prio,
// then the mutex baseline) and grain_prio with the non-empty bits.
void RateTables(std::ostringstream &o, Place pl)
{
	const std::string b = DeqLabel(PRIO_DEQ_BURST);
	bool any = false;
	auto rate = [pl, &any](prio_impl i, prio_deq d, unsigned p) {
		return " " + Fmt("%.2f", Rate(pl, i, d, p) / 1e6) +
		       Collapsed(pl, i, d, p, &any) + " |";
	};

	o << "#### Items dequeued per second, millions (median)\n\n";
	Table(o,
	      { "baseline single", "grain_prio single", "ratio single",
		"baseline " + b, "grain_prio " + b, "ratio " + b,
		"mutex baseline single", "mutex baseline " + b },
	      [pl, &rate](unsigned p) {
		      std::string s;
		      for (prio_deq d : kDeqs)
			      s += rate(PRIO_BASE_SPIN, d, p) +
				   rate(PRIO_GRAIN, d, p) + " " +
				   ToBase("**%.2fx**", pl, PRIO_GRAIN, d, p) +
				   " |";
		      for (prio_deq d : kDeqs)
			      s += rate(PRIO_BASE_MUTEX, d, p);
		      return s;
	      });
	o << "baseline = one grain_spinlock over three linked lists; ratio = "
	     "grain_prio / baseline with the same dequeue. Oversubscribed "
	     "rows have more threads than CPUs: the scheduler preempts threads "
	     "in the middle of their operations, lock holders included.\n";
	if (any)
		o << "‡ collapsed: under 10% of the same queue's rate with one "
		     "producer; its consumer was all but starved, and a ratio "
		     "against it measures that starvation, not the queue.\n";
	o << "\n#### grain_prio with the non-empty bits (8 bands, the stream in "
	     "0..2), millions per second (median) and ratio to the spinlock "
	     "baseline\n\n";
	Table(o, { "bits single", "ratio single", "bits " + b, "ratio " + b },
	      [pl](unsigned p) {
		      std::string s;
		      for (prio_deq d : kDeqs)
			      s += " " +
				   Fmt("%.2f",
				       Rate(pl, PRIO_GRAIN_BITS, d, p) / 1e6) +
				   " | " +
				   ToBase("%.2fx", pl, PRIO_GRAIN_BITS, d, p) +
				   " |";
		      return s;
	      });
}

// A detail table: a column per dequeue and queue (the spinlock baseline,
// grain_prio), each cell CELL(queue, dequeue, producers), then AFTER.
void DetailTable(std::ostringstream &o, Place pl, const char *title,
		 std::string (*cell)(Place, prio_impl, prio_deq, unsigned),
		 const char *after)
{
	std::vector<std::string> titles;
	for (prio_deq d : kDeqs)
		for (prio_impl i : { PRIO_BASE_SPIN, PRIO_GRAIN })
			titles.push_back(std::string(kQueues[i].label) + " " +
					 DeqLabel(d));
	o << "#### " << title << "\n\n";
	Table(o, titles, [pl, cell](unsigned p) {
		std::string s;
		for (prio_deq d : kDeqs)
			for (prio_impl i : { PRIO_BASE_SPIN, PRIO_GRAIN })
				s += " " + cell(pl, i, d, p) + " |";
		return s;
	});
	o << after << "\n\n";
}

// The detail tables' cells: the producers' attempts and drops, the bands
// the consumer served, its empty polls (grain_prio: and how many of them
// were blocked).
std::string Attempts(Place pl, prio_impl i, prio_deq d, unsigned p)
{
	return Fmt("%.1f", Med(pl, i, d, p,
			       [](const prio_result &r) {
				       return r.attempts_per_sec;
			       }) / 1e6) +
	       ", " +
	       Fmt("%.1f%% dropped", Med(pl, i, d, p, [](const prio_result &r) {
			   return 100.0 * r.drop_fraction;
		   }));
}

std::string Bands(Place pl, prio_impl i, prio_deq d, unsigned p)
{
	std::string s;
	for (unsigned b = 0; b < PRIO_BANDS; b++)
		s += (b ? " / " : "") +
		     Fmt("%.0f", Med(pl, i, d, p, [b](const prio_result &r) {
				 return BandPct(r, b);
			 }));
	return s;
}

std::string Consumer(Place pl, prio_impl i, prio_deq d, unsigned p)
{
	return Fmt("%.0f%%", Med(pl, i, d, p, ConsumerPct)) + ", " +
	       Fmt("%.1f", Med(pl, i, d, p, PerConsumerCpu) / 1e6);
}

std::string Polls(Place pl, prio_impl i, prio_deq d, unsigned p)
{
	std::string s = Fmt("%.0f", Med(pl, i, d, p, EmptyPolls));
	if (i == PRIO_GRAIN)
		s += ", " + Fmt("%.0f%% blocked", Med(pl, i, d, p, BlockedPct));
	return s;
}

void DetailTables(std::ostringstream &o, Place pl)
{
	DetailTable(o, pl,
		    "Producers: enqueue attempts per second (millions) and "
		    "share dropped (median)",
		    Attempts,
		    kPlaces[pl].yield
			    ? "When its item's band is full the item is "
			      "dropped, and the producer calls sched_yield() "
			      "before its next."
			    : "A producer never waits: when its item's band is "
			      "full the item is dropped and it goes on with "
			      "the next.");
	DetailTable(o, pl,
		    "What the consumer served, share per band 0 / 1 / 2 "
		    "(median, %)",
		    Bands,
		    "The stream is 12.5 / 75 / 12.5 %. A consumer that keeps "
		    "up serves it as it comes; one that falls behind serves "
		    "band 0 first and band 2 last (strict priority). Equal "
		    "thirds mean the consumer emptied every band in turn: "
		    "while it ran, no producer refilled the queue.");
	DetailTable(o, pl,
		    "Consumer: polls that found nothing, per second (median); "
		    "grain_prio: share of them blocked",
		    Polls,
		    "blocked: a poll that failed after 64 or more failed polls "
		    "in a row (the consumer yields the CPU by then) while "
		    "grain_prio_backlog() still counted items: a producer had "
		    "claimed the head slot of a band and not published it for "
		    "that long (preempted in between), or, rarely, an item "
		    "arrived just then. A lock-based queue is never blocked "
		    "that way; its consumer waits inside the lock instead, "
		    "which no poll counts.");
	DetailTable(o, pl,
		    "Consumer: its share of a CPU (median, %) and items per "
		    "second of its CPU time (millions, median)",
		    Consumer,
		    "Where threads outnumber CPUs the scheduler decides how "
		    "long the consumer runs, and with it the rate: the second "
		    "figure is the rate per unit of the consumer's own CPU "
		    "time, what the queue costs the one thread that drains "
		    "it. The baseline's producers wait for its lock and yield "
		    "the CPU in the lock's slow path; grain_prio's never wait "
		    "for one, so unless they yield when a band is full (the "
		    "*_yield placements), its consumer gets no more than its "
		    "fair share of the CPUs.");
}

void SeedSection(std::ostringstream &o)
{
	std::vector<std::string> titles = { "seed original pps",
					    "seed lockless pps", "seed ratio" };
	std::vector<unsigned> rows;
	for (Place pl : g_placements)
		for (prio_deq d : kDeqs)
			titles.push_back(std::string(PlaceName(pl)) +
					 " ratio " + DeqLabel(d));
	for (const auto &s : kSeed)
		rows.push_back(s.threads);
	o << "### Against the seed's table\n\nSeed: " << kSeedSource
	  << ". Its figures are pktgen packets/s through pfifo_fast as the "
	     "root qdisc, by pktgen thread, on the poster's machine, where "
	     "every thread both enqueues and runs the qdisc and no thread is "
	     "preempted inside the qdisc (kernel code, bottom halves off); "
	     "ours are items/s of one consumer thread on this machine. Compare "
	     "ratios, not absolute figures.\n\n";
	auto row = [](unsigned p) {
		std::string c;
		for (const auto &s : kSeed)
			if (s.threads == p)
				c = " " + Fmt("%.0f", s.original_pps) + " | " +
				    Fmt("%.0f", s.lockless_pps) + " | " +
				    Fmt("%.2fx",
					s.lockless_pps / s.original_pps) +
				    " |";
		for (Place pl : g_placements)
			for (prio_deq d : kDeqs)
				c += " " +
				     ToBase("%.2fx", pl, PRIO_GRAIN, d, p) +
				     " |";
		return c;
	};
	Table(o, titles, row, rows, "| threads / producers |");
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;
	MachineSection(o, run);
	for (Place pl : g_placements) {
		o << "### " << PlaceName(pl) << ": " << PlaceText(pl) << "\n\n";
		RateTables(o, pl);
		DetailTables(o, pl);
	}
	SeedSection(o);
	std::vector<Target> goals, context;
	for (const Target &t : Targets())
		(t.context ? context : goals).push_back(t);
	o << "### Targets\n\nbaseline = the spinlock baseline, same placement "
	     "and dequeue.\n\n"
	  << RatioTargets("grain_prio, M/s", "baseline, M/s", goals);
	if (!context.empty())
		o << "\nContext, not targets: where threads outnumber CPUs "
		     "unpinned, the same cases per second of the consumer's "
		     "CPU time (each queue's median).\n\n"
		  << TargetsTable("ratio of medians",
				  { "grain_prio, M items per s of consumer CPU",
				    "baseline, M items per s of consumer CPU" },
				  context);
	return o.str();
}

int Setup(const Options &opt)
{
	if ((g_placement != "both" && g_placement != "own_core" &&
	     g_placement != "unpinned") ||
	    (g_producer != "both" && g_producer != "drop" &&
	     g_producer != "yield")) {
		std::fprintf(stderr, "--placement: own_core, unpinned or both; "
				     "--producer: drop, yield or both\n");
		return 2;
	}
	std::vector<Place> keep;
	for (Place pl : g_placements) {
		bool own = kPlaces[pl].placement == PRIO_PLACE_CONSUMER_CORE;
		if ((g_placement == "both" ||
		     g_placement == (own ? "own_core" : "unpinned")) &&
		    (g_producer == "both" ||
		     g_producer == (kPlaces[pl].yield ? "yield" : "drop")))
			keep.push_back(pl);
	}
	g_placements = keep;
	if (!opt.threads.empty() &&
	    !ParseCounts(opt.threads, PRIO_MAX_PRODUCERS, &g_producers)) {
		std::fprintf(stderr,
			     "--threads: producer counts 1..%u, e.g. 1,2,4\n",
			     PRIO_MAX_PRODUCERS);
		return 2;
	}
	if (g_burst == 0 || g_burst > PRIO_MAX_BURST) {
		std::fprintf(stderr, "invalid configuration (--burst 1..%u?)\n",
			     PRIO_MAX_BURST);
		return 2;
	}
	for (Place pl : g_placements)
		for (unsigned p : g_producers)
			for (prio_deq d : kDeqs)
				for (int i = 0; i < PRIO_IMPL_COUNT; i++) {
					prio_impl q = static_cast<prio_impl>(i);
					g_cases.push_back(
						{ pl, q, d, p,
						  CaseName(pl, q, d, p) });
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
