/* SPDX-License-Identifier: BSD-2-Clause */
// bench_reasm.h - what the reassembly driver's two files share: the record
// of every run's counters (bench_reasm.cc), and the reasm program's file
// mode (file_mode.cc), whose cases bench_reasm.cc registers.
#ifndef GRAIN_BENCH_REASM_H
#define GRAIN_BENCH_REASM_H

#include "adapters/adapters.h"
#include "common/driver.h"
#include "common/sysinfo.h"

#include <map>
#include <string>
#include <vector>

namespace reasm_bench {

// One run's counters by name.
using Figures = std::map<std::string, double>;

// A run of case NAME with THREADS threads went well: its counters and
// label (oversubscribed) set.
void Record(benchmark::State &state, const std::string &name, unsigned threads,
	    const Figures &f);

} // namespace reasm_bench

// The reasm program, file mode: a 3F capture written by reasm-gen --bulk
// (quick: 12,000 datagrams, about 54 MB; else 60,000, about 270 MB)
// reassembled by `reasm --read --write --threads T`, T = 1, 2 and 4, each
// run a process timed from its start to its exit: cases reasm/file-3F/TT.
// The programs' paths are compiled in (GRAIN_BENCH_REASM and
// GRAIN_BENCH_REASM_GEN) where examples/reasm builds them; without them
// nothing is registered.
namespace reasm_file {

// The capture (LINK "raw" or "ether") and a one-thread reference output
// written, the cases registered with REPS repetitions; 0, or the exit
// status.
int Setup(const grain_bench::Options &opt, int reps, const std::string &link);
void Teardown(); // removes the capture and the outputs

} // namespace reasm_file

#endif
