/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * par.h - reasm's file mode with several workers over a capture file mapped
 * into memory (par.c), and the expiry clock that every file run shares.
 *
 * With --threads N >= 2 and a pcap file as input, the calling thread walks
 * the mapped file and indexes each record with its owner (reasm_flow_of()
 * modulo N; frames that are not fragments by their index modulo N); each
 * worker takes its own records straight from the mapping into an engine of
 * its own: no frame is copied or handed over one at a time. What the
 * engines emit is kept per worker, in capture order, a segment of records
 * at a time; the calling thread merges the workers' runs of each segment
 * by record index and writes them, so the output file is byte for byte the
 * one a single thread writes. Each worker expires its engine at the
 * records where a single thread runs expiry.
 */
#ifndef REASM_PAR_H
#define REASM_PAR_H

#include "reasm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PAR_NS_PER_S 1000000000ull

/* When to call reasm_expire(): the first time capture time is a second or
 * more past the previous call (or the first frame). Capture time only
 * moves forward here; a frame stamped earlier than one before it does not
 * move it back. Every file run, whatever its thread count, runs expiry at
 * the records this says. */
struct expiry {
	bool started;
	uint64_t last; /* capture time of the previous call */
	uint64_t max;  /* the latest capture time seen */
};

static inline bool expiry_due(struct expiry *e, uint64_t now)
{
	if (!e->started) {
		e->started = true;
		e->last = now;
		e->max = now;
		return false;
	}
	if (now > e->max)
		e->max = now;
	if (now < e->last || now - e->last < PAR_NS_PER_S)
		return false;
	e->last = now;
	return true;
}

/* At the end of a file every run expires what is due at the latest
 * capture time it saw, so that what is left pending, and what is counted
 * as timed out, do not depend on which entries the tables happened to
 * retire on the way (that depends on their hash keys). @return whether
 * there is such a time, in *now. */
static inline bool expiry_end(const struct expiry *e, uint64_t *now)
{
	*now = e->max;
	return e->started;
}

struct par_file;

/**
 * par_open - map the capture file that @p in reads (libpcap has opened it
 * and read its header; @p snapshot is pcap_snapshot()), for par_run().
 * @return 0 and *pp set; 1 if it is not a file par_run() takes (not a
 *         regular file, not a pcap file of version 2.4 in this machine's
 *         byte order, a mapping or an allocation that failed): the caller
 *         then reads it with libpcap alone. Nothing is printed. Not
 *         thread-safe; leaves @p in as it was.
 */
int par_open(struct par_file **pp, FILE *in, int snapshot);

/**
 * par_run - reassemble the records of @p pf with @p workers threads
 * (2..64), writing each output record (pcap record header, then the
 * frame) to the file descriptor @p fd in capture order. Each worker gets
 * an engine of its own, made from @p cfg with 1/@p workers of its memory
 * limits (mem_high and mem_low, at least a byte each); @p flows is the
 * engine whose reasm_flow_of() spreads the records (it is only read).
 * Takes the records from the first up to the end of the file or to the
 * first one libpcap would not give as it lies there (cut short, longer
 * than the snapshot length, a timestamp out of range); then *tail is set
 * and the caller reads the rest with libpcap, skipping par_records()
 * records, and hands each to par_input().
 * Blocks until every worker has stopped; starts and joins its threads
 * itself, and synchronizes with them through one mutex (every access to
 * shared state is under it or happens-before a join). The calling thread
 * walks and writes; nothing else may write to @p fd meanwhile.
 * @return 0, or 2 after a one-line message (out of memory, an engine or a
 *         thread that cannot start). A write error is not a failure here:
 *         the run stops early, and par_write_error() says what it was.
 */
int par_run(struct par_file *pf, struct reasm *flows,
	    const struct reasm_config *cfg, unsigned workers, int fd,
	    bool *tail);

/** Calls around every write of whole records to the output: @p begin
 * before (false: write nothing, the run is being ended), @p end after each
 * write begun. For an output that must never hold a record cut short,
 * even when a signal ends the run (outfile.c's stream outputs). */
struct par_write_hooks {
	bool (*begin)(void);
	void (*end)(void);
};

/** par_set_write_hooks - use @p h (NULL: none; it must outlive @p pf)
 * around par_run()'s and par_input()'s writes. Before par_run(), on its
 * calling thread. */
void par_set_write_hooks(struct par_file *pf, const struct par_write_hooks *h);

/** par_records - how many records par_run() and par_input() have taken.
 * The calling thread of par_run(), after it. */
uint64_t par_records(const struct par_file *pf);

/**
 * par_input - the next record after those par_run() took (a frame libpcap
 * read: @p caplen bytes captured of @p wirelen, at capture time @p now),
 * on the calling thread: expiry where a single thread runs it, the frame
 * to its owner's engine, its outputs written to the descriptor at once.
 * After par_run(), on the same thread. @return 0, or 2 after a one-line
 * message (out of memory). Nothing is written after a write error.
 */
int par_input(struct par_file *pf, const uint8_t *frame, uint32_t caplen,
	      uint32_t wirelen, uint64_t now);

/** par_finish - at the end of the file, expire in every worker's engine
 * what is due at the latest capture time seen (expiry_end()). After
 * par_run() and any par_input(), on the same thread. */
void par_finish(struct par_file *pf);

/** par_write_error - the errno value of the first failed write to the
 * output, or 0. The calling thread of par_run(). */
int par_write_error(const struct par_file *pf);

/** par_close - destroy the workers' engines, adding their final counters
 * (reasm_destroy()'s) to *@p st when not NULL (bytes_peak: the larger),
 * then unmap the file and free the rest. NULL @p pf: no-op. Not
 * thread-safe; after par_run() has returned. */
void par_close(struct par_file *pf, struct reasm_stats *st);

#endif /* REASM_PAR_H */
