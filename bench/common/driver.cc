/* SPDX-License-Identifier: BSD-2-Clause */
// driver.cc - the skeleton of every benchmark driver (driver.h).

#include "driver.h"
#include "sysinfo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>

#ifndef GRAIN_BENCH_BUILD_TYPE
#define GRAIN_BENCH_BUILD_TYPE "unknown"
#endif

namespace grain_bench {

namespace {

Options g_opt;
unsigned g_duration_ms;
int g_reps;
bool g_failed = false;

// The round trip before each run: kProbes probes of kProbeRounds round
// trips each, and the fastest probe's figure, so that a probe thread
// preempted by another process does not pass for a dearer regime (a few
// ms in all in the dear regime).
const unsigned kProbes = 5;
const unsigned kProbeRounds = 2000;
const char *const kRegimeName[kRegimes] = { "cheap", "middle", "dear" };

// Each run that went well, by case name in the order the runs ran.
struct Mark {
	double rtt; // ns, NaN if it could not be measured
	int regime;
	double rate; // the counter Driver::rate, NaN if the run had none
};

std::map<std::string, std::vector<Mark>> g_marks;
const char *g_rate = "";
// Set after the runs: the runs in each regime, the regime most saw, and
// every round trip measured.
int g_count[kRegimes], g_majority = kCheap;
std::vector<double> g_rtts;

double ProbeRtt()
{
	double best = NAN;
	for (unsigned i = 0; i < kProbes; i++) {
		double ns = bench_pingpong_ns(kProbeRounds);
		if (ns > 0 && !(ns >= best))
			best = ns;
	}
	return best;
}

int RegimeOf(double rtt)
{
	int r = 0;
	while (r + 1 < kRegimes && rtt >= kRegimeFloorNs[r + 1])
		r++;
	return r;
}

// "cheap (< 100 ns)", "middle (100–250 ns)", "dear (>= 250 ns)".
std::string Band(int r)
{
	std::string s = std::string(kRegimeName[r]) + " (";
	if (r == 0)
		return s + Fmt("< %.0f ns)", kRegimeFloorNs[1]);
	if (r + 1 == kRegimes)
		return s + Fmt(">= %.0f ns)", kRegimeFloorNs[r]);
	return s + Fmt("%.0f–", kRegimeFloorNs[r]) +
	       Fmt("%.0f ns)", kRegimeFloorNs[r + 1]);
}

// One run of case NAME, with the round trip measured before it; if it
// went well, its round trip, regime and rate are recorded.
void Timed(benchmark::State &state, const std::string &name,
	   const std::function<void(benchmark::State &)> &run)
{
	double rtt = ProbeRtt();
	run(state);
	if (state.error_occurred())
		return;
	int r = RegimeOf(rtt);
	state.counters["rtt_ns"] = rtt;
	state.counters["regime"] = static_cast<double>(r);
	state.counters["dear_regime"] = r == kDear ? 1.0 : 0.0;
	auto it = state.counters.find(g_rate);
	g_marks[name].push_back(
		{ rtt, r,
		  it == state.counters.end() ? NAN : it->second.value });
}

// The cheaper of a tie wins.
void ChooseRegime()
{
	for (const auto &kv : g_marks)
		for (const Mark &m : kv.second) {
			g_count[m.regime]++;
			if (!std::isnan(m.rtt))
				g_rtts.push_back(m.rtt);
		}
	g_majority = static_cast<int>(
		std::max_element(g_count, g_count + kRegimes) - g_count);
}

// The extremes of a case's repetitions, reported beside the median so
// that the plots draw min-max bars.
double StatMin(const std::vector<double> &v)
{
	return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

double StatMax(const std::vector<double> &v)
{
	return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

// A flag with a value, given as --flag=VALUE or --flag VALUE.
bool Value(const char *flag, int argc, char **argv, int *i, bool *bad,
	   std::string *to)
{
	const char *arg = argv[*i];
	size_t n = std::strlen(flag);
	if (std::strncmp(arg, flag, n) != 0)
		return false;
	if (arg[n] == '=') {
		*to = arg + n + 1;
		return true;
	}
	if (arg[n] != '\0')
		return false;
	if (*i + 1 >= argc) {
		std::fprintf(stderr, "%s needs a value\n", flag);
		*bad = true;
		return true;
	}
	*to = argv[++*i];
	return true;
}

// One of FLAGS at argv[*i].
bool TakeOwn(const std::vector<Flag> &flags, int argc, char **argv, int *i,
	     bool *bad)
{
	for (const Flag &f : flags) {
		std::string v;
		if (f.set != nullptr) {
			if (std::strcmp(argv[*i], f.name) != 0)
				continue;
			*f.set = true;
			return true;
		}
		if (!Value(f.name, argc, argv, i, bad, &v))
			continue;
		if (f.text != nullptr)
			*f.text = v;
		else
			*f.count = static_cast<unsigned>(
				std::strtoul(v.c_str(), nullptr, 10));
		return true;
	}
	return false;
}

bool TakeFlag(int argc, char **argv, int *i, bool *bad, Options *o)
{
	const char *arg = argv[*i];
	if (std::strcmp(arg, "--quick") == 0) {
		o->quick = true;
	} else if (std::strcmp(arg, "--targets") == 0) {
		o->targets = true;
	} else if (std::strcmp(arg, "--summary") == 0) {
		o->summary = true;
	} else if (std::strncmp(arg, "--summary=", 10) == 0) {
		o->summary = true;
		o->summary_file = arg + 10;
	} else if (Value("--md", argc, argv, i, bad, &o->summary_file)) {
		o->summary = true;
	} else if (std::strncmp(arg, "--reps=", 7) == 0) {
		o->reps = std::atoi(arg + 7);
	} else {
		const std::vector<Flag> common = {
			{ "--json", nullptr, &o->json_file, nullptr },
			{ "--threads", nullptr, &o->threads, nullptr },
			{ "--duration_ms", nullptr, nullptr, &o->duration_ms },
		};
		return TakeOwn(common, argc, argv, i, bad);
	}
	return true;
}

} // namespace

const Options &Opts()
{
	return g_opt;
}

unsigned DurationMs()
{
	return g_duration_ms;
}

int Reps()
{
	return g_reps;
}

void Fail(benchmark::State &state, const std::string &name,
	  const std::string &message, const char *skip)
{
	std::fprintf(stderr, "%s: %s\n", name.c_str(), message.c_str());
	g_failed = true;
	state.SkipWithError(skip);
}

bool Ran(benchmark::State &state, const std::string &name, const char *call,
	 int rc)
{
	if (rc == 0)
		return true;
	Fail(state, name, std::string(call) + " failed: " + std::strerror(-rc),
	     (std::string(call) + " failed").c_str());
	return false;
}

void Add(const std::string &name,
	 const std::function<void(benchmark::State &)> &run, int reps)
{
	benchmark::RegisterBenchmark(name.c_str(),
				     [name, run](benchmark::State &state) {
					     Timed(state, name, run);
				     })
		->Iterations(1)
		->Repetitions(reps)
		->ReportAggregatesOnly(true)
		->ComputeStatistics("min", StatMin)
		->ComputeStatistics("max", StatMax)
		->UseManualTime()
		->Unit(benchmark::kMillisecond);
}

bool InMajority(const std::string &name, size_t i)
{
	auto it = g_marks.find(name);
	return it != g_marks.end() && i < it->second.size() &&
	       it->second[i].regime == g_majority;
}

std::vector<double> Rates(const std::string &name, int regime)
{
	std::vector<double> v;
	auto it = g_marks.find(name);
	if (regime == kMajority)
		regime = g_majority;
	if (it != g_marks.end())
		for (const Mark &m : it->second)
			if (m.regime == regime)
				v.push_back(m.rate);
	return v;
}

double Rate(const std::string &name, int regime)
{
	return Median(Rates(name, regime));
}

double Ratio(const std::string &num, const std::string &den, int regime)
{
	return Rate(num, regime) / Rate(den, regime);
}

std::string FirstOf(uint64_t n, const char *what, const char *first)
{
	return std::to_string(n) + " " + what + "; first: " + first;
}

bool ParseCounts(const std::string &s, unsigned max, std::vector<unsigned> *out)
{
	std::stringstream in(s);
	std::string item;
	out->clear();
	while (std::getline(in, item, ',')) {
		char *end = nullptr;
		unsigned long v = std::strtoul(item.c_str(), &end, 10);
		if (item.empty() || *end != '\0' || v == 0 || v > max)
			return false;
		out->push_back(static_cast<unsigned>(v));
	}
	std::sort(out->begin(), out->end());
	out->erase(std::unique(out->begin(), out->end()), out->end());
	return !out->empty();
}

std::string Fmt(const char *fmt, double v)
{
	if (std::isnan(v) || std::isinf(v))
		return "–";
	char buf[64];
	std::snprintf(buf, sizeof(buf), fmt, v);
	return buf;
}

std::string Spread(const std::vector<double> &v, double scale, int digits)
{
	if (v.empty())
		return "–";
	auto mm = std::minmax_element(v.begin(), v.end());
	char buf[96];
	std::snprintf(buf, sizeof(buf), "%.*f (%.*f–%.*f)", digits,
		      Median(v) / scale, digits, *mm.first / scale, digits,
		      *mm.second / scale);
	return buf;
}

std::string Spread(const std::string &name, double scale, int digits)
{
	return Spread(Rates(name), scale, digits);
}

std::string Verdict(double value, double goal, bool at_most)
{
	if (std::isnan(value))
		return "n/a (not measured)";
	return (at_most ? value <= goal : value >= goal) ? "PASS" : "MISS";
}

std::string Oversubscribed(unsigned threads)
{
	unsigned nproc = bench_nproc();
	if (threads <= nproc)
		return "";
	return " (oversubscribed: " + std::to_string(threads) + " threads on " +
	       std::to_string(nproc) + " cores)";
}

std::string TableHead(const std::string &lead,
		      const std::vector<std::string> &titles)
{
	std::string s = lead;
	for (const std::string &t : titles)
		s += " " + t + " |";
	s += "\n|";
	for (size_t i = 1;
	     i < static_cast<size_t>(std::count(lead.begin(), lead.end(), '|'));
	     i++)
		s += "---|";
	for (size_t i = 0; i < titles.size(); i++)
		s += "---:|";
	return s + "\n";
}

void MethodStart(std::ostringstream &o, const RunInfo &run, bool up_to, bool ms)
{
	o << "- Source revision: " << GitRevision() << "\n";
	o << "- Method: each figure is the median of "
	  << (up_to ? "up to " : "") << run.reps << " runs";
	if (ms)
		o << " of " << run.duration_ms << " ms";
	o << " (repetitions of all benchmarks interleaved in random order). ";
}

void Preamble(std::ostringstream &o, const RunInfo &run, bool caches,
	      const char *noun)
{
	o << "Command: `" << run.command << "`\n\n";
	o << "- Machine: " << bench_nproc() << " online CPUs, " << CpuModel();
	if (caches)
		o << " (" << CacheSizes() << ")";
	o << ", " << Kernel() << "\n";
	o << "- Compilers: C " << Trim(bench_c_compiler()) << ", C++ "
	  << Trim(CxxCompiler()) << "; build type " << GRAIN_BENCH_BUILD_TYPE
	  << "\n";
	if (std::strcmp(GRAIN_BENCH_BUILD_TYPE, "Debug") == 0)
		o << "- WARNING: unoptimised (Debug) build; these figures say "
		     "nothing about the "
		  << noun << ".\n";
}

void LoadLines(std::ostringstream &o, const RunInfo &run)
{
	o << "- Load average (1, 5, 15 min) before the run: " << run.load_before
	  << "; after: " << LoadAverage() << "\n";
	o << "- During the run: " << OtherLoad(run.cpu_before, run.cpu_after)
	  << "\n";
	int all = std::accumulate(g_count, g_count + kRegimes, 0);
	o << "- Regime: the round trip was measured before each of the " << all
	  << " runs (the fastest of " << kProbes << " probes of "
	  << kProbeRounds << " round trips), median (min–max) "
	  << Spread(g_rtts, 1, 0) << " ns. Runs per regime:";
	for (int r = 0; r < kRegimes; r++)
		o << (r ? ", " : " ") << Band(r) << " " << g_count[r];
	o << ". Every figure below is the median of the runs of the "
	  << kRegimeName[g_majority]
	  << " regime only, which most runs saw; the "
	  << all - g_count[g_majority]
	  << " runs of other regimes were dropped (the counters rtt_ns and "
	     "regime in the JSON give each case's).\n";
}

void CalibrationLine(std::ostringstream &o, const RunInfo &run,
		     const char *tail)
{
	double before = run.pingpong_before, after = bench_pingpong_ns(200000);
	o << "- Calibration, cache-line round trip CPU 0 <-> CPU 1: "
	  << Fmt("%.0f ns", before < 0 ? NAN : before) << " before the run, "
	  << Fmt("%.0f ns", after < 0 ? NAN : after) << " after" << tail
	  << "\n";
}

namespace {

// The targets that are ratios of two cases, recomputed within each regime
// in which some target has 2 runs on each side: "1.23x (3/4)".
std::string ByRegime(const std::vector<Target> &targets)
{
	std::vector<std::vector<std::string>> rows;
	bool used[kRegimes] = {};
	for (const Target &t : targets) {
		if (t.num.empty())
			continue;
		rows.push_back({ t.what });
		for (int r = 0; r < kRegimes; r++) {
			std::vector<double> n = Rates(t.num, r),
					    d = Rates(t.den, r);
			double x = Median(n) / Median(d);
			bool ok = n.size() >= 2 && d.size() >= 2;
			used[r] |= ok;
			rows.back().push_back(
				ok ? Fmt(t.fmt, t.of ? t.of(x) : x) + " (" +
						std::to_string(n.size()) + "/" +
						std::to_string(d.size()) + ")"
				   : "");
		}
	}
	std::vector<std::string> titles;
	for (int r = 0; r < kRegimes; r++)
		if (used[r])
			titles.push_back(Band(r));
	if (titles.empty())
		return "";
	std::ostringstream o;
	o << "\nBy regime: each target that is a ratio of two cases' rates, "
	     "from the runs of one regime at a time, with the runs of each "
	     "side; blank where a side has fewer than 2, and a regime left "
	     "out where every target is blank.\n\n"
	  << TableHead("| target |", titles);
	for (const std::vector<std::string> &row : rows) {
		o << "| " << row[0] << " |";
		for (int r = 0; r < kRegimes; r++)
			if (used[r])
				o << " " << row[r + 1] << " |";
		o << "\n";
	}
	return o.str();
}

} // namespace

std::string TargetsTable(const std::string &measured,
			 const std::vector<std::string> &titles,
			 const std::vector<Target> &targets)
{
	std::ostringstream o;
	o << "| target | " << measured << " | result |";
	for (const std::string &t : titles)
		o << " " << t << " |";
	o << "\n|---|---:|---|";
	for (size_t i = 0; i < titles.size(); i++)
		o << "---|";
	o << "\n";
	for (const Target &t : targets) {
		o << "| " << t.what << " | " << Fmt(t.fmt, t.value) << " | "
		  << (t.context ? "–" : Verdict(t.value, t.goal, t.at_most))
		  << " |";
		for (const std::string &c : t.cells)
			o << " " << c << " |";
		o << "\n";
	}
	return o.str() + ByRegime(targets);
}

namespace {

// Google Benchmark's own arguments that the driver adds to the caller's:
// random interleaving unless the caller chose, and the JSON file asked
// for. The strings live on: args points into them.
void AddBenchmarkArgs(std::vector<char *> *args, const Options &opt)
{
	// Repetitions of all benchmarks are interleaved in random order
	// unless the caller says otherwise: on a machine whose speed drifts
	// (shared or virtual CPUs) the drift then spreads over every case
	// instead of favouring whichever ran in a fast stretch.
	static char interleave[] =
		"--benchmark_enable_random_interleaving=true";
	bool given = false;
	for (size_t i = 1; i < args->size(); i++)
		given |= std::strncmp((*args)[i],
				      "--benchmark_enable_random_interleaving",
				      38) == 0;
	if (!given)
		args->push_back(interleave);
	static std::string json_out, json_format;
	if (!opt.json_file.empty()) {
		json_out = "--benchmark_out=" + opt.json_file;
		json_format = "--benchmark_out_format=json";
		args->push_back(&json_out[0]);
		args->push_back(&json_format[0]);
	}
}

// The driver's summary of the run on stdout and, if asked, in
// opt.summary_file. 0, or 2 when that file cannot be written.
int WriteSummary(const Driver &d, const RunInfo &run, const Options &opt)
{
	int rc = 0;
	std::string s = d.summary(run);
	std::fputs("\n", stdout);
	std::fputs(s.c_str(), stdout);
	if (!opt.summary_file.empty()) {
		std::ofstream f(opt.summary_file);
		f << s;
		if (!f) {
			std::fprintf(stderr, "cannot write %s\n",
				     opt.summary_file.c_str());
			rc = 2;
		}
	}
	return rc;
}

// The driver's targets, one line each, after the summary.
void PrintTargets(const Driver &d)
{
	std::fputs("\nTargets (timing; a MISS does not fail the run):\n",
		   stdout);
	for (const Target &t : d.targets()) {
		if (t.context)
			continue;
		std::string verdict = Verdict(t.value, t.goal, t.at_most);
		std::printf("  %-*s %8s  ", d.target_width, t.what.c_str(),
			    Fmt(t.fmt, t.value).c_str());
		if (t.seed.empty())
			std::printf("%s\n", verdict.c_str());
		else
			std::printf("%-4s  seed: %s\n", verdict.c_str(),
				    t.seed.c_str());
	}
}

int Main(int argc, char **argv, const Driver &d)
{
	RunInfo run;
	std::vector<char *> args;
	bool bad = false;
	for (int i = 0; i < argc; i++)
		run.command += (i ? " " : "") + std::string(argv[i]);
	args.push_back(argv[0]);
	for (int i = 1; i < argc; i++)
		if (!TakeFlag(argc, argv, &i, &bad, &g_opt) &&
		    !TakeOwn(d.flags, argc, argv, &i, &bad))
			args.push_back(argv[i]);
	if (bad)
		return 2;
	const Options &opt = g_opt;
	g_duration_ms = opt.duration_ms ? opt.duration_ms
					: (opt.quick ? d.quick_ms : d.full_ms);
	run.duration_ms = g_duration_ms;
	g_reps = opt.reps > 0 ? opt.reps
			      : (opt.quick ? d.quick_reps : d.full_reps);
	run.reps = g_reps;
	g_rate = d.rate;
	int rc = d.setup(opt);
	if (rc != 0) {
		if (d.teardown)
			d.teardown();
		return rc;
	}

	AddBenchmarkArgs(&args, opt);
	args.push_back(nullptr);
	argc = static_cast<int>(args.size()) - 1;
	argv = args.data();

	run.load_before = LoadAverage();
	run.pingpong_before =
		opt.summary && d.pingpong ? bench_pingpong_ns(200000) : NAN;
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
		if (d.teardown)
			d.teardown();
		return 2;
	}
	run.cpu_before = SampleCpu();
	benchmark::RunSpecifiedBenchmarks();
	run.cpu_after = SampleCpu();
	benchmark::Shutdown();

	ChooseRegime();
	rc = 0;
	if (opt.summary)
		rc = WriteSummary(d, run, opt);
	if (rc == 0 && opt.targets)
		PrintTargets(d);
	if (d.teardown)
		d.teardown();
	if (rc == 0 && g_failed) {
		std::fprintf(stderr, "FAILED: a run reported errors\n");
		rc = 1;
	}
	return rc;
}

} // namespace

} // namespace grain_bench

int main(int argc, char **argv)
{
	return grain_bench::Main(argc, argv, grain_bench::ThisDriver());
}
