/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * par.c - the file mode of reasm with several workers (see par.h).
 *
 * The input is a pcap file mapped read-only: the classic format, version
 * 2.4, in this machine's byte order (so libpcap would swap nothing).
 *
 * The walker. The calling thread walks the record headers, a segment of
 * SEG_RECORDS records at a time, and indexes each record: where it lies
 * and which worker owns it (reasm_flow_of() modulo N for a fragment, so
 * every fragment of a datagram, and every IPv4 datagram of a source, has
 * one owner, which sees them in capture order; the record index modulo N
 * for anything else), and whether expiry runs before it (expiry_due() of
 * par.h over every timestamp, as a single thread computes it). It takes
 * only records that libpcap gives as they lie in the file: whole, no
 * longer than the snapshot length (so libpcap cuts nothing), stamped with
 * a non-negative second and a fraction below one second (so their
 * nanoseconds are record_ns()'s in run_file.c). At the first record that is
 * not, or at the end of the file, the walk ends; records from there on
 * (the tail) are read by the caller with libpcap, which mends or refuses
 * them, and given to par_input() on one thread.
 *
 * The workers. Each of the N workers has an engine of its own (its own
 * tables), with 1/N of the memory limits, so nothing a worker does reaches
 * another's datagrams: not even the tables' own expiry (an insert retires
 * a few old entries of its stripe), which always runs with the owner's
 * clock. A worker goes through the index of each segment, expires its
 * tables where the index says (having processed every record before that
 * point and none after it: the timeouts of one thread) and gives its own
 * records to its engine straight from the mapping. What the engine emits
 * for record i is appended, with i, to the worker's run of the segment.
 *
 * The writer, the calling thread again, between two segments walked:
 * once every worker has finished segment s, it merges the N runs of s by
 * record index (each is sorted, and a record has one owner, so the merge
 * is the capture order) and writes them with writev(). The output file is
 * byte for byte the one a single thread writes.
 *
 * A ring of RING segments holds the index and the runs: the walker fills
 * slot s % RING for segment s only once segment s - RING is written, and
 * a worker empties its run there (freeing the outputs it made) when it
 * starts s. So the walker is at most RING segments ahead of the writer,
 * the workers wait only for the walker, and memory is bounded by RING
 * segments of index and output.
 *
 * Synchronization: one mutex guards the counts (segments walked, each
 * worker's segments done) and the stop flag; the index and the runs of a
 * segment pass between the threads by those counts, under the mutex. The
 * walker's own position and the written count are the calling thread's
 * alone.
 */
#define _DEFAULT_SOURCE
#define MSG_PROG "reasm"
#include "msg.h"
#include "par.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SEG_RECORDS 256u /* records per segment */
#define RING 8u		 /* segments in flight */
#define FILE_HDR 24u	 /* struct pcap_file_header */
#define REC_HDR 16u	 /* struct pcap_sf_pkthdr */
#define MAGIC_USEC 0xa1b2c3d4u
#define MAGIC_NSEC 0xa1b23c4du
#define MAX_CAPLEN 262144u /* libpcap's largest for every link reasm takes */
#define WRITE_BATCH 256u   /* records per writev() (two iovecs each) */
#define MAX_WORKERS 64u
#define PREFETCH_RECORDS 6u /* how far ahead the walk asks for a header */
#define OWN_EXPIRE 0x80u    /* in par_seg.own: expiry runs before it */
#define OWN_MASK 0x3fu	    /* in par_seg.own: the owner */
/* The engine's defaults (reasm.h, struct reasm_config). */
#define PAR_MEM_HIGH ((size_t)4 << 20)
#define PAR_MEM_LOW ((size_t)3 << 20)

/* One output and the record that made it. */
struct par_out {
	uint64_t idx;
	struct reasm_out *out;
};

/* A worker's outputs of one segment, in capture order. */
struct par_run {
	struct par_out *v;
	size_t n, cap;
};

/* The walker's index of one segment. */
struct par_seg {
	uint64_t first;		  /* index of its first record */
	unsigned count;		  /* records in it */
	size_t off[SEG_RECORDS];  /* each record's header in the mapping */
	uint8_t own[SEG_RECORDS]; /* its owner | OWN_EXPIRE */
};

struct par_worker {
	struct reasm_worker w;
	struct reasm *engine; /* its own */
	struct par_file *pf;
	unsigned index;
	uint64_t cur;	     /* the record reasm_input() is working on */
	struct par_run *run; /* where its outputs go */
	bool oom;	     /* an output could not be kept */
	uint64_t done;	     /* segments finished (under mu) */
	pthread_t thread;
	bool started;
	struct par_run runs[RING];
};

struct par_file {
	const uint8_t *base; /* the mapping */
	size_t size;
	bool nsec;	/* nanosecond timestamps */
	uint32_t limit; /* longest record taken */
	struct reasm *flows;
	unsigned n;
	struct par_worker *wk;
	struct par_seg *segs;		     /* [RING] */
	int fd;				     /* the output */
	int werr;			     /* the first write error */
	const struct par_write_hooks *hooks; /* around writes, or NULL */
	/* The walker's (the calling thread's). */
	size_t walk_off;
	uint64_t walk_idx;
	struct expiry exp;
	bool walk_end;
	bool has_tail;	  /* the walk stopped before the end */
	uint64_t written; /* segments written */
	pthread_mutex_t mu;
	pthread_cond_t cv_writer;  /* a segment finished, or stop */
	pthread_cond_t cv_workers; /* a segment walked, or stop */
	bool sync_init;
	/* Under mu. */
	uint64_t walked;	  /* segments indexed */
	bool walk_done;		  /* walked is final */
	bool writer_waiting;	  /* on cv_writer */
	unsigned workers_waiting; /* on cv_workers */
	bool stop;		  /* an error: everyone stops */
};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The capture time of the record whose header is @p h. */
static uint64_t rec_ns(const struct par_file *pf, const uint8_t *h)
{
	uint64_t frac = rd32(h + 4);

	return (uint64_t)rd32(h) * PAR_NS_PER_S +
	       (pf->nsec ? frac : frac * 1000u);
}

/* --- Opening and closing -------------------------------------------------- */

int par_open(struct par_file **pp, FILE *in, int snapshot)
{
	struct par_file *pf;
	struct stat st;
	uint32_t magic;
	void *m;
	int fd = in != NULL ? fileno(in) : -1;

	if (fd < 0 || snapshot <= 0 || fstat(fd, &st) != 0 ||
	    !S_ISREG(st.st_mode) || st.st_size < (off_t)FILE_HDR ||
	    (uintmax_t)st.st_size > SIZE_MAX)
		return 1;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	pf = calloc(1, sizeof(*pf));
	if (pf == NULL) {
		munmap(m, (size_t)st.st_size);
		return 1;
	}
	pf->base = m;
	pf->size = (size_t)st.st_size;
	magic = rd32(pf->base);
	pf->nsec = magic == MAGIC_NSEC;
	pf->limit = (uint32_t)snapshot < MAX_CAPLEN ? (uint32_t)snapshot
						    : MAX_CAPLEN;
	pf->walk_off = FILE_HDR;
	pf->fd = -1;
	if ((magic != MAGIC_USEC && magic != MAGIC_NSEC) ||
	    rd16(pf->base + 4) != 2 || rd16(pf->base + 6) != 4) {
		par_close(pf, NULL);
		return 1;
	}
	*pp = pf;
	return 0;
}

/* Frees the outputs of @p r, which the writer has written (or will not
 * write), and empties it. The worker that made them frees them, so that
 * malloc() keeps to its thread's arena. */
static void run_clear(struct par_run *r)
{
	for (size_t j = 0; j < r->n; j++)
		reasm_out_free(r->v[j].out);
	r->n = 0;
}

void par_close(struct par_file *pf, struct reasm_stats *st)
{
	struct reasm_stats one;

	if (pf == NULL)
		return;
	for (unsigned i = 0; pf->wk != NULL && i < pf->n; i++) {
		if (pf->wk[i].engine != NULL) {
			reasm_destroy(pf->wk[i].engine, &one);
			if (st != NULL)
				reasm_stats_add(st, &one);
		}
	}
	for (unsigned i = 0; pf->wk != NULL && i < pf->n; i++) {
		for (unsigned s = 0; s < RING; s++) {
			run_clear(&pf->wk[i].runs[s]);
			free(pf->wk[i].runs[s].v);
		}
	}
	free(pf->wk);
	free(pf->segs);
	if (pf->sync_init) {
		pthread_mutex_destroy(&pf->mu);
		pthread_cond_destroy(&pf->cv_writer);
		pthread_cond_destroy(&pf->cv_workers);
	}
	munmap((void *)pf->base, pf->size);
	free(pf);
}

/* --- The walker ----------------------------------------------------------- */

/* Whether libpcap gives the record at @p h (@p left bytes from it to the
 * end of the file) as it lies in the file. */
static bool plain_record(const struct par_file *pf, const uint8_t *h,
			 size_t left)
{
	uint32_t frac_max = pf->nsec ? 1000000000u : 1000000u;

	if (left < REC_HDR)
		return false; /* a header cut short */
	uint32_t sec = rd32(h), frac = rd32(h + 4), caplen = rd32(h + 8);

	return sec <= INT32_MAX && frac < frac_max && caplen <= pf->limit &&
	       left - REC_HDR >= caplen;
}

/* The owner of the frame of record @p idx. */
static unsigned owner_of(const struct par_file *pf, const uint8_t *frame,
			 uint32_t caplen, uint64_t idx)
{
	int32_t flow = reasm_flow_of(pf->flows, frame, caplen);

	return flow < 0 ? (unsigned)(idx % pf->n) : (unsigned)flow % pf->n;
}

/* Indexes the next segment's records into @p seg. Sets walk_end (and
 * has_tail) at the end of the file or of the plain records. */
static void walk_segment(struct par_file *pf, struct par_seg *seg)
{
	unsigned i = 0;

	seg->first = pf->walk_idx;
	while (i < SEG_RECORDS) {
		const uint8_t *h = pf->base + pf->walk_off;

		if (pf->walk_off >= pf->size) {
			pf->walk_end = true;
			break;
		}
		if (!plain_record(pf, h, pf->size - pf->walk_off)) {
			pf->walk_end = true;
			pf->has_tail = true; /* libpcap's, from here on */
			break;
		}
		uint32_t caplen = rd32(h + 8);
		uint8_t own = (uint8_t)owner_of(pf, h + REC_HDR, caplen,
						pf->walk_idx);

		/* The next headers are as far apart, most likely: ask for
		 * one a few records on, so that the walk does not wait for
		 * memory at every record. */
		__builtin_prefetch(h + PREFETCH_RECORDS *
					       (size_t)(REC_HDR + caplen));
		if (expiry_due(&pf->exp, rec_ns(pf, h)))
			own |= OWN_EXPIRE;
		seg->off[i] = pf->walk_off;
		seg->own[i] = own;
		pf->walk_off += REC_HDR + caplen;
		pf->walk_idx++;
		i++;
	}
	seg->count = i;
}

/* --- The workers ---------------------------------------------------------- */

/* Emit callback: keep the output, with its record, for the writer. */
static void emit_keep(struct reasm_out *out, void *arg)
{
	struct par_worker *wk = arg;
	struct par_run *r = wk->run;

	if (r->n == r->cap) {
		size_t cap = r->cap != 0 ? 2 * r->cap : 64;
		struct par_out *v = realloc(r->v, cap * sizeof(*v));

		if (v == NULL) {
			wk->oom = true; /* the run fails: no output is lost
					   silently */
			reasm_out_free(out);
			return;
		}
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n].idx = wk->cur;
	r->v[r->n].out = out;
	r->n++;
}

/* Stops everyone (under mu). */
static void stop_locked(struct par_file *pf)
{
	pf->stop = true;
	pthread_cond_broadcast(&pf->cv_writer);
	pthread_cond_broadcast(&pf->cv_workers);
}

/* Worker @p wk's records of @p seg. */
static void work_segment(struct par_worker *wk, const struct par_seg *seg)
{
	const struct par_file *pf = wk->pf;

	for (unsigned i = 0; i < seg->count && !wk->oom; i++) {
		const uint8_t *h = pf->base + seg->off[i];
		unsigned own = seg->own[i];

		if (own & OWN_EXPIRE)
			(void)reasm_expire(&wk->w, rec_ns(pf, h));
		if ((own & OWN_MASK) != wk->index)
			continue;
		uint32_t caplen = rd32(h + 8), len = rd32(h + 12);

		wk->cur = seg->first + i;
		(void)reasm_input(&wk->w, h + REC_HDR, caplen,
				  len < caplen ? caplen : len, rec_ns(pf, h));
	}
}

static void *worker_main(void *arg)
{
	struct par_worker *wk = arg;
	struct par_file *pf = wk->pf;

	for (uint64_t s = 0;; s++) {
		bool go;

		pthread_mutex_lock(&pf->mu);
		wk->done = s;
		if (pf->writer_waiting)
			pthread_cond_signal(&pf->cv_writer);
		if (wk->oom)
			stop_locked(pf);
		while (!pf->stop && pf->walked <= s && !pf->walk_done) {
			pf->workers_waiting++;
			pthread_cond_wait(&pf->cv_workers, &pf->mu);
			pf->workers_waiting--;
		}
		go = !pf->stop && pf->walked > s;
		pthread_mutex_unlock(&pf->mu);
		if (!go)
			break;
		/* Segment s - RING, whose outputs these are, is written. */
		wk->run = &wk->runs[s % RING];
		run_clear(wk->run);
		work_segment(wk, &pf->segs[s % RING]);
	}
	return NULL;
}

/* --- The writer ----------------------------------------------------------- */

/* pcap_dump()'s record header. */
struct rec_hdr {
	int32_t sec, frac;
	uint32_t caplen, len;
};

/* Writes every byte of @p iov (@p cnt entries, changed on the way).
 * @return 0 or an errno value. */
static int write_all(int fd, struct iovec *iov, int cnt)
{
	while (cnt > 0) {
		ssize_t w = writev(fd, iov, cnt);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (w == 0)
			return EIO;
		while (cnt > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* Merges the runs in @p slot of every worker in capture order and writes
 * them (nothing after a write error, kept in pf->werr). The outputs stay
 * with their workers, which free them. */
static void write_slot(struct par_file *pf, unsigned slot)
{
	struct rec_hdr hdr[WRITE_BATCH];
	struct iovec iov[2 * WRITE_BATCH];
	size_t pos[MAX_WORKERS] = { 0 };
	unsigned nb = 0;

	for (;;) {
		struct par_run *best = NULL;
		unsigned bi = 0;

		for (unsigned i = 0; i < pf->n; i++) {
			struct par_run *r = &pf->wk[i].runs[slot];

			if (pos[i] < r->n &&
			    (best == NULL ||
			     r->v[pos[i]].idx < best->v[pos[bi]].idx)) {
				best = r;
				bi = i;
			}
		}
		if (best != NULL) {
			struct reasm_out *o = best->v[pos[bi]++].out;

			hdr[nb].sec = (int32_t)(o->ts_ns / PAR_NS_PER_S);
			hdr[nb].frac = (int32_t)(o->ts_ns % PAR_NS_PER_S);
			hdr[nb].caplen = o->len;
			hdr[nb].len = o->orig_len < o->len ? o->len
							   : o->orig_len;
			iov[2 * nb].iov_base = &hdr[nb];
			iov[2 * nb].iov_len = sizeof(hdr[nb]);
			iov[2 * nb + 1].iov_base = o->data;
			iov[2 * nb + 1].iov_len = o->len;
			nb++;
		}
		if (nb == WRITE_BATCH || (best == NULL && nb != 0)) {
			const struct par_write_hooks *h = pf->hooks;
			if (pf->werr == 0 &&
			    (h == NULL || h->begin == NULL || h->begin())) {
				pf->werr =
					write_all(pf->fd, iov, (int)(2 * nb));
				if (h != NULL && h->end != NULL)
					h->end();
			}
			nb = 0;
		}
		if (best == NULL)
			break;
	}
}

void par_set_write_hooks(struct par_file *pf, const struct par_write_hooks *h)
{
	pf->hooks = h;
}

/* The smallest count of segments the workers have all finished (under
 * mu). */
static uint64_t all_done(const struct par_file *pf)
{
	uint64_t m = UINT64_MAX;

	for (unsigned i = 0; i < pf->n; i++)
		if (pf->wk[i].done < m)
			m = pf->wk[i].done;
	return m;
}

/* Writes segment pf->written once every worker has finished it; waits
 * for that if @p wait. @return false if it is not finished (or the run
 * stops). */
static bool write_next(struct par_file *pf, bool wait)
{
	bool ready;

	pthread_mutex_lock(&pf->mu);
	while (wait && !pf->stop && all_done(pf) <= pf->written) {
		pf->writer_waiting = true;
		pthread_cond_wait(&pf->cv_writer, &pf->mu);
	}
	pf->writer_waiting = false;
	ready = !pf->stop && all_done(pf) > pf->written;
	pthread_mutex_unlock(&pf->mu);
	if (!ready)
		return false;
	write_slot(pf, (unsigned)(pf->written % RING));
	pf->written++;
	if (pf->werr != 0) {
		pthread_mutex_lock(&pf->mu);
		stop_locked(pf); /* the output is lost: stop reading */
		pthread_mutex_unlock(&pf->mu);
		return false;
	}
	return true;
}

/* Walks one segment into its slot and hands it to the workers. */
static void walk_next(struct par_file *pf)
{
	/* walked is the caller's to change: it reads it without mu. */
	uint64_t s = pf->walked;
	struct par_seg *seg = &pf->segs[s % RING];

	walk_segment(pf, seg);
	pthread_mutex_lock(&pf->mu);
	if (seg->count != 0)
		pf->walked = s + 1;
	pf->walk_done = pf->walk_end;
	if (pf->workers_waiting != 0)
		pthread_cond_broadcast(&pf->cv_workers);
	pthread_mutex_unlock(&pf->mu);
}

/* Makes the workers' engines and starts them. @return 0 or 2. */
static int start_workers(struct par_file *pf, const struct reasm_config *cfg)
{
	struct reasm_config wc = *cfg;
	unsigned n = pf->n;
	int rc;

	/* The limits shared out (at least a byte each: 0 means the
	 * default). */
	if (wc.mem_high == 0)
		wc.mem_high = PAR_MEM_HIGH;
	if (wc.mem_low == 0)
		wc.mem_low = wc.mem_high == PAR_MEM_HIGH ? PAR_MEM_LOW
							 : wc.mem_high / 4 * 3;
	wc.mem_high = wc.mem_high / n != 0 ? wc.mem_high / n : 1;
	wc.mem_low = wc.mem_low / n != 0 ? wc.mem_low / n : 1;
	for (unsigned i = 0; i < n; i++) {
		struct par_worker *wk = &pf->wk[i];

		wk->pf = pf;
		wk->index = i;
		wk->run = &wk->runs[0];
		rc = reasm_create(&wk->engine, &wc);
		if (rc != 0) {
			errorf("cannot make the engine: %s", strerror(-rc));
			return 2;
		}
		rc = reasm_worker_init(&wk->w, wk->engine, emit_keep, wk);
		if (rc != 0) {
			errorf("cannot register worker %u: %s", i,
			       strerror(-rc));
			return 2;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (thread_start(&pf->wk[i].thread, worker_main, &pf->wk[i],
				 "worker thread %u", i) != 0)
			return 2;
		pf->wk[i].started = true;
	}
	return 0;
}

int par_run(struct par_file *pf, struct reasm *flows,
	    const struct reasm_config *cfg, unsigned workers, int fd,
	    bool *tail)
{
	int status;
	bool oom = false;

	*tail = false;
	if (workers < 2 || workers > MAX_WORKERS) {
		errorf("%u workers: 2 to %u", workers, MAX_WORKERS);
		return 2;
	}
	pf->flows = flows;
	pf->fd = fd;
	pf->wk = calloc(workers, sizeof(*pf->wk));
	pf->segs = calloc(RING, sizeof(*pf->segs));
	if (pf->wk == NULL || pf->segs == NULL) {
		errorf("out of memory");
		return 2;
	}
	pf->n = workers;
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->cv_writer, NULL);
	pthread_cond_init(&pf->cv_workers, NULL);
	pf->sync_init = true;
	status = start_workers(pf, cfg);
	if (status != 0) {
		pthread_mutex_lock(&pf->mu);
		stop_locked(pf);
		pthread_mutex_unlock(&pf->mu);
	}

	/* Walk while the ring has room, writing what is finished on the
	 * way; then wait for the workers and write the rest. */
	while (status == 0) {
		if (!pf->walk_end && pf->walked < pf->written + RING) {
			walk_next(pf);
			while (write_next(pf, false))
				;
			continue;
		}
		if (pf->written == pf->walked && pf->walk_end)
			break; /* everything written */
		if (!write_next(pf, true))
			break; /* a stop */
	}
	for (unsigned i = 0; i < workers; i++) {
		if (pf->wk[i].started)
			pthread_join(pf->wk[i].thread, NULL);
		oom = oom || pf->wk[i].oom;
	}
	/* Every output is written now (or never will be). */
	for (unsigned i = 0; i < workers; i++)
		for (unsigned s = 0; s < RING; s++)
			run_clear(&pf->wk[i].runs[s]);
	if (oom && status == 0) {
		errorf("out of memory");
		status = 2;
	}
	*tail = status == 0 && pf->werr == 0 && pf->has_tail;
	return status;
}

void par_finish(struct par_file *pf)
{
	uint64_t now;

	if (expiry_end(&pf->exp, &now))
		for (unsigned i = 0; i < pf->n; i++)
			(void)reasm_expire(&pf->wk[i].w, now);
}

uint64_t par_records(const struct par_file *pf)
{
	return pf->walk_idx;
}

int par_write_error(const struct par_file *pf)
{
	return pf->werr;
}

int par_input(struct par_file *pf, const uint8_t *frame, uint32_t caplen,
	      uint32_t wirelen, uint64_t now)
{
	struct par_worker *wk;

	if (expiry_due(&pf->exp, now))
		for (unsigned i = 0; i < pf->n; i++)
			(void)reasm_expire(&pf->wk[i].w, now);
	wk = &pf->wk[owner_of(pf, frame, caplen, pf->walk_idx)];
	wk->run = &wk->runs[0]; /* empty: see par_run() */
	wk->cur = pf->walk_idx++;
	(void)reasm_input(&wk->w, frame, caplen, wirelen, now);
	if (wk->oom) {
		errorf("out of memory");
		return 2;
	}
	write_slot(pf, 0);
	run_clear(wk->run);
	return 0;
}
