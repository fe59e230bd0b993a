/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pipeline.c - reasm's threads between the input and the output
 * (pipeline.h): the workers fed by the reader, the live receive workers'
 * priority queue, and the writer (or transmit thread) that takes their
 * outputs in order.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RING_CAPACITY 1024u
#define PRIO_CAPACITY 4096u
#define WRITER_BURST 32u
#define PUBLISH_WAIT_NS (50 * 1000000ll) /* a worker's longest wait */
#define TX_RETRY_NS 1000000ll		 /* kick again after 1 ms */

/* --- Workers and writers ------------------------------------------------- */
/* --- The threaded pipeline ------------------------------------------------- */

/* Emit callback of the live receive workers: into the priority queue,
 * band from the DSCP. A full band means the writer is behind: wait for
 * it rather than lose a frame. */
void emit_queued(struct reasm_out *out, void *arg)
{
	struct pipeline *pl = arg;
	unsigned prio = grain_prio_dscp_to_priority(out->dscp);

	while (grain_prio_try_enqueue_prio(pl->prio, prio, out) != 0)
		sleep_ns(20000);
}

/* Emit callback of the workers fed by the reader: the output rides back
 * to the writer with the frame that made it. */
static void emit_attach(struct reasm_out *out, void *arg)
{
	struct worker *wk = arg;
	struct frame *f = wk->cur;
	struct reasm_out **more;

	if (f->out == NULL) {
		f->out = out;
		return;
	}
	more = realloc(f->more, (f->nmore + 1) * sizeof(*more));
	if (more == NULL) {
		reasm_out_free(out); /* cannot happen today: one per frame */
		return;
	}
	more[f->nmore++] = out;
	f->more = more;
}

/* Live runs: copy the worker's counters where the statistics line can
 * read them, every so often (@p force: now). */
static void worker_publish(struct worker *wk, bool force)
{
	static const struct live_stats none;

	if (wk->pl->publish &&
	    (live_slot_due(&wk->slot, live_mono_ns()) || force))
		live_slot_publish(&wk->slot, &wk->w.st, &none);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct pipeline *pl = wk->pl;
	struct grain_ring *in = pl->in[wk->index], *out = pl->out[wk->index];
	/* Live runs wake now and then to publish their counters. */
	int64_t wait = pl->publish ? PUBLISH_WAIT_NS : -1;

	for (;;) {
		void *obj = NULL;
		struct frame *f;

		if (grain_ring_dequeue_wait(in, &obj, wait) != 0) {
			worker_publish(wk, false);
			continue; /* timed out */
		}
		if (obj == NULL)
			break; /* end of input */
		f = obj;
		wk->cur = f;
		(void)reasm_input(&wk->w, f->data, f->caplen, f->wirelen,
				  f->ts_ns);
		wk->cur = NULL;
		worker_publish(wk, false);
		/* R3: pairs with A3 in wait_idle(). */
		atomic_fetch_add_explicit(&pl->done, 1, memory_order_release);
		while (grain_ring_enqueue_wait(out, f, -1) != 0)
			;
	}
	worker_publish(wk, true);
	return NULL;
}

/* One output to the file or, with --out, to the transmit ring. */
static void write_out(struct pipeline *pl, struct reasm_out *out)
{
	if (pl->tx != NULL) {
		live_tx_put(pl->tx, out); /* frees it */
		return;
	}
	dump_out(pl->dumper, out);
	reasm_out_free(out);
}

/* The writer, or with --out the transmit thread: the only thread that
 * touches the output. */
static void *writer_main(void *arg)
{
	struct pipeline *pl = arg;
	void *objs[WRITER_BURST];
	bool stop = false;

	while (!stop) {
		/* Frames the kernel has not taken yet (its send buffer was
		 * full): come back soon to kick again. */
		int64_t wait = pl->tx != NULL && live_tx_pending(pl->tx)
				       ? TX_RETRY_NS
				       : -1;
		int n = grain_prio_dequeue_burst_wait(pl->prio, objs,
						      WRITER_BURST, wait);

		for (int i = 0; i < n; i++) {
			if (objs[i] == NULL) {
				stop = true;
				continue;
			}
			write_out(pl, objs[i]);
		}
		if (pl->tx != NULL)
			live_tx_kick(pl->tx); /* one send() per burst */
	}
	/* The NULL was queued after every output (the workers had been
	 * joined), and taking it acquired all of them: whatever a
	 * higher band still holds is found now. */
	for (;;) {
		int n = grain_prio_try_dequeue_burst(pl->prio, objs,
						     WRITER_BURST);

		if (n <= 0)
			break;
		for (int i = 0; i < n; i++) {
			if (objs[i] != NULL)
				write_out(pl, objs[i]);
		}
	}
	/* Wait until the kernel has sent every frame queued. */
	if (pl->tx != NULL)
		live_tx_drain(pl->tx);
	return NULL;
}

/* Writes what a frame made and frees it. */
static void write_frame(struct pipeline *pl, struct frame *f)
{
	if (f->out != NULL)
		write_out(pl, f->out);
	for (unsigned i = 0; i < f->nmore; i++)
		write_out(pl, f->more[i]);
	free(f->more);
	free(f);
}

/* The writer (or transmit thread) of a run fed by the reader: outputs in
 * capture order, as the reader's tokens say. */
static void *ordered_writer_main(void *arg)
{
	struct pipeline *pl = arg;

	for (;;) {
		void *tok = NULL, *obj = NULL;

		if (grain_ring_try_dequeue(pl->order, &tok) != 0) {
			/* Nothing ready: a moment to send what is queued. */
			if (pl->tx != NULL)
				live_tx_kick(pl->tx);
			int64_t wait = pl->tx != NULL && live_tx_pending(pl->tx)
					       ? TX_RETRY_NS
					       : -1;
			if (grain_ring_dequeue_wait(pl->order, &tok, wait) != 0)
				continue;
		}
		if (tok == NULL)
			break; /* queued after the workers were joined */
		unsigned i = (unsigned)((uintptr_t)tok - 1);
		while (grain_ring_dequeue_wait(pl->out[i], &obj, -1) != 0)
			;
		write_frame(pl, obj);
	}
	if (pl->tx != NULL) {
		live_tx_kick(pl->tx);
		live_tx_drain(pl->tx); /* until the kernel has sent it all */
	}
	return NULL;
}

/* Waits until the workers have finished all @p queued frames: they are
 * idle, and everything they did happens-before the return. */
void wait_idle(struct pipeline *pl, uint64_t queued)
{
	unsigned spins = 0;

	/* A3: pairs with R3 in worker_main(); the counter only ever grows
	 * by read-modify-writes, so reading the last value synchronizes
	 * with every worker's increment. */
	while (atomic_load_explicit(&pl->done, memory_order_acquire) !=
	       queued) {
		if (++spins < 64)
			sleep_ns(1000);
		else
			sleep_ns(50000);
	}
}

/* --- Starting and stopping ----------------------------------------------- */

/* The smallest power of two >= @p x (x <= 2^31). */
static unsigned pow2_ceil(unsigned x)
{
	unsigned p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

/* Starts the writer (or transmit thread) and, unless the receive workers
 * take their place (--in), the workers fed by the reader. @return 0 or CLI_EXIT_ERROR. */
int start_threads(struct run *rn)
{
	struct grain_prio_config pc = {
		.bands = 3, /* pfifo_fast's */
		.flags = GRAIN_PRIO_SC | GRAIN_PRIO_WAIT,
		.capacity = PRIO_CAPACITY,
	};
	bool fed = rn->opt.in_iface == NULL; /* workers fed by the reader */
	unsigned n = rn->opt.threads;
	/* Per worker: RING_CAPACITY frames in all, at least 64 each. */
	unsigned cap =
		pow2_ceil(RING_CAPACITY / n < 64 ? 64 : RING_CAPACITY / n);
	int rc;

	rn->pl.dumper = rn->dumper;
	rn->pl.tx = rn->lv.tx;
	rn->pl.publish = rn->live;
	atomic_init(&rn->pl.done, 0);
	if (grain_prio_create(&rn->pl.prio, &pc, NULL) != 0) {
		errorf("out of memory");
		return CLI_EXIT_ERROR;
	}
	if (fed) {
		rn->pl.in = calloc(n, sizeof(*rn->pl.in));
		rn->pl.out = calloc(n, sizeof(*rn->pl.out));
		rn->pl.workers = calloc(n, sizeof(*rn->pl.workers));
		if (rn->pl.in == NULL || rn->pl.out == NULL ||
		    rn->pl.workers == NULL) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		rn->pl.nworkers = n;
		/* The order ring holds a token for every frame in flight:
		 * in a worker's two rings or in its hands. */
		if (grain_ring_create(&rn->pl.order, pow2_ceil(2 * n * cap + n),
				      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
				      NULL) != 0) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		for (unsigned i = 0; i < n; i++) {
			if (grain_ring_create(&rn->pl.in[i], cap,
					      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					      NULL) != 0 ||
			    grain_ring_create(&rn->pl.out[i], cap,
					      GRAIN_RING_SPSC | GRAIN_RING_WAIT,
					      NULL) != 0) {
				errorf("out of memory");
				return CLI_EXIT_ERROR;
			}
		}
		for (unsigned i = 0; i < n; i++) {
			rn->pl.workers[i].pl = &rn->pl;
			rn->pl.workers[i].index = i;
			if (live_slot_init(&rn->pl.workers[i].slot) != 0) {
				errorf("out of memory");
				return CLI_EXIT_ERROR;
			}
			rn->pl.worker_slots++;
			rc = reasm_worker_init(&rn->pl.workers[i].w, rn->engine,
					       emit_attach, &rn->pl.workers[i]);
			if (rc != 0) {
				errorf("cannot register worker %u: %s", i,
				       strerror(-rc));
				return CLI_EXIT_ERROR;
			}
		}
	}
	if (thread_start(&rn->pl.writer,
			 fed ? ordered_writer_main : writer_main, &rn->pl,
			 "the writer thread") != 0)
		return CLI_EXIT_ERROR;
	rn->pl.writer_started = true;
	for (unsigned i = 0; fed && i < n; i++) {
		if (thread_start(&rn->pl.workers[i].thread, worker_main,
				 &rn->pl.workers[i], "worker thread %u",
				 i) != 0)
			return CLI_EXIT_ERROR;
		rn->pl.workers[i].started = true;
	}
	return 0;
}

/* Stops whatever start_threads() started, in order: workers once their
 * rings are drained, then the writer once the queue is. */
void stop_threads(struct run *rn)
{
	if (rn->pl.workers != NULL) {
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (!rn->pl.workers[i].started)
				continue;
			while (grain_ring_enqueue_wait(rn->pl.in[i], NULL,
						       -1) != 0)
				;
		}
		for (unsigned i = 0; i < rn->opt.threads; i++) {
			if (rn->pl.workers[i].started)
				pthread_join(rn->pl.workers[i].thread, NULL);
		}
	}
	if (rn->pl.writer_started && rn->pl.order != NULL) {
		while (grain_ring_enqueue_wait(rn->pl.order, NULL, -1) != 0)
			;
		pthread_join(rn->pl.writer, NULL);
	} else if (rn->pl.writer_started) {
		unsigned last = grain_prio_bands(rn->pl.prio) - 1;

		while (grain_prio_try_enqueue(rn->pl.prio, last, NULL) != 0)
			sleep_ns(20000);
		pthread_join(rn->pl.writer, NULL);
	}
}

/* Frees the rings of the workers fed by the reader and whatever is
 * left in them (only after a start that failed half way). */
void free_rings(struct pipeline *pl)
{
	void *obj;

	for (unsigned i = 0; i < pl->nworkers; i++) {
		for (int k = 0; k < 2; k++) {
			struct grain_ring *r = k == 0 ? pl->in[i] : pl->out[i];

			if (r == NULL)
				continue;
			while (grain_ring_try_dequeue(r, &obj) == 0) {
				struct frame *f = obj;

				if (f == NULL)
					continue;
				reasm_out_free(f->out);
				for (unsigned m = 0; m < f->nmore; m++)
					reasm_out_free(f->more[m]);
				free(f->more);
				free(f);
			}
			grain_ring_destroy(r);
		}
	}
	free(pl->in);
	free(pl->out);
	grain_ring_destroy(pl->order);
}
