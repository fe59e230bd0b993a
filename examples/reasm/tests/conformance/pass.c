/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pass.c - the suite pass of test_reasm_conformance: non-fragments come
 * out unchanged.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * pass: non-fragments
 */

Test(pass, non_fragments_unchanged)
{
	struct rig g;
	uint8_t data[100];
	struct pb_dgram d;
	struct pb_frame *f[7];

	open_make(&g, &d, 4, 7, data, sizeof(data), 1);
	f[0] = pb_whole(&d);
	d.v4.df = true;
	d.v4.tos = 0x2e << 2 | PB_ECN_CE;
	f[1] = pb_whole(&d);
	make(&d, 6, PB_DLT_ETHERNET, 7, data, sizeof(data), 2);
	f[2] = pb_whole(&d);
	d.v6.hbh_len = 8;
	d.v6.dst_len = 16;
	f[3] = pb_whole(&d);
	uint8_t arp[28] = { 0, 1, 8, 0, 6, 4, 0, 1 };
	f[4] = pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp));
	d.link.nvlan = 1;
	d.link.tci[0] = 42;
	f[5] = pb_wrap(&d.link, PB_ETH_ARP, arp, sizeof(arp));
	/* Not IP (a local experimental EtherType), though its first bytes
	 * read as an IPv4 header with DSCP 46: its DSCP is 0. */
	uint8_t other[24] = { 0x45, 0x2e << 2 };
	f[6] = pb_wrap(&d.link, 0x88b5, other, sizeof(other));

	uint64_t bytes = 0;
	for (size_t i = 0; i < 7; i++) {
		g.now += 1000;
		cr_expect_eq(feed(&g, f[i]), 1, "frame %zu", i);
		bytes += f[i]->caplen;
		cr_expect(g.nout == i + 1 && g.out[i]->ts_ns == g.now,
			  "frame %zu: not emitted at once, or not stamped with "
			  "its capture time",
			  i);
	}
	cr_assert_eq(g.nout, 7u);
	for (size_t i = 0; i < 7; i++)
		expect_passed(&g, i, f[i]);
	cr_expect_eq(g.out[1]->dscp, 0x2e, "DSCP of a passed IPv4 packet");
	cr_expect_eq(g.out[4]->dscp, 0, "DSCP of an ARP frame");
	cr_expect_eq(g.out[6]->dscp, 0, "DSCP of a frame that is not IP");
	finish_expect(&g, NULL,
		      COUNTS(W(packets, 7), W(passed, 7), W(ReasmReqds, 0),
			     W(emitted, 7), W(emitted_bytes, bytes)));
	pb_frames_free(f, 7, false);
}
