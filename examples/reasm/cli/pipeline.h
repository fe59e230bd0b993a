/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pipeline.h - the threads of a reasm run between its input and its
 * output (pipeline.c): workers fed by the reader through grain_rings, or
 * live receive workers emitting into a grain_prio, and the one writer (or
 * transmit thread) that takes what they made.
 */
#ifndef REASM_CLI_PIPELINE_H
#define REASM_CLI_PIPELINE_H

#include "live.h"
#include "reasm.h"

#include <grain/prio.h>
#include <grain/ring.h>

#include <pcap/pcap.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A frame in flight from the reader to a worker and then, carrying what
 * the engine emitted for it, from the worker to the writer. */
struct frame {
	uint64_t ts_ns;
	uint32_t caplen;
	uint32_t wirelen;
	struct reasm_out *out;	 /* what it made, if anything */
	struct reasm_out **more; /* more outputs (the engine emits at most
				    one per frame today) */
	unsigned nmore;
	uint8_t data[];
};

/*
 * Workers fed by the reader (a capture file) keep capture order: the
 * reader sends each frame to the worker of its flow (reasm_flow_of(), so
 * the frames of a datagram, and every IPv4 datagram of a source, meet the
 * engine in capture order on one worker; other frames go round robin),
 * and tells the writer which worker has it through the `order` ring. A
 * worker hands each frame back with its outputs through its own `done`
 * ring; the writer takes them worker by worker in the order the reader
 * wrote, so the output file is the one a single thread writes, byte for
 * byte. Deadlock-free: the frame the writer waits for was queued to its
 * worker before its token was queued to the writer, and that worker's
 * done ring holds nothing older.
 *
 * Live input (--in) has no reader: the receive workers emit into the
 * grain_prio, band from the DSCP, and the writer drains it.
 */
struct worker;

struct pipeline {
	unsigned nworkers;
	struct grain_ring **in;	  /* reader -> worker i: struct frame * */
	struct grain_ring **out;  /* worker i -> writer: struct frame * */
	struct grain_ring *order; /* reader -> writer: worker i + 1 */
	struct grain_prio *prio;  /* --in workers -> writer: reasm_out * */
	pcap_dumper_t *dumper;	  /* the writer's alone */
	struct live_tx *tx;	  /* --out: the writer sends here instead */
	bool publish;		  /* workers publish their counters (live) */
	struct worker *workers;	  /* fed by the reader: nworkers of them */
	unsigned worker_slots;	  /* workers[i].slot set up */
	pthread_t writer;	  /* the writer or transmit thread */
	bool writer_started;
	/* Frames the workers have finished (R3: a worker's release after its
	 * last use of its reasm_worker for the frame). Bumped once per
	 * frame: on its own cache line, away from the pointers above. */
	alignas(GRAIN_CACHELINE) _Atomic(uint64_t) done;
};

struct worker {
	struct reasm_worker w;
	struct pipeline *pl;
	unsigned index;
	struct frame *cur;     /* the frame reasm_input() is working on */
	struct live_slot slot; /* pl->publish: counters for --stats-interval */
	pthread_t thread;
	bool started;
};

/* Emit callback of the live receive workers (@p arg: the struct
 * pipeline): into the priority queue, band from the DSCP; waits while the
 * band is full. */
void emit_queued(struct reasm_out *out, void *arg);

/* Waits until the workers have finished all @p queued frames: they are
 * idle, and everything they did happens-before the return. The reader's
 * thread. */
void wait_idle(struct pipeline *pl, uint64_t queued);

/* Frees the rings of the workers fed by the reader and whatever is left
 * in them (only after a start that failed half way). */
void free_rings(struct pipeline *pl);

#endif /* REASM_CLI_PIPELINE_H */
