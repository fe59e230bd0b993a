/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prio_scheduler.c - a packet scheduler on grain_prio.
 *
 * Part 1, strict priority (pfifo_fast): packets are classified by their
 * DSCP into three bands (control and voice first, then best effort, then
 * bulk) and the scheduler always sends from the highest non-empty band.
 * Part 2, weighted round robin between threads: two producer threads feed
 * a queue with weights 4:2:1 and the scheduler thread sleeps in
 * grain_prio_dequeue_wait() while there is nothing to send: at least once,
 * as the last packet waits until the queue has been empty for a while.
 *
 * The program checks its own result and exits 0 if every check passes:
 * strict order by band and FIFO inside a band; every packet sent exactly
 * once; each producer's packets of one band in the order it queued them;
 * while all bands are backlogged, shares near 4/7, 2/7 and 1/7; the
 * scheduler woken by an enqueue, never by the 5 s guard of its wait.
 *
 * Build: cc prio_scheduler.c $(pkg-config --cflags --libs grain) -pthread
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep() */
#include <grain/prio.h>

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct packet {
	unsigned seq;  /* per producer and band, from 0 */
	unsigned band; /* where the producer queued it */
	unsigned from; /* producer */
	unsigned sent; /* times the scheduler sent it (must be 1) */
};

#define N 3000u /* packets per producer in part 2 */
static struct packet pkts[2][N];
static int bad;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "prio_scheduler: FAILED: %s\n", what);
		bad = 1;
	}
}

static void strict_priority(void)
{
	/* DSCP of each packet, in arrival order: CS1 (bulk), best effort,
	 * EF (voice), CS6 (network control), AF41, best effort, CS1. */
	static const uint8_t dscp[] = { 8, 0, 46, 48, 34, 0, 8 };
	static const unsigned want[] = { 2, 3, 4, 1, 5, 0, 6 }; /* indexes */
	struct grain_prio_config cfg = { .bands = 3, .capacity = 16 };
	struct grain_prio *q;
	unsigned i, band;
	void *obj;

	/* priomap NULL: pfifo_fast's map (priority 6, 7 -> band 0; 0, 4 ->
	 * band 1; 2 -> band 2). */
	if (grain_prio_create(&q, &cfg, NULL) != 0)
		exit(1);
	for (i = 0; i < sizeof(dscp); i++) {
		unsigned prio = grain_prio_dscp_to_priority(dscp[i]);

		/* The object is any pointer; here the packet's index. */
		check(grain_prio_try_enqueue_prio(
			      q, prio, (void *)(uintptr_t)(i + 1)) == 0,
		      "enqueue");
	}
	for (i = 0; i < sizeof(dscp); i++) {
		check(grain_prio_try_dequeue(q, &obj, &band) == 0, "dequeue");
		check((uintptr_t)obj == want[i] + 1, "strict band order");
	}
	check(grain_prio_try_dequeue(q, &obj, NULL) == -EAGAIN, "empty");
	grain_prio_destroy(q);
}

static struct grain_prio *wq;

static void *producer(void *arg)
{
	unsigned from = (unsigned)(uintptr_t)arg, i, seq[3] = { 0 };

	for (i = 0; i < N; i++) {
		struct packet *p = &pkts[from][i];

		p->from = from;
		p->band = (i * 7 + from) % 3;
		p->seq = seq[p->band]++;
		if (from == 1 && i == N - 1) {
			/* The last packet waits for an empty queue, then 10 ms
			 * more: the scheduler is asleep when it comes, and its
			 * enqueue must wake it. */
			while (grain_prio_backlog(wq) != 0)
				sched_yield();
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 },
				  NULL);
		}
		/* A full band refuses (-EAGAIN): a real sender would drop;
		 * here we retry so that every packet gets through. */
		while (grain_prio_try_enqueue(wq, p->band, p) == -EAGAIN)
			;
	}
	return NULL;
}

static void weighted(void)
{
	static const unsigned weights[] = { 4, 2, 1 };
	struct grain_prio_config cfg = {
		.bands = 3,
		.capacity = 4096,
		.weights = weights,
		.flags = GRAIN_PRIO_WEIGHTED | GRAIN_PRIO_SC | GRAIN_PRIO_WAIT,
	};
	unsigned next[2][3] = { { 0 } }, share[3] = { 0 }, got = 0, band, i;
	pthread_t tid[2];
	void *obj;

	if (grain_prio_create(&wq, &cfg, NULL) != 0)
		exit(1);
	/* Backlog first, so that the shares are those of busy bands. */
	producer((void *)0);
	if (pthread_create(&tid[1], NULL, producer, (void *)1) != 0)
		exit(1);
	while (got < 2 * N) {
		time_t start = time(NULL);

		/* Sleeps while every band is empty, until an enqueue wakes
		 * it; 5 s is only a guard. */
		if (grain_prio_dequeue_wait(wq, &obj, &band, 5000000000) != 0) {
			check(0, "dequeue_wait timed out");
			break;
		}
		/* It ran to the guard with a packet there: not woken. */
		check(difftime(time(NULL), start) < 5, "woken by the enqueue");
		struct packet *p = obj;

		check(p->band == band, "band reported");
		check(p->seq == next[p->from][band]++, "FIFO per producer");
		p->sent++;
		if (got++ < 700)
			share[band]++; /* 100 rounds of 4+2+1, all backlogged */
	}
	pthread_join(tid[1], NULL);
	for (i = 0; i < 2 * N; i++)
		check(pkts[i / N][i % N].sent == 1, "sent exactly once");
	printf("prio_scheduler: weighted shares of the first 700: "
	       "%u %u %u (weights 4 2 1)\n",
	       share[0], share[1], share[2]);
	for (i = 0; i < 3; i++)
		check(share[i] + 35 >= 100 * weights[i] &&
			      share[i] <= 100 * weights[i] + 35,
		      "weighted share");
	grain_prio_destroy(wq);
}

int main(void)
{
	strict_priority();
	weighted();
	printf("prio_scheduler: %s\n", bad ? "WRONG" : "ok");
	return bad;
}
