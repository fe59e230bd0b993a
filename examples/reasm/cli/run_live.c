/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_live.c - a live run (run.h, live.h): --in and/or --out, the threads
 * that serve them, and the main thread supervising until a signal,
 * --duration or the end of the input file.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TX_FRAMES 256u
#define SUPERVISE_NS (50 * 1000000ull) /* the main thread's longest nap */

/* --read with --out, one thread: copy the engine's counters where the
 * statistics line can read them, every so often (@p force: now). */
void direct_publish(struct run *rn, bool force)
{
	static const struct live_stats none;

	if (live_slot_due(&rn->lv.single_slot, live_mono_ns()) || force)
		live_slot_publish(&rn->lv.single_slot, &rn->single.st, &none);
}

/* Emit callback of the direct transmit path: the frames the ring's
 * reservation declined (live_tx_put() counts or sends them). */
static void emit_tx(struct reasm_out *out, void *arg)
{
	live_tx_put(arg, out); /* frees it */
}

/* --- Live runs ------------------------------------------------------------- */

/* Opens the input and output interfaces (--in, --out) or files, the stats
 * file, and makes the engine. @return 0 or CLI_EXIT_ERROR. */
static int open_live(struct run *rn)
{
	struct options *o = &rn->opt;
	uint16_t group = 0;
	bool has_group = false;
	int status = 0;

	if (o->read_path != NULL) {
		status = open_read(rn);
	} else {
		o->cfg.link = REASM_LINK_ETHERNET;
		rn->lv.rx = calloc(o->threads, sizeof(*rn->lv.rx));
		rn->lv.rx_threads =
			calloc(o->threads, sizeof(*rn->lv.rx_threads));
		if (rn->lv.rx == NULL || rn->lv.rx_threads == NULL) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		for (unsigned i = 0; i < o->threads; i++) {
			if (live_rx_open(&rn->lv.rx[i].rx, o->in_iface,
					 o->fanout, &group, &has_group) != 0)
				return CLI_EXIT_ERROR;
			rn->lv.rx_open++;
		}
	}
	if (status != 0)
		return status;

	if (o->write_path == NULL) {
		struct live_tx_config tc = {
			.ifname = o->out_iface,
			.frames = o->tx_frames != 0 ? o->tx_frames
						    : DEFAULT_TX_FRAMES,
			.qdisc_bypass = o->qdisc_bypass,
			.set_dst = o->dst_mac_set,
			.set_src = o->src_mac_set,
			.stopping = &rn->lv.ctl.stop,
		};

		memcpy(tc.dst, o->dst_mac, 6);
		memcpy(tc.src, o->src_mac, 6);
		if (live_tx_open(&rn->lv.tx, &tc) != 0)
			return CLI_EXIT_ERROR;
	}
	return open_rest(rn); /* the engine, then the output files */
}

/* Starts the receive workers (--in) or the reader thread (--read).
 * @return 0 or CLI_EXIT_ERROR. */
static void *reader_main(void *arg);

static int start_live(struct run *rn)
{
	int rc;

	if (rn->lv.direct) {
		if (live_slot_init(&rn->lv.single_slot) != 0) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		rn->lv.single_slot_ready = true;
		if (reasm_worker_init(&rn->single, rn->engine, emit_tx,
				      rn->lv.tx) != 0) {
			errorf("cannot register the worker");
			return CLI_EXIT_ERROR;
		}
		live_tx_sink(rn->lv.tx, &rn->lv.sink);
		rn->single.sink = &rn->lv.sink;
		/* Reading the input and the kernel's transmit then overlap;
		 * without the kicker the reader sends each burst itself. */
		rc = live_tx_kicker_start(rn->lv.tx);
		if (rc != 0)
			errorf("no transmit thread (%s): the reader sends "
			       "each burst itself",
			       strerror(-rc));
	}
	if (rn->opt.read_path != NULL) {
		if (thread_start(&rn->lv.reader, reader_main, rn,
				 "the reader thread") != 0)
			return CLI_EXIT_ERROR;
		rn->lv.reader_started = true;
		return 0;
	}
	for (unsigned i = 0; i < rn->opt.threads; i++) {
		struct live_rx_worker *lw = &rn->lv.rx[i];

		lw->ctl = &rn->lv.ctl;
		if (live_slot_init(&lw->slot) != 0) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		rn->lv.rx_ready++;
		rc = reasm_worker_init(&lw->w, rn->engine, emit_queued,
				       &rn->pl);
		if (rc != 0) {
			errorf("cannot register worker %u: %s", i,
			       strerror(-rc));
			return CLI_EXIT_ERROR;
		}
	}
	for (unsigned i = 0; i < rn->opt.threads; i++) {
		if (thread_start(&rn->lv.rx_threads[i], live_rx_thread,
				 &rn->lv.rx[i], "worker thread %u", i) != 0)
			return CLI_EXIT_ERROR;
		rn->lv.rx_started++;
	}
	return 0;
}

/* --read with --out: the reader runs beside the main thread, which
 * supervises. */
static void *reader_main(void *arg)
{
	struct run *rn = arg;

	rn->lv.reader_status = read_all(rn, !rn->lv.direct);
	if (rn->lv.direct) {
		/* The reader is the transmit thread: send what is left. */
		direct_publish(rn, true);
		live_tx_kick(rn->lv.tx);
		live_tx_drain(rn->lv.tx);
	}
	/* R7: pairs with A7 in supervise(). */
	atomic_store_explicit(&rn->lv.reader_done, true, memory_order_release);
	return NULL;
}

/* "reasm: ready: ..." once every socket is bound and every thread runs. */
static void print_ready(const struct run *rn)
{
	const struct options *o = &rn->opt;

	fputs("reasm: ready: in ", stderr);
	if (o->in_iface != NULL)
		fprintf(stderr, "%s (%u worker%s, fanout %s)", o->in_iface,
			o->threads, o->threads == 1 ? "" : "s",
			live_fanout_name(o->fanout));
	else
		fputs(o->read_path, stderr);
	fputs(", out ", stderr);
	if (rn->lv.tx != NULL)
		fprintf(stderr, "%s (MTU %u, %u ring slots of %u bytes%s)",
			o->out_iface, live_tx_mtu(rn->lv.tx),
			live_tx_frames(rn->lv.tx),
			live_tx_frame_size(rn->lv.tx),
			o->qdisc_bypass ? ", no qdisc" : "");
	else
		fputs(o->write_path, stderr);
	fputc('\n', stderr);
}

/* The statistics line: the workers' published counters, the transmit
 * counters and the outputs queued. */
static void print_line(struct run *rn, struct live_meter *m, uint64_t now)
{
	struct reasm_stats st;
	struct live_stats ls;

	memset(&st, 0, sizeof(st));
	memset(&ls, 0, sizeof(ls));
	for (unsigned i = 0; i < rn->lv.rx_started; i++)
		live_slot_sum(&rn->lv.rx[i].slot, &st, &ls);
	for (unsigned i = 0; rn->pl.workers != NULL && i < rn->opt.threads; i++)
		live_slot_sum(&rn->pl.workers[i].slot, &st, &ls);
	if (rn->lv.single_slot_ready)
		live_slot_sum(&rn->lv.single_slot, &st, &ls);
	if (rn->lv.tx != NULL)
		live_tx_counters(rn->lv.tx, &ls);
	/* What the tables decided (evictions, expiries) and hold now. */
	struct reasm_stats eng;
	reasm_stats_shared(rn->engine, &eng);
	st.ReasmTimeout += eng.ReasmTimeout;
	st.evicted = eng.evicted;
	st.bytes_held = eng.bytes_held;
	st.datagrams_pending = eng.datagrams_pending;
	live_meter_line(m, stderr, now, &st, &ls,
			grain_prio_backlog(rn->pl.prio));
}

/* The main thread of a live run: waits for SIGINT or SIGTERM, the end of
 * --duration or the end of the input file, printing the statistics line
 * every --stats-interval meanwhile. */
static void supervise(struct run *rn, const sigset_t *sigs)
{
	const struct options *o = &rn->opt;
	uint64_t start = live_mono_ns();
	uint64_t end = o->duration_ns != 0 ? start + o->duration_ns : 0;
	uint64_t next_line = 0;
	struct live_meter meter;

	live_meter_start(&meter, start);
	if (o->stats_interval_ns != 0)
		next_line = start + o->stats_interval_ns;
	for (;;) {
		uint64_t now = live_mono_ns(), wake = now + SUPERVISE_NS;
		struct timespec ts;

		/* A7: pairs with R7 in reader_main(). */
		if (rn->lv.reader_started &&
		    atomic_load_explicit(&rn->lv.reader_done,
					 memory_order_acquire))
			return;
		if (end != 0 && now >= end)
			return;
		if (atomic_load_explicit(&write_errno, memory_order_relaxed))
			return; /* the output is lost: main reports it */
		/* The reader kicks the ring once per burst; frames left
		 * short of a burst while it waits for input go now. */
		if (rn->lv.direct)
			live_tx_nudge(rn->lv.tx);
		if (next_line != 0 && now >= next_line) {
			print_line(rn, &meter, now);
			next_line += o->stats_interval_ns;
			if (next_line <= now)
				next_line = now + o->stats_interval_ns;
		}
		if (next_line != 0 && next_line < wake)
			wake = next_line;
		if (end != 0 && end < wake)
			wake = end;
		ts.tv_sec = (time_t)((wake - now) / NS_PER_S);
		ts.tv_nsec = (long)((wake - now) % NS_PER_S);
		if (sigtimedwait(sigs, NULL, &ts) > 0)
			return;
	}
}

/* Stops a live run in order: the input, the workers (which finish what
 * they hold), then the writer or transmit thread (which empties the queue
 * and waits for the transmit ring). @return the reader's status. */
static int stop_live(struct run *rn)
{
	int status = 0;

	live_ctl_stop(&rn->lv.ctl);
	if (rn->lv.reader_started) {
		pthread_join(rn->lv.reader, NULL);
		status = rn->lv.reader_status;
	}
	for (unsigned i = 0; i < rn->lv.rx_started; i++)
		pthread_join(rn->lv.rx_threads[i], NULL);
	stop_threads(rn);

	/* Everything has been joined: the counters are final. */
	for (unsigned i = 0; i < rn->lv.rx_started; i++)
		live_stats_add(&rn->lv.live_stats, &rn->lv.rx[i].ls);
	if (rn->lv.tx != NULL)
		live_tx_counters(rn->lv.tx, &rn->lv.live_stats);
	return status;
}

/* Frees what open_live() and start_live() made. */
void close_live(struct run *rn)
{
	for (unsigned i = 0; i < rn->lv.rx_ready; i++)
		live_slot_fini(&rn->lv.rx[i].slot);
	for (unsigned i = 0; i < rn->lv.rx_open; i++)
		live_rx_close(rn->lv.rx[i].rx);
	free(rn->lv.rx);
	free(rn->lv.rx_threads);
	if (rn->lv.single_slot_ready)
		live_slot_fini(&rn->lv.single_slot);
	live_tx_close(rn->lv.tx);
}

/* A live run, from opening to the last thread joined. @return 0 or CLI_EXIT_ERROR;
 * *ran: whether input was read. */
int run_live(struct run *rn, bool *ran)
{
	sigset_t sigs;
	int status, rc;

	rn->live = true;
	live_ctl_init(&rn->lv.ctl);
	atomic_init(&rn->lv.reader_done, false);
	/* Blocked before any thread starts, hence in all of them: only
	 * sigtimedwait() in the main thread takes these signals. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	status = open_live(rn);
	/* One thread from a file to the ring: no workers, no writer (only
	 * the kicker, which makes the ring's send() calls). */
	rn->lv.direct = status == 0 && rn->opt.read_path != NULL &&
			rn->lv.tx != NULL && rn->opt.threads == 1;
	if (status == 0 && !rn->lv.direct)
		status = start_threads(rn);
	if (status == 0)
		status = start_live(rn);
	if (status == 0) {
		*ran = true;
		if (rn->lv.tx != NULL)
			live_tx_advise(rn->lv.tx, stderr);
		if (!rn->opt.quiet)
			print_ready(rn);
		supervise(rn, &sigs);
	}
	rc = stop_live(rn);
	return status != 0 ? status : rc;
}
