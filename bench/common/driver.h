/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * driver.h - the skeleton every benchmark driver runs on (C++ only): the
 * flags they share, the registration of their cases with Google Benchmark,
 * main() (flags, interleaved repetitions, the machine samples around the
 * run, the JSON report, the exit status). A driver defines ThisDriver(),
 * which says what it is: its cases, flags and rate counter. The drivers
 * write data only; bench/report.py turns it into ratios, targets, tables
 * and charts, and bench/README.md says how each family measures.
 *
 * Every timed run is one repetition of one case (Iterations(1)), and before
 * each the skeleton measures the cache-line round trip between CPU 0 and
 * CPU 1 (counter rtt_ns) and names its regime (counter regime, 0 cheap, 1
 * middle, 2 dear; dear_regime is 1 in the dear one). The JSON file holds
 * every run (run_type "iteration") beside the aggregates (median, mean,
 * stddev, cv, min, max), and a top-level object "grain": the command, the
 * machine, the compilers and build type, the source revision, the load
 * around the run, the round trips and the runs per regime, of which the
 * report keeps the one most runs saw.
 *
 * Flags taken out before Google Benchmark sees the rest:
 *   --quick            short runs for a smoke test (the driver's lengths)
 *   --duration_ms=N    length of one run
 *   --reps=N           repetitions per benchmark
 *   --threads=LIST     the thread counts to run, comma-separated (what a
 *                      count means is the driver's: see its source)
 *   --json FILE        the JSON report to FILE (the same as
 *                      --benchmark_out=FILE --benchmark_out_format=json)
 * The repetitions of all benchmarks are interleaved in random order unless
 * the command line says otherwise. The program exits 2 on a bad flag or
 * setup, 1 if a run failed a check or could not run, else 0.
 */
#ifndef GRAIN_BENCH_COMMON_DRIVER_H
#define GRAIN_BENCH_COMMON_DRIVER_H

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace grain_bench {

/* The flags every driver takes. */
struct Options {
	bool quick = false;
	std::string json_file;
	unsigned duration_ms = 0; /* the run length, default for the mode */
	int reps = 0;		  /* repetitions, default for the mode */
	std::string threads;	  /* --threads, empty if not given */
};

/* One of a driver's own flags: --NAME sets *set, --NAME=TEXT or --NAME TEXT
 * gives *text, --NAME=N gives *count; exactly one is not NULL. */
struct Flag {
	const char *name;
	bool *set;
	std::string *text;
	unsigned *count;
};

struct Driver {
	unsigned quick_ms, full_ms; /* default run length */
	int quick_reps, full_reps;  /* default repetitions */
	bool pingpong;		    /* a round trip before and after the run */
	const char *rate;	    /* the counter that is a run's rate */
	std::vector<Flag> flags;    /* the driver's own */
	/* After the flags: check them and register the cases; 0, or the
	 * exit status. */
	std::function<int(const Options &)> setup;
	std::function<void()> teardown; /* last, whatever the outcome */
};

/* Defined by each driver: main() parses the flags, sets it up, runs it and
 * reports. */
Driver ThisDriver();

/* The length of one run in ms and the repetitions per case, after the
 * flags. */
unsigned DurationMs();
int Reps();

/* A run failed: print "NAME: MESSAGE", end the benchmark with SKIP as its
 * error, and make the program exit 1. */
void Fail(benchmark::State &state, const std::string &name,
	  const std::string &message, const char *skip);

/* Whether CALL ran (rc 0); else Fail() with its error and false. */
bool Ran(benchmark::State &state, const std::string &name, const char *call,
	 int rc);

/* Whether one run went well: CALL returned 0 (else as Ran()) and its result
 * RES counted no errors (else Fail() with why() and SKIP); then RES.seconds
 * is the iteration's time. */
template <typename Res, typename Why>
bool RunOk(benchmark::State &state, const std::string &name, const char *call,
	   int rc, const Res &res, const char *skip, Why why)
{
	if (!Ran(state, name, call, rc))
		return false;
	if (res.errors != 0) {
		Fail(state, name, why(), skip);
		return false;
	}
	state.SetIterationTime(res.seconds);
	return true;
}

/* The median of V, NAN if it is empty. */
double Median(std::vector<double> v);

/* "N WHAT; first: FIRST", for a run's errors. */
std::string FirstOf(uint64_t n, const char *what, const char *first);

/* Register the benchmark NAME as every driver runs one: Iterations(1) timed
 * by hand, REPS repetitions, each in the JSON file beside their aggregates
 * (with min and max; the console shows only these), in milliseconds; the
 * round trip is measured before each and the run's regime recorded after
 * it. */
void Add(const std::string &name,
	 const std::function<void(benchmark::State &)> &run, int reps);

/* Add() one benchmark per case (each with a member name); 0, for setup to
 * return. */
template <typename Case>
int Register(const std::vector<Case> &cases,
	     void (*run)(benchmark::State &, const Case *), int reps)
{
	for (const Case &c : cases)
		Add(
			c.name, [run, &c](benchmark::State &s) { run(s, &c); },
			reps);
	return 0;
}

/* A comma-separated list of counts in 1..max, sorted and without repeats;
 * false if any item is not such a count or there is none. */
bool ParseCounts(const std::string &s, unsigned max,
		 std::vector<unsigned> *out);

/* A figure, or "–" if it is not a number or infinite. */
std::string Fmt(const char *fmt, double v);

} // namespace grain_bench

#endif
