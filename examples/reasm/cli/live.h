/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.h - the live side of reasm: frames from a network interface through
 * PACKET_MMAP receive rings, frames out through a PACKET_MMAP transmit
 * ring, and the counters that go with them.
 *
 * Threads and what they share
 *
 * | object              | used by                                          |
 * |---------------------|--------------------------------------------------|
 * | struct live_rx      | one receive worker (its socket, its ring)        |
 * | struct live_ctl     | every receive worker and the main thread         |
 * |                     |   (stop flag: atomic; expiry: an atomic_flag     |
 * |                     |   lets one worker at a time call reasm_expire)   |
 * | struct live_slot    | its owner writes, any thread reads (a mutex)     |
 * | struct live_tx      | the transmit thread; its counters are atomics    |
 * |                     |   that any thread may read (live_tx_counters)    |
 *
 * Receive: each worker owns an AF_PACKET socket bound to the input
 * interface, with a TPACKET_V3 ring (8 MiB of small blocks). All the sockets
 * of one run form one fanout group, so the kernel spreads frames over the
 * workers (never with PACKET_FANOUT_FLAG_DEFRAG: reassembling is our job).
 * A worker walks each block the kernel hands over, gives every frame to
 * reasm_input() as Ethernet, and returns the block at once.
 *
 * Transmit: one thread owns a TPACKET_V2 transmit ring on the output
 * interface: it copies each output frame into the next free slot, marks it
 * for sending, and kicks the kernel once per burst. When that thread is
 * also the one running the engine (run_live.c: --read with --out and
 * --threads 1), the engine writes each frame straight into the slot
 * instead (live_tx_sink(), struct reasm_sink): one copy of each byte, from
 * the fragments' payload copies (or the captured frame) to the ring.
 * Everywhere else (--in, or several threads) a frame is built in a
 * reasm_out by a worker and copied into the slot by the transmit thread:
 * two copies.
 *
 * Every function that can fail prints one "reasm: ..." line on stderr and
 * returns -1; 0 is success.
 *
 * Files: live_rx.c (the receive rings and workers), live_tx.c (the
 * transmit ring and its kicker thread), live.c (the rest: counters,
 * snapshots, interfaces, fanout modes, the statistics line) and
 * live_sock.h (what the three share inside reasm).
 */
#ifndef REASM_LIVE_H
#define REASM_LIVE_H

#include "reasm.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* --- Counters -------------------------------------------------------------- */

/* What the live path counts beside the engine's struct reasm_stats. */
struct live_stats {
	/* Receive rings (PACKET_STATISTICS, summed over the workers). */
	uint64_t rx_ring_packets; /* frames the rings were offered, drops
				     included (tp_packets) */
	uint64_t rx_ring_drops;	  /* lost for want of room (tp_drops) */
	uint64_t rx_freeze_q;	  /* tp_freeze_q_cnt */
	uint64_t rx_vlan;	  /* frames whose VLAN tag was put back */
	uint64_t rx_csum;	  /* frames whose TCP/UDP checksum was
				     completed (sent with checksum offload
				     from this host) */
	/* Transmit ring. */
	uint64_t tx_frames;	  /* frames handed to the kernel */
	uint64_t tx_bytes;	  /* their bytes */
	uint64_t tx_oversize;	  /* longer than the egress MTU allows */
	uint64_t tx_truncated;	  /* captured shorter than on the wire */
	uint64_t tx_runt;	  /* shorter than an Ethernet header */
	uint64_t tx_wrong_format; /* frames the kernel refused */
	uint64_t tx_errors;	  /* failed send() kicks */
	uint64_t tx_unsent;	  /* given up at stop: the egress stalled */
};

/* @p into += @p add, field by field. */
void live_stats_add(struct live_stats *into, const struct live_stats *add);

/* The engine's counters as reasm_stats_json() writes them, plus a "live"
 * object with every field of @p ls. @return 0 or -errno of the write. */
int live_stats_json(FILE *f, const struct reasm_stats *st,
		    const struct live_stats *ls);

/* A line for receiving (if @p rx) and one for transmitting (if @p tx),
 * after reasm_stats_summary(). */
void live_stats_summary(FILE *f, const struct live_stats *ls, bool rx, bool tx);

/* --- Published snapshots --------------------------------------------------- */

/* A worker's counters as of its last publication. A worker's struct
 * reasm_stats is plain memory that only it may read while it runs; it
 * copies it here every PUBLISH period (and when it stops) so that the
 * statistics line can sum the slots while the workers go on. */
struct live_slot {
	pthread_mutex_t lock;
	struct reasm_stats st; /* under lock */
	struct live_stats ls;  /* under lock */
	uint64_t due_ns;       /* the owner's: next publication (monotonic) */
};

/* @return 0 or -1 (no message: only fails without memory). */
int live_slot_init(struct live_slot *s);
void live_slot_fini(struct live_slot *s);

/* Owner: copy @p st and @p ls into the slot. */
void live_slot_publish(struct live_slot *s, const struct reasm_stats *st,
		       const struct live_stats *ls);

/* Owner: is a publication due at @p now_ns (monotonic)? If so, the next
 * one is scheduled. */
bool live_slot_due(struct live_slot *s, uint64_t now_ns);

/* Any thread: add the slot's snapshot to *st (only the counters the
 * statistics line uses: packets, passed, ReasmReqds, ReasmOKs, ReasmFails,
 * ReasmTimeout, refused, emitted, emitted_bytes; bytes_peak as a maximum)
 * and to *ls. */
void live_slot_sum(struct live_slot *s, struct reasm_stats *st,
		   struct live_stats *ls);

/* --- Clocks ---------------------------------------------------------------- */

uint64_t live_mono_ns(void); /* CLOCK_MONOTONIC */
uint64_t live_real_ns(void); /* CLOCK_REALTIME */

/* --- Receive --------------------------------------------------------------- */

enum live_fanout {
	LIVE_FANOUT_LB = 0, /* round robin (PACKET_FANOUT_LB) */
	LIVE_FANOUT_CPU,    /* by receiving CPU */
	LIVE_FANOUT_HASH,   /* by the kernel's flow hash */
};

/* "lb", "cpu", "hash" -> the mode; -1 for anything else. */
int live_fanout_parse(const char *name);
const char *live_fanout_name(enum live_fanout f);

/* Shared by the receive workers of a run. */
struct live_ctl {
	_Atomic(bool) stop;   /* set once: stop reading */
	atomic_flag expiring; /* held by the worker calling reasm_expire */
	_Atomic(uint64_t) expire_due; /* monotonic ns of the next expiry */
};

void live_ctl_init(struct live_ctl *c);

/* Asks every worker to stop reading. Any thread. */
void live_ctl_stop(struct live_ctl *c);
bool live_ctl_stopping(const struct live_ctl *c);

struct live_rx;

/*
 * live_rx_open - a receive socket on @p ifname with its TPACKET_V3 ring,
 * bound and in the fanout group *group. Pass *has_group false for the
 * first socket of a run: the kernel picks a free group id, stored in
 * *group, and *has_group becomes true; later sockets join that group.
 * @return 0, or -1 after a message (no such interface, no permission, the
 *         interface is not Ethernet, ring setup refused).
 */
int live_rx_open(struct live_rx **rxp, const char *ifname,
		 enum live_fanout fanout, uint16_t *group, bool *has_group);
void live_rx_close(struct live_rx *rx);

/* A receive worker. The caller fills w (reasm_worker_init), rx, ctl and
 * slot (live_slot_init), then runs live_rx_thread(). */
struct live_rx_worker {
	struct reasm_worker w;
	struct live_rx *rx;
	struct live_ctl *ctl;
	struct live_slot slot;
	struct live_stats ls; /* this worker's own, published in slot */
};

/* Thread body: reads the ring until live_ctl_stop(), then finishes the
 * blocks already handed over, publishes its counters and returns NULL.
 * Meanwhile it calls reasm_expire() every EXPIRE period of wall-clock time
 * when no other worker is doing so. */
void *live_rx_thread(void *arg);

/* --- Transmit -------------------------------------------------------------- */

struct live_tx_config {
	const char *ifname;
	unsigned frames;   /* ring slots wanted (rounded up to whole blocks) */
	bool qdisc_bypass; /* PACKET_QDISC_BYPASS */
	bool set_dst, set_src;
	uint8_t dst[6], src[6]; /* written over each frame's addresses */
	/* Once this is true, a ring that makes no progress for STALL seconds
	 * is given up: what is left is counted as tx_unsent and freed, so
	 * that a stop cannot hang on a dead link. */
	const _Atomic(bool) *stopping;
};

struct live_tx;

/*
 * live_tx_open - a transmit socket on cfg->ifname with its TPACKET_V2
 * ring, sized for the interface's MTU as it is now (a frame longer than
 * that MTU allows is dropped and counted as tx_oversize).
 * @return 0, or -1 after a message.
 */
int live_tx_open(struct live_tx **txp, const struct live_tx_config *cfg);
void live_tx_close(struct live_tx *tx);

/* If the MTU is below 65535, one line on @p f saying that longer
 * reassembled datagrams are dropped and how to raise it. */
void live_tx_advise(const struct live_tx *tx, FILE *f);

/* Transmit thread: queue @p out on the ring (waiting, with poll(), while
 * the ring is full), or count it and drop it; frees @p out either way. */
void live_tx_put(struct live_tx *tx, struct reasm_out *out);

/*
 * Transmit thread, zero copy: the data area of the slot at head, for a
 * frame of @p len bytes (@p orig_len on the wire) whose first @p lead_len
 * bytes are @p lead, once the checks live_tx_put() makes have passed
 * (runt, truncated, the MTU with the 802.1Q allowance, the slot's size)
 * and the slot is free (waiting as live_tx_put() does). @return the area
 * (@p len writable bytes), or NULL with nothing counted: a frame that
 * live_tx_put() would drop (it then counts it), or one whose lead is
 * shorter than an Ethernet header (it cannot tell). A caller given NULL
 * hands the frame to live_tx_put(), which counts it exactly as it would
 * have without the reservation. A reservation may lapse uncommitted: the
 * next one returns the same slot.
 */
uint8_t *live_tx_reserve(struct live_tx *tx, uint32_t len, uint32_t orig_len,
			 const uint8_t *lead, uint32_t lead_len);

/* Transmit thread: send the frame written in the area live_tx_reserve()
 * returned (@p data, the same @p len), as live_tx_put() sends its copy:
 * the addresses of --dst-mac/--src-mac set, the slot marked for sending
 * (a release store the kernel's read of the status pairs with), counted,
 * and a kick once per burst. */
void live_tx_commit(struct live_tx *tx, uint8_t *data, uint32_t len);

/* Fills @p sink with callbacks that reserve and commit on @p tx, for a
 * struct reasm_worker whose reasm_input() runs on the transmit thread;
 * the emit callback beside it must be one that calls live_tx_put() (it
 * gets the frames the reservation declines). */
void live_tx_sink(struct live_tx *tx, struct reasm_sink *sink);

/* Transmit thread: ask the kernel to send what was queued and not yet
 * taken (one send(), if there is anything). */
void live_tx_kick(struct live_tx *tx);

/* Transmit thread, before it queues frames: start a thread that makes the
 * send() of each burst from then on, so that the kernel's transmit work
 * (copying every frame, and on veth the receiving side) runs beside the
 * filling of the ring instead of taking turns with it. live_tx_drain()
 * and live_tx_close() stop it, after it has sent every burst it was
 * given; it is not started again. @return 0; -EBUSY if it was started
 * before; -ENOMEM, or a pthread_create() error as -errno: then nothing
 * changed and each burst is sent by the transmit thread, as without this
 * call. */
int live_tx_kicker_start(struct live_tx *tx);

/* Any thread: one send() without waiting, which sends whatever slots are
 * marked for sending; nothing is counted and the transmit thread's state
 * is not touched. For a transmit thread that may block elsewhere (on its
 * input) with frames short of a burst on the ring. */
void live_tx_nudge(const struct live_tx *tx);

/* Transmit thread: are frames queued that the kernel has not taken yet?
 * It takes no more than the socket's send buffer holds per kick, so a
 * caller with nothing more to queue kicks again a little later. */
bool live_tx_pending(struct live_tx *tx);

/* Transmit thread: kick, then wait until the kernel has given back every
 * slot or DRAIN seconds have passed (what is left counts as tx_unsent). */
void live_tx_drain(struct live_tx *tx);

/* Any thread: add the transmit counters to *ls. */
void live_tx_counters(const struct live_tx *tx, struct live_stats *ls);

/* Any thread: the MTU read at open, the slot count and size. */
unsigned live_tx_mtu(const struct live_tx *tx);
unsigned live_tx_frames(const struct live_tx *tx);
unsigned live_tx_frame_size(const struct live_tx *tx);

/* --- The statistics line --------------------------------------------------- */

struct live_meter {
	uint64_t start_ns, last_ns; /* monotonic */
	struct reasm_stats last;
	struct live_stats last_ls;
};

void live_meter_start(struct live_meter *m, uint64_t now_ns);

/* One line on @p f: rates since the previous line, drops and memory so
 * far. @p st and @p ls are sums of the slots (and transmit counters);
 * @p queued the outputs waiting in the priority queue. */
void live_meter_line(struct live_meter *m, FILE *f, uint64_t now_ns,
		     const struct reasm_stats *st, const struct live_stats *ls,
		     unsigned queued);

#endif /* REASM_LIVE_H */
