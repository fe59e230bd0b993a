/* SPDX-License-Identifier: BSD-2-Clause */
// bench_ring.cc - grain_ring against its baselines and anchors, side by side
// in one run: the cases, the driver's flags, the summary's tables and the
// targets. A case is one experiment of bench_run() (adapters/adapters.h);
// its counter pairs_per_sec is the tokens that went through the queue per
// second (the round trip before each run and its regime are
// common/driver.h's).
//
// Names: ring/MODE/QUEUE/PxC/BATCH/PLACE/CONSUMER, PLACE pin (thread i on
// CPU i % nproc) or nopin, CONSUMER poll (try calls and the backoff) or
// wait (grain's _wait calls, 1 ms timeout; the producers still poll).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 5, quick
// 60 ms x 3 (moodycamel's queues then at 1P1C, 2P2C and 4P4C, pinned, only,
// unless --threads is given); --threads=LIST the configurations, each PxC (1P1C) or a total
// thread count (4: 2P2C), default all; and
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
#include <map>
#include <sstream>
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

// The queues grain is held against, in the ratio tables' order.
const bench_impl kOthers[] = {
	BENCH_CK,	   BENCH_RTE,	     BENCH_RTE_RTS,	  BENCH_RTE_HTS,
	BENCH_BOOST_QUEUE, BENCH_BOOST_SPSC, BENCH_TBB,		  BENCH_WFCQ,
	BENCH_MUTEX,	   BENCH_TWOLOCK,    BENCH_TWOLOCK_PSPIN, BENCH_MOODY,
	BENCH_MOODY_TOK,   BENCH_MOODY_RWQ,
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
// Runs whose drain passed its deadline, by case name.
std::map<std::string, int> g_deadline_hits;

bool Available(bench_impl impl)
{
	return bench_info(impl)->adapter != nullptr;
}

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

// The median rate of a case.
double Median(bench_impl impl, const Config &c, const Batch &b,
	      const Variant &v)
{
	return Rate(CaseName(impl, c, b, v));
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
		g_deadline_hits[c->name] += res.drain_deadline_hit ? 1 : 0;
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

std::string ConfigLabel(const Config &c)
{
	return ConfigName(c) + Oversubscribed(c.producers + c.consumers);
}

std::string ImplHeader(bench_impl impl)
{
	const bench_impl_info *info = bench_info(impl);
	std::string s = info->name;
	return s == "grain" ? s + " " + info->mode : s;
}

// Waiting consumers, for context: grain MPMC's _wait calls against
// moodycamel's blocking queue's timed waits, configuration C, batch B,
// variant V (a waiting one).
Target WaitContext(const char *c, const char *b, const char *v)
{
	std::string at = std::string(c) + "/" + b + "/" + v;
	std::string num = "ring/MPMC/grain/" + at,
		    den = "ring/MPMC/moody_blocking/" + at;
	std::string what = std::string("(context) MPMC ") + c + " " + b +
			   ", waiting consumers: grain / moodycamel "
			   "BlockingConcurrentQueue (" +
			   v + ")";
	Target x = { what, Ratio(num, den), 1.0, num, den };
	x.cells = { num + ": " + Spread(num, 1e6, 1),
		    den + ": " + Spread(den, 1e6, 1) };
	x.context = true;
	return x;
}

// Each a ratio of the medians of two cases at the same batch (their names
// without ring/ and the variant), in both polling variants.
std::vector<Target> Targets()
{
	const struct {
		const char *what, *num, *den;
		double goal;
	} goals[] = {
		{ "MPMC 1P1C burst32: grain >= 1.0x rte_ring burst32",
		  "MPMC/grain/1P1C/burst32", "MPMC/rte_ring/1P1C/burst32",
		  1.0 },
		{ "MPMC 2P2C burst32: grain >= 1.0x rte_ring burst32",
		  "MPMC/grain/2P2C/burst32", "MPMC/rte_ring/2P2C/burst32",
		  1.0 },
		{ "SPSC 1P1C single: grain SPSC >= 1.5x grain MPMC",
		  "SPSC/grain/1P1C/single", "MPMC/grain/1P1C/single", 1.5 },
		{ "MPMC 1P1C single: grain >= 1.5x two-lock baseline",
		  "MPMC/grain/1P1C/single", "MPMC/twolock/1P1C/single", 1.5 },
		{ "MPMC 4P4C single (oversubscribed): grain >= 1.5x two-lock "
		  "baseline",
		  "MPMC/grain/4P4C/single", "MPMC/twolock/4P4C/single", 1.5 },
		{ "MPMC 4P4C single (oversubscribed): grain >= 0.5x grain 1P1C",
		  "MPMC/grain/4P4C/single", "MPMC/grain/1P1C/single", 0.5 },
		{ "MPMC 8P8C single (oversubscribed): grain >= 0.5x grain 1P1C",
		  "MPMC/grain/8P8C/single", "MPMC/grain/1P1C/single", 0.5 },
		{ "MPMC 1P1C single: grain >= 5x ck_ring MPMC",
		  "MPMC/grain/1P1C/single", "MPMC/ck_ring/1P1C/single", 5.0 },
		{ "MPMC 1P1C single: grain >= 5x rte_ring MP/MC",
		  "MPMC/grain/1P1C/single", "MPMC/rte_ring/1P1C/single", 5.0 },
		// The queues users pick: moodycamel's, with and without
		// tokens, and its SPSC ReaderWriterQueue.
		{ "MPMC 1P1C single: grain >= 2x moodycamel ConcurrentQueue",
		  "MPMC/grain/1P1C/single", "MPMC/moody_queue/1P1C/single",
		  2.0 },
		{ "MPMC 1P1C single: grain >= 2x moodycamel with tokens",
		  "MPMC/grain/1P1C/single", "MPMC/moody_queue_tok/1P1C/single",
		  2.0 },
		{ "MPMC 2P2C single: grain >= 2x moodycamel ConcurrentQueue",
		  "MPMC/grain/2P2C/single", "MPMC/moody_queue/2P2C/single",
		  2.0 },
		{ "MPMC 2P2C single: grain >= 2x moodycamel with tokens",
		  "MPMC/grain/2P2C/single", "MPMC/moody_queue_tok/2P2C/single",
		  2.0 },
		{ "MPMC 1P1C bulk32: grain >= 2x moodycamel ConcurrentQueue",
		  "MPMC/grain/1P1C/bulk32", "MPMC/moody_queue/1P1C/bulk32",
		  2.0 },
		{ "MPMC 1P1C bulk32: grain >= 2x moodycamel with tokens",
		  "MPMC/grain/1P1C/bulk32", "MPMC/moody_queue_tok/1P1C/bulk32",
		  2.0 },
		{ "MPMC 2P2C bulk32: grain >= 2x moodycamel ConcurrentQueue",
		  "MPMC/grain/2P2C/bulk32", "MPMC/moody_queue/2P2C/bulk32",
		  2.0 },
		{ "MPMC 2P2C bulk32: grain >= 2x moodycamel with tokens",
		  "MPMC/grain/2P2C/bulk32", "MPMC/moody_queue_tok/2P2C/bulk32",
		  2.0 },
		{ "SPSC 1P1C single: grain SPSC >= 2x moodycamel "
		  "ReaderWriterQueue",
		  "SPSC/grain/1P1C/single", "SPSC/moody_rwq/1P1C/single", 2.0 },
	};
	std::vector<Target> t;
	for (const Variant *v : { &kPinPoll, &kNopinPoll })
		for (const auto &g : goals) {
			auto name = [v](const char *c) {
				return std::string("ring/") + c + "/" +
				       v->label;
			};
			std::string num = name(g.num), den = name(g.den);
			t.push_back(
				{ g.what + std::string(" (") + v->label + ")",
				  Ratio(num, den), g.goal, num, den });
			t.back().cells = { num + ": " + Spread(num, 1e6, 1),
					   den + ": " + Spread(den, 1e6, 1) };
		}
	// Waiting consumers, for context (no goal).
	for (const char *v : { "pin/wait", "nopin/wait" })
		for (const char *c : { "1P1C", "2P2C" })
			for (const char *b : { "single", "bulk32" })
				t.push_back(WaitContext(c, b, v));
	return t;
}

// How a run goes: threads, calls, batches, backoff and placement; then the
// queues built in, each with its note, and those that were not.
void MethodLines(std::ostringstream &o, const RunInfo &run)
{
	unsigned nproc = bench_nproc();
	unsigned relax = g_relax ? g_relax : BENCH_RELAX_PER_FAIL_DEFAULT,
		 fails = g_spin_fails ? g_spin_fails : BENCH_SPIN_FAILS_DEFAULT;

	MethodStart(o, run, true, true);
	o << "A run starts P producer and C consumer threads "
	     "together; producers enqueue tokens until the deadline, as fast "
	     "as the queue takes them; consumers dequeue what is there, up to "
	     "the batch, and "
	  << (g_checked ? "check each producer's order"
			: "sum the tokens (counts and sums are checked at the "
			  "end)")
	  << "; pairs/s = tokens dequeued by the deadline / elapsed time. "
	     "single: one token per call; bulkN: N per call, all-or-nothing "
	     "enqueue and as-many-as-ready dequeue (ck_ring, wfcqueue, "
	     "boost_queue, tbb_queue and moody_rwq have no batch calls: loops of single "
	     "calls that stop at the first that fails, so their bulk enqueue "
	     "may move part of a batch); burstN: partial enqueue and "
	     "dequeue. A call that moves nothing costs every queue the same: "
	  << relax << (relax == 1 ? " pause" : " pauses") << ", and after "
	  << fails
	  << " failures in a row sched_yield(). Capacity 1024 for every "
	     "bounded queue. Placement: ";
	if (g_old_method)
		o << "threads pinned one per CPU only when P + C <= " << nproc
		  << " (auto)";
	else
		o << "pin: thread i on CPU i % " << nproc
		  << " (oversubscribed too); nopin: left to the scheduler";
	o << ". Consumer: poll, try calls and the backoff; wait, grain's "
	     "_wait calls (ring made with GRAIN_RING_WAIT, 1 ms timeout), "
	     "producers polling as before.\n- Queues:\n";
	std::string missing;
	for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
		bench_impl impl = static_cast<bench_impl>(i);
		if (Available(impl))
			o << "  - " << ImplHeader(impl) << ": "
			  << bench_info(impl)->note << "\n";
		else
			missing += (missing.empty() ? "" : ", ") +
				   std::string(bench_info(impl)->name);
	}
	o << "- Not built in: "
	  << (missing.empty() ? "nothing"
			      : missing + " (library not found at build time)")
	  << "\n\n";
}

// One throughput table per variant, then the notes its marks need.
void ThroughputTables(std::ostringstream &o,
		      const std::vector<const Variant *> &vars)
{
	std::vector<bench_impl> cols;
	std::vector<std::string> titles;
	for (int i = 0; i < BENCH_IMPL_COUNT; i++)
		if (Available(static_cast<bench_impl>(i)) &&
		    bench_info(static_cast<bench_impl>(i))->esize == 0) {
			cols.push_back(static_cast<bench_impl>(i));
			titles.push_back(ImplHeader(cols.back()));
		}
	bool any_collapse = false, any_stall = false;
	for (const Variant *v : vars) {
		std::ostringstream t;
		for (const Config &c : g_configs)
			for (const Batch &b : kBatches) {
				std::ostringstream row;
				bool present = false;
				row << "| " << ConfigLabel(c) << " | "
				    << b.label << " |";
				for (bench_impl i : cols) {
					double x = Median(i, c, b, *v),
					       base = Median(i, k1P1C, b, *v);
					present |= !std::isnan(x);
					row << " " << Fmt("%.2f", x / 1e6);
					// Under 10% of the queue's 1P1C rate
					// at the same batch.
					if (x < 0.1 * base) {
						row << " (collapsed)";
						any_collapse = true;
					}
					if (int hits = g_deadline_hits[CaseName(
						    i, c, b, *v)]) {
						row << " †" << hits;
						any_stall = true;
					}
					row << " |";
				}
				if (present)
					t << row.str() << "\n";
			}
		if (!t.str().empty())
			o << "### Throughput, million pairs/s (median), "
			  << v->label << "\n\n"
			  << TableHead("| configuration | batch |", titles)
			  << t.str() << "\n";
	}
	o << "– : not applicable (mode illegal for the configuration, no "
	     "such call in that queue's API, no blocking dequeue) or not run, "
	     "or every run in another regime.\n";
	if (any_collapse)
		o << "(collapsed): under 10% of the same queue's 1P1C rate at "
		     "the same batch; each run was still ended by its deadline "
		     "and the figure is the rate it reached.\n";
	if (any_stall)
		o << "†N: in N of the runs the threads were still busy 200 ms "
		     "after the deadline (waiting on preempted peers); they were "
		     "told to stop and the queue was emptied by the main thread "
		     "(and checked).\n";
}

// grain against each other queue, for the polling variants (the others
// have no wait).
void RatioTables(std::ostringstream &o,
		 const std::vector<const Variant *> &vars)
{
	std::vector<std::string> titles;
	for (bench_impl i : kOthers)
		if (Available(i))
			titles.push_back(std::string("/ ") +
					 bench_info(i)->name);
	for (const Variant *v : vars) {
		if (v->wait)
			continue;
		o << "\n### Ratios: grain / other queue (same configuration, "
		     "batch and placement), "
		  << v->label << "\n\n"
		  << TableHead("| configuration | batch | grain |", titles);
		for (const Config &c : g_configs) {
			// MPMC, and the single-side mode C allows.
			std::vector<bench_impl> modes = { BENCH_GRAIN_MPMC };
			if (c.producers == 1 && c.consumers == 1)
				modes.push_back(BENCH_GRAIN_SPSC);
			else if (c.consumers == 1)
				modes.push_back(BENCH_GRAIN_MPSC);
			else if (c.producers == 1)
				modes.push_back(BENCH_GRAIN_SPMC);
			for (bench_impl mode : modes)
				for (const Batch &b : kBatches) {
					double g = Median(mode, c, b, *v);
					if (std::isnan(g))
						continue;
					o << "| " << ConfigLabel(c) << " | "
					  << b.label << " | "
					  << bench_info(mode)->mode << " |";
					for (bench_impl i : kOthers)
						if (Available(i))
							o << " "
							  << Fmt("%.2f",
								 g / Median(i,
									    c,
									    b,
									    *v))
							  << " |";
					o << "\n";
				}
		}
	}
}

// The element rings, run 1P1C burst32 only (AddCases): one small table per
// polling variant, copy against zero copy and against rte_ring_elem.
void ElemTables(std::ostringstream &o, const std::vector<const Variant *> &vars)
{
	for (const Variant *v : vars) {
		std::ostringstream t;
		bool present = false;
		for (std::string e : { "16", "64" }) {
			auto m = [v, &e](const char *mode, const char *queue,
					 const char *tail) {
				return Rate(std::string("ring/") + mode + "/" +
					    queue + e + tail +
					    "/1P1C/burst32/" + v->label);
			};
			double cp = m("SPSC", "grain_elem", "_spsc"),
			       zc = m("SPSC", "grain_elem", "_spsc_zc"),
			       mp = m("MPMC", "grain_elem", "_mpmc"),
			       rs = m("SPSC", "rte_elem", "_spsc"),
			       rm = m("MPMC", "rte_elem", "_mpmc");
			present |= !std::isnan(cp) || !std::isnan(zc);
			t << "| " << e << " B";
			for (double x :
			     { cp / 1e6, zc / 1e6, zc / cp, rs / 1e6, cp / rs,
			       mp / 1e6, rm / 1e6, mp / rm })
				t << " | " << Fmt("%.2f", x);
			t << " |\n";
		}
		if (present && !v->wait)
			o << "\n### Element rings, 1P1C burst32, million "
			     "elements/s (median), "
			  << v->label << "\n\n"
			  << "| element | grain SPSC copy | grain SPSC zero copy "
			     "| zero copy / copy | rte_elem SP/SC | grain SPSC "
			     "copy / rte | grain MPMC copy | rte_elem MP/MC | "
			     "grain MPMC / rte |\n"
			  << "|---|---|---|---|---|---|---|---|---|\n"
			  << t.str();
	}
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;
	std::vector<const Variant *> vars = RunVariants();

	Preamble(o, run, false, "queues");
	LoadLines(o, run);
	CalibrationLine(o, run, "");
	MethodLines(o, run);
	ThroughputTables(o, vars);
	RatioTables(o, vars);
	ElemTables(o, vars);
	o << "\n### Targets\n\n"
	  << RatioTargets("numerator, M/s", "denominator, M/s", Targets());
	return o.str();
}

// A quick run (the smoke test) given no --threads checks moodycamel's
// queues at 1P1C, 2P2C and 4P4C, pinned only: at every configuration and
// placement they would add half a minute to it.
bool g_quick_trim = false;

bool QuickSkips(bench_impl impl, const Variant &v, const Config &c)
{
	bool moody = impl == BENCH_MOODY || impl == BENCH_MOODY_TOK ||
		     impl == BENCH_MOODY_BLOCKING || impl == BENCH_MOODY_RWQ;
	return g_quick_trim && moody &&
	       (v.pin != BENCH_PIN_ON || c.producers != c.consumers ||
		c.producers == 8);
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
		    QuickSkips(impl, v, c))
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
	// Runs of 300 ms x 5 (quick 60 ms x 3); --targets 72 columns.
	return { 60,	 300,	3,	 5,	  72,	  true, "pairs_per_sec",
		 kFlags, Setup, Summary, Targets, nullptr };
}
