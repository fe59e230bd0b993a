/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file grain.hpp
 * @brief A header-only C++17 layer over grain's C calls: owning types,
 *        the htab lock scope and RCU guards, and a typed table whose
 *        lock-free lookup inlines the caller's hash and equality.
 *
 * Contents
 *   1. Errors: return values, not exceptions
 *   2. Owning types: grain::ring, grain::ring_elem, grain::prio,
 *      grain::htab_ptr
 *   3. grain::htab_scope: a held stripe lock, unlocked by its destructor
 *   4. RCU: thread registration and read-side guards, per flavour
 *   5. grain::htab<Key, Node, Hash, Eq>: the typed table
 *
 * Include <grain/grain.hpp> instead of <grain/grain.h> (it includes it).
 * Needs C++17; compiles with -fno-exceptions and -fno-rtti; links against
 * libgrain and, for the tables, libgrain-htab, as the C calls do. Nothing
 * here is exported: libgrain's ABI is the C one.
 *
 * 1\. Errors. Every call that can fail returns the C call's int: 0 (or a
 * count) on success, a negative errno value otherwise, with the meanings
 * the C call's documentation gives; each is [[nodiscard]]. Nothing throws.
 * Why: a daemon is often built with -fno-exceptions, where a throwing
 * layer would not compile or would abort; the values a queue returns most
 * (-EAGAIN full or empty, -ETIMEDOUT, -EPIPE closed, -EEXIST) are ordinary
 * outcomes of the fast path, not exceptional ones; and an int costs
 * nothing over the C call, so the layer never makes a path slower. An
 * owning type is created empty and filled by its create() call, which
 * returns the C create's value (a constructor could report a failure only
 * by throwing). Every call is noexcept.
 *
 * Thread safety and memory ordering are those of the C call each member
 * calls (its documentation, and the synchronization tables of ring.h,
 * ring_elem.h, prio.h and htab.h): the layer adds no state and no
 * synchronisation, except where a member says so. Moving or destroying an
 * owning object is its C destroy: nothing else may use the object then.
 *
 * Cost. The C inline fast paths (ring, ring_elem, prio, htab: their
 * GRAIN_INLINE_API calls) are written with C11 atomics, which C++ cannot
 * compile, so from C++ each is a call into libgrain's exported copy, and
 * the C _fast calls of grain_htab, which specialise a table's search on
 * the caller's hash and equality, do not exist in C++ at all. The typed
 * table closes that gap for the call that matters most, the lock-free
 * lookup: grain::htab::lookup() is the search of grain_htab_lookup_fast()
 * written again here over the same layout with the compiler's __atomic
 * built-ins, so that the caller's Hash and Eq are inlined into it and no
 * call is left on its path (the layout it reads is checked against the C
 * one by the test cxx_layer). The calls that take a lock (insert, remove,
 * the scope's calls) go to libgrain, which calls Hash and Eq through the
 * table's ops.
 */
#ifndef GRAIN_GRAIN_HPP
#define GRAIN_GRAIN_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "<grain/grain.hpp> needs C++17 (C programs include <grain/grain.h>)"
#endif

#include <grain/grain.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#if defined(__SSE2__) && UINTPTR_MAX > 0xffffffffu && !GRAIN_TSAN
#include <emmintrin.h>
#endif

namespace grain {

/** Wait forever: the timeout of a _wait call (ring.h, section 6). */
inline constexpr std::int64_t forever = -1;

/* 2. Owning types ------------------------------------------------------- */

/** @cond */
namespace detail {

/* One owned C object: move-only; destroyed by Destroy (NULL-safe, as
 * every grain destroy is). */
template <class T, void (*Destroy)(T *)> class unique {
      public:
	unique() noexcept = default;
	explicit unique(T *p) noexcept : p_(p)
	{
	}
	unique(unique &&o) noexcept : p_(std::exchange(o.p_, nullptr))
	{
	}
	unique &operator=(unique &&o) noexcept
	{
		if (this != &o)
			reset(std::exchange(o.p_, nullptr));
		return *this;
	}
	unique(const unique &) = delete;
	unique &operator=(const unique &) = delete;
	~unique()
	{
		reset();
	}

	/** The C object, or nullptr; still owned. */
	T *get() const noexcept
	{
		return p_;
	}
	/** Holds an object. */
	explicit operator bool() const noexcept
	{
		return p_ != nullptr;
	}
	/** Give up ownership: the caller destroys what is returned. */
	[[nodiscard]] T *release() noexcept
	{
		return std::exchange(p_, nullptr);
	}
	/** Destroy the object held (if any) and hold @p p. */
	void reset(T *p = nullptr) noexcept
	{
		T *old = std::exchange(p_, p);
		if (old != nullptr)
			Destroy(old);
	}

      protected:
	T *p_ = nullptr;
};

} // namespace detail
/** @endcond */

/**
 * grain::ring - owns a grain_ring (grain_ring_create() /
 * grain_ring_destroy()). Holds pointers: T * for any object type.
 */
class ring : public detail::unique<grain_ring, grain_ring_destroy> {
      public:
	using unique::unique;

	/** grain_ring_create(); on success the ring held before (if any) is
	 * destroyed and the new one held. @return as grain_ring_create(). */
	[[nodiscard]] int create(unsigned capacity, unsigned flags = 0,
				 const grain_alloc *alloc = nullptr) noexcept
	{
		grain_ring *r = nullptr;
		int rc = grain_ring_create(&r, capacity, flags, alloc);
		if (rc == 0)
			reset(r);
		return rc;
	}
	/** grain_ring_try_enqueue(). */
	[[nodiscard]] int try_enqueue(void *obj) noexcept
	{
		return grain_ring_try_enqueue(p_, obj);
	}
	/** grain_ring_enqueue_wait(). */
	[[nodiscard]] int enqueue_wait(void *obj,
				       std::int64_t timeout_ns) noexcept
	{
		return grain_ring_enqueue_wait(p_, obj, timeout_ns);
	}
	/** grain_ring_try_dequeue() into @p obj (written on success only). */
	template <class T> [[nodiscard]] int try_dequeue(T *&obj) noexcept
	{
		void *v;
		int rc = grain_ring_try_dequeue(p_, &v);
		if (rc == 0)
			obj = static_cast<T *>(v);
		return rc;
	}
	/** grain_ring_dequeue_wait() into @p obj (written on success only). */
	template <class T>
	[[nodiscard]] int dequeue_wait(T *&obj,
				       std::int64_t timeout_ns) noexcept
	{
		void *v;
		int rc = grain_ring_dequeue_wait(p_, &v, timeout_ns);
		if (rc == 0)
			obj = static_cast<T *>(v);
		return rc;
	}
	/** grain_ring_close(). */
	[[nodiscard]] int close() noexcept
	{
		return grain_ring_close(p_);
	}
	/** grain_ring_closed(). */
	bool closed() const noexcept
	{
		return grain_ring_closed(p_);
	}
	/** grain_ring_count(). */
	unsigned count() const noexcept
	{
		return grain_ring_count(p_);
	}
	/** grain_ring_capacity(). */
	unsigned capacity() const noexcept
	{
		return grain_ring_capacity(p_);
	}
};

/**
 * grain::ring_elem - owns a grain_ring_elem (grain_ring_elem_create() /
 * grain_ring_elem_destroy()). The typed calls copy a T in or out: T must
 * be trivially copyable and sizeof(T) the ring's element size (else
 * -EINVAL, checked on each call).
 */
class ring_elem
    : public detail::unique<grain_ring_elem, grain_ring_elem_destroy> {
      public:
	using unique::unique;

	/** grain_ring_elem_create(); as ring::create(). */
	[[nodiscard]] int create(unsigned capacity, unsigned esize,
				 unsigned flags = 0,
				 const grain_alloc *alloc = nullptr) noexcept
	{
		grain_ring_elem *r = nullptr;
		int rc = grain_ring_elem_create(&r, capacity, esize, flags,
						alloc);
		if (rc == 0)
			reset(r);
		return rc;
	}
	/** grain_ring_elem_try_enqueue() of @p v. */
	template <class T> [[nodiscard]] int try_enqueue(const T &v) noexcept
	{
		static_assert(std::is_trivially_copyable_v<T>);
		return fits<T>() ? grain_ring_elem_try_enqueue(p_, &v)
				 : -EINVAL;
	}
	/** grain_ring_elem_enqueue_wait() of @p v. */
	template <class T>
	[[nodiscard]] int enqueue_wait(const T &v,
				       std::int64_t timeout_ns) noexcept
	{
		static_assert(std::is_trivially_copyable_v<T>);
		return fits<T>() ? grain_ring_elem_enqueue_wait(p_, &v,
								timeout_ns)
				 : -EINVAL;
	}
	/** grain_ring_elem_try_dequeue() into @p v. */
	template <class T> [[nodiscard]] int try_dequeue(T &v) noexcept
	{
		static_assert(std::is_trivially_copyable_v<T>);
		return fits<T>() ? grain_ring_elem_try_dequeue(p_, &v)
				 : -EINVAL;
	}
	/** grain_ring_elem_dequeue_wait() into @p v. */
	template <class T>
	[[nodiscard]] int dequeue_wait(T &v, std::int64_t timeout_ns) noexcept
	{
		static_assert(std::is_trivially_copyable_v<T>);
		return fits<T>() ? grain_ring_elem_dequeue_wait(p_, &v,
								timeout_ns)
				 : -EINVAL;
	}
	/** grain_ring_elem_close(). */
	[[nodiscard]] int close() noexcept
	{
		return grain_ring_elem_close(p_);
	}
	/** grain_ring_elem_closed(). */
	bool closed() const noexcept
	{
		return grain_ring_elem_closed(p_);
	}
	/** grain_ring_elem_count(). */
	unsigned count() const noexcept
	{
		return grain_ring_elem_count(p_);
	}

      private:
	template <class T> bool fits() const noexcept
	{
		return grain_ring_elem_esize(p_) == sizeof(T);
	}
};

/**
 * grain::prio - owns a grain_prio (grain_prio_create() /
 * grain_prio_destroy()). Holds pointers, as grain::ring.
 */
class prio : public detail::unique<grain_prio, grain_prio_destroy> {
      public:
	using unique::unique;

	/** grain_prio_create(); as ring::create(). */
	[[nodiscard]] int create(const grain_prio_config &cfg,
				 const grain_alloc *alloc = nullptr) noexcept
	{
		grain_prio *q = nullptr;
		int rc = grain_prio_create(&q, &cfg, alloc);
		if (rc == 0)
			reset(q);
		return rc;
	}
	/** grain_prio_try_enqueue(). */
	[[nodiscard]] int try_enqueue(unsigned band, void *obj) noexcept
	{
		return grain_prio_try_enqueue(p_, band, obj);
	}
	/** grain_prio_enqueue_wait(). */
	[[nodiscard]] int enqueue_wait(unsigned band, void *obj,
				       std::int64_t timeout_ns) noexcept
	{
		return grain_prio_enqueue_wait(p_, band, obj, timeout_ns);
	}
	/** grain_prio_try_dequeue() into @p obj (and *bandp, if not NULL). */
	template <class T>
	[[nodiscard]] int try_dequeue(T *&obj,
				      unsigned *bandp = nullptr) noexcept
	{
		void *v;
		int rc = grain_prio_try_dequeue(p_, &v, bandp);
		if (rc == 0)
			obj = static_cast<T *>(v);
		return rc;
	}
	/** grain_prio_dequeue_wait() into @p obj (and *bandp). */
	template <class T>
	[[nodiscard]] int dequeue_wait(T *&obj, std::int64_t timeout_ns,
				       unsigned *bandp = nullptr) noexcept
	{
		void *v;
		int rc = grain_prio_dequeue_wait(p_, &v, bandp, timeout_ns);
		if (rc == 0)
			obj = static_cast<T *>(v);
		return rc;
	}
	/** grain_prio_close(). */
	[[nodiscard]] int close() noexcept
	{
		return grain_prio_close(p_);
	}
	/** grain_prio_closed(). */
	bool closed() const noexcept
	{
		return grain_prio_closed(p_);
	}
	/** grain_prio_backlog(). */
	unsigned backlog() const noexcept
	{
		return grain_prio_backlog(p_);
	}
};

/**
 * grain::htab_ptr - owns a grain_htab made with the C ops (a table shared
 * with C code, say); grain::htab below is the typed form. Its destructor
 * is grain_htab_destroy(), with that call's rules (not in a read-side
 * section; with qsbr, from an offline or unregistered thread).
 */
class htab_ptr : public detail::unique<grain_htab, grain_htab_destroy> {
      public:
	using unique::unique;

	/** grain_htab_create(); as ring::create(). */
	[[nodiscard]] int create(const grain_htab_config &cfg,
				 const grain_alloc *alloc = nullptr) noexcept
	{
		grain_htab *h = nullptr;
		int rc = grain_htab_create(&h, &cfg, alloc);
		if (rc == 0)
			reset(h);
		return rc;
	}
};

/* 3. The lock scope ------------------------------------------------------- */

/**
 * grain::htab_scope - grain_htab_lock() in its constructor,
 * grain_htab_unlock() in its destructor (or at unlock(), once). Neither
 * copied nor moved: it lives on the stack of the thread that locked, as
 * struct grain_htab_scope does, with that struct's rules (htab.h, section
 * 6: never two scopes of one table at once in a thread). A NULL table or
 * key gives an empty scope, as the C call does: every call fails.
 */
class htab_scope {
      public:
	htab_scope(grain_htab *h, const void *key) noexcept
	{
		grain_htab_lock(h, key, &s_);
	}
	htab_scope(const htab_scope &) = delete;
	htab_scope &operator=(const htab_scope &) = delete;
	~htab_scope()
	{
		unlock();
	}

	/** grain_htab_unlock() now; the destructor then does nothing. */
	void unlock() noexcept
	{
		if (held_) {
			held_ = false;
			grain_htab_unlock(&s_);
		}
	}
	/** The lock is still held (unlock() not called). */
	bool held() const noexcept
	{
		return held_;
	}
	/** The C scope, for the C _locked calls. */
	grain_htab_scope *get() noexcept
	{
		return &s_;
	}

	/** grain_htab_find_locked(). */
	grain_hnode *find(const void *key) noexcept
	{
		return grain_htab_find_locked(&s_, key);
	}
	/** grain_htab_insert_locked(). */
	[[nodiscard]] int insert(grain_hnode *node, const void *key,
				 std::uint64_t now, std::size_t charge) noexcept
	{
		return grain_htab_insert_locked(&s_, node, key, now, charge);
	}
	/** grain_htab_remove_locked(). */
	[[nodiscard]] int remove(grain_hnode *node) noexcept
	{
		return grain_htab_remove_locked(&s_, node);
	}
	/** grain_htab_touch_locked(). */
	[[nodiscard]] int touch(grain_hnode *node, std::uint64_t now) noexcept
	{
		return grain_htab_touch_locked(&s_, node, now);
	}
	/** grain_htab_replace_locked(). */
	[[nodiscard]] int replace(grain_hnode *old, grain_hnode *node,
				  std::uint64_t now,
				  std::size_t charge) noexcept
	{
		return grain_htab_replace_locked(&s_, old, node, now, charge);
	}

      private:
	grain_htab_scope s_{};
	bool held_ = true;
};

/* 4. RCU ---------------------------------------------------------------- */

/**
 * grain::rcu_thread - registers the calling thread with the memb flavour
 * (the default flavour of RCU tables) for its lifetime:
 * grain_rcu_register_thread() and grain_rcu_unregister_thread(). Make one
 * at the top of each thread that uses an RCU table of that flavour; it
 * must die on the thread that made it, outside any read-side section.
 */
class rcu_thread {
      public:
	rcu_thread() noexcept
	{
		grain_rcu_register_thread();
	}
	rcu_thread(const rcu_thread &) = delete;
	rcu_thread &operator=(const rcu_thread &) = delete;
	~rcu_thread()
	{
		grain_rcu_unregister_thread();
	}
};

/**
 * grain::rcu_read_guard - a read-side section of the memb flavour for its
 * lifetime (grain_rcu_read_lock() / grain_rcu_read_unlock()). Nests; never
 * blocks. Nodes a lookup returns inside it stay valid until it ends.
 */
class rcu_read_guard {
      public:
	rcu_read_guard() noexcept
	{
		grain_rcu_read_lock();
	}
	rcu_read_guard(const rcu_read_guard &) = delete;
	rcu_read_guard &operator=(const rcu_read_guard &) = delete;
	~rcu_read_guard()
	{
		grain_rcu_read_unlock();
	}
};

/**
 * grain::rcu_flavor_thread - registers the calling thread with any
 * liburcu flavour a table may name in grain_htab_config.flavor
 * (urcu_memb_flavor, urcu_qsbr_flavor, urcu_bp_flavor, urcu_mb_flavor,
 * urcu_signal_flavor), through that flavour's struct: its register_thread
 * and, at the end, unregister_thread. Needs liburcu's <urcu/flavor.h>
 * (any flavour header includes it) where it is used; F is deduced.
 * Example: `grain::rcu_flavor_thread t(urcu_qsbr_flavor);`. For qsbr
 * threads it also offers the quiescent state and the offline/online
 * calls. Dies on the thread that made it, outside a read-side section
 * (online, for qsbr).
 */
template <class F> class rcu_flavor_thread {
      public:
	explicit rcu_flavor_thread(const F &flavor) noexcept : f_(&flavor)
	{
		f_->register_thread();
	}
	rcu_flavor_thread(const rcu_flavor_thread &) = delete;
	rcu_flavor_thread &operator=(const rcu_flavor_thread &) = delete;
	~rcu_flavor_thread()
	{
		f_->unregister_thread();
	}

	/** The flavour's read_quiescent_state (qsbr: announce one). */
	void quiescent_state() const noexcept
	{
		f_->read_quiescent_state();
	}
	/** The flavour's thread_offline: grace periods stop waiting for the
	 * thread (qsbr: before it blocks, or destroys a table). */
	void offline() const noexcept
	{
		f_->thread_offline();
	}
	/** The flavour's thread_online: undo offline(). */
	void online() const noexcept
	{
		f_->thread_online();
	}

      private:
	const F *f_;
};

/**
 * grain::rcu_flavor_read_guard - a read-side section of the flavour @p F
 * for its lifetime (the flavour struct's read_lock and read_unlock: one
 * indirect call each; the flavour's own inline calls, with _LGPL_SOURCE,
 * cost less where that matters). Needs <urcu/flavor.h>, as
 * rcu_flavor_thread. Example: `grain::rcu_flavor_read_guard
 * g(urcu_qsbr_flavor);`.
 */
template <class F> class rcu_flavor_read_guard {
      public:
	explicit rcu_flavor_read_guard(const F &flavor) noexcept : f_(&flavor)
	{
		f_->read_lock();
	}
	rcu_flavor_read_guard(const rcu_flavor_read_guard &) = delete;
	rcu_flavor_read_guard &
	operator=(const rcu_flavor_read_guard &) = delete;
	~rcu_flavor_read_guard()
	{
		f_->read_unlock();
	}

      private:
	const F *f_;
};

/* 5. The typed table ------------------------------------------------------ */

/** @cond */
namespace detail {

/* The part of grain_htab's private layout (impl/htab.h) that a lock-free
 * lookup reads, as C++ sees it. The test cxx_layer compares every size,
 * offset and constant here with what the C compiler makes of impl/htab.h;
 * it changes with that file, and only with it. */
#if UINTPTR_MAX > 0xffffffffu
inline constexpr unsigned htab_slots = 6;
using htab_sigw1 = std::uint32_t;
#else
inline constexpr unsigned htab_slots = 8;
using htab_sigw1 = std::uint64_t;
#endif
inline constexpr std::uint32_t htab_next_mask = 0xffffffu;
inline constexpr std::uintptr_t htab_dir_log = GRAIN_CACHELINE - 1;

struct __attribute__((__may_alias__)) htab_bucket {
	alignas(8) std::uint64_t sig0;
	htab_sigw1 sig1;
	std::uint32_t meta;
	grain_hnode *node[htab_slots];
};

/* The table's first, read-mostly line. */
struct __attribute__((__may_alias__)) htab_head {
	std::uintptr_t *dir;
	void *stripes;
	std::uint64_t smask;
	grain_htab_ops ops;
	void *ctx;
	grain_hash_key secret;
	std::uint32_t max_chain, max_load, min_buckets, flags;
};

/* The candidates of bucket @b for the signature of @p hash: bit i is slot
 * i (impl/htab.h's grain_impl_htab_cand(), both forms). */
#if defined(__SSE2__) && UINTPTR_MAX > 0xffffffffu && !GRAIN_TSAN
inline constexpr bool htab_sse2 = true;
using htab_sigv = __m128i;

GRAIN_ALWAYS_INLINE htab_sigv htab_sigv_of(std::uint64_t hash) noexcept
{
	__m128i v = _mm_shufflelo_epi16(
		_mm_cvtsi64_si128(static_cast<long long>(hash)), 0xaa);
	return _mm_unpacklo_epi64(v, v);
}

GRAIN_ALWAYS_INLINE unsigned htab_cand(const htab_bucket *b,
				       htab_sigv v) noexcept
{
	__m128i w = _mm_load_si128(reinterpret_cast<const __m128i *>(b));
	__m128i eq = _mm_cmpeq_epi16(w, v);
	unsigned m = static_cast<unsigned>(
		_mm_movemask_epi8(_mm_packs_epi16(eq, eq)));
	return m & ((1u << htab_slots) - 1u);
}

GRAIN_ALWAYS_INLINE std::size_t htab_first(unsigned m) noexcept
{
	std::uint64_t i;
	__asm__("rep bsfl %1, %k0" : "=r"(i) : "rm"(m) : "cc");
	return static_cast<std::size_t>(i);
}
#else
inline constexpr bool htab_sse2 = false;
using htab_sigv = std::uint64_t;

GRAIN_ALWAYS_INLINE htab_sigv htab_sigv_of(std::uint64_t hash) noexcept
{
	return (hash >> 32 & 0xffffu) * 0x0001000100010001ull;
}

GRAIN_ALWAYS_INLINE std::uint64_t htab_zero16(std::uint64_t x) noexcept
{
	std::uint64_t t =
		((x & 0x7fff7fff7fff7fffull) + 0x7fff7fff7fff7fffull) | x;
	return ~t & 0x8000800080008000ull;
}

GRAIN_ALWAYS_INLINE unsigned htab_lanes(std::uint64_t m) noexcept
{
	return static_cast<unsigned>(((m >> 15) & 1u) | ((m >> 30) & 2u) |
				     ((m >> 45) & 4u) | ((m >> 60) & 8u));
}

GRAIN_ALWAYS_INLINE unsigned htab_cand(const htab_bucket *b,
				       htab_sigv rep) noexcept
{
#if UINTPTR_MAX > 0xffffffffu
	constexpr std::uint64_t lanes1 = 0x80008000ull;
#else
	constexpr std::uint64_t lanes1 = 0x8000800080008000ull;
#endif
	std::uint64_t m0 =
		htab_zero16(__atomic_load_n(&b->sig0, __ATOMIC_RELAXED) ^ rep);
	std::uint64_t m1 =
		htab_zero16(static_cast<std::uint64_t>(__atomic_load_n(
				    &b->sig1, __ATOMIC_RELAXED)) ^
			    rep) &
		lanes1;
	return htab_lanes(m0) | htab_lanes(m1) << 4;
}

GRAIN_ALWAYS_INLINE std::size_t htab_first(unsigned m) noexcept
{
	return static_cast<std::size_t>(__builtin_ctz(m));
}
#endif

/* grain_htab_lookup_fast(): the node for which @p eq holds in the chain
 * of @p hash, or nullptr. The same loads with the same orderings (A3 for
 * the directory word, A2 for a bucket's meta, A1 for a slot). */
template <class E>
GRAIN_ALWAYS_INLINE grain_hnode *
htab_search(const htab_head *h, std::uint64_t hash, const E &eq) noexcept
{
	std::uintptr_t w = __atomic_load_n(&h->dir[(hash >> 48) & h->smask],
					   __ATOMIC_ACQUIRE);
	htab_bucket *b0 = reinterpret_cast<htab_bucket *>(w & ~htab_dir_log);
	std::uint32_t mask = static_cast<std::uint32_t>(
		(std::uint64_t{ 1 } << (w & htab_dir_log)) - 1);
	htab_bucket *b = &b0[hash & mask];
	const htab_sigv sig = htab_sigv_of(hash);

	for (;;) {
		std::uint32_t meta =
			__atomic_load_n(&b->meta, __ATOMIC_ACQUIRE);
		for (unsigned m = htab_cand(b, sig); m != 0; m &= m - 1) {
			std::size_t i = htab_first(m);
			grain_hnode *n =
				__atomic_load_n(&b->node[i], __ATOMIC_ACQUIRE);
			if (n != nullptr && eq(n))
				return n;
		}
		std::uint32_t nx = meta & htab_next_mask;
		if (nx == 0)
			return nullptr;
		b = &b0[nx];
	}
}

} // namespace detail
/** @endcond */

/**
 * grain::htab<Key, Node, Hash, Eq> - an owning, typed grain_htab.
 *
 * Node derives from grain_hnode (publicly, so that a grain_hnode * and a
 * Node * convert with static_cast at no cost): `struct flow : grain_hnode
 * { key k; ... };`, zeroed before its first insert (`flow f{};`).
 * Hash and Eq are stateless function objects, default-constructed where
 * they are called:
 *   std::uint64_t Hash::operator()(const Key &, const grain_hash_key
 *                                  &secret) const noexcept
 *   bool Eq::operator()(const Node &, const Key &) const noexcept
 * with the meaning of grain_htab_ops.hash and .eq (Eq may run in a
 * lock-free lookup: it reads only what stays valid until reclaim).
 *
 * create() fills the config's ops.hash and ops.eq with Hash and Eq; the
 * other ops (reclaim, unlinked, defer), the ctx and every other field are
 * the caller's, as in C. The destructor is grain_htab_destroy().
 *
 * lookup() inlines Hash and Eq (the file's head, "Cost"); the calls that
 * lock are the C calls, which reach Hash and Eq through the ops. Each
 * call has the returns, ordering and thread safety of its C call.
 */
template <class Key, class Node, class Hash, class Eq> class htab {
	static_assert(std::is_base_of_v<grain_hnode, Node>,
		      "Node derives from grain_hnode");
	static_assert(std::is_empty_v<Hash> &&
			      std::is_default_constructible_v<Hash>,
		      "Hash is a stateless function object");
	static_assert(std::is_empty_v<Eq> &&
			      std::is_default_constructible_v<Eq>,
		      "Eq is a stateless function object");

      public:
	using key_type = Key;
	using node_type = Node;

	htab() noexcept = default;
	htab(htab &&) noexcept = default;
	htab &operator=(htab &&) noexcept = default;

	/** grain_htab_create() with @p cfg, its ops.hash and ops.eq set to
	 * Hash and Eq. @return as grain_htab_create(); on success a table
	 * held before is destroyed. */
	[[nodiscard]] int create(grain_htab_config cfg = {},
				 const grain_alloc *alloc = nullptr) noexcept
	{
		cfg.ops.hash = &c_hash;
		cfg.ops.eq = &c_eq;
		return h_.create(cfg, alloc);
	}

	/** The C table (still owned), or nullptr. */
	grain_htab *get() const noexcept
	{
		return h_.get();
	}
	/** Holds a table. */
	explicit operator bool() const noexcept
	{
		return bool(h_);
	}
	/** Destroy the table held (grain_htab_destroy()), if any. */
	void reset() noexcept
	{
		h_.reset();
	}

	/** Hash of @p key under @p secret, as the table computes it. */
	static std::uint64_t hash(const Key &key,
				  const grain_hash_key &secret) noexcept
	{
		return Hash{}(key, secret);
	}

	/**
	 * htab::view - the table's lock-free lookup on its own: a copy of the
	 * C pointer, trivially copyable, owning nothing (valid while the
	 * table is). A loop that takes the view once keeps the pointer in a
	 * register, as C code that passes a struct grain_htab * does; through
	 * a reference to the owning object, the compiler must load it again
	 * after each lookup's acquire loads (one instruction a lookup).
	 */
	class view {
	      public:
		explicit view(grain_htab *h = nullptr) noexcept : h_(h)
		{
		}

		/**
		 * grain_htab_lookup(), inline: the node holding @p key, or
		 * nullptr (also for an empty view or a GRAIN_HTAB_NO_RCU
		 * table, as the C call). Call it inside a read-side section
		 * of the table's flavour (rcu_read_guard,
		 * rcu_flavor_read_guard); the node stays valid until the
		 * section ends. Lock-free, writes nothing; acquire ordering,
		 * as grain_htab_lookup(). Any thread registered with the
		 * flavour, concurrently with every call but destroy.
		 */
		GRAIN_ALWAYS_INLINE Node *lookup(const Key &key) const noexcept
		{
			const detail::htab_head *h =
				reinterpret_cast<const detail::htab_head *>(h_);
			if (GRAIN_UNLIKELY(h == nullptr ||
					   (h->flags & GRAIN_HTAB_NO_RCU) != 0))
				return nullptr;
			std::uint64_t hv = Hash{}(key, h->secret);
			return to_node(detail::htab_search(
				h, hv, [&key](const grain_hnode *n) noexcept {
					return Eq{}(
						*static_cast<const Node *>(n),
						key);
				}));
		}
		/** The C table, or nullptr. */
		grain_htab *get() const noexcept
		{
			return h_;
		}

	      private:
		grain_htab *h_;
	};

	/** A view of the table (above). */
	view as_view() const noexcept
	{
		return view(h_.get());
	}

	/** view::lookup() of this table. */
	GRAIN_ALWAYS_INLINE Node *lookup(const Key &key) const noexcept
	{
		return view(h_.get()).lookup(key);
	}

	/** grain_htab_insert(). */
	[[nodiscard]] int insert(Node *node, const Key &key, std::uint64_t now,
				 std::size_t charge) noexcept
	{
		return grain_htab_insert(h_.get(), node, &key, now, charge);
	}
	/** grain_htab_find_or_insert(); *found (if not NULL) as there. */
	[[nodiscard]] int find_or_insert(const Key &key, Node *node,
					 std::uint64_t now, std::size_t charge,
					 Node **found = nullptr) noexcept
	{
		grain_hnode *f = nullptr;
		int rc = grain_htab_find_or_insert(h_.get(), &key, node, now,
						   charge, &f);
		if (found != nullptr)
			*found = to_node(f);
		return rc;
	}
	/** grain_htab_remove(); *removed (if not NULL) as there. */
	[[nodiscard]] int remove(const Key &key,
				 Node **removed = nullptr) noexcept
	{
		grain_hnode *r = nullptr;
		int rc = grain_htab_remove(h_.get(), &key, &r);
		if (removed != nullptr)
			*removed = to_node(r);
		return rc;
	}
	/** grain_htab_replace(); *old (if not NULL) as there. */
	[[nodiscard]] int replace(const Key &key, Node *node, std::uint64_t now,
				  std::size_t charge,
				  Node **old = nullptr) noexcept
	{
		grain_hnode *o = nullptr;
		int rc = grain_htab_replace(h_.get(), &key, node, now, charge,
					    &o);
		if (old != nullptr)
			*old = to_node(o);
		return rc;
	}

	/**
	 * htab::scope - grain::htab_scope on the stripe of one key, typed:
	 * made by lock(), unlocked by its destructor. The key given to
	 * find() and insert() is the one locked (kept by reference: it must
	 * outlive the scope).
	 */
	class scope {
	      public:
		scope(const scope &) = delete;
		scope &operator=(const scope &) = delete;

		/** grain_htab_find_locked() of the scope's key. */
		Node *find() noexcept
		{
			return to_node(s_.find(key_));
		}
		/** grain_htab_insert_locked() under the scope's key. */
		[[nodiscard]] int insert(Node *node, std::uint64_t now,
					 std::size_t charge) noexcept
		{
			return s_.insert(node, key_, now, charge);
		}
		/** grain_htab_remove_locked(). */
		[[nodiscard]] int remove(Node *node) noexcept
		{
			return s_.remove(node);
		}
		/** grain_htab_touch_locked(). */
		[[nodiscard]] int touch(Node *node, std::uint64_t now) noexcept
		{
			return s_.touch(node, now);
		}
		/** grain_htab_replace_locked(). */
		[[nodiscard]] int replace(Node *old, Node *node,
					  std::uint64_t now,
					  std::size_t charge) noexcept
		{
			return s_.replace(old, node, now, charge);
		}
		/** Unlock now; the destructor then does nothing. */
		void unlock() noexcept
		{
			s_.unlock();
		}
		/** Still locked. */
		bool held() const noexcept
		{
			return s_.held();
		}
		/** The untyped scope, for the C calls. */
		htab_scope &untyped() noexcept
		{
			return s_;
		}

	      private:
		friend class htab;
		scope(grain_htab *h, const Key &key) noexcept
		    : s_(h, &key), key_(&key)
		{
		}
		htab_scope s_;
		const Key *key_;
	};

	/** grain_htab_lock() on the stripe of @p key (blocks while another
	 * scope holds it; acquire). The scope keeps a reference to @p key:
	 * a temporary key is refused (the overload below), as it would die
	 * before the scope. */
	[[nodiscard]] scope lock(const Key &key) noexcept
	{
		return scope(h_.get(), key);
	}
	scope lock(const Key &&key) = delete;

      private:
	static Node *to_node(grain_hnode *n) noexcept
	{
		return static_cast<Node *>(n);
	}
	static std::uint64_t
	c_hash(const void *key, const grain_hash_key *secret, void *) noexcept
	{
		return Hash{}(*static_cast<const Key *>(key), *secret);
	}
	static bool c_eq(const grain_hnode *node, const void *key,
			 void *) noexcept
	{
		return Eq{}(*static_cast<const Node *>(node),
			    *static_cast<const Key *>(key));
	}

	htab_ptr h_;
};

} // namespace grain

#endif /* GRAIN_GRAIN_HPP */
