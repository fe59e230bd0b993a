/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * driver.h - the skeleton every benchmark driver runs on (C++ only): the
 * flags they share, the registration of their cases with Google Benchmark,
 * main() (flags, interleaved repetitions, the machine samples around the
 * run, the summary file, the targets, the exit status) and the pieces of the
 * summary that every driver writes the same way. A driver defines
 * ThisDriver(), which says what it is: its cases, flags, tables and targets.
 *
 * Every timed run is one repetition of one case (Iterations(1)), and before
 * each the skeleton measures the cache-line round trip between CPU 0 and
 * CPU 1 (counter rtt_ns) and names its regime (counter regime, 0 cheap, 1
 * middle, 2 dear; dear_regime is 1 in the dear one). The summary's figures
 * are the medians of the runs of the regime most runs of the program saw;
 * the others are counted and dropped, and the targets are recomputed within
 * each regime beside them.
 *
 * Flags taken out before Google Benchmark sees the rest:
 *   --quick            short runs for a smoke test (the driver's lengths)
 *   --duration_ms=N    length of one run
 *   --reps=N           repetitions per benchmark
 *   --threads=LIST     the thread counts to run, comma-separated (what a
 *                      count means is the driver's: see its source)
 *   --summary[=FILE]   print the markdown summary, and write it to FILE
 *   --md FILE          the same as --summary=FILE
 *   --json FILE        Google Benchmark's JSON report to FILE (the same as
 *                      --benchmark_out=FILE --benchmark_out_format=json)
 *   --targets          print each performance target with its measured
 *                      figure and PASS or MISS (a MISS never fails a run)
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
	bool targets = false;
	bool summary = false;
	std::string summary_file;
	std::string json_file;
	unsigned duration_ms = 0; /* the run length, default for the mode */
	int reps = 0;		  /* repetitions, default for the mode */
	std::string threads;	  /* --threads, empty if not given */
};

/* What main() measured before the run, for the summary. */
struct RunInfo {
	std::string command;
	int reps;
	unsigned duration_ms;
	std::string load_before;
	double pingpong_before; /* NAN unless the driver asked for it */
};

/* One of a driver's own flags: --NAME sets *set, --NAME=TEXT or --NAME TEXT
 * gives *text, --NAME=N gives *count; exactly one is not NULL. */
struct Flag {
	const char *name;
	bool *set;
	std::string *text;
	unsigned *count;
};

/* One performance target: a measured figure against a goal, a row of the
 * summary's targets table and a line of the --targets list. */
struct Target {
	std::string what;
	double value; /* the figure measured */
	double goal;
	/* The cases whose rates' ratio of medians VALUE is (OF of it when
	 * set), for the per-regime table; empty when it is no such ratio. */
	std::string num{}, den{};
	std::vector<std::string> cells{}; /* the table's columns after result */
	const char *fmt = "%.2fx";	  /* of VALUE */
	bool at_most = false;		  /* PASS when VALUE <= GOAL, not >= */
	bool context = false; /* no verdict, and not in the --targets list */
	std::string seed{};   /* printed after the verdict when not empty */
	double (*of)(double ratio) = nullptr;
};

struct Driver {
	unsigned quick_ms, full_ms; /* default run length */
	int quick_reps, full_reps;  /* default repetitions */
	int target_width;	    /* of the --targets list's first column */
	bool pingpong;	  /* round trip before the run, for CalibrationLine() */
	const char *rate; /* the counter that is a run's rate (Rates()) */
	std::vector<Flag> flags; /* the driver's own */
	/* After the flags: check them and register the cases; 0, or the
	 * exit status. */
	std::function<int(const Options &)> setup;
	std::function<std::string(const RunInfo &)> summary;
	std::function<std::vector<Target>()> targets;
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

/* Whether the I-th run of case NAME that went well was in the regime most
 * runs saw. A driver records a run's result only when it went well, so that
 * its I-th result is that run. */
bool InMajority(const std::string &name, size_t i);

/* The results of RUNS (case NAME's, in the order they ran) of the majority
 * regime. */
template <typename T>
std::vector<T> Kept(const std::string &name, const std::vector<T> &runs)
{
	std::vector<T> v;
	for (size_t i = 0; i < runs.size(); i++)
		if (InMajority(name, i))
			v.push_back(runs[i]);
	return v;
}

/* F(result) of every run of the majority regime recorded under NAME. */
template <typename Res, typename F>
std::vector<double> Each(const std::map<std::string, std::vector<Res>> &runs,
			 const std::string &name, F f)
{
	std::vector<double> v;
	auto it = runs.find(name);
	if (it != runs.end())
		for (const Res &r : Kept(name, it->second))
			v.push_back(f(r));
	return v;
}

/* The median of V, NAN if it is empty. */
double Median(std::vector<double> v);

/* The rate (Driver::rate) of case NAME's runs in REGIME (0 cheap, 1 middle,
 * 2 dear), their median, and the ratio of the medians of two cases. */
const int kMajority = -1; /* the regime most runs saw */
std::vector<double> Rates(const std::string &name, int regime = kMajority);
double Rate(const std::string &name, int regime = kMajority);
double Ratio(const std::string &num, const std::string &den,
	     int regime = kMajority);

/* "N WHAT; first: FIRST", for a run's errors. */
std::string FirstOf(uint64_t n, const char *what, const char *first);

/* Register the benchmark NAME as every driver runs one: Iterations(1) timed
 * by hand, REPS repetitions of which only the aggregates (with min and max)
 * are kept, in milliseconds; the round trip is measured before each and the
 * run's regime recorded after it. */
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
/* "median (min–max)" of the values divided by scale, with digits after the
 * point; "–" if there are none. The same of case NAME's Rates(). */
std::string Spread(const std::vector<double> &v, double scale, int digits);
std::string Spread(const std::string &name, double scale, int digits);
/* " (oversubscribed: N threads on M cores)" when threads > CPUs, else "". */
std::string Oversubscribed(unsigned threads);

/* A markdown table's head: LEAD (its first columns, "| a | b |"), then a
 * right-aligned column per title, and the separator line. */
std::string TableHead(const std::string &lead,
		      const std::vector<std::string> &titles);

/* The source revision, and the start of the method: "each figure is the
 * median of [up to ]R runs[ of D ms] (repetitions ... in random order). ",
 * "up to" when UP_TO or when some run fell outside the majority regime. */
void MethodStart(std::ostringstream &o, const RunInfo &run, bool up_to,
		 bool ms);
/* The summary's first lines: the command, the machine (with its caches if
 * asked), the compilers and build type, a warning for a Debug build ("these
 * figures say nothing about the NOUN"). */
void Preamble(std::ostringstream &o, const RunInfo &run, bool caches,
	      const char *noun);
/* The load average before and after, the CPU time others took, and the
 * round trips before the runs: their regimes and which one the figures
 * keep. */
void LoadLines(std::ostringstream &o, const RunInfo &run);
/* The cache-line round trip before the run and now, then TAIL. */
void CalibrationLine(std::ostringstream &o, const RunInfo &run,
		     const char *tail);

/* The targets table, its columns target, MEASURED, result and TITLES (the
 * targets' cells), then the targets that are ratios of two cases recomputed
 * within each regime. */
std::string TargetsTable(const std::string &measured,
			 const std::vector<std::string> &titles,
			 const std::vector<Target> &targets);
/* The same for targets that are ratios of two medians: the cells are the
 * numerator's and the denominator's, each "UNIT median (min–max)". */
std::string RatioTargets(const std::string &num, const std::string &den,
			 const std::vector<Target> &targets);

} // namespace grain_bench

#endif
