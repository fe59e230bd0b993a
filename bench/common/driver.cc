/* SPDX-License-Identifier: BSD-2-Clause */
// driver.cc - the skeleton of every benchmark driver (driver.h): main(), the
// regimes of the runs, the machine facts and the shared pieces of the
// summary. GRAIN_BENCH_SOURCE_DIR names the driver's source folder.

#include "driver.h"
#include "sysinfo.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <numeric>

#ifndef GRAIN_BENCH_BUILD_TYPE
#define GRAIN_BENCH_BUILD_TYPE "unknown"
#endif

namespace grain_bench {

namespace {

// --- the machine -------------------------------------------------------------

std::string Trim(const std::string &s)
{
	size_t b = s.find_first_not_of(" \t\r\n");
	size_t e = s.find_last_not_of(" \t\r\n");
	return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string CpuModel()
{
	std::ifstream in("/proc/cpuinfo");
	for (std::string line; std::getline(in, line);)
		if (line.compare(0, 10, "model name") == 0 &&
		    line.find(':') != std::string::npos)
			return Trim(line.substr(line.find(':') + 1));
	return "unknown";
}

// The data and unified caches as the kernel reports them for CPU 0.
std::string CacheSizes()
{
	std::string out;
	for (int i = 0; i < 8; i++) {
		std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" +
				  std::to_string(i) + "/";
		std::ifstream level(dir + "level"), type(dir + "type"),
			size(dir + "size");
		std::string l, t, s;
		if (!(level >> l) || !(type >> t) || !(size >> s))
			break;
		if (t != "Instruction")
			out += (out.empty() ? "L" : ", L") + l + " " + s;
	}
	return out.empty() ? "unknown" : out;
}

std::string Kernel()
{
	struct utsname u;
	if (uname(&u) != 0)
		return "unknown";
	return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::string CxxCompiler()
{
#if defined(__clang__)
	return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
	return std::string("g++ ") + __VERSION__;
#else
	return "unknown";
#endif
}

// The first three fields of /proc/loadavg: other work on the machine during
// a run shows here.
std::string LoadAverage()
{
	std::ifstream in("/proc/loadavg");
	std::string a, b, c;
	if (!(in >> a >> b >> c))
		return "unknown";
	return a + " " + b + " " + c;
}

// CPU time of the whole machine (/proc/stat) and of this process, to tell
// how much of the machine other processes took during the run.
struct CpuSample {
	double busy_s = NAN;  // all CPUs, every non-idle state
	double total_s = NAN; // all CPUs
	double steal_s = NAN; // taken by the hypervisor
	double self_s = NAN;  // this process, user + system
};

CpuSample SampleCpu()
{
	CpuSample c;
	std::ifstream in("/proc/stat");
	std::string tag;
	double v[10] = {};
	if (in >> tag && tag == "cpu") {
		for (double &x : v)
			in >> x;
		double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
		double all = std::accumulate(v, v + 8, 0.0);
		c.total_s = all / hz;
		c.busy_s = (all - v[3] - v[4]) / hz; // less idle and iowait
		c.steal_s = v[7] / hz;
	}
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		c.self_s = static_cast<double>(ru.ru_utime.tv_sec) +
			   static_cast<double>(ru.ru_utime.tv_usec) * 1e-6 +
			   static_cast<double>(ru.ru_stime.tv_sec) +
			   static_cast<double>(ru.ru_stime.tv_usec) * 1e-6;
	return c;
}

std::string OtherLoad(const CpuSample &a, const CpuSample &b)
{
	double total = b.total_s - a.total_s;
	if (std::isnan(total) || total <= 0)
		return "unknown";
	double others = (b.busy_s - a.busy_s) - (b.self_s - a.self_s);
	double steal = b.steal_s - a.steal_s;
	char buf[160];
	std::snprintf(buf, sizeof(buf),
		      "%.0f%% of the machine's CPU time went to other "
		      "processes, %.0f%% was stolen by the hypervisor",
		      100.0 * std::max(0.0, others - steal) / total,
		      100.0 * std::max(0.0, steal) / total);
	return buf;
}

// What CMD printed, trimmed; "" if it failed.
std::string Shell(const std::string &cmd)
{
	FILE *p = popen(cmd.c_str(), "r");
	if (p == nullptr)
		return std::string();
	std::string out;
	char buf[256];
	while (std::fgets(buf, sizeof(buf), p) != nullptr)
		out += buf;
	return pclose(p) == 0 ? Trim(out) : std::string();
}

std::string GitRevision()
{
	std::string git = "git -C '" GRAIN_BENCH_SOURCE_DIR "' ";
	std::string rev = Shell(git + "rev-parse --short HEAD 2>/dev/null");
	if (rev.empty())
		return "unknown (no git revision)";
	// Changed or new files in what the benchmark is built from.
	if (Shell(git + "status --porcelain -- ':/include' ':/src' ':/bench' "
			"2>/dev/null")
		    .empty())
		return rev;
	return rev + " with uncommitted changes in include/, src/ or bench/";
}

// --- the runs and their regimes ----------------------------------------------

Options g_opt;
unsigned g_duration_ms;
int g_reps;
bool g_failed = false;
const char *g_rate = "";
CpuSample g_cpu_before, g_cpu_after; // around the runs

// The regimes of the round trip, as bands of nanoseconds. The two vCPUs of
// the machine these figures come from move between three of them
// (doc/benchmark-notes.md): 27-71 ns (hyperthreads of one core), about
// 120 ns (runs of 105-240 ns) and 300-500 ns (separate cores), each with its
// own winners. The bounds lie in the gaps between them: 100 ns, and 250 ns
// rather than the 150 ns once used, which split the middle one's runs.
enum { kCheap, kMiddle, kDear, kRegimes };
const double kFloorNs[kRegimes] = { 0, 100, 250 };
const char *const kRegimeName[kRegimes] = { "cheap", "middle", "dear" };
// The round trip before each run: the fastest of kProbes probes of
// kProbeRounds round trips, so that a probe thread preempted by another
// process does not pass for a dearer regime (a few ms in all when dear).
const unsigned kProbes = 5, kProbeRounds = 2000;

// Each run that went well, by case name in the order the runs ran.
struct Mark {
	double rtt; // ns, NaN if it could not be measured
	int regime;
	double rate; // the counter Driver::rate, NaN if the run had none
};
std::map<std::string, std::vector<Mark>> g_marks;
// Set after the runs: the runs in each regime, the regime most saw (the
// cheaper of a tie), and every round trip measured.
int g_count[kRegimes], g_majority = kCheap;
std::vector<double> g_rtts;

// The runs measured, all regimes together.
int RunsMeasured()
{
	return std::accumulate(g_count, g_count + kRegimes, 0);
}

// The runs of a regime other than the majority's, which no figure counts.
int RunsDropped()
{
	return RunsMeasured() - g_count[g_majority];
}

// One run of case NAME, with the round trip measured before it; if it went
// well, its round trip, regime and rate are recorded.
void Timed(benchmark::State &state, const std::string &name,
	   const std::function<void(benchmark::State &)> &run)
{
	double rtt = NAN;
	for (unsigned i = 0; i < kProbes; i++) {
		double ns = bench_pingpong_ns(kProbeRounds);
		if (ns > 0 && !(ns >= rtt))
			rtt = ns;
	}
	run(state);
	if (state.error_occurred())
		return;
	int r = 0;
	while (r + 1 < kRegimes && rtt >= kFloorNs[r + 1])
		r++;
	state.counters["rtt_ns"] = rtt;
	state.counters["regime"] = r;
	state.counters["dear_regime"] = r == kDear ? 1.0 : 0.0;
	auto it = state.counters.find(g_rate);
	g_marks[name].push_back(
		{ rtt, r,
		  it == state.counters.end() ? NAN : it->second.value });
}

// "cheap (< 100 ns)", "middle (100–250 ns)", "dear (>= 250 ns)".
std::string Band(int r)
{
	std::string s = std::string(kRegimeName[r]) + " (";
	if (r == 0)
		return s + Fmt("< %.0f ns)", kFloorNs[1]);
	if (r + 1 == kRegimes)
		return s + Fmt(">= %.0f ns)", kFloorNs[r]);
	return s + Fmt("%.0f–", kFloorNs[r]) + Fmt("%.0f ns)", kFloorNs[r + 1]);
}

// PASS when value >= goal (value <= goal with at_most), "n/a (not
// measured)" when value is not a number.
std::string Verdict(double value, double goal, bool at_most)
{
	if (std::isnan(value))
		return "n/a (not measured)";
	return (at_most ? value <= goal : value >= goal) ? "PASS" : "MISS";
}

// The targets that are ratios of two cases, recomputed within each regime in
// which some target has 2 runs on each side: "1.23x (3/4)".
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

// --- main ----------------------------------------------------------------------

// One of FLAGS at argv[*i], with its value after '=' or in the next argument;
// false if none is. *bad when a value is missing.
bool TakeOne(const std::vector<Flag> &flags, int argc, char **argv, int *i,
	     bool *bad)
{
	const char *arg = argv[*i];
	for (const Flag &f : flags) {
		size_t n = std::strlen(f.name);
		if (std::strncmp(arg, f.name, n) != 0 ||
		    (arg[n] != '\0' && (arg[n] != '=' || f.set != nullptr)))
			continue;
		std::string v;
		if (f.set != nullptr) {
			*f.set = true;
			return true;
		} else if (arg[n] == '=') {
			v = arg + n + 1;
		} else if (*i + 1 < argc) {
			v = argv[++*i];
		} else {
			std::fprintf(stderr, "%s needs a value\n", f.name);
			*bad = true;
			return true;
		}
		if (f.text != nullptr)
			*f.text = v;
		else
			*f.count = static_cast<unsigned>(
				std::strtoul(v.c_str(), nullptr, 10));
		return true;
	}
	return false;
}

// The flags every driver takes (driver.h), then the driver's own.
bool TakeFlag(const Driver &d, int argc, char **argv, int *i, bool *bad,
	      Options *o)
{
	const char *arg = argv[*i];
	const std::vector<Flag> common = {
		{ "--quick", &o->quick, nullptr, nullptr },
		{ "--targets", &o->targets, nullptr, nullptr },
		{ "--summary", &o->summary, nullptr, nullptr },
		{ "--md", nullptr, &o->summary_file, nullptr },
		{ "--json", nullptr, &o->json_file, nullptr },
		{ "--threads", nullptr, &o->threads, nullptr },
		{ "--duration_ms", nullptr, nullptr, &o->duration_ms },
	};
	if (std::strncmp(arg, "--summary=", 10) == 0) {
		o->summary = true;
		o->summary_file = arg + 10;
	} else if (std::strncmp(arg, "--reps=", 7) == 0)
		o->reps = std::atoi(arg + 7);
	else
		return TakeOne(common, argc, argv, i, bad) ||
		       TakeOne(d.flags, argc, argv, i, bad);
	return true;
}

// Google Benchmark's own arguments that the driver adds to the caller's: the
// JSON file asked for, and random interleaving unless the caller chose: on a
// machine whose speed drifts (shared or virtual CPUs) the drift then spreads
// over every case instead of favouring whichever ran in a fast stretch.
// The strings live on: ARGS points into them.
void AddBenchmarkArgs(std::vector<char *> *args, const Options &opt)
{
	static char interleave[] =
		"--benchmark_enable_random_interleaving=true";
	static std::string json_out,
		json_format = "--benchmark_out_format=json";
	bool given = false;
	for (size_t i = 1; i < args->size(); i++)
		given |= std::strncmp((*args)[i],
				      "--benchmark_enable_random_interleaving",
				      38) == 0;
	if (!given)
		args->push_back(interleave);
	if (!opt.json_file.empty()) {
		json_out = "--benchmark_out=" + opt.json_file;
		args->push_back(&json_out[0]);
		args->push_back(&json_format[0]);
	}
}

// As asked: the driver's summary on stdout and in opt.summary_file, then its
// targets, one line each. 0, or 2 when that file cannot be written.
int Report(const Driver &d, const RunInfo &run, const Options &opt)
{
	if (opt.summary) {
		std::string s = d.summary(run);
		std::printf("\n%s", s.c_str());
		if (!opt.summary_file.empty() &&
		    !(std::ofstream(opt.summary_file) << s)) {
			std::fprintf(stderr, "cannot write %s\n",
				     opt.summary_file.c_str());
			return 2;
		}
	}
	if (!opt.targets)
		return 0;
	std::printf("\nTargets (timing; a MISS does not fail the run):\n");
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
	return 0;
}

int Main(int argc, char **argv, const Driver &d)
{
	RunInfo run;
	std::vector<char *> args = { argv[0] };
	bool bad = false;
	for (int i = 0; i < argc; i++)
		run.command += (i ? " " : "") + std::string(argv[i]);
	for (int i = 1; i < argc; i++)
		if (!TakeFlag(d, argc, argv, &i, &bad, &g_opt))
			args.push_back(argv[i]);
	if (bad)
		return 2;
	const Options &opt = g_opt;
	g_opt.summary |= !opt.summary_file.empty();
	run.duration_ms = g_duration_ms =
		opt.duration_ms ? opt.duration_ms
				: (opt.quick ? d.quick_ms : d.full_ms);
	run.reps = g_reps = opt.reps > 0
				    ? opt.reps
				    : (opt.quick ? d.quick_reps : d.full_reps);
	g_rate = d.rate;
	int rc = d.setup(opt);
	if (rc == 0) {
		AddBenchmarkArgs(&args, opt);
		args.push_back(nullptr);
		argc = static_cast<int>(args.size()) - 1;
		run.load_before = LoadAverage();
		run.pingpong_before = opt.summary && d.pingpong
					      ? bench_pingpong_ns(200000)
					      : NAN;
		benchmark::Initialize(&argc, args.data());
		rc = benchmark::ReportUnrecognizedArguments(argc, args.data())
			     ? 2
			     : 0;
	}
	if (rc == 0) {
		g_cpu_before = SampleCpu();
		benchmark::RunSpecifiedBenchmarks();
		g_cpu_after = SampleCpu();
		benchmark::Shutdown();
		for (const auto &kv : g_marks)
			for (const Mark &m : kv.second) {
				g_count[m.regime]++;
				if (!std::isnan(m.rtt))
					g_rtts.push_back(m.rtt);
			}
		g_majority = static_cast<int>(
			std::max_element(g_count, g_count + kRegimes) -
			g_count);
		rc = Report(d, run, opt);
	}
	if (d.teardown)
		d.teardown();
	if (rc == 0 && g_failed) {
		std::fprintf(stderr, "FAILED: a run reported errors\n");
		rc = 1;
	}
	return rc;
}

} // namespace

// --- what the drivers call ----------------------------------------------------

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
	// The extremes of a case's repetitions, reported beside the median so
	// that the plots draw min-max bars.
	auto min = [](const std::vector<double> &v) {
		return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
	};
	auto max = [](const std::vector<double> &v) {
		return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
	};
	benchmark::RegisterBenchmark(name.c_str(),
				     [name, run](benchmark::State &state) {
					     Timed(state, name, run);
				     })
		->Iterations(1)
		->Repetitions(reps)
		->ReportAggregatesOnly(true)
		->ComputeStatistics("min", min)
		->ComputeStatistics("max", max)
		->UseManualTime()
		->Unit(benchmark::kMillisecond);
}

bool InMajority(const std::string &name, size_t i)
{
	auto it = g_marks.find(name);
	return it != g_marks.end() && i < it->second.size() &&
	       it->second[i].regime == g_majority;
}

double Median(std::vector<double> v)
{
	if (v.empty())
		return NAN;
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<double> Rates(const std::string &name, int regime)
{
	std::vector<double> v;
	auto it = g_marks.find(name);
	if (it != g_marks.end())
		for (const Mark &m : it->second)
			if (m.regime ==
			    (regime == kMajority ? g_majority : regime))
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
	std::string s = lead, rule = "\n|";
	for (const std::string &t : titles)
		s += " " + t + " |";
	for (long i = 1; i < std::count(lead.begin(), lead.end(), '|'); i++)
		rule += "---|";
	for (size_t i = 0; i < titles.size(); i++)
		rule += "---:|";
	return s + rule + "\n";
}

void MethodStart(std::ostringstream &o, const RunInfo &run, bool up_to, bool ms)
{
	// With runs dropped (LoadLines), a figure has fewer runs than the
	// repetitions.
	up_to |= RunsDropped() > 0;
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
	o << "- During the run: " << OtherLoad(g_cpu_before, g_cpu_after)
	  << "\n";
	o << "- Regime: the round trip was measured before each of the "
	  << RunsMeasured() << " runs (the fastest of " << kProbes
	  << " probes of " << kProbeRounds << " round trips), median (min–max) "
	  << Spread(g_rtts, 1, 0) << " ns. Runs per regime:";
	for (int r = 0; r < kRegimes; r++)
		o << (r ? ", " : " ") << Band(r) << " " << g_count[r];
	o << ". Every figure below is the median of the runs of the "
	  << kRegimeName[g_majority]
	  << " regime only, which most runs saw; the " << RunsDropped()
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

std::string RatioTargets(const std::string &num, const std::string &den,
			 const std::vector<Target> &targets)
{
	return TargetsTable("ratio of medians",
			    { num + " median (min–max)",
			      den + " median (min–max)" },
			    targets);
}

} // namespace grain_bench

int main(int argc, char **argv)
{
	return grain_bench::Main(argc, argv, grain_bench::ThisDriver());
}
