/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.c - reasm on a network interface: PACKET_MMAP rings in and out.
 *
 * Receive. One AF_PACKET socket per worker, each with a TPACKET_V3 ring of
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
 *
 * The ring status words are shared with the kernel, which orders its side
 * with smp_wmb()/smp_rmb(). They are plain __u32 fields in the uapi
 * structs; they are accessed here as _Atomic(uint32_t) (same size and
 * alignment, checked below) for acquire/release ordering.
 *
 * References (read, not copied): Linux Documentation/networking/
 * packet_mmap.rst and net/packet/af_packet.c (tpacket_rcv, tpacket_snd,
 * tpacket_destruct_skb, fanout_add, packet_poll).
 */
#define _DEFAULT_SOURCE /* struct ifreq, MAP_POPULATE */
#define MSG_PROG "reasm"
#include "inet.h"
#include "msg.h"
#include "kicker.h"
#include "live.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull

#define RX_RING_SIZE (8u << 20)
#define RX_MIN_BLOCK (256u << 10)
#define RX_FRAME_SIZE 2048u /* nominal: V3 packs frames by their size */
#define RX_RETIRE_MS 10u
#define POLL_MS 50
#define EXPIRE_NS (100 * NS_PER_MS)
#define PUBLISH_NS (50 * NS_PER_MS)
#define TS_SLACK_NS (10 * NS_PER_S) /* trust a frame's stamp this close */

#define TX_DATA_OFF (TPACKET2_HDRLEN - sizeof(struct sockaddr_ll))
#define TX_MAX_BLOCK (4u << 20)
#define TX_KICK_BATCH 32u
#define TX_WAIT_MS 20
#define TX_STALL_NS (2 * NS_PER_S)
#define TX_DRAIN_NS (3 * NS_PER_S)

#define VLAN_HLEN 4u
#define IP_MAXPACKET 65535u

static_assert(sizeof(_Atomic(uint32_t)) == sizeof(uint32_t),
	      "ring status words are accessed as _Atomic(uint32_t)");
static_assert(_Alignof(_Atomic(uint32_t)) == _Alignof(uint32_t),
	      "ring status words are accessed as _Atomic(uint32_t)");

/* --- Small helpers --------------------------------------------------------- */

static _Atomic(uint32_t) *status_word(uint32_t *p)
{
	return (_Atomic(uint32_t) *)(void *)p;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t live_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t live_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

/* Relaxed counter bump by the counter's only writer. */
static void bump(_Atomic(uint64_t) *c, uint64_t n)
{
	atomic_store_explicit(c,
			      atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

/* --- Counters -------------------------------------------------------------- */

#define LIVE_FIELD(f) COUNTER_FIELD(struct live_stats, f)

/* Every field of struct live_stats, in declaration order. */
static const struct counter_field live_fields[] = {
	LIVE_FIELD(rx_ring_packets), LIVE_FIELD(rx_ring_drops),
	LIVE_FIELD(rx_freeze_q),     LIVE_FIELD(rx_vlan),
	LIVE_FIELD(rx_csum),	     LIVE_FIELD(tx_frames),
	LIVE_FIELD(tx_bytes),	     LIVE_FIELD(tx_oversize),
	LIVE_FIELD(tx_truncated),    LIVE_FIELD(tx_runt),
	LIVE_FIELD(tx_wrong_format), LIVE_FIELD(tx_errors),
	LIVE_FIELD(tx_unsent),
};

#define LIVE_FIELD_COUNT (sizeof(live_fields) / sizeof(live_fields[0]))

static_assert(sizeof(struct live_stats) == LIVE_FIELD_COUNT * sizeof(uint64_t),
	      "struct live_stats changed: update live_fields[] in live.c");

void live_stats_add(struct live_stats *into, const struct live_stats *add)
{
	struct live_stats tmp = *add;

	counters_add(into, &tmp, live_fields, LIVE_FIELD_COUNT);
}

int live_stats_json(FILE *f, const struct reasm_stats *st,
		    const struct live_stats *ls)
{
	struct live_stats tmp;

	if (f == NULL || st == NULL || ls == NULL)
		return -EINVAL;
	tmp = *ls;
	fputs("{\n", f);
	(void)reasm_stats_json_members(f, st);
	fputs(",\n  \"live\": {\n", f);
	counters_json_members(f, &tmp, live_fields, LIVE_FIELD_COUNT, "    ");
	fputs("\n  }\n}\n", f);
	if (fflush(f) != 0 || ferror(f))
		return -EIO;
	return 0;
}

/* ", <n> <what>" when n is not zero. */
static void summary_item(FILE *f, uint64_t n, const char *what)
{
	if (n != 0)
		fprintf(f, ", %llu %s", (unsigned long long)n, what);
}

void live_stats_summary(FILE *f, const struct live_stats *ls, bool rx, bool tx)
{
	if (f == NULL || ls == NULL)
		return;
	if (rx) {
		fprintf(f,
			"receive:     %llu frames offered to the rings, "
			"%llu dropped there",
			(unsigned long long)ls->rx_ring_packets,
			(unsigned long long)ls->rx_ring_drops);
		summary_item(f, ls->rx_freeze_q, "while frozen");
		summary_item(f, ls->rx_vlan, "VLAN tags put back");
		summary_item(f, ls->rx_csum, "checksums completed");
		fputc('\n', f);
	}
	if (tx) {
		fprintf(f, "transmit:    %llu frames, %llu bytes",
			(unsigned long long)ls->tx_frames,
			(unsigned long long)ls->tx_bytes);
		summary_item(f, ls->tx_oversize, "oversize (dropped)");
		summary_item(f, ls->tx_truncated, "truncated (dropped)");
		summary_item(f, ls->tx_runt, "runts (dropped)");
		summary_item(f, ls->tx_wrong_format, "refused by the kernel");
		summary_item(f, ls->tx_errors, "send errors");
		summary_item(f, ls->tx_unsent, "unsent at stop");
		fputc('\n', f);
	}
}

/* --- Published snapshots --------------------------------------------------- */

int live_slot_init(struct live_slot *s)
{
	memset(s, 0, sizeof(*s));
	return pthread_mutex_init(&s->lock, NULL) == 0 ? 0 : -1;
}

void live_slot_fini(struct live_slot *s)
{
	pthread_mutex_destroy(&s->lock);
}

void live_slot_publish(struct live_slot *s, const struct reasm_stats *st,
		       const struct live_stats *ls)
{
	pthread_mutex_lock(&s->lock);
	s->st = *st;
	s->ls = *ls;
	pthread_mutex_unlock(&s->lock);
}

bool live_slot_due(struct live_slot *s, uint64_t now_ns)
{
	if (now_ns < s->due_ns)
		return false;
	s->due_ns = now_ns + PUBLISH_NS;
	return true;
}

void live_slot_sum(struct live_slot *s, struct reasm_stats *st,
		   struct live_stats *ls)
{
	struct reasm_stats a;
	struct live_stats b;

	pthread_mutex_lock(&s->lock);
	a = s->st;
	b = s->ls;
	pthread_mutex_unlock(&s->lock);

	st->packets += a.packets;
	st->passed += a.passed;
	st->ReasmReqds += a.ReasmReqds;
	st->ReasmOKs += a.ReasmOKs;
	st->ReasmFails += a.ReasmFails;
	st->ReasmTimeout += a.ReasmTimeout;
	st->refused += a.refused;
	st->emitted += a.emitted;
	st->emitted_bytes += a.emitted_bytes;
	if (a.bytes_peak > st->bytes_peak)
		st->bytes_peak = a.bytes_peak;
	live_stats_add(ls, &b);
}

/* --- Interfaces ------------------------------------------------------------ */

/* The index of @p ifname. @return it, or 0 after a message. */
static int iface_index(const char *ifname)
{
	unsigned idx = 0;

	if (ifname[0] != '\0' && strlen(ifname) < IFNAMSIZ)
		idx = if_nametoindex(ifname);
	if (idx == 0 || idx > (unsigned)INT32_MAX) {
		errorf("%s: no such interface", ifname);
		return 0;
	}
	return (int)idx;
}

/* A packet socket of protocol 0 (it receives nothing until bound to a
 * protocol). @return the descriptor, or -1 after a message. */
static int packet_socket(const char *ifname, const char *what)
{
	int fd = socket(AF_PACKET, SOCK_RAW, 0);

	if (fd >= 0)
		return fd;
	if (errno == EPERM || errno == EACCES)
		errorf("%s: cannot open a packet socket to %s: %s (run as "
		       "root or with CAP_NET_RAW)",
		       ifname, what, strerror(errno));
	else
		errorf("%s: cannot open a packet socket to %s: %s", ifname,
		       what, strerror(errno));
	return -1;
}

/* Checks that @p ifname carries Ethernet frames; reads its MTU if @p mtu.
 * @return 0 or -1 after a message. */
static int iface_check(int fd, const char *ifname, unsigned *mtu)
{
	struct ifreq ifr;
	unsigned type;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname) + 1);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) {
		errorf("%s: cannot read the link type: %s", ifname,
		       strerror(errno));
		return -1;
	}
	type = ifr.ifr_hwaddr.sa_family;
	/* Loopback frames carry an Ethernet header too. */
	if (type != ARPHRD_ETHER && type != ARPHRD_LOOPBACK) {
		errorf("%s: not an Ethernet interface (ARP hardware type %u)",
		       ifname, type);
		return -1;
	}
	if (mtu == NULL)
		return 0;
	if (ioctl(fd, SIOCGIFMTU, &ifr) != 0 || ifr.ifr_mtu <= 0) {
		errorf("%s: cannot read the MTU: %s", ifname, strerror(errno));
		return -1;
	}
	*mtu = (unsigned)ifr.ifr_mtu;
	return 0;
}

static int set_int_opt(int fd, int name, int value)
{
	return setsockopt(fd, SOL_PACKET, name, &value, sizeof(value));
}

/* --- Receive --------------------------------------------------------------- */

/* Each mode's name and the kernel's fanout type for it. */
static const struct {
	const char *name;
	int type;
} fanouts[] = {
	[LIVE_FANOUT_LB] = { "lb", PACKET_FANOUT_LB },
	[LIVE_FANOUT_CPU] = { "cpu", PACKET_FANOUT_CPU },
	[LIVE_FANOUT_HASH] = { "hash", PACKET_FANOUT_HASH },
};

#define FANOUT_COUNT (sizeof(fanouts) / sizeof(fanouts[0]))

/* @p f's row; a value outside the enum reads as LIVE_FANOUT_LB. */
static unsigned fanout_row(enum live_fanout f)
{
	return (unsigned)f < FANOUT_COUNT ? (unsigned)f : LIVE_FANOUT_LB;
}

int live_fanout_parse(const char *name)
{
	for (unsigned i = 0; i < FANOUT_COUNT; i++)
		if (strcmp(name, fanouts[i].name) == 0)
			return (int)i;
	return -1;
}

const char *live_fanout_name(enum live_fanout f)
{
	return fanouts[fanout_row(f)].name;
}

static int fanout_type(enum live_fanout f)
{
	return fanouts[fanout_row(f)].type;
}

void live_ctl_init(struct live_ctl *c)
{
	atomic_init(&c->stop, false);
	atomic_flag_clear_explicit(&c->expiring, memory_order_relaxed);
	atomic_init(&c->expire_due, live_mono_ns() + EXPIRE_NS);
}

void live_ctl_stop(struct live_ctl *c)
{
	atomic_store_explicit(&c->stop, true, memory_order_relaxed);
}

bool live_ctl_stopping(const struct live_ctl *c)
{
	/* Relaxed: the flag carries no data; the workers' results reach
	 * the main thread through pthread_join(). */
	return atomic_load_explicit(&c->stop, memory_order_relaxed);
}

/* --- PACKET_MMAP rings ------------------------------------------------------ */

/* Maps the ring of socket @p fd (@p len bytes). @return the mapping, or
 * NULL after a message naming @p ifname and the @p what ring. */
static uint8_t *ring_map(int fd, size_t len, const char *ifname,
			 const char *what)
{
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_POPULATE, fd, 0);

	if (map == MAP_FAILED) {
		errorf("%s: cannot map the %s ring: %s", ifname, what,
		       strerror(errno));
		return NULL;
	}
	return map;
}

/* Unmaps a ring_map() mapping (NULL: none) and closes @p fd (< 0: none). */
static void ring_unmap(int fd, uint8_t *map, size_t len)
{
	if (map != NULL)
		munmap(map, len);
	if (fd >= 0)
		close(fd);
}

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
	ring_unmap(rx->fd, rx->map, rx->map_len);
	free(rx->scratch);
	free(rx);
}

/* Joins the fanout group: a new one (the kernel picks a free id) if
 * !*has_group, else *group. @return 0 or -1 after a message. */
static int rx_join(struct live_rx *rx, const char *ifname,
		   enum live_fanout fanout, uint16_t *group, bool *has_group)
{
	int type = fanout_type(fanout);
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

/* What opening either side starts with: @p ifname's index in *ifindex,
 * and a packet socket (to @p what: "receive" or "send") on an interface
 * checked to carry Ethernet frames, its MTU in *mtu. @return the socket,
 * or -1 after a message (nothing left open). */
static int iface_socket(const char *ifname, const char *what, int *ifindex,
			unsigned *mtu)
{
	int fd;

	*ifindex = iface_index(ifname);
	if (*ifindex == 0)
		return -1;
	fd = packet_socket(ifname, what);
	if (fd >= 0 && iface_check(fd, ifname, mtu) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
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
	rx->fd = iface_socket(ifname, "receive", &ifindex, &mtu);
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
	rx->map = ring_map(rx->fd, rx->map_len, ifname, "receive");
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
	ring_unmap(tx->fd, tx->map, tx->map_len);
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
	tx->fd = iface_socket(ifname, "send", &ifindex, &tx->mtu);
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
	tx->map = ring_map(tx->fd, tx->map_len, ifname, "transmit");
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

/* --- The statistics line --------------------------------------------------- */

void live_meter_start(struct live_meter *m, uint64_t now_ns)
{
	memset(m, 0, sizeof(*m));
	m->start_ns = now_ns;
	m->last_ns = now_ns;
}

/* (now - then) per second over @p dt_ns. */
static uint64_t rate(uint64_t now, uint64_t then, uint64_t dt_ns)
{
	if (now <= then || dt_ns == 0)
		return 0;
	return (uint64_t)((double)(now - then) * 1e9 / (double)dt_ns + 0.5);
}

void live_meter_line(struct live_meter *m, FILE *f, uint64_t now_ns,
		     const struct reasm_stats *st, const struct live_stats *ls,
		     unsigned queued)
{
	uint64_t dt = now_ns - m->last_ns;
	double t = (double)(now_ns - m->start_ns) / 1e9;

	fprintf(f,
		"stats %.1fs: in %" PRIu64 " pkt/s, %" PRIu64 " frag/s; out "
		"%" PRIu64 " dgram/s, %" PRIu64 " frame/s; drops: ring %" PRIu64
		", refused %" PRIu64 ", oversize %" PRIu64 ", unsent %" PRIu64
		", evicted %" PRIu64 ", timed out %" PRIu64 "; memory %" PRIu64
		" B in %" PRIu64 " datagrams; queued %u\n",
		t, rate(st->packets, m->last.packets, dt),
		rate(st->ReasmReqds, m->last.ReasmReqds, dt),
		rate(st->ReasmOKs, m->last.ReasmOKs, dt),
		rate(st->emitted, m->last.emitted, dt), ls->rx_ring_drops,
		st->refused, ls->tx_oversize, ls->tx_unsent, st->evicted,
		st->ReasmTimeout, st->bytes_held, st->datagrams_pending,
		queued);
	fflush(f);
	m->last = *st;
	m->last_ls = *ls;
	m->last_ns = now_ns;
}
