/* lib/sched/policies.h - the list of scheduling policies, in one place.
 *
 * X(Kind, Class, "name") for every policy, in PolicyKind order. Everything
 * that needs the list expands this macro: the registry (PolicyKind, the
 * names, PolicyStorage, construct_policy), schedsim (its loop per class),
 * and user programs (sched's error message): a new policy is one line
 * here, plus its header included by lib/sched/registry.h. Valid C (user
 * programs include it for the names; C ignores the class tokens).
 */
#ifndef QUANTA_SCHED_POLICIES_H
#define QUANTA_SCHED_POLICIES_H

#define Q_SCHED_POLICIES(X)            \
    X(RR, RoundRobin, "rr")            \
    X(DWRR, Dwrr, "dwrr")              \
    X(IDWRR, InterleavedDwrr, "idwrr") \
    X(EEVDF, Eevdf, "eevdf")           \
    X(STRIDE, Stride, "stride")        \
    X(LOTTERY, Lottery, "lottery")     \
    X(MLFQ, Mlfq, "mlfq")

/* " rr dwrr idwrr eevdf stride lottery mlfq": every name, each after a space. */
#define Q_SCHED_NAME_WITH_SPACE(kind, cls, name) " " name
#define Q_SCHED_POLICY_NAMES Q_SCHED_POLICIES(Q_SCHED_NAME_WITH_SPACE)

#endif
