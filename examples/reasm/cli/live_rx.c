/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live_rx.c - reasm's receive side on a network interface (live.h):
 * one PACKET_MMAP ring per receive worker.
 *
 * RX_RING_SIZE bytes, all in one fanout group. The socket is made with
 * protocol 0 and bound to ETH_P_ALL on the interface only once its ring
 * exists, so no frame of another interface ever reaches it. A worker
 * waits in poll() for the block it expects next, walks its frames
 * (offset_to_first_pkt, then tp_next_offset), hands each to reasm_input()
 * and gives the block back (TP_STATUS_KERNEL) before looking at the next.
 * Blocks are RX_MIN_BLOCK or four of the interface's largest frames,
 * whichever is more, and retire after RX_RETIRE_MS: the kernel hands a
 * block over whole, so small blocks keep both latency and the drift
 * between workers small (with lb fanout each worker holds some fragments
 * of the same datagrams, which stay half-done until all have run).
 *
 * The kernel strips the outer VLAN tag into tp_vlan_tci; the worker puts
 * it back into a copy of the frame, so that the tag is part of the
 * datagram's key and of the output. Frames this host sends out of the
 * input interface reach packet sockets too (PACKET_OUTGOING): skipped.
 * Frames sent from this host with checksum offload carry only a partial
 * TCP/UDP checksum (TP_STATUS_CSUMNOTREADY); the copy gets the full one,
 * as the NIC would have written it.
 *
 * Clock: reasm_input() gets the frame's kernel timestamp (real time), or
 * the wall clock if the stamp is far from it; reasm_expire() runs every
 * EXPIRE_NS of wall-clock time, called by whichever worker first finds it
 * due (an atomic_flag keeps it to one at a time). Workers wake at least
 * every POLL_MS, so expiry also runs while nothing arrives.
 */
#define _DEFAULT_SOURCE /* struct ifreq, MAP_POPULATE */
#define MSG_PROG "reasm"
#include "inet.h"
#include "msg.h"
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

#define RX_RING_SIZE (8u << 20)
#define RX_MIN_BLOCK (256u << 10)
#define RX_FRAME_SIZE 2048u /* nominal: V3 packs frames by their size */
#define RX_RETIRE_MS 10u
#define POLL_MS 50
#define TS_SLACK_NS (10 * NS_PER_S) /* trust a frame's stamp this close */

/* --- The receive ring ------------------------------------------------------ */

struct live_rx {
	int fd;
	uint8_t *map; /* nblocks blocks of block_size */
	size_t map_len;
	unsigned block_size, nblocks;
	unsigned next;	  /* the block the kernel fills next */
	uint8_t *scratch; /* a frame with its VLAN tag put back */
};

static struct tpacket_block_desc *rx_block(struct live_rx *rx, unsigned i)
{
	return (struct tpacket_block_desc *)(void *)(rx->map +
						     (size_t)i *
							     rx->block_size);
}

void live_rx_close(struct live_rx *rx)
{
	if (rx == NULL)
		return;
	live_ring_unmap(rx->fd, rx->map, rx->map_len);
	free(rx->scratch);
	free(rx);
}

/* Joins the fanout group: a new one (the kernel picks a free id) if
 * !*has_group, else *group. @return 0 or -1 after a message. */
static int rx_join(struct live_rx *rx, const char *ifname,
		   enum live_fanout fanout, uint16_t *group, bool *has_group)
{
	int type = live_fanout_type(fanout);
	int arg;
	socklen_t len = sizeof(arg);

	if (*has_group)
		arg = *group | (type << 16);
	else
		arg = (type | PACKET_FANOUT_FLAG_UNIQUEID) << 16;
	if (set_int_opt(rx->fd, PACKET_FANOUT, arg) != 0) {
		errorf("%s: cannot join a fanout group (%s): %s", ifname,
		       live_fanout_name(fanout), strerror(errno));
		return -1;
	}
	if (*has_group)
		return 0;
	if (getsockopt(rx->fd, SOL_PACKET, PACKET_FANOUT, &arg, &len) != 0) {
		errorf("%s: cannot read the fanout group: %s", ifname,
		       strerror(errno));
		return -1;
	}
	*group = (uint16_t)(arg & 0xffff);
	*has_group = true;
	return 0;
}

int live_rx_open(struct live_rx **rxp, const char *ifname,
		 enum live_fanout fanout, uint16_t *group, bool *has_group)
{
	struct tpacket_req3 req;
	struct sockaddr_ll sll;
	struct live_rx *rx = calloc(1, sizeof(*rx));
	unsigned mtu = 0, frame;
	int ifindex;

	if (rx == NULL) {
		errorf("out of memory");
		return -1;
	}
	rx->fd = live_iface_socket(ifname, "receive", &ifindex, &mtu);
	if (rx->fd < 0)
		goto fail;
	/* The largest frame with its ring header; a frame longer than a
	 * block arrives truncated (counted by the engine). */
	frame = (mtu > IP_MAXPACKET + 1 ? IP_MAXPACKET + 1 : mtu) + 128;
	rx->block_size = RX_MIN_BLOCK;
	while (rx->block_size < 4 * frame)
		rx->block_size *= 2;
	rx->nblocks = RX_RING_SIZE / rx->block_size;
	rx->scratch = malloc(rx->block_size + VLAN_HLEN);
	if (rx->scratch == NULL) {
		errorf("out of memory");
		goto fail;
	}

	if (set_int_opt(rx->fd, PACKET_VERSION, TPACKET_V3) != 0) {
		errorf("%s: TPACKET_V3 refused: %s", ifname, strerror(errno));
		goto fail;
	}
	memset(&req, 0, sizeof(req));
	req.tp_block_size = rx->block_size;
	req.tp_block_nr = rx->nblocks;
	req.tp_frame_size = RX_FRAME_SIZE;
	req.tp_frame_nr = rx->block_size / RX_FRAME_SIZE * rx->nblocks;
	req.tp_retire_blk_tov = RX_RETIRE_MS;
	if (setsockopt(rx->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) !=
	    0) {
		errorf("%s: cannot set up the receive ring: %s", ifname,
		       strerror(errno));
		goto fail;
	}
	rx->map_len = (size_t)rx->block_size * rx->nblocks;
	rx->map = live_ring_map(rx->fd, rx->map_len, ifname, "receive");
	if (rx->map == NULL)
		goto fail;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(rx->fd, (struct sockaddr *)&sll, sizeof(sll)) != 0) {
		errorf("%s: cannot bind the receive socket: %s", ifname,
		       strerror(errno));
		goto fail;
	}
	if (rx_join(rx, ifname, fanout, group, has_group) != 0)
		goto fail;
	*rxp = rx;
	return 0;
fail:
	live_rx_close(rx);
	return -1;
}

/* Completes the TCP or UDP checksum of a frame the kernel marked
 * TP_STATUS_CSUMNOTREADY: sent by this host (or a namespace of it) to a
 * device with checksum offload, its checksum field holds only the
 * pseudo-header's sum, and a real NIC would have filled it in on the way
 * out. Handles IPv4 without fragmentation and IPv6 with Hop-by-Hop or
 * Destination Options headers; leaves anything else alone.
 * @return true if the checksum was written. */
static bool complete_checksum(uint8_t *f, uint32_t len)
{
	uint32_t off = 12, l4, l4len, sum;
	const uint8_t *addrs;
	size_t alen;
	uint16_t etype;
	uint8_t proto;
	unsigned field;

	if (len < 14)
		return false;
	etype = inet_rd16(f + off);
	while ((etype == ETH_P_8021Q || etype == ETH_P_8021AD) &&
	       off + 6 <= len) {
		off += 4;
		etype = inet_rd16(f + off);
	}
	off += 2;
	if (etype == ETH_P_IP) {
		uint32_t ihl, tot;

		if (len < off + 20 || (f[off] >> 4) != 4)
			return false;
		ihl = (uint32_t)(f[off] & 15) * 4;
		tot = inet_rd16(f + off + 2);
		if (ihl < 20 || tot < ihl || off + tot > len ||
		    (inet_rd16(f + off + 6) & 0x3fff) != 0)
			return false;
		proto = f[off + 9];
		l4 = off + ihl;
		l4len = tot - ihl;
		addrs = f + off + 12;
		alen = 4;
	} else if (etype == ETH_P_IPV6) {
		uint32_t end;

		if (len < off + 40 || (f[off] >> 4) != 6)
			return false;
		end = off + 40 + inet_rd16(f + off + 4);
		if (end > len)
			return false;
		proto = f[off + 6];
		l4 = off + 40;
		while (proto == 0 || proto == 60) { /* HBH, Destination */
			if (l4 + 8 > end)
				return false;
			proto = f[l4];
			l4 += ((uint32_t)f[l4 + 1] + 1) * 8;
		}
		if (l4 > end)
			return false;
		l4len = end - l4;
		addrs = f + off + 8;
		alen = 16;
	} else {
		return false;
	}
	if (proto == 6 && l4len >= 20)
		field = 16;
	else if (proto == 17 && l4len >= 8)
		field = 6;
	else
		return false;

	sum = inet_pseudo_sum(addrs, addrs + alen, alen, proto, l4len);
	inet_wr16(f + l4 + field, 0);
	sum = inet_sum(sum, f + l4, l4len);
	/* UDP: 0 would mean "no checksum" */
	inet_wr16(f + l4 + field,
		  proto == 17 ? inet_udp_fold(sum) : inet_fold(sum));
	return true;
}

/* One frame of a block. @p wall: the wall clock when the block was
 * taken. */
static void rx_frame(struct live_rx_worker *lw, const struct tpacket3_hdr *h,
		     uint64_t wall)
{
	const struct sockaddr_ll *sll =
		(const void *)((const uint8_t *)h +
			       TPACKET_ALIGN(sizeof(struct tpacket3_hdr)));
	const uint8_t *frame = (const uint8_t *)h + h->tp_mac;
	uint32_t caplen = h->tp_snaplen, wirelen = h->tp_len;
	uint32_t status = h->tp_status;
	uint64_t ts = (uint64_t)h->tp_sec * NS_PER_S + h->tp_nsec;
	bool vlan = (status & TP_STATUS_VLAN_VALID) != 0;
	bool csum = (status & TP_STATUS_CSUMNOTREADY) != 0 && caplen == wirelen;

	if (sll->sll_pkttype == PACKET_OUTGOING)
		return; /* sent by this host out of the input interface */
	if (ts + TS_SLACK_NS < wall || ts > wall + TS_SLACK_NS)
		ts = wall;

	if ((vlan || csum) && caplen >= 12 && caplen <= lw->rx->block_size) {
		uint8_t *copy = lw->rx->scratch;
		uint32_t n = 12;

		memcpy(copy, frame, 12);
		if (vlan) {
			uint16_t tpid = ETH_P_8021Q;

			if (status & TP_STATUS_VLAN_TPID_VALID)
				tpid = h->hv1.tp_vlan_tpid;
			inet_wr16(copy + 12, tpid);
			inet_wr16(copy + 14, (uint16_t)h->hv1.tp_vlan_tci);
			n += VLAN_HLEN;
			lw->ls.rx_vlan++;
		}
		memcpy(copy + n, frame + 12, caplen - 12);
		if (vlan) {
			caplen += VLAN_HLEN;
			wirelen += VLAN_HLEN;
		}
		if (csum && complete_checksum(copy, caplen))
			lw->ls.rx_csum++;
		frame = copy;
	}
	(void)reasm_input(&lw->w, frame, caplen, wirelen, ts);
}

/* Walks the frames of a block the kernel has handed over. */
static void rx_walk(struct live_rx_worker *lw, struct tpacket_block_desc *bd)
{
	uint32_t n = bd->hdr.bh1.num_pkts;
	const uint8_t *p =
		(const uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt;
	uint64_t wall = live_real_ns();

	for (uint32_t i = 0; i < n; i++) {
		const struct tpacket3_hdr *h = (const void *)p;

		rx_frame(lw, h, wall);
		p += h->tp_next_offset;
	}
}

/* Expiry, if due and no other worker is at it. */
static void rx_expire(struct live_rx_worker *lw, uint64_t mono)
{
	struct live_ctl *c = lw->ctl;

	if (mono < atomic_load_explicit(&c->expire_due, memory_order_relaxed))
		return;
	/* A4: pairs with R4 below: the previous holder's update of
	 * expire_due is seen. */
	if (atomic_flag_test_and_set_explicit(&c->expiring,
					      memory_order_acquire))
		return;
	if (mono >=
	    atomic_load_explicit(&c->expire_due, memory_order_relaxed)) {
		atomic_store_explicit(&c->expire_due, mono + EXPIRE_NS,
				      memory_order_relaxed);
		(void)reasm_expire(&lw->w, live_real_ns());
	}
	/* R4: pairs with A4. */
	atomic_flag_clear_explicit(&c->expiring, memory_order_release);
}

/* Adds the ring's counters since the last call (reading resets them). */
static void rx_ring_stats(struct live_rx *rx, struct live_stats *ls)
{
	struct tpacket_stats_v3 s;
	socklen_t len = sizeof(s);

	memset(&s, 0, sizeof(s));
	if (getsockopt(rx->fd, SOL_PACKET, PACKET_STATISTICS, &s, &len) != 0)
		return;
	ls->rx_ring_packets += s.tp_packets;
	ls->rx_ring_drops += s.tp_drops;
	ls->rx_freeze_q += s.tp_freeze_q_cnt;
}

static void rx_publish(struct live_rx_worker *lw)
{
	rx_ring_stats(lw->rx, &lw->ls);
	live_slot_publish(&lw->slot, &lw->w.st, &lw->ls);
}

void *live_rx_thread(void *arg)
{
	struct live_rx_worker *lw = arg;
	struct live_rx *rx = lw->rx;
	unsigned left = 0; /* blocks still to finish after the stop */
	bool stopping = false;

	for (;;) {
		struct tpacket_block_desc *bd = rx_block(rx, rx->next);
		_Atomic(uint32_t) *bs = status_word(&bd->hdr.bh1.block_status);
		uint64_t mono;

		/* A5: pairs with the kernel's smp_wmb() before it sets
		 * TP_STATUS_USER: the block's frames are visible. */
		if (atomic_load_explicit(bs, memory_order_acquire) &
		    TP_STATUS_USER) {
			rx_walk(lw, bd);
			/* R5: every read of the block happens before the
			 * kernel may refill it. */
			atomic_store_explicit(bs, TP_STATUS_KERNEL,
					      memory_order_release);
			rx->next = (rx->next + 1) % rx->nblocks;
			if (stopping && --left == 0)
				break;
		} else if (stopping) {
			break;
		} else {
			struct pollfd pfd = { .fd = rx->fd,
					      .events = POLLIN | POLLERR };

			if (poll(&pfd, 1, POLL_MS) > 0 &&
			    (pfd.revents & POLLERR)) {
				int err = 0;
				socklen_t len = sizeof(err);

				/* Reading the pending error (ENETDOWN when
				 * the link goes down) clears it. */
				(void)getsockopt(rx->fd, SOL_SOCKET, SO_ERROR,
						 &err, &len);
			}
		}
		mono = live_mono_ns();
		rx_expire(lw, mono);
		if (live_slot_due(&lw->slot, mono))
			rx_publish(lw);
		if (!stopping && live_ctl_stopping(lw->ctl)) {
			/* Finish what the kernel has handed over: at most
			 * one lap of the ring. */
			stopping = true;
			left = rx->nblocks;
		}
	}
	rx_publish(lw);
	return NULL;
}
