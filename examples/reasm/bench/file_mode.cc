/* SPDX-License-Identifier: BSD-2-Clause */
// file_mode.cc - the reasm program's file mode, timed as a whole process at
// 1, 2 and 4 threads on a generated 3F capture (bench_reasm.h).

#include "bench_reasm.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

extern char **environ;

using namespace grain_bench;
using namespace reasm_bench;

namespace reasm_file {
namespace {

#if defined(GRAIN_BENCH_REASM) && defined(GRAIN_BENCH_REASM_GEN)
const char *const kReasm = GRAIN_BENCH_REASM;
const char *const kGen = GRAIN_BENCH_REASM_GEN;
#else
const char *const kReasm = nullptr;
const char *const kGen = nullptr;
#endif

struct Case {
	unsigned threads;
	std::string name;
};

const unsigned kThreads[] = { 1, 2, 4 };
std::vector<Case> g_cases;
std::map<unsigned, bool> g_checked; // output compared with the reference
std::string g_dir, g_cap, g_ref, g_link;
unsigned long g_datagrams = 0;
double g_cap_bytes = 0;

// Runs ARGS (ARGS[0] the program, or a name looked up in PATH) to its
// end; its exit status, or -1.
int Spawn(const std::vector<std::string> &args)
{
	std::vector<char *> argv;
	for (const std::string &a : args)
		argv.push_back(const_cast<char *>(a.c_str()));
	argv.push_back(nullptr);
	pid_t pid;
	if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(),
			 environ) != 0)
		return -1;
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

off_t SizeOf(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 ? st.st_size : -1;
}

int Reasm(unsigned threads, const std::string &out)
{
	return Spawn({ kReasm, "--read", g_cap, "--write", out, "--threads",
		       std::to_string(threads), "--quiet" });
}

void RunCase(benchmark::State &state, const Case *c)
{
	for (auto _ : state) {
		std::string out =
			g_dir + "/out" + std::to_string(c->threads) + ".pcap";
		auto t0 = std::chrono::steady_clock::now();
		int rc = Reasm(c->threads, out);
		double s = std::chrono::duration<double>(
				   std::chrono::steady_clock::now() - t0)
				   .count();
		if (rc != 0) {
			Fail(state, c->name,
			     "reasm exited with status " + std::to_string(rc),
			     "reasm failed");
			break;
		}
		// The whole file once per thread count, its size every time.
		bool ok = SizeOf(out) == SizeOf(g_ref);
		if (ok && !g_checked[c->threads]) {
			ok = Spawn({ "cmp", "-s", out, g_ref }) == 0;
			g_checked[c->threads] = true;
		}
		if (!ok) {
			Fail(state, c->name,
			     "the output differs from one thread's",
			     "output differs");
			break;
		}
		state.SetIterationTime(s);
		Record(state, c->name, c->threads,
		       { { "gbyte_per_sec", g_cap_bytes / s / 1e9 },
			 { "dgrams_per_sec",
			   static_cast<double>(g_datagrams) / s },
			 { "seconds", s } });
	}
}

std::string CaseName(unsigned threads)
{
	return "reasm/file-3F/" + std::to_string(threads) + "T";
}

} // namespace

int Setup(const Options &opt, int reps, const std::string &link)
{
	if (kReasm == nullptr)
		return 0; // not built: nothing registered
	char tmpl[4096];
	const char *tmp = std::getenv("TMPDIR");
	std::snprintf(tmpl, sizeof(tmpl), "%s/grain-bench-reasm-XXXXXX",
		      tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(tmpl) == nullptr) {
		std::perror("file mode: mkdtemp");
		return 2;
	}
	g_dir = tmpl;
	g_cap = g_dir + "/3f.pcap";
	g_ref = g_dir + "/ref.pcap";
	g_link = link;
	g_datagrams = opt.quick ? 12000ul : 60000ul;
	if (Spawn({ kGen, "--write", g_cap, "--bulk",
		    std::to_string(g_datagrams), "--link", link }) != 0 ||
	    Reasm(1, g_ref) != 0) {
		std::fprintf(stderr,
			     "file mode: cannot write the capture or the "
			     "reference output in %s\n",
			     g_dir.c_str());
		return 2;
	}
	g_cap_bytes = static_cast<double>(SizeOf(g_cap));
	benchmark::AddCustomContext(
		"file_mode_capture",
		std::to_string(g_datagrams) + " datagrams, " +
			Fmt("%.0f", g_cap_bytes) + " bytes, link " + link);
	for (unsigned t : kThreads)
		g_cases.push_back({ t, CaseName(t) });
	return Register(g_cases, RunCase, reps);
}

void Teardown()
{
	if (g_dir.empty())
		return;
	for (const char *f : { "/3f.pcap", "/ref.pcap", "/out1.pcap",
			       "/out2.pcap", "/out4.pcap" })
		(void)unlink((g_dir + f).c_str());
	(void)rmdir(g_dir.c_str());
}

} // namespace reasm_file
