/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live_tx.c - reasm's transmit side on a network interface (live.h): a
 * PACKET_MMAP transmit ring and the kicker thread that makes its send()
 * calls (kicker.h).
 *
 * Transmit. One TPACKET_V2 ring on a socket of protocol 0 (it receives
 * nothing) with PACKET_LOSS, so that a frame the kernel refuses is skipped
 * instead of stopping the ring. Slots are filled in ring order, the order
 * in which the kernel sends them; a slot is free once its status no
 * longer has SEND_REQUEST or SENDING. When the next slot is busy the
 * thread kicks the kernel and sleeps: in poll(POLLOUT), which reports the
 * kernel's next slot free, and then, since POLLOUT also means "the socket
 * buffer has room", in a send() without MSG_DONTWAIT, which returns once
 * every slot in flight is back (or after SO_SNDTIMEO). It never spins.
 */
#define _DEFAULT_SOURCE /* struct ifreq, MAP_POPULATE */
#define MSG_PROG "reasm"
#include "inet.h"
#include "msg.h"
#include "kicker.h"
#include "live.h"
#include "live_sock.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TX_DATA_OFF (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))
#define TX_MAX_BLOCK (4u << 20)
#define TX_KICK_BATCH 32u
#define TX_WAIT_MS 20
#define TX_STALL_NS (2 * NS_PER_S)
#define TX_DRAIN_NS (3 * NS_PER_S)

/* --- Transmit -------------------------------------------------------------- */

struct live_tx {
	int fd;
	uint8_t *map;
	size_t map_len;
	unsigned block_size, frame_size, per_block, nframes;
	unsigned mtu;
	unsigned head;	  /* the next slot to fill */
	unsigned pending; /* slots filled since the last kick */
	bool abandoned;	  /* stalled at stop: drop everything */
	bool set_dst, set_src;
	uint8_t dst[6], src[6];
	char ifname[IFNAMSIZ];
	const _Atomic(bool) *stopping;
	/* live_tx_reserve()'s area and length, until the commit. */
	uint8_t *reserved;
	uint32_t reserved_len;
	/* Written by the transmit thread only, read by any. */
	_Atomic(uint64_t) frames, bytes, oversize, truncated, runt,
		wrong_format, errors, unsent;
	struct kicker *kicker; /* live_tx_kicker_start(), or NULL */
};

static struct tpacket2_hdr *tx_slot(struct live_tx *tx, unsigned i)
{
	size_t off = (size_t)(i / tx->per_block) * tx->block_size +
		     (size_t)(i % tx->per_block) * tx->frame_size;

	return (struct tpacket2_hdr *)(void *)(tx->map + off);
}

/* The block size for slots of @p frame_size bytes: the smallest power-of-two
 * number of pages (the kernel allocates blocks by page order) that holds a
 * slot and wastes at most 1/16 of itself, or else the least wasteful one up
 * to TX_MAX_BLOCK. */
static unsigned tx_block_size(unsigned frame_size, unsigned page)
{
	unsigned b = page, best = 0;
	uint64_t best_waste = 0;

	while (b < frame_size)
		b *= 2;
	for (;; b *= 2) {
		uint64_t waste = b % frame_size;

		if (waste * 16 <= b)
			return b;
		/* waste / b below best_waste / best? */
		if (best == 0 || waste * best < best_waste * b) {
			best = b;
			best_waste = waste;
		}
		if (b >= TX_MAX_BLOCK)
			return best;
	}
}

/* Socket settings for the ring. The send buffer limits the bytes in flight
 * (the kernel charges each slot's length to it): make room for the whole
 * ring, beyond net.core.wmem_max if allowed (SO_SNDBUFFORCE needs
 * CAP_NET_ADMIN), else as much as wmem_max permits. The send timeout
 * bounds each wait in tx_wait_sent(). Neither is essential: failures are
 * ignored. */
static void tx_buffers(struct live_tx *tx)
{
	uint64_t ring = (uint64_t)tx->nframes * tx->frame_size;
	int size = ring > INT32_MAX / 2 ? INT32_MAX / 2 : (int)ring;
	struct timeval tv = { .tv_sec = 0, .tv_usec = TX_WAIT_MS * 1000 };

	if (setsockopt(tx->fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		       sizeof(size)) != 0)
		(void)setsockopt(tx->fd, SOL_SOCKET, SO_SNDBUF, &size,
				 sizeof(size));
	(void)setsockopt(tx->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

void live_tx_close(struct live_tx *tx)
{
	if (tx == NULL)
		return;
	kicker_free(tx->kicker);
	live_ring_unmap(tx->fd, tx->map, tx->map_len);
	free(tx);
}

int live_tx_open(struct live_tx **txp, const struct live_tx_config *cfg)
{
	const char *ifname = cfg->ifname;
	struct tpacket_req req;
	struct sockaddr_ll sll;
	struct live_tx *tx;
	long page = sysconf(_SC_PAGESIZE);
	unsigned blocks, want = cfg->frames != 0 ? cfg->frames : 1;
	int ifindex;

	tx = calloc(1, sizeof(*tx));
	if (tx == NULL) {
		errorf("out of memory");
		return -1;
	}
	tx->set_dst = cfg->set_dst;
	tx->set_src = cfg->set_src;
	memcpy(tx->dst, cfg->dst, 6);
	memcpy(tx->src, cfg->src, 6);
	tx->stopping = cfg->stopping;
	tx->fd = live_iface_socket(ifname, "send", &ifindex, &tx->mtu);
	if (tx->fd < 0)
		goto fail;
	if (tx->mtu > IP_MAXPACKET + 1)
		tx->mtu = IP_MAXPACKET + 1; /* lo: 65536; nothing is longer */

	if (set_int_opt(tx->fd, PACKET_VERSION, TPACKET_V2) != 0) {
		errorf("%s: TPACKET_V2 refused: %s", ifname, strerror(errno));
		goto fail;
	}
	if (set_int_opt(tx->fd, PACKET_LOSS, 1) != 0) {
		errorf("%s: PACKET_LOSS refused: %s", ifname, strerror(errno));
		goto fail;
	}
	if (cfg->qdisc_bypass &&
	    set_int_opt(tx->fd, PACKET_QDISC_BYPASS, 1) != 0) {
		errorf("%s: PACKET_QDISC_BYPASS refused: %s", ifname,
		       strerror(errno));
		goto fail;
	}

	/* A slot holds the header, then the frame: the MTU, an Ethernet
	 * header and one VLAN tag. */
	tx->frame_size = (unsigned)TPACKET_ALIGN(TX_DATA_OFF + tx->mtu +
						 ETH_HLEN + VLAN_HLEN);
	tx->block_size = tx_block_size(tx->frame_size,
				       page > 0 ? (unsigned)page : 4096u);
	tx->per_block = tx->block_size / tx->frame_size;
	blocks = (want + tx->per_block - 1) / tx->per_block;
	tx->nframes = blocks * tx->per_block;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = tx->block_size;
	req.tp_block_nr = blocks;
	req.tp_frame_size = tx->frame_size;
	req.tp_frame_nr = tx->nframes;
	if (setsockopt(tx->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) !=
	    0) {
		errorf("%s: cannot set up the transmit ring (%u slots of %u "
		       "bytes): %s",
		       ifname, tx->nframes, tx->frame_size, strerror(errno));
		goto fail;
	}

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = 0; /* send only */
	sll.sll_ifindex = ifindex;
	if (bind(tx->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		errorf("%s: cannot bind the transmit socket: %s", ifname,
		       strerror(errno));
		goto fail;
	}
	tx_buffers(tx);
	tx->map_len = (size_t)tx->block_size * blocks;
	tx->map = live_ring_map(tx->fd, tx->map_len, ifname, "transmit");
	if (tx->map == NULL)
		goto fail;

	memcpy(tx->ifname, ifname, strlen(ifname) + 1);
	*txp = tx;
	return 0;
fail:
	live_tx_close(tx);
	return -1;
}

void live_tx_advise(const struct live_tx *tx, FILE *f)
{
	if (tx->mtu < IP_MAXPACKET)
		fprintf(f,
			"reasm: note: %s has MTU %u: reassembled datagrams "
			"longer than that are dropped; to send datagrams of "
			"up to 65535 bytes run 'ip link set dev %s mtu 65535' "
			"before starting\n",
			tx->ifname, tx->mtu, tx->ifname);
}

unsigned live_tx_mtu(const struct live_tx *tx)
{
	return tx->mtu;
}

unsigned live_tx_frames(const struct live_tx *tx)
{
	return tx->nframes;
}

unsigned live_tx_frame_size(const struct live_tx *tx)
{
	return tx->frame_size;
}

/* One send() without waiting: the kernel queues every slot marked for
 * sending, in order, as long as the socket's send buffer has room, and
 * gives each back when the device is done with it. @return false if it
 * failed for another reason than a full buffer or a signal. */
static bool tx_send_now(int fd)
{
	return send(fd, NULL, 0, MSG_DONTWAIT) >= 0 || errno == EAGAIN ||
	       errno == EINTR || errno == ENOBUFS;
}

static void tx_send(struct live_tx *tx)
{
	if (!tx_send_now(tx->fd))
		bump(&tx->errors, 1);
	tx->pending = 0;
}

/* --- The kicker ------------------------------------------------------------ */

/* The send() of a burst does the kernel's whole transmit: it copies each
 * frame into socket buffers and, on veth, runs the receiving side too.
 * Done by the thread that fills the ring, that work and the filling take
 * turns; done by a kicker thread (kicker.h), they overlap on two CPUs. A
 * send covers every slot marked before it, so the kicker's one send for
 * several bursts is enough; and nothing would be lost without it: the
 * transmit thread kicks for itself when it waits for a free slot and when
 * it drains, and the kernel serializes senders on a ring. */
static bool tx_kick(void *arg, uint64_t upto)
{
	const struct live_tx *tx = arg;

	(void)upto;
	return tx_send_now(tx->fd);
}

int live_tx_kicker_start(struct live_tx *tx)
{
	if (tx->kicker != NULL)
		return -EBUSY;
	return kicker_start(&tx->kicker, tx_kick, tx);
}

bool live_tx_pending(struct live_tx *tx)
{
	unsigned last = tx->head == 0 ? tx->nframes - 1 : tx->head - 1;
	_Atomic(uint32_t) *s = status_word(&tx_slot(tx, last)->tp_status);

	/* The kernel takes slots in order: if it has taken the last one
	 * filled, it has taken them all. Relaxed: only a hint. */
	return tx->pending != 0 ||
	       (atomic_load_explicit(s, memory_order_relaxed) &
		TP_STATUS_SEND_REQUEST) != 0;
}

void live_tx_kick(struct live_tx *tx)
{
	if (live_tx_pending(tx))
		tx_send(tx);
}

void live_tx_nudge(const struct live_tx *tx)
{
	/* The kernel serializes senders on the ring (pg_vec_lock) and takes
	 * only slots whose owner has released them (R6), so this may run
	 * beside the transmit thread. Errors are that thread's to count. */
	(void)send(tx->fd, NULL, 0, MSG_DONTWAIT);
}

/* Is slot @p i free (the kernel has given it back)? A frame the kernel
 * refused (TP_STATUS_WRONG_FORMAT) is counted and its slot freed. */
static bool tx_free(struct live_tx *tx, unsigned i)
{
	_Atomic(uint32_t) *s = status_word(&tx_slot(tx, i)->tp_status);
	/* A6: pairs with the kernel's store of TP_STATUS_AVAILABLE once it
	 * has let go of the slot's pages (tpacket_destruct_skb): the slot
	 * may be written again. */
	uint32_t v = atomic_load_explicit(s, memory_order_acquire);

	if (v & TP_STATUS_WRONG_FORMAT) {
		bump(&tx->wrong_format, 1);
		atomic_store_explicit(s, TP_STATUS_AVAILABLE,
				      memory_order_relaxed);
		return true;
	}
	/* Other bits (timestamp sources) may come with AVAILABLE. */
	return (v & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING)) == 0;
}

static void nap_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)ms * 1000000 };

	nanosleep(&ts, NULL);
}

/* Sleeps until the kernel has sent every slot marked for sending and
 * given back every slot in flight, or for TX_WAIT_MS (SO_SNDTIMEO): a
 * send() without MSG_DONTWAIT does exactly that. An error that comes back
 * at once (the link is down) is counted and followed by a nap, so that the
 * caller's loop never spins. */
static void tx_wait_sent(struct live_tx *tx)
{
	tx->pending = 0;
	if (send(tx->fd, NULL, 0, 0) >= 0)
		return;
	if (errno == ETIMEDOUT || errno == EAGAIN || errno == EINTR)
		return;
	bump(&tx->errors, 1);
	nap_ms(TX_WAIT_MS);
}

/* Waits until the slot at head is free. @return false if the ring was
 * given up (no progress for TX_STALL_NS after the stop). */
static bool tx_wait_head(struct live_tx *tx)
{
	uint64_t since = 0;

	while (!tx_free(tx, tx->head)) {
		struct pollfd pfd = { .fd = tx->fd, .events = POLLOUT };
		uint64_t now;

		if (tx->abandoned)
			return false;
		live_tx_kick(tx);
		/* POLLOUT: the kernel's next slot is free. It is also set
		 * while the socket's send buffer has room, which says
		 * nothing about the slots; hence the check after it. */
		if (poll(&pfd, 1, TX_WAIT_MS) > 0 && tx_free(tx, tx->head))
			break;
		tx_wait_sent(tx);
		now = live_mono_ns();
		if (since == 0) {
			since = now;
		} else if (now - since >= TX_STALL_NS &&
			   atomic_load_explicit(tx->stopping,
						memory_order_relaxed)) {
			tx->abandoned = true;
			return false;
		}
	}
	return true;
}

/*
 * The checks a frame of @p len bytes (@p orig_len on the wire), whose first
 * @p lead_len bytes are @p lead, must pass before it may go on the ring,
 * then the wait for the slot at head. @return that slot's data area, or
 * NULL with *drop set to the counter the frame is dropped under (NULL: too
 * little of the frame is known to tell, which only a reservation can meet).
 */
static uint8_t *tx_claim(struct live_tx *tx, uint32_t len, uint32_t orig_len,
			 const uint8_t *lead, uint32_t lead_len,
			 _Atomic(uint64_t) **drop)
{
	uint32_t limit = tx->mtu + ETH_HLEN;

	*drop = NULL;
	if (len < ETH_HLEN) {
		*drop = &tx->runt;
		return NULL;
	}
	if (orig_len > len) {
		*drop = &tx->truncated;
		return NULL;
	}
	if (lead_len < ETH_HLEN)
		return NULL;
	/* The kernel allows a tag's 4 bytes past the MTU for 802.1Q only. */
	if (inet_rd16(lead + 12) == ETH_P_8021Q)
		limit += VLAN_HLEN;
	if (len > limit || len > tx->frame_size - TX_DATA_OFF) {
		*drop = &tx->oversize;
		return NULL;
	}
	if (tx->abandoned || !tx_wait_head(tx)) {
		*drop = &tx->unsent;
		return NULL;
	}
	return (uint8_t *)tx_slot(tx, tx->head) + TX_DATA_OFF;
}

/* The frame of @p len bytes written in the head slot goes to the kernel:
 * the addresses set, the slot marked for sending, head moved on, counted,
 * and a kick once per batch. */
static void tx_publish(struct live_tx *tx, uint32_t len)
{
	struct tpacket2_hdr *h = tx_slot(tx, tx->head);
	uint8_t *data = (uint8_t *)h + TX_DATA_OFF;

	if (tx->set_dst)
		memcpy(data, tx->dst, 6);
	if (tx->set_src)
		memcpy(data + 6, tx->src, 6);
	h->tp_len = len;
	h->tp_snaplen = len;
	/* R6: the frame and its length are written before the kernel sees
	 * the slot marked for sending (it reads the status, then smp_rmb()). */
	atomic_store_explicit(status_word(&h->tp_status),
			      TP_STATUS_SEND_REQUEST, memory_order_release);
	tx->head = tx->head + 1 == tx->nframes ? 0 : tx->head + 1;
	bump(&tx->frames, 1);
	bump(&tx->bytes, len);
	if (++tx->pending >= TX_KICK_BATCH) {
		if (tx->kicker != NULL && kicker_running(tx->kicker)) {
			tx->pending = 0;
			kicker_hand_over(tx->kicker);
		} else {
			tx_send(tx);
		}
	}
}

void live_tx_put(struct live_tx *tx, struct reasm_out *out)
{
	_Atomic(uint64_t) *drop;
	uint8_t *data = tx_claim(tx, out->len, out->orig_len, out->data,
				 out->len, &drop);

	if (data != NULL) {
		memcpy(data, out->data, out->len);
		tx_publish(tx, out->len);
	} else if (drop != NULL) {
		bump(drop, 1);
	}
	reasm_out_free(out);
}

uint8_t *live_tx_reserve(struct live_tx *tx, uint32_t len, uint32_t orig_len,
			 const uint8_t *lead, uint32_t lead_len)
{
	_Atomic(uint64_t) *drop;

	tx->reserved = tx_claim(tx, len, orig_len, lead, lead_len, &drop);
	tx->reserved_len = tx->reserved != NULL ? len : 0;
	return tx->reserved;
}

void live_tx_commit(struct live_tx *tx, uint8_t *data, uint32_t len)
{
	assert(data != NULL && data == tx->reserved);
	assert(len == tx->reserved_len);
	(void)data;
	tx->reserved = NULL;
	tx->reserved_len = 0;
	tx_publish(tx, len);
}

static uint8_t *sink_reserve(void *arg, const struct reasm_meta *m,
			     const uint8_t *lead, uint32_t lead_len)
{
	return live_tx_reserve(arg, m->len, m->orig_len, lead, lead_len);
}

static void sink_commit(void *arg, uint8_t *data, const struct reasm_meta *m)
{
	live_tx_commit(arg, data, m->len);
}

void live_tx_sink(struct live_tx *tx, struct reasm_sink *sink)
{
	sink->reserve = sink_reserve;
	sink->commit = sink_commit;
	sink->arg = tx;
}

void live_tx_drain(struct live_tx *tx)
{
	uint64_t deadline = live_mono_ns() + TX_DRAIN_NS;

	if (tx->kicker != NULL)
		kicker_stop(tx->kicker);

	for (;;) {
		unsigned busy = 0;

		for (unsigned i = 0; i < tx->nframes; i++) {
			if (!tx_free(tx, i))
				busy++;
		}
		if (busy == 0)
			return;
		if (tx->abandoned || live_mono_ns() >= deadline) {
			bump(&tx->unsent, busy);
			return;
		}
		tx_wait_sent(tx);
	}
}

void live_tx_counters(const struct live_tx *tx, struct live_stats *ls)
{
	ls->tx_frames +=
		atomic_load_explicit(&tx->frames, memory_order_relaxed);
	ls->tx_bytes += atomic_load_explicit(&tx->bytes, memory_order_relaxed);
	ls->tx_oversize +=
		atomic_load_explicit(&tx->oversize, memory_order_relaxed);
	ls->tx_truncated +=
		atomic_load_explicit(&tx->truncated, memory_order_relaxed);
	ls->tx_runt += atomic_load_explicit(&tx->runt, memory_order_relaxed);
	ls->tx_wrong_format +=
		atomic_load_explicit(&tx->wrong_format, memory_order_relaxed);
	ls->tx_errors +=
		atomic_load_explicit(&tx->errors, memory_order_relaxed);
	if (tx->kicker != NULL)
		ls->tx_errors += kicker_errors(tx->kicker);
	ls->tx_unsent +=
		atomic_load_explicit(&tx->unsent, memory_order_relaxed);
}
