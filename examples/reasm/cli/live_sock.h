/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live_sock.h - what the two sides of live.h share inside reasm: the
 * packet sockets, the mapping of their PACKET_MMAP rings and the ring
 * status words. live.c defines the calls; live_rx.c (the receive side)
 * and live_tx.c (the transmit side) use them. Not part of live.h: only
 * the three live files include it.
 *
 * The ring status words are shared with the kernel, which orders its side
 * with smp_wmb()/smp_rmb(). They are plain __u32 fields in the uapi
 * structs; they are accessed here as _Atomic(uint32_t) (same size and
 * alignment, checked below) for acquire/release ordering.
 */
#ifndef REASM_LIVE_SOCK_H
#define REASM_LIVE_SOCK_H

#include "live.h"

#include <assert.h>
#include <linux/if_packet.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define NS_PER_S 1000000000ull
#define NS_PER_MS 1000000ull

/* How often the receive workers run reasm_expire() (live_ctl). */
#define EXPIRE_NS (100 * NS_PER_MS)

#define VLAN_HLEN 4u
#define IP_MAXPACKET 65535u

static_assert(sizeof(_Atomic(uint32_t)) == sizeof(uint32_t),
	      "ring status words are accessed as _Atomic(uint32_t)");
static_assert(_Alignof(_Atomic(uint32_t)) == _Alignof(uint32_t),
	      "ring status words are accessed as _Atomic(uint32_t)");

static inline _Atomic(uint32_t) *status_word(uint32_t *p)
{
	return (_Atomic(uint32_t) *)(void *)p;
}

/* Relaxed counter bump by the counter's only writer. */
static inline void bump(_Atomic(uint64_t) *c, uint64_t n)
{
	atomic_store_explicit(c,
			      atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

static inline int set_int_opt(int fd, int name, int value)
{
	return setsockopt(fd, SOL_PACKET, name, &value, sizeof(value));
}

/* What opening either side starts with: @p ifname's index in *ifindex,
 * and a packet socket (to @p what: "receive" or "send") on an interface
 * checked to carry Ethernet frames, its MTU in *mtu. @return the socket,
 * or -1 after a message (nothing left open). */
int live_iface_socket(const char *ifname, const char *what, int *ifindex,
		      unsigned *mtu);

/* The kernel's fanout type (PACKET_FANOUT_*) for @p f. */
int live_fanout_type(enum live_fanout f);

/* Maps the ring of socket @p fd (@p len bytes). @return the mapping, or
 * NULL after a message naming @p ifname and the @p what ring. */
uint8_t *live_ring_map(int fd, size_t len, const char *ifname,
		       const char *what);

/* Unmaps a live_ring_map() mapping (NULL: none) and closes @p fd (< 0:
 * none). */
void live_ring_unmap(int fd, uint8_t *map, size_t len);

#endif /* REASM_LIVE_SOCK_H */
