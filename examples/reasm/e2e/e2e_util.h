/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_util.h - what the end-to-end programs share besides their frames
 * and payloads: numbers read from the command line within a range, the
 * clock, pcap capture files (Ethernet, microsecond stamps), and the
 * sending options of the two frame senders (e2e_pkt_send,
 * e2e_tx_ring):
 *   --if IFACE         the interface to send on
 *   --count N          frames to send (default 100000)
 *   --duration S       send for S seconds instead (0: use --count)
 *   --qdisc-bypass     PACKET_QDISC_BYPASS on the socket or ring
 */
#ifndef GRAIN_E2E_UTIL_H
#define GRAIN_E2E_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* @p s as a number in [lo, hi]; else a message naming @p prog and
 * @p what, and exit(2) (a usage error). */
static inline unsigned e2e_num(const char *prog, const char *s, unsigned lo,
			       unsigned hi, const char *what)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: %s out of range %u..%u\n", prog, what,
			s, lo, hi);
		exit(2);
	}
	return (unsigned)v;
}

/* Seconds on CLOCK_MONOTONIC. */
static inline double e2e_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline void e2e_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A pcap file header: version 2.4, Ethernet, snaplen 262144. */
static inline void e2e_pcap_header(FILE *f)
{
	uint8_t h[24];
	e2e_put_le32(h, 0xa1b2c3d4u);
	h[4] = 2, h[5] = 0, h[6] = 4, h[7] = 0; /* version 2.4 */
	e2e_put_le32(h + 8, 0);
	e2e_put_le32(h + 12, 0);
	e2e_put_le32(h + 16, 262144); /* snaplen */
	e2e_put_le32(h + 20, 1);      /* Ethernet */
	fwrite(h, 1, sizeof(h), f);
}

/* One record of @p len bytes at @p data, stamped @p us microseconds after
 * the epoch. */
static inline void e2e_pcap_record(FILE *f, uint64_t us, const uint8_t *data,
				   uint32_t len)
{
	uint8_t h[16];
	e2e_put_le32(h, (uint32_t)(us / 1000000));
	e2e_put_le32(h + 4, (uint32_t)(us % 1000000));
	e2e_put_le32(h + 8, len);
	e2e_put_le32(h + 12, len);
	fwrite(h, 1, sizeof(h), f);
	fwrite(data, 1, len, f);
}

struct e2e_send_opts {
	const char *ifname;
	unsigned long long count;
	double duration;
	bool qdisc_bypass;
};

static inline void e2e_send_defaults(struct e2e_send_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->count = 100000;
}

/* If argv[*i] is one of the sending options, consume it (and its value)
 * and @return 1; 0 if it is not; -1 (after a message) if its value is
 * missing. */
static inline int e2e_send_option(struct e2e_send_opts *o, int argc,
				  char **argv, int *i)
{
	const char *a = argv[*i];

	if (strcmp(a, "--qdisc-bypass") == 0) {
		o->qdisc_bypass = true;
		return 1;
	}
	if (strcmp(a, "--if") != 0 && strcmp(a, "--count") != 0 &&
	    strcmp(a, "--duration") != 0)
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s: missing value\n", a);
		return -1;
	}
	const char *v = argv[++*i];
	if (strcmp(a, "--if") == 0)
		o->ifname = v;
	else if (strcmp(a, "--count") == 0)
		o->count = strtoull(v, NULL, 0);
	else
		o->duration = strtod(v, NULL);
	return 1;
}

/* Whether a sender that has sent @p sent frames since @p t0 is done:
 * --duration passed (looked at every 256 frames), or --count sent. */
static inline bool e2e_send_done(const struct e2e_send_opts *o,
				 unsigned long long sent, double t0)
{
	if (o->duration > 0)
		return (sent & 255) == 0 && e2e_now_s() >= t0 + o->duration;
	return sent >= o->count;
}

#endif /* GRAIN_E2E_UTIL_H */
