/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_frames.h - Ethernet frames for the transmit benchmark (tx_bench.sh):
 * UDP datagrams, whole or cut into fragments, built once in memory so
 * that the senders compared send the very same bytes.
 *
 * Each datagram is IPv4 or IPv6 UDP from port 40000 to --port, with the
 * e2e_payload.h payload of (E2E_FRAMES_SENDER, i) for datagram i; the UDP
 * checksum is 0 (e2e_udp_recv accepts that for IPv6 too). Frames are built
 * with pkt/pktbuild.h, then given the MAC addresses asked for.
 *
 * Options parsed here (e2e_frames_option):
 *   --dst-mac MAC --src-mac MAC   Ethernet addresses (defaults: pktbuild's)
 *   --src4 A --dst4 B             IPv4 datagrams between A and B
 *   --src6 A --dst6 B             IPv6 datagrams (one family per run: the
 *                                 last given wins)
 *   --port PORT                   UDP destination port (7777)
 *   --size BYTES                  UDP payload bytes (default 1000)
 *   --distinct N                  datagrams built (default 64), sent in
 *                                 turn
 *   --frag-mtu MTU                cut each datagram into fragments that
 *                                 fit MTU (default: whole datagrams)
 */
#ifndef GRAIN_E2E_FRAMES_H
#define GRAIN_E2E_FRAMES_H

#include "e2e_payload.h"
#include "pktbuild.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E2E_FRAMES_SENDER 0x40000000u

struct e2e_frames {
	/* options */
	int family; /* 4 or 6; 0 until an address is given */
	uint8_t dst_mac[6], src_mac[6];
	bool set_dst_mac, set_src_mac;
	uint32_t src4, dst4; /* host order */
	uint8_t src6[16], dst6[16];
	unsigned port, size, distinct, frag_mtu;
	/* result */
	struct pb_frame **f;
	size_t n;	  /* frames */
	size_t bytes;	  /* their total length */
	size_t maxlen;	  /* the longest */
	size_t per_dgram; /* frames per datagram (the first one's count) */
};

static inline void e2e_frames_defaults(struct e2e_frames *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->port = 7777;
	fs->size = 1000;
	fs->distinct = 64;
}

static inline bool e2e_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	char tail;
	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &tail) != 6)
		return false;
	for (int i = 0; i < 6; i++) {
		if (v[i] > 255)
			return false;
		mac[i] = (uint8_t)v[i];
	}
	return true;
}

/* If argv[*i] is one of the options above, consume it (and its value),
 * and @return 1; 0 if it is not; -1 (after a message) if its value is
 * wrong. */
static inline int e2e_frames_option(struct e2e_frames *fs, int argc,
				    char **argv, int *i)
{
	const char *a = argv[*i];
	static const char *const names[] = {
		"--dst-mac", "--src-mac", "--src4", "--dst4",	  "--src6",
		"--dst6",    "--port",	  "--size", "--distinct", "--frag-mtu",
	};
	size_t k = 0;
	while (k < sizeof(names) / sizeof(names[0]) && strcmp(a, names[k]))
		k++;
	if (k == sizeof(names) / sizeof(names[0]))
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: missing value\n", a);
		return -1;
	}
	const char *v = argv[++*i];
	char *end;
	unsigned long n = 0;
	struct in_addr a4;
	struct in6_addr a6;
	bool ok = true;
	if (k >= 6) {
		n = strtoul(v, &end, 0);
		ok = *v && !*end;
	}
	switch (k) {
	case 0:
		ok = fs->set_dst_mac = e2e_parse_mac(v, fs->dst_mac);
		break;
	case 1:
		ok = fs->set_src_mac = e2e_parse_mac(v, fs->src_mac);
		break;
	case 2:
	case 3:
		ok = inet_pton(AF_INET, v, &a4) == 1;
		*(k == 2 ? &fs->src4 : &fs->dst4) = ntohl(a4.s_addr);
		fs->family = 4;
		break;
	case 4:
	case 5:
		ok = inet_pton(AF_INET6, v, &a6) == 1;
		memcpy(k == 4 ? fs->src6 : fs->dst6, &a6, 16);
		fs->family = 6;
		break;
	case 6:
		ok = ok && n >= 1 && n <= 65535;
		fs->port = (unsigned)n;
		break;
	case 7:
		ok = ok && n >= E2E_HDR_LEN && n <= E2E_MAX_V6;
		fs->size = (unsigned)n;
		break;
	case 8:
		ok = ok && n >= 1 && n <= 65536;
		fs->distinct = (unsigned)n;
		break;
	case 9:
		ok = ok && n >= 68 && n <= 65535;
		fs->frag_mtu = (unsigned)n;
		break;
	}
	if (!ok) {
		fprintf(stderr, "%s: bad value %s\n", a, v);
		return -1;
	}
	return 1;
}

/* Build the frames. @return 0, or -1 after a message. */
static inline int e2e_frames_build(struct e2e_frames *fs)
{
	if (fs->family == 0) {
		fputs("give --src4/--dst4 or --src6/--dst6\n", stderr);
		return -1;
	}
	if (fs->size > (fs->family == 4 ? E2E_MAX_V4 : E2E_MAX_V6)) {
		fprintf(stderr, "--size %u: too large for IPv%d\n", fs->size,
			fs->family);
		return -1;
	}
	size_t len = 8 + (size_t)fs->size;
	size_t cap = 0;
	uint8_t *data = malloc(len);
	if (data == NULL)
		return -1;
	for (unsigned d = 0; d < fs->distinct; d++) {
		pb_udp_hdr(data, 40000, (uint16_t)fs->port, (uint16_t)len);
		e2e_payload_fill(data + 8, fs->size, E2E_FRAMES_SENDER, d);
		struct pb_dgram g;
		if (fs->family == 4) {
			pb_dgram_v4(&g, PB_DLT_ETHERNET, (uint16_t)(d + 1),
				    PB_IPPROTO_UDP, data, len);
			g.v4.src = fs->src4;
			g.v4.dst = fs->dst4;
		} else {
			pb_dgram_v6(&g, PB_DLT_ETHERNET, d + 1, PB_IPPROTO_UDP,
				    data, len);
			memcpy(g.v6.src, fs->src6, 16);
			memcpy(g.v6.dst, fs->dst6, 16);
		}
		struct pb_frame **add;
		size_t nadd;
		struct pb_frame *one;
		size_t hdr = fs->family == 4 ? 20 : 48;
		if (fs->frag_mtu &&
		    len + (fs->family == 4 ? 20 : 40) > fs->frag_mtu) {
			size_t chunk = (fs->frag_mtu - hdr) & ~(size_t)7;
			add = pb_split_every(&g, chunk, &nadd);
		} else {
			one = pb_whole(&g);
			add = &one;
			nadd = 1;
		}
		if (d == 0)
			fs->per_dgram = nadd;
		if (fs->n + nadd > cap) {
			cap = 2 * (fs->n + nadd);
			struct pb_frame **nf =
				realloc(fs->f, cap * sizeof(*nf));
			if (nf == NULL) {
				free(data);
				return -1;
			}
			fs->f = nf;
		}
		for (size_t k = 0; k < nadd; k++) {
			struct pb_frame *f = add[k];
			if (fs->set_dst_mac)
				memcpy(f->data, fs->dst_mac, 6);
			if (fs->set_src_mac)
				memcpy(f->data + 6, fs->src_mac, 6);
			fs->f[fs->n++] = f;
			fs->bytes += f->caplen;
			if (f->caplen > fs->maxlen)
				fs->maxlen = f->caplen;
		}
		if (add != &one)
			free(add);
	}
	free(data);
	return 0;
}

static inline void e2e_frames_free(struct e2e_frames *fs)
{
	pb_frames_free(fs->f, fs->n, true);
	fs->f = NULL;
	fs->n = 0;
}

#endif /* GRAIN_E2E_FRAMES_H */
