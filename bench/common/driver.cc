/* SPDX-License-Identifier: BSD-2-Clause */
// driver.cc - the skeleton of every benchmark driver (driver.h): main(), the
// regimes of the runs, and the machine facts the JSON report carries.
// GRAIN_BENCH_SOURCE_DIR names the driver's source folder.

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

// The shares (%) of the machine's CPU time between samples A and B that went
// to other processes and that the hypervisor stole; NAN if unknown.
void OtherLoad(const CpuSample &a, const CpuSample &b, double *others_pct,
	       double *steal_pct)
{
	double total = b.total_s - a.total_s;
	*others_pct = *steal_pct = NAN;
	if (std::isnan(total) || total <= 0)
		return;
	double others = (b.busy_s - a.busy_s) - (b.self_s - a.self_s);
	double steal = b.steal_s - a.steal_s;
	*others_pct = 100.0 * std::max(0.0, others - steal) / total;
	*steal_pct = 100.0 * std::max(0.0, steal) / total;
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
CpuSample g_cpu_before, g_cpu_after; // around the runs
std::string g_load_before;

// The regimes of the round trip, as bands of nanoseconds. The two vCPUs of
// the machine these figures come from move between three of them
// (doc/bench/ring-method.md): 27-71 ns (hyperthreads of one core), about
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

// The runs that went well in each regime, and every round trip measured.
int g_count[kRegimes];
std::vector<double> g_rtts;
double g_pingpong_before = NAN; // ns, when the driver asks for it

// One run, with the round trip measured before it; if it went well, its
// round trip and regime are counters, and counted.
void Timed(benchmark::State &state,
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
	g_count[r]++;
	if (!std::isnan(rtt))
		g_rtts.push_back(rtt);
}

// --- the report --------------------------------------------------------------

// S as a JSON string.
std::string Quote(const std::string &s)
{
	std::string o = "\"";
	for (unsigned char c : s) {
		if (c == '"' || c == '\\') {
			o += std::string("\\") + static_cast<char>(c);
		} else if (c < 0x20) {
			char hex[8];
			std::snprintf(hex, sizeof(hex), "\\u%04x", c);
			o += hex;
		} else {
			o += static_cast<char>(c);
		}
	}
	return o + "\"";
}

// V as a JSON number, null if it is not a finite one.
std::string Number(double v)
{
	return std::isfinite(v) ? Fmt("%.6g", v) : "null";
}

// The "grain" object of the report: what the run was, on what, and the
// regimes its runs saw. After the runs: it samples the machine again.
std::string RunFacts(const Driver &d, const std::string &command)
{
	double others = NAN, steal = NAN;
	g_cpu_after = SampleCpu();
	OtherLoad(g_cpu_before, g_cpu_after, &others, &steal);
	double after = d.pingpong ? bench_pingpong_ns(200000) : NAN;
	int majority = static_cast<int>(
		std::max_element(g_count, g_count + kRegimes) - g_count);
	std::ostringstream o;
	o << "{\n    \"command\": " << Quote(command)
	  << ",\n    \"quick\": " << (g_opt.quick ? "true" : "false")
	  << ",\n    \"reps\": " << g_reps
	  << ",\n    \"duration_ms\": " << g_duration_ms
	  << ",\n    \"rate\": " << Quote(d.rate)
	  << ",\n    \"revision\": " << Quote(GitRevision())
	  << ",\n    \"online_cpus\": " << bench_nproc()
	  << ",\n    \"cpu\": " << Quote(CpuModel())
	  << ",\n    \"caches\": " << Quote(CacheSizes())
	  << ",\n    \"kernel\": " << Quote(Kernel())
	  << ",\n    \"c_compiler\": " << Quote(Trim(bench_c_compiler()))
	  << ",\n    \"cxx_compiler\": " << Quote(Trim(CxxCompiler()))
	  << ",\n    \"build_type\": " << Quote(GRAIN_BENCH_BUILD_TYPE)
	  << ",\n    \"load_before\": " << Quote(g_load_before)
	  << ",\n    \"load_after\": " << Quote(LoadAverage())
	  << ",\n    \"others_cpu_pct\": " << Number(others)
	  << ",\n    \"steal_pct\": " << Number(steal)
	  << ",\n    \"pingpong_before_ns\": " << Number(g_pingpong_before)
	  << ",\n    \"pingpong_after_ns\": " << Number(after)
	  << ",\n    \"rtt_probes\": " << kProbes
	  << ",\n    \"rtt_probe_rounds\": " << kProbeRounds
	  << ",\n    \"rtt_median_ns\": " << Number(Median(g_rtts))
	  << ",\n    \"regimes\": [";
	for (int r = 0; r < kRegimes; r++)
		o << (r ? ", " : "") << "{\"name\": " << Quote(kRegimeName[r])
		  << ", \"floor_ns\": " << Number(kFloorNs[r])
		  << ", \"runs\": " << g_count[r] << "}";
	o << "],\n    \"majority_regime\": " << Quote(kRegimeName[majority])
	  << "\n  }";
	return o.str();
}

// Google Benchmark's JSON report with the "grain" object after the
// benchmarks: its Finalize() closes the list and the top-level object.
class Reporter : public benchmark::JSONReporter {
      public:
	Reporter(const Driver &d, const std::string &command)
	    : driver_(d), command_(command)
	{
	}
	void Finalize() override
	{
		GetOutputStream() << "\n  ],\n  \"grain\": "
				  << RunFacts(driver_, command_) << "\n}\n";
	}

      private:
	const Driver &driver_;
	std::string command_;
};

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
		{ "--json", nullptr, &o->json_file, nullptr },
		{ "--threads", nullptr, &o->threads, nullptr },
		{ "--duration_ms", nullptr, nullptr, &o->duration_ms },
	};
	if (std::strncmp(arg, "--reps=", 7) == 0)
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
// The strings live on: ARGS points into them. Whether a file is asked for.
bool AddBenchmarkArgs(std::vector<char *> *args, const Options &opt)
{
	static char interleave[] =
		"--benchmark_enable_random_interleaving=true";
	static std::string json_out,
		json_format = "--benchmark_out_format=json";
	bool given = false, out = false;
	for (size_t i = 1; i < args->size(); i++) {
		given |= std::strncmp((*args)[i],
				      "--benchmark_enable_random_interleaving",
				      38) == 0;
		out |= std::strncmp((*args)[i], "--benchmark_out=", 16) == 0;
	}
	if (!given)
		args->push_back(interleave);
	if (!opt.json_file.empty()) {
		json_out = "--benchmark_out=" + opt.json_file;
		args->push_back(&json_out[0]);
		args->push_back(&json_format[0]);
	}
	return out || !opt.json_file.empty();
}

// Run the cases: the console shows the aggregates, and the JSON file, if
// one is asked for, gets every run and the "grain" object. 0, or 2 when
// Google Benchmark rejects its arguments.
int RunAll(const Driver &d, const std::string &command,
	   std::vector<char *> *args, bool file)
{
	int argc = static_cast<int>(args->size()) - 1;
	g_load_before = LoadAverage();
	g_pingpong_before = d.pingpong ? bench_pingpong_ns(200000) : NAN;
	benchmark::Initialize(&argc, args->data());
	if (benchmark::ReportUnrecognizedArguments(argc, args->data()))
		return 2;
	Reporter reporter(d, command);
	g_cpu_before = SampleCpu();
	if (file)
		benchmark::RunSpecifiedBenchmarks(nullptr, &reporter);
	else
		benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}

int Main(int argc, char **argv, const Driver &d)
{
	std::string command;
	std::vector<char *> args = { argv[0] };
	bool bad = false;
	for (int i = 0; i < argc; i++)
		command += (i ? " " : "") + std::string(argv[i]);
	for (int i = 1; i < argc; i++)
		if (!TakeFlag(d, argc, argv, &i, &bad, &g_opt))
			args.push_back(argv[i]);
	if (bad)
		return 2;
	const Options &opt = g_opt;
	g_duration_ms = opt.duration_ms ? opt.duration_ms
					: (opt.quick ? d.quick_ms : d.full_ms);
	g_reps = opt.reps > 0 ? opt.reps
			      : (opt.quick ? d.quick_reps : d.full_reps);
	int rc = d.setup(opt);
	if (rc == 0) {
		bool file = AddBenchmarkArgs(&args, opt);
		args.push_back(nullptr);
		rc = RunAll(d, command, &args, file);
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
				     [run](benchmark::State &state) {
					     Timed(state, run);
				     })
		->Iterations(1)
		->Repetitions(reps)
		->DisplayAggregatesOnly(true)
		->ComputeStatistics("min", min)
		->ComputeStatistics("max", max)
		->UseManualTime()
		->Unit(benchmark::kMillisecond);
}

double Median(std::vector<double> v)
{
	if (v.empty())
		return NAN;
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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

} // namespace grain_bench

int main(int argc, char **argv)
{
	return grain_bench::Main(argc, argv, grain_bench::ThisDriver());
}
