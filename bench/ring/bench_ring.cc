/* SPDX-License-Identifier: BSD-2-Clause */
// bench_ring.cc - grain_ring against its baselines and anchors, side by side
// in one run: the cases and the driver's flags (bench/README.md says how a
// run goes; bench/targets.json holds the targets). A case is one experiment of bench_run() (adapters/adapters.h);
// its counter pairs_per_sec is the tokens that went through the queue per
// second (the round trip before each run and its regime are
// common/driver.h's).
//
// Names: ring/MODE/QUEUE/PxC/BATCH/PLACE/CONSUMER, PLACE pin (thread i on
// CPU i % nproc) or nopin, CONSUMER poll (try calls and the backoff) or
// wait (grain's _wait calls, 1 ms timeout; the producers still poll).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 5, quick
// 40 ms x 2 (and fewer cases unless --threads is given: QuickSkips());
// --threads=LIST the configurations, each PxC (1P1C) or a total thread
// count (4: 2P2C), default all; and
//   --pin=on|off|both  placements to run (default both)
//   --consumer=poll|wait|both  consumer kinds (default both; wait only for
//                      queues with a blocking dequeue)
//   --checked          consumers check every token's order (the old
//                      method; default: they sum the tokens)
//   --backoff=R,F      R pauses after each failed call, sched_yield()
//                      after F failures in a row (default 1,64; the old
//                      method was 8,64)
//   --old-method       --checked --backoff=8,64 (an explicit --backoff
//                      wins) and the old placement (pinned only when
//                      P + C <= CPUs), one variant
// The program exits non-zero if any run reported a count error (or, with
// --checked, an ordering error), or could not run. bench/run --quick
// passes --checked.

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace grain_bench;

namespace {

struct Config {
	unsigned producers, consumers;
};

// 1P1C, 2P2C and 4P4C are the main configurations; 2P1C and 1P2C add the
// cases where MPSC and SPMC run with more than one thread on their
// multi side.
const Config k1P1C{ 1, 1 };
const Config kConfigs[] = { k1P1C,    { 2, 1 }, { 1, 2 },
			    { 2, 2 }, { 4, 4 }, { 8, 8 } };

// How the threads are placed and how the consumers wait.
struct Variant {
	bench_pin pin;
	bool wait;
	const char *label;
};

const Variant kPinPoll{ BENCH_PIN_ON, false, "pin/poll" },
	kNopinPoll{ BENCH_PIN_OFF, false, "nopin/poll" },
	kOldMethod{ BENCH_PIN_AUTO, false, "auto/poll" };
const Variant kVariants[] = { kPinPoll,
			      kNopinPoll,
			      { BENCH_PIN_ON, true, "pin/wait" },
			      { BENCH_PIN_OFF, true, "nopin/wait" } };

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
	bench_config cfg;
	std::string name;
};

// The flags as given, and what they say.
std::string g_pin = "both", g_consumer = "both", g_backoff;
bool g_checked = false, g_old_method = false;
unsigned g_relax = 0, g_spin_fails = 0; // 0: the harness's defaults
// The configurations this run measures (--threads), all by default.
std::vector<Config> g_configs(std::begin(kConfigs), std::end(kConfigs));
std::vector<Case> g_cases;

std::string ConfigName(const Config &c)
{
	return std::to_string(c.producers) + "P" + std::to_string(c.consumers) +
	       "C";
}

std::string CaseName(bench_impl impl, const Config &c, const Batch &b,
		     const Variant &v)
{
	const bench_impl_info *info = bench_info(impl);
	return std::string("ring/") + info->mode + "/" + info->name + "/" +
	       ConfigName(c) + "/" + b.label + "/" + v.label;
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_result res{};
		int rc = bench_run(c->impl, &c->cfg, &res);
		auto why = [&res] {
			return std::to_string(res.errors) +
			       " ordering/count errors";
		};
		if (!RunOk(state, c->name, "bench_run", rc, res,
			   "ordering/count errors", why))
			break;
		// Failed tries per pair moved: how often the ring ran full
		// (producers) or empty (consumers); tokens per successful
		// call: how full the batches really were.
		double moved = res.pairs_total
				       ? static_cast<double>(res.pairs_total)
				       : 1.0;
		state.counters.insert({
			{ "pairs_per_sec", res.pairs_per_sec },
			{ "pinned", res.pinned ? 1.0 : 0.0 },
			{ "drain_s", res.stop_seconds },
			{ "drain_deadline_hit",
			  res.drain_deadline_hit ? 1.0 : 0.0 },
			{ "full_per_pair",
			  static_cast<double>(res.full_tries) / moved },
			{ "empty_per_pair",
			  static_cast<double>(res.empty_tries) / moved },
		});
		if (res.put_calls != 0)
			state.counters["per_put"] =
				moved / static_cast<double>(res.put_calls);
		if (res.get_calls != 0)
			state.counters["per_get"] =
				moved / static_cast<double>(res.get_calls);
		// Per-thread shares of a side with several threads (adapters.h,
		// struct bench_result): 1 and 1 (cv 0) when even.
		if (c->cfg.producers > 1) {
			state.counters["put_share_max"] = res.put_share_max;
			state.counters["put_share_min"] = res.put_share_min;
			state.counters["put_cv"] = res.put_cv;
		}
		if (c->cfg.consumers > 1) {
			state.counters["get_share_max"] = res.get_share_max;
			state.counters["get_share_min"] = res.get_share_min;
			state.counters["get_cv"] = res.get_cv;
		}
	}
}

const std::vector<Flag> kFlags = {
	{ "--pin", nullptr, &g_pin, nullptr },
	{ "--consumer", nullptr, &g_consumer, nullptr },
	{ "--checked", &g_checked, nullptr, nullptr },
	{ "--backoff", nullptr, &g_backoff, nullptr },
	{ "--old-method", &g_old_method, nullptr, nullptr },
};

// Whether ITEM names configuration C: its label (1P1C) or its thread count.
bool Names(const std::string &item, const Config &c)
{
	return item == ConfigName(c) ||
	       item == std::to_string(c.producers + c.consumers);
}

// Keep the configurations LIST names, in the table's order; false if an
// item names none.
bool ParseConfigs(const std::string &list)
{
	std::vector<bool> keep(std::size(kConfigs));
	std::stringstream in(list);
	for (std::string x; std::getline(in, x, ',');) {
		bool named = false;
		for (size_t i = 0; i < keep.size(); i++)
			if (Names(x, kConfigs[i]))
				keep[i] = named = true;
		if (!named)
			return false;
	}
	g_configs.clear();
	for (size_t i = 0; i < keep.size(); i++)
		if (keep[i])
			g_configs.push_back(kConfigs[i]);
	return !g_configs.empty();
}

// The variants this run measures.
std::vector<const Variant *> RunVariants()
{
	if (g_old_method)
		return { &kOldMethod };
	std::vector<const Variant *> v;
	for (const Variant &x : kVariants)
		if ((x.pin == BENCH_PIN_ON ? g_pin != "off" : g_pin != "on") &&
		    (x.wait ? g_consumer != "poll" : g_consumer != "wait"))
			v.push_back(&x);
	return v;
}

// A quick run (the smoke test) given no --threads runs every queue once
// in each mode it has, not at every shape: pinned threads only (polling and
// waiting consumers), batches single, bulk32 and burst32, no 8P8C, and
// moodycamel's queues at 1P1C, 2P2C and 4P4C only. At every configuration
// and placement the run would take minutes.
bool g_quick_trim = false;

bool QuickSkips(bench_impl impl, const Variant &v, const Config &c,
		const Batch &b)
{
	bool moody = impl == BENCH_MOODY || impl == BENCH_MOODY_TOK ||
		     impl == BENCH_MOODY_BLOCKING || impl == BENCH_MOODY_RWQ;
	return g_quick_trim &&
	       (v.pin != BENCH_PIN_ON || c.producers == 8 || b.n == 8 ||
		(moody && c.producers != c.consumers));
}

// The cases of one variant, configuration and batch: every queue that can
// run them (the element rings 1P1C burst32 only; moodycamel's blocking
// queue where consumers wait).
void AddCases(const Variant &v, const Config &c, const Batch &b)
{
	// bench_config's fields in order.
	bench_config cfg = { c.producers,  c.consumers, b.kind, b.n,
			     DurationMs(), v.pin,	v.wait, g_checked,
			     g_spin_fails, g_relax };
	bool elem_case = c.producers == 1 && c.consumers == 1 &&
			 b.kind == BENCH_BURST && b.n == 32;

	for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
		bench_impl impl = static_cast<bench_impl>(i);
		// moodycamel's blocking queue is there for its waits.
		if ((impl == BENCH_MOODY_BLOCKING && !v.wait) ||
		    QuickSkips(impl, v, c, b))
			continue;
		if (bench_config_ok(impl, &cfg) &&
		    (bench_info(impl)->esize == 0 || elem_case))
			g_cases.push_back(
				{ impl, cfg, CaseName(impl, c, b, v) });
	}
}

int Setup(const Options &opt)
{
	if (g_old_method) {
		g_checked = true;
		g_relax = 8;
		g_spin_fails = 64;
	}
	if (!g_backoff.empty()) {
		char *end = nullptr;
		g_relax = static_cast<unsigned>(
			std::strtoul(g_backoff.c_str(), &end, 10));
		if (end != nullptr && *end == ',')
			g_spin_fails = static_cast<unsigned>(
				std::strtoul(end + 1, nullptr, 10));
	}
	g_quick_trim = opt.quick && opt.threads.empty();
	benchmark::AddCustomContext(
		"ring_backoff",
		std::to_string(g_relax ? g_relax
				       : BENCH_RELAX_PER_FAIL_DEFAULT) +
			" pauses per failed call, sched_yield() after " +
			std::to_string(g_spin_fails
					       ? g_spin_fails
					       : BENCH_SPIN_FAILS_DEFAULT) +
			" failures in a row");
	benchmark::AddCustomContext("ring_checked",
				    g_checked ? "order checked"
					      : "counts and sums checked");
	if (!opt.threads.empty() && !ParseConfigs(opt.threads)) {
		std::fprintf(stderr, "--threads: configurations PxC or thread "
				     "counts, e.g. 1P1C,4\n");
		return 2;
	}
	for (const Variant *v : RunVariants())
		for (const Config &c : g_configs)
			for (const Batch &b : kBatches)
				AddCases(*v, c, b);
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 5 (quick 40 ms x 2).
	return { 40, 300, 2, 5, true, "pairs_per_sec", kFlags, Setup, nullptr };
}
