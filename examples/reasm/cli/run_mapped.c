/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_mapped.c - a run from a pcap file mapped into memory (run.h), its
 * records taken by the workers of par.h.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <errno.h>

/* --- The run --------------------------------------------------------------- */

/* A run from a pcap file mapped into memory, with --threads workers
 * (par.h); any tail par_run() leaves, read here with libpcap. @return 0
 * or CLI_EXIT_ERROR. */
int run_mapped(struct run *rn)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t skip;
	bool tail = false;
	int status, rc;

	/* The file header is in the dumper's buffer: out before the records
	 * that go straight to its descriptor. */
	if (pcap_dump_flush(rn->dumper) != 0) {
		atomic_store_explicit(&write_errno, errno != 0 ? errno : EIO,
				      memory_order_relaxed);
		return 0; /* close_capture() reports it */
	}
	par_set_write_hooks(rn->par, &out_par_hooks);
	status = par_run(rn->par, rn->engine, &rn->opt.cfg, rn->opt.threads,
			 fileno(pcap_dump_file(rn->dumper)), &tail);
	if (status == 0 && tail) {
		skip = par_records(rn->par);
		while ((rc = pcap_next_ex(rn->in, &h, &data)) == 1) {
			uint32_t wirelen = h->len < h->caplen ? h->caplen
							      : h->len;

			if (skip != 0) {
				skip--; /* taken by the workers */
				continue;
			}
			if (par_write_error(rn->par) != 0)
				break; /* the output is lost */
			status = par_input(rn->par, data, h->caplen, wirelen,
					   record_ns(h));
			if (status != 0)
				break;
		}
		if (status == 0 && rc != 1 && rc != PCAP_ERROR_BREAK) {
			pcap_errorf(rn->opt.read_path, pcap_geterr(rn->in));
			status = CLI_EXIT_ERROR;
		}
	}
	if (status == 0)
		par_finish(rn->par);
	if (par_write_error(rn->par) != 0)
		atomic_store_explicit(&write_errno, par_write_error(rn->par),
				      memory_order_relaxed);
	return status;
}
