/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lock.c - the EXAMPLE sections of grain_spinlock's man pages
 * (doc/manpages.py: each page shows the shortest example below that uses
 * its name, after these #include lines).
 */
#include <grain/lock.h>

#include <stdbool.h>

/* example */
/* A counter under a spinlock, locked three ways. */
static struct grain_spinlock lock = GRAIN_SPINLOCK_INIT;
static unsigned long counter;

int example_spinlock(void)
{
	struct grain_spinlock other;

	grain_spin_init(&other); /* as GRAIN_SPINLOCK_INIT */
	grain_spin_lock(&lock);	 /* spins, then yields, until free */
	counter++;
	grain_spin_unlock(&lock);

	while (!grain_spin_trylock(&lock)) /* never blocks */
		grain_cpu_relax();
	counter++;
	grain_spin_unlock(&lock);
	return counter == 2 ? 0 : -1;
}
