/* SPDX-License-Identifier: BSD-2-Clause */
// file_mode.h - the reasm program itself, file mode: a 3F capture written
// by reasm-gen --bulk, reassembled by `reasm --read --write --threads T`
// for T = 1, 2 and 4, each run a process timed from its start to its exit.
// Cases reasm/file-3F/TT (three parts, so that the summaries' per-lock
// ratios and the per-worker charts leave them alone).
//
// The programs are found through GRAIN_BENCH_REASM and GRAIN_BENCH_REASM_GEN
// (their paths, compiled in when examples/reasm builds them); without them
// nothing is registered and the target reads "n/a".
#ifndef GRAIN_BENCH_REASM_FILE_MODE_H
#define GRAIN_BENCH_REASM_FILE_MODE_H

#include "../common/driver.h"

#include <string>
#include <vector>

namespace reasm_file {

// Writes the capture (quick: 12,000 datagrams, about 54 MB; else 60,000,
// about 270 MB; LINK "raw" or "ether") and a one-thread reference output,
// then registers the cases with REPS repetitions. 0, or the exit status.
int Setup(const grain_bench::Options &opt, int reps, const std::string &link);

// The summary's section: method, medians, ratios to one thread.
std::string Section();

// The target "file mode, 2 threads >= 1.3x 1 thread", its cells the
// reasm summary's seed and detail.
grain_bench::Target Goal();

// Removes the capture and the outputs.
void Teardown();

} // namespace reasm_file

#endif
