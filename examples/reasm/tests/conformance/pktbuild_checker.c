/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pktbuild_checker.c - the suite pktbuild of test_reasm_conformance: the
 * packet builder's checker catches what it is there to catch.
 */
#include "conformance.h"

/* ----------------------------------------------------------------------
 * pktbuild: the checker itself must catch what it is there to catch
 */

Test(pktbuild, checker_catches_errors)
{
	uint8_t data[64];
	struct pb_dgram d;
	char why[256];

	for (int fam = 4; fam <= 6; fam += 2) {
		make(&d, fam, PB_DLT_ETHERNET, 5, data, sizeof(data), 1);
		d.v6.hbh_len = 8;
		struct pb_frame *w = pb_whole(&d);
		cr_assert(pb_check(w->data, w->caplen, &d, why, sizeof(why)),
			  "IPv%d whole: %s", fam, why);
		if (fam == 4)
			cr_expect_eq(inet_csum(w->data + 14, 20), 0);

		/* A fragment is not a reassembled datagram (an IPv4
		 * "fragment" at offset 0 without MF is a whole one). */
		struct pb_frame *f;
		if (fam == 6) {
			f = pb_frag(&d, 0, NULL, sizeof(data), false);
			cr_expect_not(pb_check(f->data, f->caplen, &d, why,
					       sizeof(why)),
				      "IPv6 atomic fragment taken as whole");
			pb_frame_free(f);
		}
		f = pb_frag(&d, 0, NULL, sizeof(data), true);
		cr_expect_not(
			pb_check(f->data, f->caplen, &d, why, sizeof(why)));
		pb_frame_free(f);

		/* One payload byte, the ECN bits, the link header. */
		w->data[w->caplen - 1] ^= 1;
		cr_expect_not(
			pb_check(w->data, w->caplen, &d, why, sizeof(why)));
		cr_expect_not_null(strstr(why, "byte"), "%s", why);
		w->data[w->caplen - 1] ^= 1;
		struct pb_dgram t = d;
		t.v4.tos = PB_ECN_CE;
		t.v6.tclass = PB_ECN_CE;
		cr_expect_not(
			pb_check(w->data, w->caplen, &t, why, sizeof(why)));
		t = d;
		t.link.mark = 9;
		cr_expect_not(
			pb_check(w->data, w->caplen, &t, why, sizeof(why)));
		cr_expect_not(
			pb_check(w->data, w->caplen - 1, &d, why, sizeof(why)));
		pb_frame_free(w);
	}

	/* IPv4: a wrong checksum, DF, options. */
	make(&d, 4, PB_DLT_RAW, 5, data, sizeof(data), 1);
	struct pb_dgram t = d;
	t.v4.bad_checksum = true;
	struct pb_frame *w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect_not_null(strstr(why, "checksum"), "%s", why);
	pb_frame_free(w);
	t = d;
	t.v4.df = true;
	w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect(pb_check(w->data, w->caplen, &t, why, sizeof(why)), "%s",
		  why);
	pb_frame_free(w);
	t = d;
	t.v4.optlen = 4;
	memset(t.v4.opts, 1, 4);
	w = pb_whole(&t);
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect(pb_check(w->data, w->caplen, &t, why, sizeof(why)), "%s",
		  why);
	pb_frame_free(w);

	/* IPv6: a Next Header left at 44 after the options headers. */
	make(&d, 6, PB_DLT_RAW, 5, data, sizeof(data), 1);
	d.v6.dst_len = 8;
	w = pb_whole(&d);
	w->data[40] = PB_IPPROTO_FRAGMENT;
	cr_expect_not(pb_check(w->data, w->caplen, &d, why, sizeof(why)));
	cr_expect_not_null(strstr(why, "Fragment"), "%s", why);
	pb_frame_free(w);

	/* Splitting covers the datagram exactly once. */
	size_t n;
	make(&d, 4, PB_DLT_SLL2, 5, data, sizeof(data), 1);
	struct pb_frame **v = pb_split_every(&d, 24, &n);
	cr_assert_eq(n, 3u);
	uint8_t back[64];
	for (size_t i = 0; i < n; i++) {
		const uint8_t *ip = v[i]->data + v[i]->l3off;
		cr_expect_eq(v[i]->l3off, 20u);
		cr_expect_eq(inet_rd16(v[i]->data), PB_ETH_IPV4);
		uint16_t frag = inet_rd16(ip + 6);
		cr_expect_eq((frag & 0x1fff) * 8u, 24u * i);
		cr_expect_eq(!!(frag & 0x2000), i + 1 < n);
		size_t len = inet_rd16(ip + 2) - 20u;
		memcpy(back + 24 * i, ip + 20, len);
	}
	cr_expect_eq(memcmp(back, data, sizeof(data)), 0);
	pb_frames_free(v, n, true);
}
