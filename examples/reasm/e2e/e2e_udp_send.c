/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * e2e_udp_send - send UDP datagrams that the kernel fragments.
 *
 *   e2e_udp_send --dst ADDR --port PORT [--senders K] [--count N]
 *                [--min BYTES] [--max BYTES] [--first-sender ID]
 *                [--gap-us MICROSECONDS] [--over BYTES] [--dry-run]
 *
 * K threads (default 3), each with its own socket, send N datagrams each
 * (default 100) to ADDR (IPv4 or IPv6) at the same time. Thread i is
 * sender id first-sender + i; datagram s of a sender has the payload of
 * e2e_payload.h for (sender, s). Payload sizes: sequence 0 has --min,
 * sequence 1 --max, the others a size drawn from (sender, s) between the
 * two. Defaults: 1300 to the largest UDP payload of the family (65507,
 * 65527).
 *
 * IPv4 sockets set IP_MTU_DISCOVER to IP_PMTUDISC_DONT, so the kernel
 * fragments at the interface MTU instead of refusing; IPv6 sockets
 * fragment at the source anyway.
 *
 * --gap-us paces each sender: it sleeps that long after every datagram
 * (default 0).
 *
 * --over BYTES: also print how many datagrams had a payload longer than
 * BYTES ("e2e_udp_send: over BYTES: K"), e.g. those too long to leave
 * whole through an interface of MTU 65535 (IPv6: a UDP payload above
 * 65535 - 40 - 8 = 65487 bytes).
 *
 * --dry-run sends nothing and prints only the --over line (sizes depend
 * only on the options).
 *
 * Prints one line: what was sent. Exits 0, 1 if a send failed, 2 on a
 * usage error.
 */
#define _GNU_SOURCE
#include "e2e_payload.h"
#include "e2e_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct opts {
	struct sockaddr_storage dst;
	socklen_t dstlen;
	int family;
	unsigned senders, count, first;
	unsigned min, max, gap_us, over;
};

struct sender {
	const struct opts *o;
	uint32_t id;
	pthread_t thread;
	uint64_t sent, bytes, over;
	int err; /* errno of a failure, 0 */
};

static _Noreturn void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "e2e_udp_send: %s\n", msg);
	fprintf(stderr,
		"usage: e2e_udp_send --dst ADDR --port PORT [--senders K] "
		"[--count N]\n"
		"                    [--min BYTES] [--max BYTES] "
		"[--first-sender ID] [--gap-us US] [--over BYTES]\n"
		"                    [--dry-run]\n");
	exit(2);
}

static unsigned num(const char *s, unsigned lo, unsigned hi, const char *what)
{
	return e2e_num("e2e_udp_send", s, lo, hi, what);
}

/* Size of datagram @p seq of @p sender. */
static size_t size_of(const struct opts *o, uint32_t sender, uint32_t seq)
{
	if (seq == 0 || o->max == o->min)
		return o->min;
	if (seq == 1)
		return o->max;
	uint64_t r = e2e_mix64((uint64_t)sender << 32 | seq);
	return o->min + (size_t)(r % (o->max - o->min + 1));
}

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	const struct opts *o = s->o;
	uint8_t *buf = malloc(o->max);
	int fd = socket(o->family, SOCK_DGRAM, 0);

	if (buf == NULL || fd < 0) {
		s->err = buf ? errno : ENOMEM;
		goto out;
	}
	if (o->family == AF_INET) {
		int v = IP_PMTUDISC_DONT;
		if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof(v)) <
		    0) {
			s->err = errno;
			goto out;
		}
	}
	int sndbuf = 1 << 20;
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));

	for (uint32_t seq = 0; seq < o->count; seq++) {
		size_t len = size_of(o, s->id, seq);
		e2e_payload_fill(buf, len, s->id, seq);
		for (;;) {
			ssize_t n = sendto(fd, buf, len, 0,
					   (const struct sockaddr *)&o->dst,
					   o->dstlen);
			if (n == (ssize_t)len)
				break;
			if (n < 0 && (errno == EINTR || errno == ENOBUFS ||
				      errno == EAGAIN)) {
				/* Local queue full: wait and send again. */
				usleep(1000);
				continue;
			}
			s->err = n < 0 ? errno : EMSGSIZE;
			fprintf(stderr,
				"e2e_udp_send: sender %u seq %u (%zu bytes): "
				"%s\n",
				s->id, seq, len, strerror(s->err));
			goto out;
		}
		s->sent++;
		s->bytes += len;
		if (o->over && len > o->over)
			s->over++;
		if (o->gap_us)
			usleep(o->gap_us);
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* The destination address @p dst (IPv4 or IPv6) and @p port into @p o;
 * a usage error (exit 2) if it is neither. */
static void set_dst(struct opts *o, const char *dst, unsigned port)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&o->dst;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&o->dst;

	memset(&o->dst, 0, sizeof(o->dst));
	if (inet_pton(AF_INET, dst, &s4->sin_addr) == 1) {
		o->family = s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		o->dstlen = sizeof(*s4);
	} else if (inet_pton(AF_INET6, dst, &s6->sin6_addr) == 1) {
		o->family = s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		o->dstlen = sizeof(*s6);
	} else {
		usage("--dst is not an IPv4 or IPv6 address");
	}
}

int main(int argc, char **argv)
{
	struct opts o = { .senders = 3, .count = 100, .first = 1, .min = 1300 };
	const char *dst = NULL;
	unsigned port = 0;
	bool have_max = false, dry_run = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			usage(NULL);
		if (strcmp(a, "--dry-run") == 0) {
			dry_run = true;
			continue;
		}
		if (v == NULL)
			usage("missing value");
		i++;
		if (strcmp(a, "--dst") == 0)
			dst = v;
		else if (strcmp(a, "--port") == 0)
			port = num(v, 1, 65535, a);
		else if (strcmp(a, "--senders") == 0)
			o.senders = num(v, 1, 64, a);
		else if (strcmp(a, "--count") == 0)
			o.count = num(v, 1, 100000000, a);
		else if (strcmp(a, "--min") == 0)
			o.min = num(v, E2E_HDR_LEN, E2E_MAX_V6, a);
		else if (strcmp(a, "--max") == 0) {
			o.max = num(v, E2E_HDR_LEN, E2E_MAX_V6, a);
			have_max = true;
		} else if (strcmp(a, "--first-sender") == 0)
			o.first = num(v, 0, 0xffff, a);
		else if (strcmp(a, "--gap-us") == 0)
			o.gap_us = num(v, 0, 10000000, a);
		else if (strcmp(a, "--over") == 0)
			o.over = num(v, 1, 65535, a);
		else
			usage("unknown option");
	}
	if (dst == NULL || port == 0)
		usage("--dst and --port are required");

	set_dst(&o, dst, port);
	unsigned top = o.family == AF_INET ? E2E_MAX_V4 : E2E_MAX_V6;
	if (!have_max)
		o.max = top;
	if (o.max > top || o.min > o.max)
		usage("need --min <= --max <= the family's largest payload");

	if (dry_run) {
		unsigned long long over = 0;
		for (unsigned i = 0; i < o.senders; i++)
			for (uint32_t seq = 0; seq < o.count; seq++)
				over += o.over &&
					size_of(&o, o.first + i, seq) > o.over;
		printf("e2e_udp_send: over %u: %llu\n", o.over, over);
		return 0;
	}

	struct sender *s = calloc(o.senders, sizeof(*s));
	if (s == NULL)
		return 1;
	double t0 = e2e_now_s();
	for (unsigned i = 0; i < o.senders; i++) {
		s[i].o = &o;
		s[i].id = o.first + i;
		int rc = pthread_create(&s[i].thread, NULL, sender_main, &s[i]);
		if (rc) {
			fprintf(stderr, "e2e_udp_send: pthread_create: %s\n",
				strerror(rc));
			return 1;
		}
	}
	uint64_t sent = 0, bytes = 0, over = 0;
	int failed = 0;
	for (unsigned i = 0; i < o.senders; i++) {
		pthread_join(s[i].thread, NULL);
		sent += s[i].sent;
		bytes += s[i].bytes;
		over += s[i].over;
		if (s[i].err) {
			failed = 1;
			fprintf(stderr, "e2e_udp_send: sender %u: %s\n",
				s[i].id, strerror(s[i].err));
		}
	}
	double secs = e2e_now_s() - t0;
	printf("e2e_udp_send: sent %llu datagrams (%llu payload bytes, "
	       "%u..%u) to %s port %u from %u senders in %.2f s\n",
	       (unsigned long long)sent, (unsigned long long)bytes, o.min,
	       o.max, dst, port, o.senders, secs);
	if (o.over)
		printf("e2e_udp_send: over %u: %llu\n", o.over,
		       (unsigned long long)over);
	free(s);
	return failed;
}
