/* SPDX-License-Identifier: BSD-2-Clause */
// bench_ring.cc - grain_ring against its baselines and anchors, side by side
// in one run (Google Benchmark registration and reporting).
//
// Every benchmark is one timed experiment of bench_run() (adapters.h):
// Iterations(1), manual time = the experiment's measured seconds,
// Repetitions(R), and only the aggregates (median first) are reported.
// The counter pairs_per_sec is the number of tokens that went through the
// queue per second; the round trip before each run and its regime are
// common/driver.h's.
//
// Names: ring/MODE/QUEUE/PxC/BATCH/PLACE/CONSUMER, PLACE pin (thread i on
// CPU i % nproc) or nopin, CONSUMER poll (try calls and the backoff) or
// wait (grain's _wait calls, 1 ms timeout; the producers still poll).
//
// Flags: those of every driver (common/driver.h); runs of 300 ms x 5, quick
// 60 ms x 3; --threads=LIST the configurations, each PxC (1P1C) or a total
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
// The program exits non-zero if any run reported an ordering or count
// error, or could not run.

#include "adapters/adapters.h"
#include "../common/driver.h"

#include <algorithm>
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

// The driver's own flags.
struct RingOptions {
	bool pin_on = true, pin_off = true;
	bool poll = true, wait = true;
	bool checked = false;
	bool old_method = false;
	unsigned relax = 0, spin_fails = 0; // 0: the harness's defaults
};

struct Config {
	unsigned producers;
	unsigned consumers;
};

// 1P1C, 2P2C and 4P4C are the main configurations; 2P1C and 1P2C add the
// cases where MPSC and SPMC run with more than one thread on their
// multi side.
const Config kConfigs[] = {
	{ 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 }, { 4, 4 }, { 8, 8 },
};

// How the threads are placed and how the consumer waits.
struct Variant {
	bench_pin pin;
	bool wait;
	const char *label;
};

const Variant kVariants[] = {
	{ BENCH_PIN_ON, false, "pin/poll" },
	{ BENCH_PIN_OFF, false, "nopin/poll" },
	{ BENCH_PIN_ON, true, "pin/wait" },
	{ BENCH_PIN_OFF, true, "nopin/wait" },
	{ BENCH_PIN_AUTO, false, "auto/poll" }, // --old-method only
};
const Variant &kPinPoll = kVariants[0];
const Variant &kNopinPoll = kVariants[1];

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
	const Variant *var;
	std::string name;
};

// Runs whose drain passed its deadline, by benchmark name.
std::map<std::string, int> g_deadline_hits;
RingOptions g_opt;
// The configurations this run measures (--threads), all by default.
std::vector<Config> g_configs(std::begin(kConfigs), std::end(kConfigs));

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

bench_config MakeConfig(const Config &c, const Batch &b, const Variant &v)
{
	bench_config cfg{};
	cfg.producers = c.producers;
	cfg.consumers = c.consumers;
	cfg.kind = b.kind;
	cfg.batch = b.n;
	cfg.duration_ms = DurationMs();
	cfg.pin = v.pin;
	cfg.wait = v.wait;
	cfg.checked = g_opt.checked;
	cfg.relax_per_fail = g_opt.relax;
	cfg.spin_fails = g_opt.spin_fails;
	return cfg;
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		bench_config cfg = MakeConfig(c->cfg, c->batch, *c->var);
		bench_result res{};
		int rc = bench_run(c->impl, &cfg, &res);
		auto why = [&res] {
			return std::to_string(res.errors) +
			       " ordering/count errors";
		};
		if (!RunOk(state, c->name, "bench_run", rc, res,
			   "ordering/count errors", why))
			break;
		state.counters["pairs_per_sec"] = res.pairs_per_sec;
		state.counters["pinned"] = res.pinned ? 1.0 : 0.0;
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
		g_deadline_hits[c->name] += res.drain_deadline_hit ? 1 : 0;
	}
}

// --- flags -----------------------------------------------------------------

// The flags as given; ApplyFlags() reads them into g_opt.
std::string g_pin = "both", g_consumer = "both", g_backoff;

const std::vector<Flag> kFlags = {
	{ "--pin", nullptr, &g_pin, nullptr },
	{ "--consumer", nullptr, &g_consumer, nullptr },
	{ "--checked", &g_opt.checked, nullptr, nullptr },
	{ "--backoff", nullptr, &g_backoff, nullptr },
	{ "--old-method", &g_opt.old_method, nullptr, nullptr },
};

void ApplyFlags()
{
	RingOptions *o = &g_opt;
	o->pin_on = g_pin != "off";
	o->pin_off = g_pin != "on";
	o->poll = g_consumer != "wait";
	o->wait = g_consumer != "poll";
	if (o->old_method) {
		o->checked = true;
		o->relax = 8;
		o->spin_fails = 64;
	}
	if (!g_backoff.empty()) {
		char *end = nullptr;
		o->relax = static_cast<unsigned>(
			std::strtoul(g_backoff.c_str(), &end, 10));
		if (end != nullptr && *end == ',')
			o->spin_fails = static_cast<unsigned>(
				std::strtoul(end + 1, nullptr, 10));
	}
}

// Whether ITEM names configuration C: its label (1P1C) or its thread count.
bool Names(const std::string &item, const Config &c)
{
	return item == ConfigName(c) ||
	       item == std::to_string(c.producers + c.consumers);
}

// Keep the configurations LIST names, in the table's order.
bool ParseConfigs(const std::string &list)
{
	std::vector<std::string> items;
	std::stringstream in(list);
	std::string item;
	while (std::getline(in, item, ','))
		items.push_back(item);
	g_configs.clear();
	for (const Config &c : kConfigs)
		if (std::any_of(items.begin(), items.end(),
				[&c](const std::string &x) {
					return Names(x, c);
				}))
			g_configs.push_back(c);
	for (const std::string &x : items)
		if (std::none_of(std::begin(kConfigs), std::end(kConfigs),
				 [&x](const Config &c) { return Names(x, c); }))
			return false;
	return !g_configs.empty();
}

double MedianOf(bench_impl impl, const Config &c, const Batch &b,
		const Variant &v)
{
	return Rate(CaseName(impl, c, b, v));
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

std::string ConfigLabel(const Config &c)
{
	return ConfigName(c) + Oversubscribed(c.producers + c.consumers);
}

// Under 10% of the same queue's 1P1C rate at the same batch: the queue's
// throughput collapsed (its runs still ended at their deadline).
bool Collapsed(bench_impl impl, const Config &c, const Batch &b,
	       const Variant &v)
{
	const Config *base = FindConfig(1, 1);
	if (base == nullptr || (c.producers == 1 && c.consumers == 1))
		return false;
	double here = MedianOf(impl, c, b, v),
	       ref = MedianOf(impl, *base, b, v);
	return !std::isnan(here) && !std::isnan(ref) && here < 0.1 * ref;
}

// Runs in which the consumers were still draining 200 ms after the
// deadline (threads waiting on preempted peers).
int DeadlineHits(bench_impl impl, const Config &c, const Batch &b,
		 const Variant &v)
{
	auto it = g_deadline_hits.find(CaseName(impl, c, b, v));
	return it == g_deadline_hits.end() ? 0 : it->second;
}

std::string ImplHeader(bench_impl impl)
{
	const bench_impl_info *info = bench_info(impl);
	std::string s = info->name;
	if (std::strcmp(info->name, "grain") == 0)
		s += std::string(" ") + info->mode;
	return s;
}

const bench_impl kOthers[] = {
	BENCH_CK,	   BENCH_RTE,	     BENCH_RTE_RTS, BENCH_RTE_HTS,
	BENCH_BOOST_QUEUE, BENCH_BOOST_SPSC, BENCH_TBB,	    BENCH_WFCQ,
	BENCH_MUTEX,	   BENCH_TWOLOCK,
};

std::vector<Target> Targets()
{
	const Config c11 = *FindConfig(1, 1), c22 = *FindConfig(2, 2),
		     c44 = *FindConfig(4, 4), c88 = *FindConfig(8, 8);
	const Batch single = *FindBatch("single"),
		    burst32 = *FindBatch("burst32");
	// Numerator and denominator at the same batch.
	const struct {
		const char *what;
		bench_impl num;
		const Config &nc;
		bench_impl den;
		const Config &dc;
		const Batch &b;
		double goal;
	} goals[] = {
		{ "MPMC 1P1C burst32: grain >= 1.0x rte_ring burst32",
		  BENCH_GRAIN_MPMC, c11, BENCH_RTE, c11, burst32, 1.0 },
		{ "MPMC 2P2C burst32: grain >= 1.0x rte_ring burst32",
		  BENCH_GRAIN_MPMC, c22, BENCH_RTE, c22, burst32, 1.0 },
		{ "SPSC 1P1C single: grain SPSC >= 1.5x grain MPMC",
		  BENCH_GRAIN_SPSC, c11, BENCH_GRAIN_MPMC, c11, single, 1.5 },
		{ "MPMC 1P1C single: grain >= 1.5x two-lock baseline",
		  BENCH_GRAIN_MPMC, c11, BENCH_TWOLOCK, c11, single, 1.5 },
		{ "MPMC 4P4C single (oversubscribed): grain >= 1.5x two-lock "
		  "baseline",
		  BENCH_GRAIN_MPMC, c44, BENCH_TWOLOCK, c44, single, 1.5 },
		{ "MPMC 4P4C single (oversubscribed): grain >= 0.5x grain 1P1C",
		  BENCH_GRAIN_MPMC, c44, BENCH_GRAIN_MPMC, c11, single, 0.5 },
		{ "MPMC 8P8C single (oversubscribed): grain >= 0.5x grain 1P1C",
		  BENCH_GRAIN_MPMC, c88, BENCH_GRAIN_MPMC, c11, single, 0.5 },
		{ "MPMC 1P1C single: grain >= 5x ck_ring MPMC",
		  BENCH_GRAIN_MPMC, c11, BENCH_CK, c11, single, 5.0 },
		{ "MPMC 1P1C single: grain >= 5x rte_ring MP/MC",
		  BENCH_GRAIN_MPMC, c11, BENCH_RTE, c11, single, 5.0 },
	};
	std::vector<Target> t;
	for (const Variant *v : { &kPinPoll, &kNopinPoll })
		for (const auto &g : goals) {
			std::string num = CaseName(g.num, g.nc, g.b, *v),
				    den = CaseName(g.den, g.dc, g.b, *v);
			Target x = { g.what + std::string(" (") + v->label +
					     ")",
				     Ratio(num, den), g.goal, num, den };
			x.cells = { num + ": " + Spread(num, 1e6, 1),
				    den + ": " + Spread(den, 1e6, 1) };
			t.push_back(x);
		}
	return t;
}

// The variants this run measured.
std::vector<const Variant *> RunVariants()
{
	std::vector<const Variant *> v;
	if (g_opt.old_method) {
		v.push_back(&kVariants[4]);
		return v;
	}
	for (const Variant &x : kVariants) {
		if (x.pin == BENCH_PIN_AUTO)
			continue;
		if ((x.pin == BENCH_PIN_ON ? g_opt.pin_on : g_opt.pin_off) &&
		    (x.wait ? g_opt.wait : g_opt.poll))
			v.push_back(&x);
	}
	return v;
}

// How a run goes: threads, calls, batches, backoff and placement.
void MethodLines(std::ostringstream &o, const RunInfo &run)
{
	unsigned nproc = bench_nproc();

	MethodStart(o, run, true, true);
	o << "A run starts P producer and C consumer threads "
	     "together; producers enqueue tokens until the deadline, as fast "
	     "as the queue takes them; consumers dequeue what is there, up to "
	     "the batch, and ";
	if (g_opt.checked)
		o << "check each producer's order";
	else
		o << "sum the tokens (counts and sums are checked at the end)";
	o << "; pairs/s = tokens dequeued by the deadline / elapsed time. "
	     "single: one token per call; bulkN: N per call, all-or-nothing "
	     "enqueue and as-many-as-ready dequeue (loops of single calls "
	     "for ck_ring and wfcqueue); burstN: partial enqueue and "
	     "dequeue. A call that moves nothing costs every queue the same: ";
	unsigned relax = g_opt.relax ? g_opt.relax
				     : BENCH_RELAX_PER_FAIL_DEFAULT,
		 fails = g_opt.spin_fails ? g_opt.spin_fails
					  : BENCH_SPIN_FAILS_DEFAULT;
	o << relax << (relax == 1 ? " pause" : " pauses") << ", and after "
	  << fails
	  << " failures in a row sched_yield(). Capacity 1024 for every "
	     "bounded queue. Placement: ";
	if (g_opt.old_method)
		o << "threads pinned one per CPU only when P + C <= " << nproc
		  << " (auto)";
	else
		o << "pin: thread i on CPU i % " << nproc
		  << " (oversubscribed too); nopin: left to the scheduler";
	o << ". Consumer: poll, try calls and the backoff; wait, grain's "
	     "_wait calls (ring made with GRAIN_RING_WAIT, 1 ms timeout), "
	     "producers polling as before.\n";
}

// The queues built in, each with its note, and those that were not.
void QueueLines(std::ostringstream &o)
{
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
}

// One throughput table per variant, then the notes its marks need.
void ThroughputTables(std::ostringstream &o,
		      const std::vector<const Variant *> &vars)
{
	std::vector<bench_impl> cols;
	for (int i = 0; i < BENCH_IMPL_COUNT; i++)
		if (bench_info(static_cast<bench_impl>(i))->available &&
		    bench_info(static_cast<bench_impl>(i))->esize == 0)
			cols.push_back(static_cast<bench_impl>(i));
	bool any_collapse = false, any_stall = false;
	for (const Variant *v : vars) {
		std::ostringstream t;
		bool table_present = false;
		std::vector<std::string> titles;
		for (bench_impl i : cols)
			titles.push_back(ImplHeader(i));
		t << "### Throughput, million pairs/s (median), " << v->label
		  << "\n\n"
		  << TableHead("| configuration | batch |", titles);
		for (const Config &c : g_configs) {
			for (const Batch &b : kBatches) {
				std::ostringstream row;
				bool present = false;
				row << "| " << ConfigLabel(c) << " | "
				    << b.label << " |";
				for (bench_impl i : cols) {
					double x = MedianOf(i, c, b, *v);
					present |= !std::isnan(x);
					row << " " << Fmt("%.2f", x / 1e6);
					if (Collapsed(i, c, b, *v)) {
						row << " (collapsed)";
						any_collapse = true;
					}
					if (int hits =
						    DeadlineHits(i, c, b, *v)) {
						row << " †" << hits;
						any_stall = true;
					}
					row << " |";
				}
				if (present) {
					t << row.str() << "\n";
					table_present = true;
				}
			}
		}
		if (table_present)
			o << t.str() << "\n";
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

// grain against each other queue, for the polling variants.
void RatioTables(std::ostringstream &o,
		 const std::vector<const Variant *> &vars)
{
	// Ratios, for the polling variants (the others have no wait).
	for (const Variant *v : vars) {
		if (v->wait)
			continue;
		o << "\n### Ratios: grain / other queue (same configuration, "
		     "batch and placement), "
		  << v->label << "\n\n";
		std::vector<std::string> titles;
		for (bench_impl i : kOthers)
			if (bench_info(i)->available)
				titles.push_back(std::string("/ ") +
						 bench_info(i)->name);
		o << TableHead("| configuration | batch | grain |", titles);
		for (const Config &c : g_configs) {
			std::vector<bench_impl> modes = { BENCH_GRAIN_MPMC };
			if (c.producers == 1 && c.consumers == 1)
				modes.push_back(BENCH_GRAIN_SPSC);
			else if (c.consumers == 1)
				modes.push_back(BENCH_GRAIN_MPSC);
			else if (c.producers == 1)
				modes.push_back(BENCH_GRAIN_SPMC);
			for (bench_impl g : modes) {
				for (const Batch &b : kBatches) {
					double gv = MedianOf(g, c, b, *v);
					if (std::isnan(gv))
						continue;
					o << "| " << ConfigLabel(c) << " | "
					  << b.label << " | "
					  << bench_info(g)->mode << " |";
					for (bench_impl i : kOthers) {
						if (!bench_info(i)->available)
							continue;
						o << " "
						  << Fmt("%.2f",
							 gv / MedianOf(i, c, b,
								       *v))
						  << " |";
					}
					o << "\n";
				}
			}
		}
	}
}

// Element rings run 1P1C burst32 only (Setup): one small table per polling
// variant, copy against zero copy and against rte_ring_elem.
bool ElemCase(bench_impl impl, const Config &c, const Batch &b)
{
	return bench_info(impl)->esize == 0 ||
	       (c.producers == 1 && c.consumers == 1 && b.kind == BENCH_BURST &&
		b.n == 32);
}

void ElemTables(std::ostringstream &o, const std::vector<const Variant *> &vars)
{
	const Config *c11 = FindConfig(1, 1);
	const Batch *b32 = FindBatch("burst32");
	struct Row {
		unsigned esize;
		bench_impl copy, zc, mpmc, rte, rte_mpmc;
	};
	const Row rows[] = {
		{ 16, BENCH_ELEM16_SPSC, BENCH_ELEM16_SPSC_ZC,
		  BENCH_ELEM16_MPMC, BENCH_RTE_ELEM16_SPSC,
		  BENCH_RTE_ELEM16_MPMC },
		{ 64, BENCH_ELEM64_SPSC, BENCH_ELEM64_SPSC_ZC,
		  BENCH_ELEM64_MPMC, BENCH_RTE_ELEM64_SPSC,
		  BENCH_RTE_ELEM64_MPMC },
	};
	if (c11 == nullptr || b32 == nullptr)
		return;
	for (const Variant *v : vars) {
		if (v->wait)
			continue;
		std::ostringstream t;
		bool present = false;
		t << "\n### Element rings, 1P1C burst32, million elements/s "
		     "(median), "
		  << v->label << "\n\n"
		  << "| element | grain SPSC copy | grain SPSC zero copy | "
		     "zero copy / copy | rte_elem SP/SC | grain SPSC copy / rte "
		     "| grain MPMC copy | rte_elem MP/MC | grain MPMC / rte |\n"
		  << "|---|---|---|---|---|---|---|---|---|\n";
		for (const Row &r : rows) {
			double cp = MedianOf(r.copy, *c11, *b32, *v),
			       zc = MedianOf(r.zc, *c11, *b32, *v),
			       mp = MedianOf(r.mpmc, *c11, *b32, *v),
			       rs = MedianOf(r.rte, *c11, *b32, *v),
			       rm = MedianOf(r.rte_mpmc, *c11, *b32, *v);
			present |= !std::isnan(cp) || !std::isnan(zc);
			t << "| " << r.esize << " B | " << Fmt("%.2f", cp / 1e6)
			  << " | " << Fmt("%.2f", zc / 1e6) << " | "
			  << Fmt("%.2f", zc / cp) << " | "
			  << Fmt("%.2f", rs / 1e6) << " | "
			  << Fmt("%.2f", cp / rs) << " | "
			  << Fmt("%.2f", mp / 1e6) << " | "
			  << Fmt("%.2f", rm / 1e6) << " | "
			  << Fmt("%.2f", mp / rm) << " |\n";
		}
		if (present)
			o << t.str();
	}
}

std::string Summary(const RunInfo &run)
{
	std::ostringstream o;

	Preamble(o, run, false, "queues");
	LoadLines(o, run);
	CalibrationLine(o, run, "");
	MethodLines(o, run);
	QueueLines(o);

	std::vector<const Variant *> vars = RunVariants();
	ThroughputTables(o, vars);
	RatioTables(o, vars);
	ElemTables(o, vars);

	o << "\n### Targets\n\n"
	  << TargetsTable("ratio of medians",
			  { "numerator, M/s median (min–max)",
			    "denominator, M/s median (min–max)" },
			  Targets());
	return o.str();
}

std::vector<Case> g_cases;

int Setup(const Options &opt)
{
	ApplyFlags();
	if (!opt.threads.empty() && !ParseConfigs(opt.threads)) {
		std::fprintf(stderr, "--threads: configurations PxC or thread "
				     "counts, e.g. 1P1C,4\n");
		return 2;
	}
	for (const Variant *v : RunVariants())
		for (const Config &c : g_configs)
			for (const Batch &b : kBatches)
				for (int i = 0; i < BENCH_IMPL_COUNT; i++) {
					bench_impl impl =
						static_cast<bench_impl>(i);
					bench_config probe =
						MakeConfig(c, b, *v);
					if (!bench_config_ok(impl, &probe) ||
					    !ElemCase(impl, c, b))
						continue;
					g_cases.push_back(
						{ impl, c, b, v,
						  CaseName(impl, c, b, *v) });
				}
	return Register(g_cases, RunCase, Reps());
}

} // namespace

Driver grain_bench::ThisDriver()
{
	// Runs of 300 ms x 5 (quick 60 ms x 3); --targets 72 columns.
	return { 60,	 300,	3,	 5,	  72,	  true, "pairs_per_sec",
		 kFlags, Setup, Summary, Targets, nullptr };
}
