/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outfile.c - reasm's output files (outfile.h): --write and --stats
 * written to a temporary file and renamed over their names once the run
 * has succeeded, the signals that end a file run without leaving a
 * temporary file or half a record behind, and the records of the output
 * capture.
 */
#define _DEFAULT_SOURCE /* pcap.h needs u_char and friends; nanosleep() */
#define MSG_PROG "reasm"
#include "msg.h"
#include "options.h"
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NS_PER_S 1000000000ull

/* --- Output files ---------------------------------------------------------- */

/* The temporary files of this run, removed by the signal handler below
 * if a signal ends the run (file mode: nothing else catches them): the
 * two outputs', and the link that keeps an output's old file while the
 * outputs are renamed (outs_finish()). */
#define MAX_TMP_FILES 3
static char *volatile tmp_files[MAX_TMP_FILES];

/* Blocks the signals whose handler removes the temporary files, saving
 * the mask in *old, around a step the handler must not cut in two: a
 * temporary file made but not yet registered, or one output renamed and
 * not the other. */
static void end_signals_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

/* From a signal handler: only async-signal-safe calls. */
static void remove_tmp_files(void)
{
	for (int i = 0; i < MAX_TMP_FILES; i++) {
		char *t = tmp_files[i];

		if (t != NULL)
			(void)unlink(t);
	}
}

/* Ends the process by @p sig, as if it had not been caught, once the
 * temporary files are gone. Async-signal-safe. */
static void die_of(int sig)
{
	sigset_t s;

	remove_tmp_files();
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig); /* not reached */
}

/*
 * A capture written in place to a stream (stdout, a FIFO) cannot be taken
 * back, and its reader must never get a record cut short: a signal that
 * ends a file run waits for the record (or batch of whole records) being
 * written, and the writer then dies of it. Each write goes
 * OUT_IDLE -> OUT_WRITING -> (flushed) OUT_IDLE; a signal takes
 * OUT_IDLE -> OUT_STOP and dies at once (nothing is half written: the
 * stream is flushed after every record), or takes OUT_WRITING -> OUT_STOP
 * and leaves the dying to the writer (out_write_end()). A second signal
 * while the writer finishes (a reader that stopped reading, say) dies at
 * once. The state is a lock-free atomic int: safe in a handler.
 */
enum { OUT_IDLE, OUT_WRITING, OUT_STOP };
static _Atomic(int) out_state;
static _Atomic(int) out_stop_sig;
static volatile sig_atomic_t out_stream; /* set once, before any record */

static void remove_tmp_and_die(int sig)
{
	while (out_stream) {
		int s = OUT_IDLE;

		if (atomic_compare_exchange_strong_explicit(
			    &out_state, &s, OUT_STOP, memory_order_relaxed,
			    memory_order_relaxed) ||
		    s == OUT_STOP)
			break;
		/* A record is being written: the writer dies after it. */
		atomic_store_explicit(&out_stop_sig, sig, memory_order_relaxed);
		s = OUT_WRITING;
		/* R1: the writer's A1 then reads the signal stored above. */
		if (atomic_compare_exchange_strong_explicit(
			    &out_state, &s, OUT_STOP, memory_order_release,
			    memory_order_relaxed))
			return;
		/* It went idle meanwhile: try again. */
	}
	die_of(sig);
}

/* Before writing whole records to a stream capture. @return false when a
 * signal is ending the run: write nothing. */
static bool out_write_begin(void)
{
	int s = OUT_IDLE;

	return !out_stream ||
	       atomic_compare_exchange_strong_explicit(&out_state, &s,
						       OUT_WRITING,
						       memory_order_relaxed,
						       memory_order_relaxed);
}

/* After a write that out_write_begin() allowed, the records flushed out
 * of @p f (NULL: written with write() already): dies of the signal that
 * came meanwhile, if one did. */
static void out_write_end(FILE *f)
{
	int s = OUT_WRITING;

	if (!out_stream)
		return;
	if (f != NULL)
		(void)fflush(f);
	/* A1 (on failure): pairs with R1 in remove_tmp_and_die(). */
	if (!atomic_compare_exchange_strong_explicit(&out_state, &s, OUT_IDLE,
						     memory_order_acquire,
						     memory_order_acquire))
		die_of(atomic_load_explicit(&out_stop_sig,
					    memory_order_relaxed));
}

static bool par_begin(void)
{
	return out_write_begin();
}

static void par_end(void)
{
	out_write_end(NULL);
}

const struct par_write_hooks out_par_hooks = { par_begin, par_end };

/* SIGBUS: with several threads a capture file is read through a mapping,
 * and a file that another program truncates under it faults there. Say
 * so, leave no temporary file, and exit CLI_EXIT_ERROR as for any bad
 * input. */
static void input_gone(int sig)
{
	static const char msg[] = "reasm: bus error reading the capture file "
				  "(was it truncated while being read?)\n";

	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	remove_tmp_files();
	_exit(CLI_EXIT_ERROR);
}

static void tmp_register(char *tmp, bool add)
{
	for (int i = 0; i < MAX_TMP_FILES; i++) {
		if (add && tmp_files[i] == NULL) {
			tmp_files[i] = tmp;
			return;
		}
		if (!add && tmp_files[i] == tmp) {
			tmp_files[i] = NULL;
			return;
		}
	}
}

/* Forgets the temporary file's and the target's names. */
static void out_forget(struct out_file *of)
{
	free(of->tmp);
	of->tmp = NULL;
	free(of->target);
	of->target = NULL;
}

/* Removes the temporary file (if @p remove: it is not renamed over the
 * target) from the names a signal cleans up, then forgets it. */
static void out_drop_tmp(struct out_file *of, bool remove)
{
	if (remove)
		(void)unlink(of->tmp);
	tmp_register(of->tmp, false);
	out_forget(of);
}

/* The path of the link that @p path names, read against the folder of
 * @p path; NULL with errno set on error. */
static char *link_next(const char *path)
{
	char link[PATH_MAX];
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return NULL;
	link[n] = '\0';
	const char *slash = strrchr(path, '/');
	if (link[0] == '/' || slash == NULL)
		return strdup(link);
	size_t dirlen = (size_t)(slash - path) + 1;
	char *next = malloc(dirlen + (size_t)n + 1);
	if (next != NULL) {
		memcpy(next, path, dirlen);
		memcpy(next + dirlen, link, (size_t)n + 1);
	}
	return next;
}

/* The file that writing @p path replaces or creates: symbolic links
 * followed, a link to nothing yet included, and the folder made
 * absolute where it exists (two spellings of one file then compare
 * equal). NULL with errno set on error. */
char *out_resolve(const char *path)
{
	char *cur = strdup(path);
	struct stat lst;

	for (unsigned hops = 0;
	     cur != NULL && lstat(cur, &lst) == 0 && S_ISLNK(lst.st_mode);
	     hops++) {
		char *next = hops < 40 ? link_next(cur) : NULL;
		if (hops >= 40)
			errno = ELOOP;
		free(cur);
		cur = next;
	}
	if (cur == NULL)
		return NULL;
	const char *slash = strrchr(cur, '/');
	const char *base = slash != NULL ? slash + 1 : cur;
	char *dir = slash == NULL  ? strdup(".")
		    : slash == cur ? strdup("/")
				   : strndup(cur, (size_t)(slash - cur));
	char *real = dir != NULL ? realpath(dir, NULL) : NULL;
	free(dir);
	if (real == NULL || *base == '\0') {
		/* Left as given: the write reports what is wrong. */
		free(real);
		return cur;
	}
	size_t n = strlen(real) + strlen(base) + 2;
	char *out = malloc(n);
	if (out != NULL)
		snprintf(out, n, "%s/%s", strcmp(real, "/") == 0 ? "" : real,
			 base);
	free(real);
	free(cur);
	return out;
}

/* Opens @p path for writing as described above. @return 0, or CLI_EXIT_ERROR after a
 * message. */
int out_open(struct out_file *of, const char *path)
{
	struct stat st;
	bool exists;
	mode_t mode, mask;
	int fd;

	memset(of, 0, sizeof(*of));
	of->path = path;
	if (strcmp(path, "-") == 0) {
		of->f = stdout;
		return 0;
	}
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		of->f = fopen(path, "w");
		if (of->f == NULL) {
			errorf("%s: %s", path, strerror(errno));
			return CLI_EXIT_ERROR;
		}
		return 0;
	}
	/* A symbolic link: replace (or create) the file it names, keep the
	 * link. */
	of->target = out_resolve(path);
	if (of->target == NULL) {
		errorf("%s: %s", path, strerror(errno));
		return CLI_EXIT_ERROR;
	}
	const char *t = of->target;
	const char *slash = strrchr(t, '/');
	size_t dirlen = slash != NULL ? (size_t)(slash - t) + 1 : 0;
	size_t n = strlen(t) + sizeof("/..XXXXXX");

	of->tmp = malloc(n);
	if (of->tmp == NULL) {
		errorf("out of memory");
		free(of->target);
		of->target = NULL;
		return CLI_EXIT_ERROR;
	}
	snprintf(of->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, t, t + dirlen);
	/* Made and registered with the signals held off: a signal between
	 * the two would leave the file behind. */
	sigset_t old;
	end_signals_block(&old);
	fd = mkstemp(of->tmp);
	if (fd >= 0)
		tmp_register(of->tmp, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		errorf("%s: %s", path, strerror(errno));
		out_forget(of);
		return CLI_EXIT_ERROR;
	}
	/* The mode a plain create would give, or the existing file's. */
	mask = umask(0);
	umask(mask);
	mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
	(void)fchmod(fd, mode);
	of->f = fdopen(fd, "w");
	if (of->f == NULL) {
		errorf("%s: %s", path, strerror(errno));
		close(fd);
		out_drop_tmp(of, true);
		return CLI_EXIT_ERROR;
	}
	return 0;
}

/* Finishes an output whose FILE the caller has already closed (or, for
 * stdout, flushed): renames the temporary file over the path if @p ok,
 * else removes it. @return 0, or CLI_EXIT_ERROR after a message. */
int out_finish(struct out_file *of, bool ok)
{
	int status = 0;

	if (of->tmp == NULL)
		return 0;
	if (ok && rename(of->tmp, of->target) != 0) {
		errorf("%s: %s", of->path, strerror(errno));
		status = CLI_EXIT_ERROR;
		ok = false;
	}
	out_drop_tmp(of, !ok);
	return status;
}

/* A second name (a hard link ".NAME.XXXXXX" beside it) for the file that
 * @p of's rename would replace, so that the rename can be undone; NULL
 * when there is no such file, or it cannot be linked (a file system
 * without hard links, say). Registered with the temporary files. */
static char *out_keep_old(const struct out_file *of)
{
	struct stat st;
	size_t n = strlen(of->tmp) + 1;
	char *keep = malloc(n);

	if (keep == NULL || lstat(of->target, &st) != 0 ||
	    !S_ISREG(st.st_mode)) {
		free(keep);
		return NULL;
	}
	/* A fresh name (the same pattern as the temporary file's), freed
	 * for the link; another program could take it in between: then
	 * try again. */
	for (int tries = 0; tries < 8; tries++) {
		memcpy(keep, of->tmp, n);
		memcpy(keep + n - 7, "XXXXXX", 6);
		int fd = mkstemp(keep);
		if (fd < 0)
			break;
		close(fd);
		(void)unlink(keep);
		if (link(of->target, keep) == 0) {
			tmp_register(keep, true);
			return keep;
		}
		if (errno != EEXIST)
			break;
	}
	free(keep);
	return NULL;
}

/* Forgets (and removes, if @p remove) the name out_keep_old() made. */
static void out_drop_old(char *keep, bool remove)
{
	if (keep == NULL)
		return;
	if (remove)
		(void)unlink(keep);
	tmp_register(keep, false);
	free(keep);
}

/*
 * Finishes both outputs of a run: if @p ok, renames the temporary files
 * over their targets, both or neither; else removes them. The stats file
 * goes first, its old file kept under a second name (out_keep_old()),
 * then the capture; if the capture's rename fails, the stats file's is
 * undone, so that a failed run leaves both files as they were. (Where
 * the old stats file cannot be linked, a stats file that did not exist
 * is removed again, and one that did stays replaced.) @return 0, or CLI_EXIT_ERROR
 * after a message.
 */
int outs_finish(struct out_file *cap, struct out_file *stats, bool ok)
{
	if (!ok || cap->tmp == NULL || stats->tmp == NULL) {
		int a = out_finish(stats, ok);
		int b = out_finish(cap, ok && a == 0);
		return a != 0 ? a : b;
	}
	sigset_t old;
	struct stat st;
	end_signals_block(&old);
	bool existed = lstat(stats->target, &st) == 0;
	char *keep = out_keep_old(stats);
	int status = 0;
	if (rename(stats->tmp, stats->target) != 0) {
		errorf("%s: %s", stats->path, strerror(errno));
		status = CLI_EXIT_ERROR;
		out_drop_tmp(stats, true);
		out_drop_tmp(cap, true);
	} else if (rename(cap->tmp, cap->target) != 0) {
		errorf("%s: %s", cap->path, strerror(errno));
		status = CLI_EXIT_ERROR;
		if (keep != NULL)
			(void)rename(keep, stats->target);
		else if (!existed)
			(void)unlink(stats->target);
		out_drop_tmp(stats, false);
		out_drop_tmp(cap, true);
	} else {
		out_drop_tmp(stats, false);
		out_drop_tmp(cap, false);
	}
	out_drop_old(keep, true);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return status;
}

/* The name of an output in messages. */
const char *out_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "stdout" : path;
}

_Atomic(int) write_errno;

/* --- Output files named twice -------------------------------------------- */

/* Does @p write_path name the file @p read_path names? */
bool same_file(const char *read_path, const char *write_path)
{
	struct stat a, b;

	if (strcmp(read_path, "-") == 0 || strcmp(write_path, "-") == 0)
		return false;
	if (stat(read_path, &a) != 0 || stat(write_path, &b) != 0)
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Do outputs @p a and @p b end in one file: one spelling, one existing
 * file, one file to be created under two spellings or through a link, or
 * stdout ("-") sent to the regular file that the other names? */
bool same_output(const char *a, const char *b)
{
	bool a_out = strcmp(a, "-") == 0, b_out = strcmp(b, "-") == 0;

	if (strcmp(a, b) == 0)
		return true;
	if (a_out || b_out) {
		struct stat o, f;
		return fstat(STDOUT_FILENO, &o) == 0 && S_ISREG(o.st_mode) &&
		       stat(a_out ? b : a, &f) == 0 && o.st_dev == f.st_dev &&
		       o.st_ino == f.st_ino;
	}
	if (same_file(a, b))
		return true;
	char *ra = out_resolve(a), *rb = out_resolve(b);
	bool same = ra != NULL && rb != NULL && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* --- Records ------------------------------------------------------------- */
/* --- Output ---------------------------------------------------------------- */

void dump_out(pcap_dumper_t *d, const struct reasm_out *out)
{
	struct pcap_pkthdr h;

	if (atomic_load_explicit(&write_errno, memory_order_relaxed) != 0)
		return; /* the output is lost already: write nothing more */

	memset(&h, 0, sizeof(h));
	h.ts.tv_sec = (time_t)(out->ts_ns / NS_PER_S);
	/* Nanoseconds: the dumper was opened with nanosecond precision. */
	h.ts.tv_usec = (suseconds_t)(out->ts_ns % NS_PER_S);
	h.caplen = out->len;
	h.len = out->orig_len < out->len ? out->len : out->orig_len;
	if (!out_write_begin())
		return; /* a signal is ending the run */
	errno = 0;
	pcap_dump((u_char *)d, &h, out->data);
	out_write_end(pcap_dump_file(d));
	if (ferror(pcap_dump_file(d)))
		atomic_store_explicit(&write_errno, errno != 0 ? errno : EIO,
				      memory_order_relaxed);
}

void out_catch_signals(void)
{
	/* A closed pipe on --write - is a write error (EPIPE), reported and
	 * ended cleanly, not a silent death; a signal that ends a file run
	 * removes the temporary output files first. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, remove_tmp_and_die);
	signal(SIGTERM, remove_tmp_and_die);
	signal(SIGHUP, remove_tmp_and_die);
	signal(SIGBUS, input_gone);
}

void out_set_stream(void)
{
	out_stream = 1;
}
