/* SPDX-License-Identifier: BSD-2-Clause */
// bench_prio.cc - grain_prio against a classic pfifo_fast (one lock, three
// linked lists) in the qdisc shape, side by side in one run, with the
// figures of the lockless-pfifo_fast post (netdev, July 2016) beside ours
// in the report (bench/report.py).
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
// 50 ms x 2 with 1, 2 and 8 producers; --threads=LIST the producer counts
// (default 1,2,4,8,12), and
//   --burst=N          items per burst dequeue (default 32)
//   --placement=P      own_core, unpinned or both (default both)
//   --producer=W       what a producer does after a full band: drop (go
//                      on at once), yield, or both (default both)

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

// Each queue's name in cases (bench/README.md says what each is).
const char *const kQueues[PRIO_IMPL_COUNT] = { "pfifo_spin", "pfifo_mutex",
					       "grain_prio",
					       "grain_prio_bits" };

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

std::string CaseName(Place pl, prio_impl impl, prio_deq deq, unsigned producers)
{
	return std::string("prio/") + PlaceName(pl) + "/" + kQueues[impl] +
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
		if (res.consumer_cpu_seconds > 0)
			state.counters["items_per_consumer_cpu_s"] =
				res.items_per_sec * res.seconds /
				res.consumer_cpu_seconds;
		double all = 0;
		for (uint64_t n : res.dequeued_band)
			all += static_cast<double>(n);
		for (unsigned b = 0; all > 0 && b < PRIO_BANDS; b++)
			state.counters["band" + std::to_string(b) + "_pct"] =
				100.0 *
				static_cast<double>(res.dequeued_band[b]) / all;
	}
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
	if (opt.quick && opt.threads.empty())
		g_producers = { 1, 2, 8 }; // a smoke test: the targets' counts
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
	// Runs of 300 ms x 9 (quick 50 ms x 2).
	return { 50, 300, 2, 9, true, "items_per_sec", kFlags, Setup, nullptr };
}
