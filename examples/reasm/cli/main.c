/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * main.c - reasm: reassemble the IPv4 and IPv6 fragments of a capture file
 * or of the frames arriving on a network interface.
 *
 *   reasm --read IN.pcap --write OUT.pcap [options]
 *   reasm --in IFACE --out IFACE [options]   (or any mix: see live.h)
 *
 * Every frame of IN goes through the engine (reasm.h); OUT receives the
 * frames that were not fragments, unchanged, and one frame per datagram
 * reassembled. Capture time is the engine's clock, so a run is
 * deterministic: with one thread the output is the same byte for byte
 * on every run.
 *
 * Threading.
 *   --threads 1 (the default): the main thread reads, calls reasm_input()
 *   and writes from the emit callback; output order follows input order.
 *
 *   --threads N >= 2 on a pcap file that can be mapped: par.h. The main
 *   thread indexes the mapped file and writes; N workers, each with an
 *   engine of its own, take their records straight from the mapping.
 *
 *   --threads N >= 2 otherwise (stdin, pcapng, --read with --out): the
 *   main thread reads and hands a copy of each frame to the worker of its
 *   flow (reasm_flow_of(): every fragment of a
 *   datagram, and every IPv4 datagram of a source, on one worker, in
 *   capture order) through that worker's own grain_ring; frames that are
 *   not fragments go round robin. The worker hands the frame back, with
 *   what the engine emitted for it, through a second ring, and the writer
 *   thread takes them in capture order (the reader tells it which worker
 *   holds each frame through a third ring), so the output is the file one
 *   thread writes, byte for byte. At end of file the reader queues one
 *   NULL per worker, joins them, then queues a NULL for the writer.
 *
 * Timeouts. Once capture time has advanced by a second or more since the
 * last call, reasm_expire() runs before the frame that advanced it is
 * processed. With workers, the reader first waits until every frame it
 * queued has been processed, then expires through worker 0's state (idle
 * at that moment: the counter it bumps after each frame hands its state
 * over to the reader, and the next frame queued hands it back). So a
 * datagram times out exactly when it would with one thread, whatever the
 * scheduling; the pause costs one pipeline drain per second of capture.
 *
 * Live (--in and/or --out, see live.h). With --in the receive workers are
 * the engine workers: each reads its own PACKET_MMAP ring (no reader, no
 * grain_ring) and emits into the grain_prio. With --out the thread that
 * drains the grain_prio fills a PACKET_MMAP transmit ring instead of a
 * file. --read with --out and --threads N >= 2 keeps the reader and
 * workers above, the transmit thread in the writer's place; with
 * --threads 1 there is only the reader, which runs the engine and fills
 * the transmit ring itself. The main thread then only supervises: SIGINT
 * and SIGTERM are blocked in every thread and taken with sigtimedwait(),
 * which also paces --stats-interval and --duration (and, with the lone
 * reader, sends what it left short of a burst while it waits for input:
 * live_tx_nudge()). A stop stops the input, lets the workers finish what
 * they hold, and then shuts down as at the end of a file: every output
 * queued is written or sent before the summary.
 *
 * Copies of each output byte on the way to the transmit ring. --read with
 * --out and --threads 1: one, the engine writing the frame straight into
 * the ring's slot (struct reasm_sink, live_tx_sink()), since the thread
 * that emits is the thread that transmits. Every other --out run (--in,
 * whatever --threads; --read with --threads N >= 2): two, the engine
 * building a reasm_out on a worker and the transmit thread copying it
 * into the slot (live_tx_put()). A frame the ring cannot take (too long
 * for the MTU, cut short by the capture, the ring given up at a stop)
 * goes the second way in either case, which counts it.
 *
 * Files, one job each: options.c (the command line, from one table of
 * options), outfile.c (the output files and the signals that end a file
 * run), pipeline.c (the workers and the writer), run_file.c (a run read
 * with libpcap), run_mapped.c (a run from a mapped pcap file, par.h),
 * run_live.c (a live run, live.h), report.c (the capture closed, the
 * counters reported); run.h is what they share. This file only puts the
 * run together.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <stdlib.h>
#include <string.h>

/* The engine, the pipeline and the live sockets, taken down once the
 * threads have stopped. */
static void release(struct run *rn)
{
	if (rn->engine != NULL)
		reasm_destroy(rn->engine, &rn->stats);
	par_close(rn->par, &rn->stats); /* adds its engines' counters */
	free_rings(&rn->pl);
	grain_prio_destroy(rn->pl.prio);
	for (unsigned i = 0; i < rn->pl.worker_slots; i++)
		live_slot_fini(&rn->pl.workers[i].slot);
	free(rn->pl.workers);
	if (rn->live)
		close_live(rn);
}

int main(int argc, char **argv)
{
	struct run rn;
	bool ran = false;
	int status;

	memset(&rn, 0, sizeof(rn));
	switch (parse_args(argc, argv, &rn.opt)) {
	case ARGS_RUN:
		break;
	case ARGS_DONE:
		return CLI_EXIT_OK;
	default: /* ARGS_REFUSED */
		return CLI_EXIT_ERROR;
	}
	out_catch_signals();

	if (is_live(&rn.opt))
		status = run_live(&rn, &ran);
	else
		status = run_file(&rn, &ran);
	release(&rn);
	status = close_capture(&rn, status);
	status = report(&rn, ran, status);
	/* Only a run that succeeded replaces its outputs, both of them;
	 * otherwise the temporary files go and any existing file is left as
	 * it was. */
	if (outs_finish(&rn.cap_out, &rn.stats_out, status == 0 && ran) != 0)
		status = CLI_EXIT_ERROR;
	return status;
}
