/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.h - one run of reasm, from opening its input to its report: what
 * the run modes (run_file.c, run_mapped.c, run_live.c), the pipeline
 * (pipeline.c) and the report (report.c) share. The main thread owns
 * struct run; the threads it starts get the parts they use.
 */
#ifndef REASM_CLI_RUN_H
#define REASM_CLI_RUN_H

#include "live.h"
#include "options.h"
#include "outfile.h"
#include "par.h"
#include "pipeline.h"
#include "reasm.h"

#include <pcap/pcap.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define NS_PER_S 1000000000ull

/* What a live run (run_live.c) adds to a run. */
struct live_run {
	struct live_ctl ctl;	   /* stop flag, expiry (--in) */
	struct live_rx_worker *rx; /* --in: opt.threads receive workers */
	pthread_t *rx_threads;
	unsigned rx_open;    /* rings opened */
	unsigned rx_ready;   /* slots set up */
	unsigned rx_started; /* threads started */
	struct live_tx *tx;  /* --out */
	pthread_t reader;    /* --read with --out */
	bool reader_started;
	_Atomic(bool) reader_done; /* the reader has returned */
	int reader_status;	   /* its result, read after the join */
	struct live_stats live_stats;
	/* --read with --out and --threads 1: the reader runs the engine and
	 * fills the transmit ring itself, the engine writing each frame
	 * straight into its slot through this sink. */
	bool direct;
	struct reasm_sink sink;
	struct live_slot single_slot; /* its counters, for --stats-interval */
	bool single_slot_ready;
};

/* One run: its options, input, outputs and engine; the pipeline of its
 * threads (pipeline.h); what a live run adds. */
struct run {
	struct options opt;
	pcap_t *in;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	struct out_file cap_out;   /* --write */
	struct out_file stats_out; /* --stats */
	struct reasm *engine;
	struct reasm_worker single; /* --threads 1 */
	struct pipeline pl; /* --threads N >= 2, or --read + --out, or --in */
	struct reasm_stats stats;
	struct par_file *par; /* --threads N >= 2 on a pcap file (par.h) */
	bool live;	      /* --in or --out: lv is in use */
	struct live_run lv;
};

static inline void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

/* Each call below that returns a status returns 0, or CLI_EXIT_ERROR
 * after a message. */

/* run_file.c: a record's timestamp in nanoseconds (the input is opened
 * with nanosecond precision). Times before 1970 count as 0; absurdly late
 * ones saturate. */
uint64_t record_ns(const struct pcap_pkthdr *h);

/* run_file.c: opens the capture file IN and checks its link type. */
int open_read(struct run *rn);

/* run_file.c: makes the engine, then opens the outputs (--stats, then
 * --write), nothing created before every check has passed. */
int open_rest(struct run *rn);

/* run_file.c: reads IN to the end; @p multi: queue the frames to the
 * workers, else process them here. A live run (--out) also stops at a
 * stop request. */
int read_all(struct run *rn, bool multi);

/* run_file.c: a run from a capture file; *ran: whether input was read. */
int run_file(struct run *rn, bool *ran);

/* run_mapped.c: a run from a pcap file mapped into memory, with
 * --threads workers (par.h). */
int run_mapped(struct run *rn);

/* run_live.c: a live run, from opening to the last thread joined; *ran:
 * whether input was read. */
int run_live(struct run *rn, bool *ran);

/* run_live.c: frees what a live run opened and started (after
 * run_live()). */
void close_live(struct run *rn);

/* run_live.c: --read with --out, one thread: the engine's counters
 * published for the statistics line every so often (@p force: now). */
void direct_publish(struct run *rn, bool force);

/* pipeline.c: starts the writer (or transmit thread) and, unless the
 * receive workers take their place (--in), the workers fed by the
 * reader. */
int start_threads(struct run *rn);

/* pipeline.c: stops what start_threads() started: workers once their
 * rings are drained, then the writer once the queue is. */
void stop_threads(struct run *rn);

/* report.c: the output capture flushed and closed, any write error
 * reported. @return @p status, or CLI_EXIT_ERROR. */
int close_capture(struct run *rn, int status);

/* report.c: the counters as JSON (--stats) and as the summary, for a run
 * that read input (@p ran). @return @p status, or CLI_EXIT_ERROR. */
int report(struct run *rn, bool ran, int status);

#endif /* REASM_CLI_RUN_H */
