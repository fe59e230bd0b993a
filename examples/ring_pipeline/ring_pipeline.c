/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ring_pipeline.c - a three-stage pipeline between threads on grain_ring.
 *
 *   producer --ring A--> 2 workers --ring B--> consumer
 *
 * The producer numbers jobs 1..JOBS and hands them to two workers through
 * ring A (one producer, several consumers). Each worker squares its job's
 * number and passes it on through ring B (several producers, one
 * consumer). The consumer adds the results up. Both rings are created
 * with GRAIN_RING_WAIT, so a stage with nothing to do sleeps (futex) in a
 * _wait call instead of spinning. A NULL object is the end-of-stream mark:
 * the producer sends one per worker, each worker forwards its own.
 *
 * The program checks its own result: every job arrives exactly once, and
 * the sum of squares is JOBS(JOBS+1)(2 JOBS+1)/6. It exits 0 if so. A
 * stage asleep that is not woken when its ring changes stops the pipeline:
 * after STALL_S seconds without progress the program says so and exits 1.
 *
 * Build: cc ring_pipeline.c $(pkg-config --cflags --libs grain) -pthread
 */
#include <grain/ring.h>

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define JOBS 20000u
#define WORKERS 2u
#define STALL_S 10

struct job {
	uint64_t n;	 /* input: 1..JOBS */
	uint64_t result; /* output: n * n */
	unsigned seen;	 /* how often the consumer got it (must be 1) */
};

static struct job jobs[JOBS];
static struct grain_ring *ring_a, *ring_b;

/* Stage 2: take a job from A, work on it, pass it to B. */
static void *worker(void *arg)
{
	void *obj = NULL; /* GCC 12 -O1 cannot tell that a 0 wrote it */

	(void)arg;
	for (;;) {
		/* Negative timeout: sleep until something arrives. */
		if (grain_ring_dequeue_wait(ring_a, &obj, -1) != 0)
			abort(); /* cannot happen with a valid ring */
		if (obj == NULL)
			break; /* end of stream */
		struct job *j = obj;

		j->result = j->n * j->n;
		/* The enqueue is a release: the consumer, whose dequeue is
		 * an acquire, sees j->result as written here. */
		if (grain_ring_enqueue_wait(ring_b, j, -1) != 0)
			abort();
	}
	/* Tell the consumer this worker is done. */
	if (grain_ring_enqueue_wait(ring_b, NULL, -1) != 0)
		abort();
	return NULL;
}

int main(void)
{
	pthread_t tid[WORKERS];
	uint64_t sum = 0, expected;
	unsigned done = 0, received = 0, i;
	time_t moved = time(NULL);
	void *obj = NULL; /* GCC 12 -O1 cannot tell that a 0 wrote it */
	int bad = 0;

	/* Capacities are powers of two; small rings make the stages wait
	 * for each other, which is what a pipeline does under load. */
	if (grain_ring_create(&ring_a, 64, GRAIN_RING_SP | GRAIN_RING_WAIT,
			      NULL) != 0 ||
	    grain_ring_create(&ring_b, 64, GRAIN_RING_SC | GRAIN_RING_WAIT,
			      NULL) != 0) {
		fprintf(stderr, "ring_pipeline: grain_ring_create failed\n");
		return 1;
	}
	for (i = 0; i < WORKERS; i++)
		if (pthread_create(&tid[i], NULL, worker, NULL) != 0)
			return 1;

	/* Stage 1, on this thread: feed the jobs, then one stop per worker.
	 * The consumer stage runs here too, interleaved, so that ring B
	 * never fills while ring A waits for room (no deadlock). */
	for (i = 0; i < JOBS + WORKERS || done < WORKERS;) {
		unsigned before = i + received + done;

		if (i < JOBS + WORKERS) {
			struct job *j = NULL;

			if (i < JOBS) {
				j = &jobs[i];
				j->n = i + 1;
			}
			/* Non-blocking: if A is full, go drain B instead. */
			if (grain_ring_try_enqueue(ring_a, j) == 0)
				i++;
		}
		/* Stage 3: drain what the workers finished. */
		while (grain_ring_try_dequeue(ring_b, &obj) == 0) {
			if (obj == NULL) {
				done++;
				continue;
			}
			struct job *j = obj;

			j->seen++;
			sum += j->result;
			received++;
		}
		if (i + received + done != before) {
			moved = time(NULL);
		} else if (difftime(time(NULL), moved) > STALL_S) {
			fprintf(stderr, "ring_pipeline: stalled for %d s\n",
				STALL_S);
			return 1;
		} else {
			sched_yield(); /* nothing moved: let the workers run */
		}
	}
	for (i = 0; i < WORKERS; i++)
		pthread_join(tid[i], NULL);

	/* Check the result. */
	expected = (uint64_t)JOBS * (JOBS + 1) * (2 * (uint64_t)JOBS + 1) / 6;
	for (i = 0; i < JOBS; i++)
		if (jobs[i].seen != 1) {
			fprintf(stderr, "job %u seen %u times\n", i + 1,
				jobs[i].seen);
			bad = 1;
		}
	if (received != JOBS || sum != expected || !grain_ring_empty(ring_a) ||
	    !grain_ring_empty(ring_b))
		bad = 1;
	printf("ring_pipeline: %u jobs through %u workers, sum of squares "
	       "%llu (expected %llu): %s\n",
	       received, WORKERS, (unsigned long long)sum,
	       (unsigned long long)expected, bad ? "WRONG" : "ok");

	grain_ring_destroy(ring_a);
	grain_ring_destroy(ring_b);
	return bad;
}
