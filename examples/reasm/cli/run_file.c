/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run_file.c - a run from a capture file read with libpcap (run.h):
 * opening the input, the engine and the outputs, and reading the file on
 * this thread, the engine here too or in workers fed through rings
 * (stdin, pcapng, --threads N >= 2 on a file that cannot be mapped, or
 * --read with --out).
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define OUT_SNAPLEN 262144

/* --- Time ------------------------------------------------------------------ */

/* A record's timestamp in nanoseconds (the input is opened with nanosecond
 * precision). Times before 1970 count as 0; absurdly late ones saturate. */
uint64_t record_ns(const struct pcap_pkthdr *h)
{
	uint64_t s, frac;

	if (h->ts.tv_sec < 0)
		return 0;
	s = (uint64_t)h->ts.tv_sec;
	frac = h->ts.tv_usec < 0 ? 0 : (uint64_t)h->ts.tv_usec;
	if (s > (UINT64_MAX - frac) / NS_PER_S)
		return UINT64_MAX;
	return s * NS_PER_S + frac;
}

/* Emit callback with one thread: straight to the file. */
static void emit_direct(struct reasm_out *out, void *arg)
{
	dump_out(arg, out);
	reasm_out_free(out);
}

/* Linux's pipe resize (fcntl.h defines it only with _GNU_SOURCE). */
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#endif

/* A pipe holds 64 KiB by default: less than one 64 KiB frame and its
 * record header, so the writer of the capture could never get a frame
 * ahead of the reader, and the two would take turns. Ask for room for a
 * few (pipe-max-size allows 1 MiB without privileges); a refusal or
 * another kind of input changes nothing. */
static void widen_pipe(FILE *f)
{
	struct stat st;

	if (f != NULL && fstat(fileno(f), &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fileno(f), F_SETPIPE_SZ, 1 << 20);
}

/* Opens the capture file IN and checks its link type. @return 0 or CLI_EXIT_ERROR. */
int open_read(struct run *rn)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct options *o = &rn->opt;
	int dlt;

	rn->in = pcap_open_offline_with_tstamp_precision(
		o->read_path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (rn->in == NULL) {
		pcap_errorf(o->read_path, errbuf);
		return CLI_EXIT_ERROR;
	}
	widen_pipe(pcap_file(rn->in));
	dlt = pcap_datalink(rn->in);
	if (!reasm_link_supported(dlt)) {
		const char *name = pcap_datalink_val_to_name(dlt);

		errorf("unsupported link type %s (%d)",
		       name != NULL ? name : "UNKNOWN", dlt);
		return CLI_EXIT_ERROR;
	}
	if (o->out_iface != NULL && dlt != REASM_LINK_ETHERNET) {
		const char *name = pcap_datalink_val_to_name(dlt);

		errorf("%s: --out sends Ethernet frames, and this capture's "
		       "link type is %s (%d)",
		       o->read_path, name != NULL ? name : "UNKNOWN", dlt);
		return CLI_EXIT_ERROR;
	}
	o->cfg.link = dlt;
	return 0;
}

/* Opens the capture file OUT (a temporary file until the run succeeds),
 * of the input's link type. @return 0 or CLI_EXIT_ERROR. */
static int open_write(struct run *rn)
{
	struct options *o = &rn->opt;
	int status;

	rn->dead = pcap_open_dead_with_tstamp_precision(
		o->cfg.link, OUT_SNAPLEN, PCAP_TSTAMP_PRECISION_NANO);
	if (rn->dead == NULL) {
		errorf("out of memory");
		return CLI_EXIT_ERROR;
	}
	status = out_open(&rn->cap_out, o->write_path);
	if (status != 0)
		return status;
	rn->dumper = pcap_dump_fopen(rn->dead, rn->cap_out.f);
	if (rn->dumper == NULL) {
		pcap_errorf(o->write_path, pcap_geterr(rn->dead));
		if (rn->cap_out.f != stdout)
			fclose(rn->cap_out.f);
		rn->cap_out.f = NULL;
		(void)out_finish(&rn->cap_out, false);
		return CLI_EXIT_ERROR;
	}
	/* Written in place to a stream, in a file run (a live run takes
	 * its signals in the main thread and stops cleanly): whole records
	 * only, the file header first, whatever signal ends the run. */
	if (rn->cap_out.tmp == NULL && !is_live(o)) {
		(void)pcap_dump_flush(rn->dumper);
		out_set_stream();
	}
	return 0;
}

/* Makes the engine, then opens the outputs: the stats file, if any, and
 * the capture file OUT with --write. Nothing is created before every
 * check has passed. @return 0 or CLI_EXIT_ERROR. */
int open_rest(struct run *rn)
{
	struct options *o = &rn->opt;
	int rc;

	if (o->write_path != NULL && o->read_path != NULL &&
	    same_file(o->read_path, o->write_path)) {
		errorf("%s: --write would overwrite --read", o->write_path);
		return CLI_EXIT_ERROR;
	}
	if (o->write_path != NULL && o->stats_path != NULL &&
	    same_output(o->write_path, o->stats_path)) {
		errorf("%s: --stats and --write name the same file",
		       o->stats_path);
		return CLI_EXIT_ERROR;
	}
	rc = reasm_create(&rn->engine, &o->cfg);
	if (rc != 0) {
		errorf("cannot make the engine: %s", strerror(-rc));
		return CLI_EXIT_ERROR;
	}
	if (o->stats_path != NULL) {
		rc = out_open(&rn->stats_out, o->stats_path);
		if (rc != 0)
			return rc;
	}
	if (o->write_path != NULL)
		return open_write(rn);
	return 0;
}

/* Opens IN, makes the engine and opens the outputs. @return 0 or CLI_EXIT_ERROR. */
static int open_all(struct run *rn)
{
	int status = open_read(rn);

	if (status == 0)
		status = open_rest(rn);
	return status;
}

/* At the end of a file: expire what is due at the latest capture time
 * (par.h, expiry_end()). With workers, once they have taken every frame
 * queued, through worker 0's state as at any other expiry point. */
static void expire_at_end(struct run *rn, bool multi, const struct expiry *exp,
			  uint64_t queued)
{
	uint64_t now;

	if (!expiry_end(exp, &now))
		return;
	if (!multi) {
		(void)reasm_expire(&rn->single, now);
		return;
	}
	wait_idle(&rn->pl, queued);
	(void)reasm_expire(&rn->pl.workers[0].w, now);
}

/* Reads IN to the end. @p multi: queue frames to the workers; else process
 * them here. @return 0, or CLI_EXIT_ERROR after a message (the run is still shut down
 * cleanly by the caller). A live run (--out) also stops at a stop request. */
int read_all(struct run *rn, bool multi)
{
	struct expiry exp = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t queued = 0;
	unsigned n = rn->opt.threads;
	int rc;

	while ((rc = pcap_next_ex(rn->in, &h, &data)) == 1) {
		uint64_t now = record_ns(h);
		uint32_t wirelen = h->len < h->caplen ? h->caplen : h->len;
		struct frame *f;

		if (rn->live && live_ctl_stopping(&rn->lv.ctl))
			return 0; /* a signal or --duration */
		if (atomic_load_explicit(&write_errno, memory_order_relaxed))
			return 0; /* the output is lost: main reports it */

		if (!multi) {
			if (expiry_due(&exp, now))
				(void)reasm_expire(&rn->single, now);
			(void)reasm_input(&rn->single, data, h->caplen, wirelen,
					  now);
			if (rn->lv.direct)
				direct_publish(rn, false);
			continue;
		}

		if (expiry_due(&exp, now)) {
			/* Worker 0 is idle once wait_idle() returns, and
			 * stays so until the next frame is queued. */
			wait_idle(&rn->pl, queued);
			(void)reasm_expire(&rn->pl.workers[0].w, now);
		}
		f = malloc(sizeof(*f) + h->caplen);
		if (f == NULL) {
			errorf("out of memory");
			return CLI_EXIT_ERROR;
		}
		f->ts_ns = now;
		f->caplen = h->caplen;
		f->wirelen = wirelen;
		f->out = NULL;
		f->more = NULL;
		f->nmore = 0;
		memcpy(f->data, data, h->caplen);
		/* The frames of one flow to one worker, in capture order;
		 * the others round robin. */
		int32_t flow = reasm_flow_of(rn->engine, data, h->caplen);
		unsigned i = flow < 0 ? (unsigned)(queued % n)
				      : (unsigned)flow % n;
		while (grain_ring_enqueue_wait(rn->pl.in[i], f, -1) != 0)
			;
		/* After the frame: the writer then always finds it. */
		while (grain_ring_enqueue_wait(rn->pl.order,
					       (void *)(uintptr_t)(i + 1),
					       -1) != 0)
			;
		queued++;
	}
	if (rc != PCAP_ERROR_BREAK) {
		pcap_errorf(rn->opt.read_path, pcap_geterr(rn->in));
		return CLI_EXIT_ERROR;
	}
	expire_at_end(rn, multi, &exp, queued);
	return 0;
}

/* A run from a capture file: the engine on this thread; with --threads
 * N >= 2 the workers of par.h on a pcap file that can be mapped, else the
 * reader here and N workers fed through rings (stdin, pcapng, a file
 * libpcap has to mend). */
int run_file(struct run *rn, bool *ran)
{
	bool multi = rn->opt.threads > 1;
	int status = open_all(rn);

	if (status == 0 && multi &&
	    par_open(&rn->par, pcap_file(rn->in), pcap_snapshot(rn->in)) == 0) {
		*ran = true;
		return run_mapped(rn);
	}
	if (status == 0) {
		if (multi) {
			status = start_threads(rn);
		} else if (reasm_worker_init(&rn->single, rn->engine,
					     emit_direct, rn->dumper) != 0) {
			errorf("cannot register the worker");
			status = CLI_EXIT_ERROR;
		}
	}
	if (status == 0) {
		*ran = true;
		status = read_all(rn, multi);
	}
	if (multi)
		stop_threads(rn);
	return status;
}
