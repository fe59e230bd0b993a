/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.h - reasm's output files: --write and --stats replaced only by
 * a run that succeeds, the records of the output capture, and the
 * signals that end a file run cleanly (outfile.c).
 *
 * Threads: out_open(), out_finish(), outs_finish() and out_catch_signals()
 * belong to the main thread; dump_out() to the one thread that writes
 * the capture; write_errno and the signal handlers to any.
 */
#ifndef REASM_CLI_OUTFILE_H
#define REASM_CLI_OUTFILE_H

#include "par.h"
#include "reasm.h"

#include <pcap/pcap.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * An output file (--write, --stats) is written to a temporary file beside
 * it, ".NAME.XXXXXX" in the same folder, and renamed over NAME only once
 * the run has succeeded; on any error the temporary file is removed, so an
 * existing NAME is never truncated or left half written. "-" (stdout) and
 * a path that exists and is not a regular file (a FIFO, /dev/null) are
 * written in place: renaming over them would replace them.
 */
struct out_file {
	const char *path; /* as given */
	char *target;	  /* what the rename replaces: path, or the file a
			     symbolic link at path points to (malloc'd) */
	char *tmp;	  /* the temporary file, or NULL: written in place */
	FILE *f;
};

/* Opens @p path for writing as described above. @return 0, or
 * CLI_EXIT_ERROR after a message. */
int out_open(struct out_file *of, const char *path);

/* Finishes an output whose FILE the caller has already closed (or, for
 * stdout, flushed): renames the temporary file over the path if @p ok,
 * else removes it. @return 0, or CLI_EXIT_ERROR after a message. */
int out_finish(struct out_file *of, bool ok);

/* Finishes both outputs of a run: if @p ok, both renamed or neither;
 * else both temporary files removed. @return 0, or CLI_EXIT_ERROR after a
 * message. */
int outs_finish(struct out_file *cap, struct out_file *stats, bool ok);

/* The file that writing @p path replaces or creates: symbolic links
 * followed and the folder made absolute where it exists. NULL with errno
 * set on error; the caller frees it. */
char *out_resolve(const char *path);

/* Does @p write_path name the file @p read_path names? */
bool same_file(const char *read_path, const char *write_path);

/* Do outputs @p a and @p b end in one file? */
bool same_output(const char *a, const char *b);

/* The name of an output in messages ("stdout" for "-"). */
const char *out_name(const char *path);

/* The first error writing the capture (an errno value; 0: none). The
 * writer sets it; the reader (or the supervisor of a live run) stops
 * reading once it is set. Relaxed: it carries no data. */
extern _Atomic(int) write_errno;

/* Writes @p out as a record of the capture @p d, unless write_errno is
 * set or a signal is ending the run; a failed write sets write_errno. */
void dump_out(pcap_dumper_t *d, const struct reasm_out *out);

/* par.h's write hooks: par's workers write whole records only, as
 * dump_out() does, when the capture is a stream. */
extern const struct par_write_hooks out_par_hooks;

/* The capture is written in place to a stream (stdout, a FIFO): from now
 * on a signal waits for the record being written. Before any record. */
void out_set_stream(void);

/* SIGPIPE ignored (a closed pipe is a write error); SIGINT, SIGTERM and
 * SIGHUP remove the temporary files and end the run; SIGBUS (a mapped
 * capture cut short) exits 2 after a message. */
void out_catch_signals(void);

#endif /* REASM_CLI_OUTFILE_H */
