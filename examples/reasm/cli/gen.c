/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen.c - reasm-gen: write a small, deterministic capture that exercises
 * the reassembler.
 *
 *   reasm-gen --write OUT.pcap [--seed N] [--count N | --bulk N]
 *             [--link ether|raw|sll|sll2|ppp|pppoe]
 *
 * The same options always give the same file, byte for byte. What it
 * holds, in capture order:
 *
 *   Phase 1, --count datagrams (default 100) from a fixed start time, a
 *   few hundred microseconds apart, in batches of one to three whose
 *   frames are interleaved:
 *     - IPv4 and IPv6 UDP packets that are not fragmented (with Ethernet,
 *       some IPv4 ones behind an 802.1Q tag);
 *     - IPv4 UDP datagrams cut into 2..45 fragments (some 802.1Q tagged);
 *     - IPv6 UDP datagrams cut with a Fragment header, some with a
 *       Hop-by-Hop or Destination Options header before it;
 *     - fragments in order, reversed or shuffled.
 *   Always, within phase 1: one IPv4 datagram of exactly 45 fragments; one
 *   with a fragment sent twice (a duplicate); a malicious IPv4 set whose
 *   second fragment overlaps the first with different bytes; an IPv6
 *   atomic fragment (RFC 6946); with Ethernet, an ARP frame; and, last, an
 *   IPv4 datagram missing its middle fragment.
 *
 *   Phase 2, 31.5 s later (past IPv4's 30 s timeout, so the incomplete
 *   datagram and the leftovers of the overlapping set time out):
 *   --count / 8 more datagrams of the same mix.
 *
 *   With --bulk N the capture is a benchmark's instead: N IPv4 UDP
 *   datagrams of 4400 IP payload bytes, each cut into 3 fragments (MTU
 *   1500: 1480, 1480 and 1440 payload bytes) sent in order, from 4096
 *   sources of the benchmarking range 198.18.0.0/15, one frame every
 *   10 us of capture time.
 *
 * Every IPv4 header checksum and every UDP checksum is correct (the UDP
 * checksum is over the whole datagram, so it checks out after
 * reassembly). Addresses are the documentation ranges (192.0.2.0/24,
 * 198.51.100.0/24, 2001:db8::/32). Frames on Ethernet are padded to the
 * 60-byte minimum. The headers are written by the reassembler's packet
 * builder (pkt/pktbuild.h).
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends */
#define MSG_PROG "reasm-gen"
#include "inet.h"
#include "msg.h"
#include "pktbuild.h"
#include <pcap/pcap.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000ull
#define START_S 1704067200ull /* 2024-01-01T00:00:00Z */
#define SNAPLEN 262144
#define MAX_FRAGS 64
#define MAX_DGRAM 65535
#define MAX_FRAME (MAX_DGRAM + 64)
#define MAX_BULK 10000000u /* --bulk: 30 million frames, about 14 GB */

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86dd
#define ETH_ARP 0x0806

/* --- Small helpers --------------------------------------------------------- */

/* splitmix64: small, fast, and the same everywhere. */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform enough in [lo, hi]. */
static unsigned rnd_in(struct rng *r, unsigned lo, unsigned hi)
{
	return lo + (unsigned)(rnd(r) % ((uint64_t)hi - lo + 1));
}

/* --- Packets --------------------------------------------------------------- */

enum link { LINK_ETHER, LINK_RAW, LINK_SLL, LINK_SLL2, LINK_PPP, LINK_PPPOE };

/* The --link names, in enum link's order. */
static const char *const link_names[] = { "ether", "raw", "sll",
					  "sll2",  "ppp", "pppoe" };

/* @return 0 and *link for a --link name, or -1. */
static int parse_link(const char *name, enum link *link)
{
	for (size_t i = 0; i < sizeof(link_names) / sizeof(link_names[0]);
	     i++) {
		if (strcmp(name, link_names[i]) == 0) {
			*link = (enum link)i;
			return 0;
		}
	}
	return -1;
}

/* One L3 packet (IPv4 or IPv6) ready to be framed. */
struct pkt {
	uint8_t *bytes;
	size_t len;
	bool v6;
	uint16_t vlan; /* 0: untagged; Ethernet only */
};

/* The packets of one datagram, or of a batch of interleaved ones. */
struct pkt_list {
	struct pkt *v;
	size_t n, cap;
};

struct gen {
	pcap_dumper_t *dumper;
	enum link link;
	struct rng rng;
	uint64_t now_ns;
	uint16_t ip_id;
	uint32_t frag_id6;
	unsigned frames;
	uint32_t step_ns; /* between frames; 0: 20 to 500 us at random */
	bool oom;
};

/* Room for one more packet in @l: false (and g->oom) if it cannot grow. */
static bool list_room(struct gen *g, struct pkt_list *l)
{
	size_t cap;
	struct pkt *v;

	if (l->n < l->cap)
		return true;
	cap = l->cap ? 2 * l->cap : 16;
	v = realloc(l->v, cap * sizeof(*v));
	if (v == NULL) {
		g->oom = true;
		return false;
	}
	l->v = v;
	l->cap = cap;
	return true;
}

static void list_push(struct gen *g, struct pkt_list *l, const uint8_t *bytes,
		      size_t len, bool v6, uint16_t vlan)
{
	struct pkt *p;

	if (!list_room(g, l))
		return;
	p = &l->v[l->n];
	p->bytes = malloc(len);
	if (p->bytes == NULL) {
		g->oom = true;
		return;
	}
	memcpy(p->bytes, bytes, len);
	p->len = len;
	p->v6 = v6;
	p->vlan = vlan;
	l->n++;
}

static void list_clear(struct pkt_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].bytes);
	l->n = 0;
}

static void list_free(struct pkt_list *l)
{
	list_clear(l);
	free(l->v);
	l->v = NULL;
	l->cap = 0;
}

/* Reorders a datagram's fragments: mostly in order, some reversed, some
 * shuffled. */
static void reorder(struct gen *g, struct pkt_list *l)
{
	unsigned how = rnd_in(&g->rng, 0, 9);

	if (how < 6 || l->n < 2)
		return;
	if (how < 8) {
		for (size_t i = 0, j = l->n - 1; i < j; i++, j--) {
			struct pkt t = l->v[i];

			l->v[i] = l->v[j];
			l->v[j] = t;
		}
		return;
	}
	for (size_t i = l->n - 1; i > 0; i--) {
		size_t j = (size_t)(rnd(&g->rng) % (i + 1));
		struct pkt t = l->v[i];

		l->v[i] = l->v[j];
		l->v[j] = t;
	}
}

/* Merges the lists in @p parts (each keeps its own order) into @p out at
 * random: the datagrams' fragments interleave. */
static void interleave(struct gen *g, struct pkt_list *parts, size_t nparts,
		       struct pkt_list *out)
{
	size_t next[4] = { 0 };
	size_t left = 0;

	for (size_t i = 0; i < nparts; i++)
		left += parts[i].n;
	while (left > 0) {
		size_t pick = (size_t)(rnd(&g->rng) % left);
		size_t i = 0;

		/* The pick-th packet still to go, counting list by list:
		 * longer lists are picked more often, so all end together. */
		while (pick >= parts[i].n - next[i]) {
			pick -= parts[i].n - next[i];
			i++;
		}
		if (!list_room(g, out))
			return;
		out->v[out->n++] = parts[i].v[next[i]++];
		left--;
	}
	for (size_t i = 0; i < nparts; i++)
		parts[i].n = 0;
}

/* --- Framing and writing --------------------------------------------------- */

static const uint8_t mac_a[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };

/* The link layer of g->link, tagged with @p vlan on Ethernet if not 0. */
static void link_of(const struct gen *g, uint16_t vlan, struct pb_link *l)
{
	static const uint8_t macs[12] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x02,
					  0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };
	static const int dlts[] = {
		[LINK_ETHER] = PB_DLT_ETHERNET, [LINK_RAW] = PB_DLT_RAW,
		[LINK_SLL] = PB_DLT_SLL,	[LINK_SLL2] = PB_DLT_SLL2,
		[LINK_PPP] = PB_DLT_PPP_SERIAL, [LINK_PPPOE] = PB_DLT_ETHERNET,
	};

	memset(l, 0, sizeof(*l));
	l->dlt = dlts[g->link];
	l->macs = macs; /* to ...:02 from mac_a */
	l->lladdr = mac_a;
	l->ifindex = 1;
	l->pppoe = g->link == LINK_PPPOE;
	l->pppoe_session = 1;
	if (vlan != 0 && g->link == LINK_ETHER) {
		l->nvlan = 1;
		l->tci[0] = vlan & 0x0fffu;
	}
}

/* Writes one frame: the link header for g->link, then @p l3 (@p len
 * bytes), stamped g->now_ns; then moves the clock on a little. */
static void write_frame(struct gen *g, const uint8_t *l3, size_t len,
			unsigned ethertype, uint16_t vlan)
{
	static uint8_t frame[MAX_FRAME];
	struct pcap_pkthdr h;
	struct pb_link l;

	link_of(g, vlan, &l);
	size_t hl = pb_link_put(&l, (uint16_t)ethertype, len, frame);
	memcpy(frame + hl, l3, len);
	len += hl;
	if (g->link == LINK_ETHER && len < 60) {
		memset(frame + len, 0, 60 - len);
		len = 60;
	}

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(g->now_ns / NS_PER_S);
	h.ts.tv_usec = (suseconds_t)(g->now_ns % NS_PER_S);
	h.caplen = (bpf_u_int32)len;
	h.len = (bpf_u_int32)len;
	pcap_dump((u_char *)g->dumper, &h, frame);
	g->frames++;
	if (g->step_ns != 0)
		g->now_ns += g->step_ns;
	else
		g->now_ns += 20000u + rnd_in(&g->rng, 0, 480000u);
}

static void write_list(struct gen *g, struct pkt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct pkt *p = &l->v[i];

		write_frame(g, p->bytes, p->len, p->v6 ? ETH_IPV6 : ETH_IPV4,
			    p->vlan);
	}
	list_clear(l);
}

/* Writes the packets of @p l at the indices @p order (@p n of them), the
 * same packet as often as its index comes; nothing unless @p l holds
 * @p want packets (an allocation failed). */
static void write_order(struct gen *g, struct pkt_list *l, size_t want,
			const unsigned char *order, size_t n)
{
	if (l->n != want)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct pkt *p = &l->v[order[i]];

		write_frame(g, p->bytes, p->len, p->v6 ? ETH_IPV6 : ETH_IPV4,
			    p->vlan);
	}
}

/* --- Datagrams ------------------------------------------------------------- */

/* A UDP datagram about to be built: addresses, ports, DSCP, payload. */
struct udp_spec {
	bool v6;
	uint8_t src[16], dst[16]; /* IPv4: the first 4 bytes */
	uint16_t sport, dport;
	uint8_t dscp;
	size_t data_len; /* UDP payload bytes */
	uint8_t fill;	 /* 0: random payload; else every byte this */
	uint16_t vlan;
	uint8_t ext; /* IPv6: 0, INET_PROTO_HOPOPTS or _DSTOPTS_ */
};

static const uint8_t dscps[] = { 0, 0, 0, 0, 46, 34, 10, 8, 48, 26 };
static const uint16_t ports[] = { 53, 123, 443, 4789, 5060, 9000 };

static void pick_spec(struct gen *g, struct udp_spec *s, bool v6)
{
	memset(s, 0, sizeof(*s));
	s->v6 = v6;
	if (v6) {
		static const uint8_t pfx_a[6] = { 0x20, 0x01, 0x0d,
						  0xb8, 0x00, 0x0a };
		static const uint8_t pfx_b[6] = { 0x20, 0x01, 0x0d,
						  0xb8, 0x00, 0x0b };

		memcpy(s->src, pfx_a, 6);
		memcpy(s->dst, pfx_b, 6);
		s->src[15] = (uint8_t)rnd_in(&g->rng, 1, 20);
		s->dst[15] = (uint8_t)rnd_in(&g->rng, 1, 20);
	} else {
		s->src[0] = 192, s->src[1] = 0, s->src[2] = 2;
		s->src[3] = (uint8_t)rnd_in(&g->rng, 1, 20);
		s->dst[0] = 198, s->dst[1] = 51, s->dst[2] = 100;
		s->dst[3] = (uint8_t)rnd_in(&g->rng, 1, 20);
	}
	s->sport = (uint16_t)rnd_in(&g->rng, 1024, 65535);
	s->dport =
		ports[rnd_in(&g->rng, 0, sizeof(ports) / sizeof(ports[0]) - 1)];
	s->dscp =
		dscps[rnd_in(&g->rng, 0, sizeof(dscps) / sizeof(dscps[0]) - 1)];
	if (g->link == LINK_ETHER && !v6 && rnd_in(&g->rng, 0, 3) == 0)
		s->vlan = (uint16_t)rnd_in(&g->rng, 2, 4094);
}

/* Builds the UDP header and payload of @p s into @p out (8 + data_len
 * bytes), its checksum over the pseudo-header included. */
static size_t build_udp(struct gen *g, const struct udp_spec *s, uint8_t *out)
{
	size_t ulen = 8 + s->data_len;
	uint32_t sum;

	(void)pb_udp_hdr(out, s->sport, s->dport, (uint16_t)ulen);
	for (size_t i = 0; i < s->data_len; i++)
		out[8 + i] = s->fill ? s->fill : (uint8_t)rnd(&g->rng);

	sum = inet_pseudo_sum(s->src, s->dst, s->v6 ? 16 : 4, INET_PROTO_UDP,
			      (uint32_t)ulen);
	sum = inet_sum(sum, out, ulen);
	inet_wr16(out + 6, inet_udp_fold(sum));
	return ulen;
}

/* The datagram of @p s (IPv4 id @p id4, IPv6 id @p id6) over the @p len
 * bytes of UDP at @p udp, without a link layer. */
static void dgram_of(const struct udp_spec *s, uint16_t id4, uint32_t id6,
		     const uint8_t *udp, size_t len, struct pb_dgram *d)
{
	if (s->v6) {
		pb_dgram_v6(d, PB_DLT_RAW, id6, PB_IPPROTO_UDP, udp, len);
		memcpy(d->v6.src, s->src, 16);
		memcpy(d->v6.dst, s->dst, 16);
		d->v6.tclass = (uint8_t)(s->dscp << 2);
		/* s->ext 0 is none: HOPOPTS, whose number is 0, too. */
		if (s->ext == INET_PROTO_DSTOPTS)
			d->v6.dst_len = 8;
		else if (s->ext != 0)
			d->v6.hbh_len = 8;
	} else {
		pb_dgram_v4(d, PB_DLT_RAW, id4, PB_IPPROTO_UDP, udp, len);
		d->v4.src = inet_rd32(s->src);
		d->v4.dst = inet_rd32(s->dst);
		d->v4.tos = (uint8_t)(s->dscp << 2);
	}
}

/* Appends the unfragmented datagram of @p s to @p l. */
static void add_plain(struct gen *g, const struct udp_spec *s,
		      struct pkt_list *l)
{
	static uint8_t udp[MAX_DGRAM];
	static uint8_t buf[MAX_FRAME];
	size_t ulen = build_udp(g, s, udp);
	struct pb_dgram d;

	dgram_of(s, s->v6 ? 0 : g->ip_id++, 0, udp, ulen, &d);
	size_t len = pb_whole_into(&d, buf, sizeof(buf));
	list_push(g, l, buf, len, s->v6, s->vlan);
}

/* Appends fragments of the datagram of @p s to @p l: fragment i carries
 * bytes [cuts[i], cuts[i + 1]) of the fragmentable part (UDP header and
 * payload); every cut but the last is a multiple of 8. */
static void add_fragments(struct gen *g, const struct udp_spec *s,
			  const size_t *cuts, size_t nfrags, struct pkt_list *l)
{
	static uint8_t udp[MAX_DGRAM];
	static uint8_t buf[MAX_FRAME];
	size_t ulen = build_udp(g, s, udp);
	uint16_t id4 = g->ip_id++;
	uint32_t id6 = g->frag_id6++;
	struct pb_dgram d;

	dgram_of(s, id4, id6, udp, ulen, &d);
	for (size_t i = 0; i < nfrags; i++) {
		size_t off = cuts[i], len = cuts[i + 1] - cuts[i];
		bool more = cuts[i + 1] < ulen;
		size_t n = pb_frag_into(&d, (uint32_t)off, NULL, len, more, buf,
					sizeof(buf));

		list_push(g, l, buf, n, s->v6, s->vlan);
	}
}

/* Picks a fragment count (mostly 2..4, sometimes up to 45) and sizes, and
 * fills cuts[0..n]. @return n. */
static size_t pick_cuts(struct gen *g, size_t *cuts, unsigned force_n)
{
	unsigned n, chunk;
	size_t total;
	unsigned r = rnd_in(&g->rng, 0, 9);

	if (force_n != 0)
		n = force_n;
	else if (r < 7)
		n = rnd_in(&g->rng, 2, 4);
	else if (r < 9)
		n = rnd_in(&g->rng, 5, 10);
	else
		n = rnd_in(&g->rng, 11, 45);
	/* Bytes per fragment, a multiple of 8: up to 1024 for a few
	 * fragments, small ones when there are many. */
	chunk = 8 * (n <= 4 ? rnd_in(&g->rng, 8, 96) : rnd_in(&g->rng, 2, 24));
	total = (size_t)chunk * (n - 1) + rnd_in(&g->rng, 1, chunk);
	for (unsigned i = 0; i < n; i++)
		cuts[i] = (size_t)chunk * i;
	cuts[n] = total;
	return n;
}

/* One datagram of the random mix into @p l. */
static void add_random(struct gen *g, struct pkt_list *l)
{
	struct udp_spec s;
	size_t cuts[MAX_FRAGS + 1];
	unsigned kind = rnd_in(&g->rng, 0, 9);
	bool v6 = kind == 3 || kind == 4 || kind >= 8;
	size_t n;

	pick_spec(g, &s, v6);
	if (kind < 5) {
		s.data_len = rnd_in(&g->rng, 16, 400);
		add_plain(g, &s, l);
		return;
	}
	if (v6) {
		static const uint8_t exts[] = { 0, 0, INET_PROTO_HOPOPTS,
						INET_PROTO_DSTOPTS };

		s.ext = exts[rnd_in(&g->rng, 0, 3)];
	}
	n = pick_cuts(g, cuts, 0);
	s.data_len = cuts[n] - 8;
	add_fragments(g, &s, cuts, n, l);
	reorder(g, l);
}

/* A batch of one to three datagrams (at most @p max), interleaved,
 * written out. @return how many. */
static size_t add_batch(struct gen *g, size_t max)
{
	struct pkt_list parts[3] = { { 0 } }, out = { 0 };
	unsigned r = rnd_in(&g->rng, 0, 9);
	size_t n = r < 6 ? 1 : r < 9 ? 2 : 3;

	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++)
		add_random(g, &parts[i]);
	interleave(g, parts, n, &out);
	write_list(g, &out);
	for (size_t i = 0; i < n; i++)
		list_free(&parts[i]);
	list_free(&out);
	return n;
}

/* One IPv4 datagram of exactly 45 fragments, in order. */
static void add_many_frags(struct gen *g)
{
	struct pkt_list l = { 0 };
	struct udp_spec s;
	size_t cuts[MAX_FRAGS + 1];
	size_t n;

	pick_spec(g, &s, false);
	n = pick_cuts(g, cuts, 45);
	s.data_len = cuts[n] - 8;
	add_fragments(g, &s, cuts, n, &l);
	write_list(g, &l);
	list_free(&l);
}

/* An IPv4 datagram of four fragments whose second is sent twice. */
static void add_duplicate(struct gen *g)
{
	struct pkt_list l = { 0 };
	struct udp_spec s;
	size_t cuts[5] = { 0, 256, 512, 768, 900 };

	pick_spec(g, &s, false);
	s.data_len = cuts[4] - 8;
	add_fragments(g, &s, cuts, 4, &l);
	write_order(g, &l, 4, (const unsigned char[]){ 0, 1, 1, 2, 3 }, 5);
	list_free(&l);
}

/*
 * The malicious set: three IPv4 fragments of one datagram,
 *   A = [0, 800) MF, payload bytes 'A'
 *   B = [400, 1200) MF, payload bytes 'B' (overlaps A's second half)
 *   C = [1200, 1500), payload bytes 'C'
 * The datagram is complete only with both A and B, so under the strict
 * policy it is dropped whatever order they come in; the other policies
 * reassemble it, with A's or B's bytes in [400, 800).
 */
static void add_overlap(struct gen *g)
{
	static uint8_t udp[1500];
	uint8_t frag[20 + 800], bees[800];
	struct udp_spec s;
	struct pb_dgram d;
	uint16_t id = g->ip_id++;
	uint32_t sum;

	pick_spec(g, &s, false);
	s.data_len = 1500 - 8;
	s.fill = 'A';
	(void)build_udp(g, &s, udp);
	memset(udp + 800, 'B', 400);
	memset(udp + 1200, 'C', 300);
	/* The checksum the "first" policies' result has: A, B's tail, C. */
	inet_wr16(udp + 6, 0);
	sum = inet_pseudo_sum(s.src, s.dst, 4, INET_PROTO_UDP, 1500);
	inet_wr16(udp + 6, inet_fold(inet_sum(sum, udp, 1500)));

	dgram_of(&s, id, 0, udp, sizeof(udp), &d);
	memset(bees, 'B', sizeof(bees));
	size_t n = pb_frag_into(&d, 0, NULL, 800, true, frag, sizeof(frag));
	write_frame(g, frag, n, ETH_IPV4, s.vlan);
	n = pb_frag_into(&d, 400, bees, 800, true, frag, sizeof(frag));
	write_frame(g, frag, n, ETH_IPV4, s.vlan);
	n = pb_frag_into(&d, 1200, NULL, 300, false, frag, sizeof(frag));
	write_frame(g, frag, n, ETH_IPV4, s.vlan);
}

/* An IPv6 atomic fragment: a Fragment header with offset 0 and M = 0. */
static void add_atomic(struct gen *g)
{
	struct pkt_list l = { 0 };
	struct udp_spec s;
	size_t cuts[2] = { 0, 120 };

	pick_spec(g, &s, true);
	s.data_len = cuts[1] - 8;
	add_fragments(g, &s, cuts, 1, &l);
	write_list(g, &l);
	list_free(&l);
}

/* An ARP request (Ethernet only): not IP, passed through. */
static void add_arp(struct gen *g)
{
	uint8_t arp[28];

	inet_wr16(arp, 1);	    /* Ethernet */
	inet_wr16(arp + 2, 0x0800); /* IPv4 */
	arp[4] = 6;
	arp[5] = 4;
	inet_wr16(arp + 6, 1); /* request */
	memcpy(arp + 8, mac_a, 6);
	memcpy(arp + 14, (const uint8_t[4]){ 192, 0, 2, 1 }, 4);
	memset(arp + 18, 0, 6);
	memcpy(arp + 24, (const uint8_t[4]){ 192, 0, 2, 2 }, 4);
	write_frame(g, arp, sizeof(arp), ETH_ARP, 0);
}

/* An IPv4 datagram of three fragments of which the middle one never
 * comes: it times out. */
static void add_incomplete(struct gen *g)
{
	struct pkt_list l = { 0 };
	struct udp_spec s;
	size_t cuts[4] = { 0, 512, 1024, 1300 };

	pick_spec(g, &s, false);
	s.data_len = cuts[3] - 8;
	add_fragments(g, &s, cuts, 3, &l);
	write_order(g, &l, 3, (const unsigned char[]){ 0, 2 }, 2);
	list_free(&l);
}

/* --- Options and main ------------------------------------------------------ */

static void usage(FILE *f)
{
	fputs("usage: reasm-gen --write OUT.pcap [--seed N] [--count N | --bulk N]\n"
	      "                 [--link ether|raw|sll|sll2|ppp|pppoe]\n"
	      "\n"
	      "Writes a deterministic demo capture for reasm: plain and\n"
	      "fragmented IPv4/IPv6 UDP datagrams, fragments out of order, a\n"
	      "duplicate, an overlapping set and a datagram that times out.\n"
	      "Defaults: --seed 1 --count 100 --link ether.\n"
	      "--bulk N writes a benchmark's capture instead: N IPv4 UDP\n"
	      "datagrams of 4400 bytes in 3 fragments each (MTU 1500), in order.\n",
	      f);
}

static int parse_num(const char *s, unsigned long long max,
		     unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno != 0 || *end != '\0' || *v > max ? -1 : 0;
}

/* The command line into *path, *seed, *count and g->link. @return -1 to
 * go on, 0 after --help, or 2 after a message. */
static int parse_args(int argc, char **argv, struct gen *g, const char **path,
		      unsigned long long *seed, unsigned long long *count,
		      unsigned long long *bulk)
{
	bool counted = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		}
		if (v == NULL ||
		    (strcmp(a, "--write") != 0 && strcmp(a, "--seed") != 0 &&
		     strcmp(a, "--count") != 0 && strcmp(a, "--link") != 0 &&
		     strcmp(a, "--bulk") != 0)) {
			errorf("bad argument '%s' (try --help)", a);
			return 2;
		}
		i++;
		if (strcmp(a, "--write") == 0) {
			*path = v;
		} else if (strcmp(a, "--seed") == 0) {
			if (parse_num(v, UINT64_MAX, seed) != 0) {
				errorf("bad --seed '%s'", v);
				return 2;
			}
		} else if (strcmp(a, "--count") == 0) {
			if (parse_num(v, 100000, count) != 0) {
				errorf("--count must be 0..100000, not '%s'",
				       v);
				return 2;
			}
			counted = true;
		} else if (strcmp(a, "--bulk") == 0) {
			if (parse_num(v, MAX_BULK, bulk) != 0 || *bulk == 0) {
				errorf("--bulk must be 1..%u, not '%s'",
				       MAX_BULK, v);
				return 2;
			}
		} else if (parse_link(v, &g->link) != 0) {
			errorf("--link must be ether, raw, sll, sll2, ppp or "
			       "pppoe, not '%s'",
			       v);
			return 2;
		}
	}
	if (*path == NULL) {
		errorf("--write is required (try --help)");
		return 2;
	}
	if (counted && *bulk != 0) {
		errorf("--count and --bulk are alternatives (try --help)");
		return 2;
	}
	return -1;
}

/* --bulk: @p n datagrams of 4400 IP payload bytes in 3 fragments, in
 * order, from 4096 sources (so that their IPv4 flows spread over any
 * number of workers), every payload byte a function of the datagram. */
static void generate_bulk(struct gen *g, size_t n)
{
	static const size_t cuts[4] = { 0, 1480, 2960, 4400 };
	struct pkt_list l = { 0 };
	struct udp_spec s;

	g->step_ns = 10000u;
	memset(&s, 0, sizeof(s));
	s.src[0] = 198, s.src[1] = 18;
	s.dst[0] = 198, s.dst[1] = 19, s.dst[2] = 0, s.dst[3] = 1;
	s.sport = 40000;
	s.dport = 9000;
	s.data_len = cuts[3] - 8;
	for (size_t i = 0; i < n && !g->oom; i++) {
		s.src[2] = (uint8_t)(i >> 8 & 0x0f);
		s.src[3] = (uint8_t)i;
		s.fill = (uint8_t)(1 + i % 255);
		add_fragments(g, &s, cuts, 3, &l);
		write_list(g, &l);
	}
	list_free(&l);
}

/* Every frame of the capture: @p count datagrams of the random mix, with
 * the fixed cases at a fifth, a quarter, a third and half of the way, the
 * incomplete ones, then an eighth as many past the IPv4 timeout. */
static void generate(struct gen *g, size_t count)
{
	size_t done = 0;
	unsigned fixed = 0;

	while (done < count || fixed < 4) {
		if (fixed == 0 && done >= count / 5) {
			add_many_frags(g);
			fixed++;
		} else if (fixed == 1 && done >= count / 4) {
			add_duplicate(g);
			fixed++;
		} else if (fixed == 2 && done >= count / 3) {
			add_overlap(g);
			fixed++;
		} else if (fixed == 3 && done >= count / 2) {
			add_atomic(g);
			if (g->link == LINK_ETHER)
				add_arp(g);
			fixed++;
		}
		if (done < count)
			done += add_batch(g, count - done);
	}
	add_incomplete(g);

	/* Phase 2: past the IPv4 timeout. */
	g->now_ns += 31 * NS_PER_S + NS_PER_S / 2;
	for (size_t n = count / 8 + 1, d = 0; d < n;)
		d += add_batch(g, n - d);
}

int main(int argc, char **argv)
{
	static const int dlts[] = {
		[LINK_ETHER] = DLT_EN10MB,   [LINK_RAW] = DLT_RAW,
		[LINK_SLL] = DLT_LINUX_SLL,  [LINK_SLL2] = DLT_LINUX_SLL2,
		[LINK_PPP] = DLT_PPP_SERIAL, [LINK_PPPOE] = DLT_EN10MB,
	};
	const char *path = NULL;
	unsigned long long seed = 1, count = 100, bulk = 0;
	struct gen g;
	pcap_t *dead;
	int status;

	memset(&g, 0, sizeof(g));
	g.link = LINK_ETHER;
	status = parse_args(argc, argv, &g, &path, &seed, &count, &bulk);
	if (status >= 0)
		return status;
	status = 0;
	dead = pcap_open_dead_with_tstamp_precision(dlts[g.link], SNAPLEN,
						    PCAP_TSTAMP_PRECISION_NANO);
	if (dead == NULL) {
		errorf("out of memory");
		return 2;
	}
	g.dumper = pcap_dump_open(dead, path);
	if (g.dumper == NULL) {
		errorf("%s", pcap_geterr(dead));
		pcap_close(dead);
		return 2;
	}
	g.rng.s = (uint64_t)seed;
	g.now_ns = START_S * NS_PER_S;
	g.ip_id = (uint16_t)rnd(&g.rng);
	g.frag_id6 = (uint32_t)rnd(&g.rng);
	if (bulk != 0)
		generate_bulk(&g, (size_t)bulk);
	else
		generate(&g, (size_t)count);

	if (g.oom) {
		errorf("out of memory");
		status = 2;
	} else if (pcap_dump_flush(g.dumper) != 0 ||
		   ferror(pcap_dump_file(g.dumper))) {
		errorf("%s: write error", path);
		status = 2;
	}
	pcap_dump_close(g.dumper);
	pcap_close(dead);
	if (status == 0)
		fprintf(stderr, "reasm-gen: %u frames written to %s\n",
			g.frames, path);
	return status;
}
