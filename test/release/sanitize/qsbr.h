/* SPDX-License-Identifier: BSD-2-Clause */
/* qsbr.h - liburcu's qsbr flavour behind plain calls (qsbr.c). */
#ifndef GRAIN_TEST_SANITIZE_QSBR_H
#define GRAIN_TEST_SANITIZE_QSBR_H

struct rcu_flavor_struct;

const struct rcu_flavor_struct *qsbr_flavor(void);
void qsbr_register(void);
void qsbr_unregister(void);
void qsbr_read_lock(void);
void qsbr_read_unlock(void);
void qsbr_quiescent(void);
void qsbr_offline(void);
void qsbr_online(void);
void qsbr_synchronize(void);
void qsbr_barrier(void);

#endif /* GRAIN_TEST_SANITIZE_QSBR_H */
