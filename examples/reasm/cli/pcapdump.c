/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pcapdump.c - reasm-pcapdump: print each record of a capture file as one
 * line, so that two captures can be compared with sort and cmp.
 *
 *   reasm-pcapdump [--no-ts] FILE
 *
 * Each line is "SECONDS.NANOSECONDS CAPLEN WIRELEN HEX" (without the
 * timestamp under --no-ts), HEX being every captured byte as two lowercase
 * hex digits. Exit status 0, or 2 with a message on stderr.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends */
#define MSG_PROG "reasm-pcapdump"
#include "msg.h"
#include <pcap/pcap.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static const char hex[] = "0123456789abcdef";
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	const char *path = NULL;
	bool ts = true;
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-ts") == 0) {
			ts = false;
		} else if (path == NULL && argv[i][0] != '-') {
			path = argv[i];
		} else {
			fputs("usage: reasm-pcapdump [--no-ts] FILE\n", stderr);
			return 2;
		}
	}
	if (path == NULL) {
		fputs("usage: reasm-pcapdump [--no-ts] FILE\n", stderr);
		return 2;
	}
	p = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (p == NULL) {
		pcap_errorf(path, errbuf);
		return 2;
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (ts)
			printf("%lld.%09ld ", (long long)h->ts.tv_sec,
			       (long)h->ts.tv_usec);
		printf("%u %u ", h->caplen, h->len);
		for (bpf_u_int32 i = 0; i < h->caplen; i++) {
			putchar(hex[data[i] >> 4]);
			putchar(hex[data[i] & 15]);
		}
		putchar('\n');
	}
	if (rc != PCAP_ERROR_BREAK) {
		fprintf(stderr, "reasm-pcapdump: %s: %s\n", path,
			pcap_geterr(p));
		pcap_close(p);
		return 2;
	}
	pcap_close(p);
	return fflush(stdout) == 0 ? 0 : 2;
}
