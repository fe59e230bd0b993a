/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c - the end of a run (run.h): the output capture closed, its
 * write errors reported, and the counters as JSON (--stats) and as the
 * summary on stderr.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <errno.h>
#include <string.h>

/* The output capture flushed and closed, and any write error seen on the
 * way (a closed pipe, a full disk) reported. @return @p status, or CLI_EXIT_ERROR. */
int close_capture(struct run *rn, int status)
{
	int werr = atomic_load_explicit(&write_errno, memory_order_relaxed);

	if (werr != 0 && status == 0) {
		if (werr == EPIPE)
			errorf("%s: the reader closed the pipe: output cut short",
			       out_name(rn->opt.write_path));
		else
			errorf("%s: write error: %s",
			       out_name(rn->opt.write_path), strerror(werr));
		status = CLI_EXIT_ERROR;
	}
	if (rn->dumper != NULL) {
		if (pcap_dump_flush(rn->dumper) != 0 ||
		    ferror(pcap_dump_file(rn->dumper))) {
			if (status == 0)
				errorf("%s: write error: %s",
				       out_name(rn->opt.write_path),
				       strerror(errno));
			status = CLI_EXIT_ERROR;
		}
		if (rn->cap_out.f == stdout) {
			pcap_dump_flush(rn->dumper);
		} else {
			pcap_dump_close(rn->dumper);
		}
	}
	if (rn->dead != NULL)
		pcap_close(rn->dead);
	if (rn->in != NULL)
		pcap_close(rn->in);
	return status;
}

/* The counters, as JSON (--stats) and as the summary, for a run that read
 * input (@p ran): a failed start says one line and nothing else. @return
 * @p status, or CLI_EXIT_ERROR. */
int report(struct run *rn, bool ran, int status)
{
	FILE *sf = rn->stats_out.f;

	if (ran) {
		int rc = 0;

		/* Live runs add a "live" object to the JSON. */
		if (sf != NULL)
			rc = rn->live ? live_stats_json(sf, &rn->stats,
							&rn->lv.live_stats)
				      : reasm_stats_json(sf, &rn->stats);
		if (rc != 0 && status == 0) {
			errorf("%s: write error", rn->opt.stats_path);
			status = CLI_EXIT_ERROR;
		}
		if (!rn->opt.quiet) {
			reasm_stats_summary(stderr, &rn->stats);
			if (rn->live)
				live_stats_summary(stderr, &rn->lv.live_stats,
						   rn->opt.in_iface != NULL,
						   rn->opt.out_iface != NULL);
		}
	}
	if (sf != NULL && sf != stdout && fclose(sf) != 0 && status == 0) {
		errorf("%s: write error", rn->opt.stats_path);
		status = CLI_EXIT_ERROR;
	}
	return status;
}
