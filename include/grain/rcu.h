/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file rcu.h
 * @brief The RCU side of grain_htab's lock-free lookups: which liburcu
 *        flavour protects a table's readers, and the grain_rcu_* helpers
 *        (the memb flavour's calls, exported by libgrain-htab).
 *
 * Included by htab.h; include it alone where only the helpers are needed.
 *
 * RCU flavours: config.flavor names the liburcu flavour whose grace
 * periods protect the table's readers (&urcu_memb_flavor, the default when
 * NULL, &urcu_qsbr_flavor, &urcu_bp_flavor, ...). Readers may use that
 * flavour's own read-side calls, inline with _LGPL_SOURCE, or the
 * grain_rcu_* helpers, which are the memb flavour's. Threads that call into
 * an RCU table must be registered with that flavour, and lookup must run
 * inside one of its read-side sections. Under ThreadSanitizer (grain built
 * with GRAIN_SANITIZE=thread, its tsan.supp installed) every one of these
 * read sides works as it is: a reclaim after a grace period, ops.reclaim
 * included, and what destroy frees of an RCU table run with TSan's access
 * checks off (README.md, "Using grain under sanitizers"). Choosing one:
 * memb's inline read-side section (a thread-local counter stored twice,
 * loads and branches around it) costs about as much as the uncontended stripe lock a
 * GRAIN_HTAB_NO_RCU table takes for a lookup: what its lookups buy is that
 * they never wait for a writer and write only their thread's own counter;
 * qsbr's section is empty, but every reader thread must announce quiescent
 * states (urcu_qsbr_quiescent_state()) often, as each grace period waits for
 * all of them (doc/bench/ has the measurements).
 */
#ifndef GRAIN_RCU_H
#define GRAIN_RCU_H

#include <grain/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RCU helpers (liburcu, memb flavour: the default flavour of RCU tables).
 * A table of another flavour uses that flavour's calls instead. */
/** grain_rcu_register_thread - register the calling thread with the memb
 * flavour: once per thread, before its first call into a table of that
 * flavour. Affects the calling thread only. */
GRAIN_API void grain_rcu_register_thread(void);
/** grain_rcu_unregister_thread - undo grain_rcu_register_thread(): before
 * the thread exits, outside any read-side section. */
GRAIN_API void grain_rcu_unregister_thread(void);
/** grain_rcu_read_lock - begin a read-side section of the memb flavour.
 * Nests; never blocks. In a debug build of libgrain (NDEBUG not defined)
 * it aborts with a message on a thread that did not register. */
GRAIN_API void grain_rcu_read_lock(void);
/** grain_rcu_read_unlock - end the read-side section that the matching
 * grain_rcu_read_lock() of the same thread began. Never blocks. */
GRAIN_API void grain_rcu_read_unlock(void);
/** grain_rcu_barrier - wait until every reclaim already deferred through
 * the memb flavour has run. Not inside a read-side section. */
GRAIN_API void grain_rcu_barrier(void);

#ifdef __cplusplus
}
#endif

#endif /* GRAIN_RCU_H */
