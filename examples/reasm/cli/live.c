/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.c - reasm on a network interface: what the receive side
 * (live_rx.c) and the transmit side (live_tx.c) share. The clocks, the
 * counters and their JSON and summary, the snapshots the statistics line
 * reads, the interfaces and packet sockets, the fanout modes, the stop
 * and expiry control of the receive workers, the mapping of a
 * PACKET_MMAP ring (live_sock.h) and the statistics line.
 *
 * References (read, not copied): Linux Documentation/networking/
 * packet_mmap.rst and net/packet/af_packet.c (tpacket_rcv, tpacket_snd,
 * tpacket_destruct_skb, fanout_add, packet_poll).
 */
#define _DEFAULT_SOURCE /* struct ifreq, MAP_POPULATE */
#define MSG_PROG "reasm"
#include "msg.h"
#include "live.h"
#include "live_sock.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PUBLISH_NS (50 * NS_PER_MS)

/* --- Small helpers --------------------------------------------------------- */

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

int live_iface_socket(const char *ifname, const char *what, int *ifindex,
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

int live_fanout_type(enum live_fanout f)
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
uint8_t *live_ring_map(int fd, size_t len, const char *ifname, const char *what)
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

/* Unmaps a live_ring_map() mapping (NULL: none) and closes @p fd (< 0: none). */
void live_ring_unmap(int fd, uint8_t *map, size_t len)
{
	if (map != NULL)
		munmap(map, len);
	if (fd >= 0)
		close(fd);
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
