/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine.h - what every grain benchmark driver says about the machine and
 * the run: CPU, caches, kernel, compiler, load, the CPU time other
 * processes took, the git revision, and the median helper. C++ only;
 * GRAIN_BENCH_SOURCE_DIR must name the benchmark's source folder.
 */
#ifndef GRAIN_BENCH_COMMON_MACHINE_H
#define GRAIN_BENCH_COMMON_MACHINE_H

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace grain_bench {

inline std::string Trim(const std::string &s)
{
	size_t b = s.find_first_not_of(" \t\r\n");
	size_t e = s.find_last_not_of(" \t\r\n");
	return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

inline std::string CpuModel()
{
	std::ifstream in("/proc/cpuinfo");
	std::string line;
	while (std::getline(in, line)) {
		if (line.compare(0, 10, "model name") == 0) {
			size_t colon = line.find(':');
			if (colon != std::string::npos)
				return Trim(line.substr(colon + 1));
		}
	}
	return "unknown";
}

// Last-level cache size as the kernel reports it for CPU 0.
inline std::string CacheSizes()
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
		if (t == "Instruction")
			continue;
		out += (out.empty() ? "" : ", ") + std::string("L") + l + " " +
		       s;
	}
	return out.empty() ? "unknown" : out;
}

inline std::string Kernel()
{
	struct utsname u;
	if (uname(&u) != 0)
		return "unknown";
	return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

inline std::string CxxCompiler()
{
#if defined(__clang__)
	return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
	return std::string("g++ ") + __VERSION__;
#else
	return "unknown";
#endif
}

// The first three fields of /proc/loadavg: other work on the machine
// during a run shows here.
inline std::string LoadAverage()
{
	std::ifstream in("/proc/loadavg");
	std::string a, b, c;
	if (!(in >> a >> b >> c))
		return "unknown";
	return a + " " + b + " " + c;
}

// CPU time of the whole machine (from /proc/stat) and of this process,
// to tell how much of the machine other processes took during the run.
struct CpuSample {
	double busy_s = NAN;  // all CPUs, every non-idle state
	double total_s = NAN; // all CPUs
	double steal_s = NAN; // taken by the hypervisor
	double self_s = NAN;  // this process, user + system
};

inline CpuSample SampleCpu()
{
	CpuSample c;
	std::ifstream in("/proc/stat");
	std::string tag;
	double v[10] = {};
	if (in >> tag && tag == "cpu") {
		for (double &x : v)
			in >> x;
		double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
		double idle = v[3] + v[4]; // idle + iowait
		double all =
			v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		c.total_s = all / hz;
		c.busy_s = (all - idle) / hz;
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

inline std::string OtherLoad(const CpuSample &a, const CpuSample &b)
{
	double total = b.total_s - a.total_s;
	if (std::isnan(total) || total <= 0)
		return "unknown";
	double others = (b.busy_s - a.busy_s) - (b.self_s - a.self_s);
	double steal = b.steal_s - a.steal_s;
	char buf[160];
	std::snprintf(
		buf, sizeof(buf),
		"%.0f%% of the machine's CPU time went to other processes, "
		"%.0f%% was stolen by the hypervisor",
		100.0 * std::max(0.0, others - steal) / total,
		100.0 * std::max(0.0, steal) / total);
	return buf;
}

inline std::string Shell(const std::string &cmd)
{
	FILE *p = popen(cmd.c_str(), "r");
	if (p == nullptr)
		return std::string();
	std::string out;
	char buf[256];
	while (std::fgets(buf, sizeof(buf), p) != nullptr)
		out += buf;
	if (pclose(p) != 0)
		return std::string();
	return Trim(out);
}

inline std::string GitRevision()
{
	std::string dir = GRAIN_BENCH_SOURCE_DIR;
	std::string rev = Shell("git -C '" + dir +
				"' rev-parse --short HEAD 2>/dev/null");
	if (rev.empty())
		return "unknown (no git revision)";
	// Changed or new files in what the benchmark is built from.
	std::string dirty = Shell("git -C '" + dir +
				  "' status --porcelain -- ':/include' ':/src' "
				  "':/bench' 2>/dev/null");
	return dirty.empty() ? rev
			     : rev + " with uncommitted changes in include/, "
				     "src/ or bench/";
}

// --- summary ---------------------------------------------------------------

inline double Median(std::vector<double> v)
{
	if (v.empty())
		return NAN;
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace grain_bench

#endif /* GRAIN_BENCH_COMMON_MACHINE_H */
