/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kicker.h - a thread that makes a producer's costly calls for it.
 *
 * The transmit side of reasm fills a PACKET_MMAP ring and, every few
 * frames, makes the send() that has the kernel transmit them. That call
 * does the kernel's whole transmit (on veth the receiving side too), so a
 * producer that made it itself would take turns with it. A kicker is one
 * thread that makes those calls instead: the producer counts each burst
 * it hands over, and the kicker calls kick() once for all the bursts it
 * finds handed over since its last call, or sleeps until there are some.
 *
 * Promise (K1/K2 in kicker.c; test/model/kicker.pml checks it): no burst
 * waits for a later one. After kicker_hand_over(n) returns, the kicker
 * makes a kick() call that covers burst n (upto >= n) without any other
 * call of the producer's.
 *
 * Threads: one producer thread makes every call here but
 * kicker_errors(), which any thread may make. kick() runs on the
 * kicker's thread only.
 */
#ifndef REASM_KICKER_H
#define REASM_KICKER_H

#include <stdbool.h>
#include <stdint.h>

struct kicker;

/* Makes the producer's call for every burst up to @p upto (the count of
 * bursts handed over so far, as the kicker last read it); false if that
 * call failed, which is counted (kicker_errors()) and not retried. */
typedef bool kicker_fn(void *arg, uint64_t upto);

/* Start a kicker thread that calls @p kick with @p arg. 0 (then *@p kp
 * is the kicker), -ENOMEM, or the negative error of pthread_create()
 * (then nothing is left behind). */
int kicker_start(struct kicker **kp, kicker_fn *kick, void *arg);

/* Producer: one more burst is ready; the kicker will kick for it. Never
 * blocks for long: a lock is taken only to wake a sleeping kicker. */
void kicker_hand_over(struct kicker *k);

/* Producer: the kicker kicks for every burst handed over, then its
 * thread ends (joined here). Its counters stay readable until
 * kicker_free(). A second call does nothing. */
void kicker_stop(struct kicker *k);

/* Whether the thread runs: started and not stopped. */
bool kicker_running(const struct kicker *k);

/* kick() calls that returned false. */
uint64_t kicker_errors(const struct kicker *k);

/* Producer: stop (as kicker_stop()) and free. NULL does nothing. */
void kicker_free(struct kicker *k);

#endif /* REASM_KICKER_H */
