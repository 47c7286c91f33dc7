// kernel/proc/rlimit.cc - getrlimit and setrlimit (the rule: lib/rlimit.h).
//
// A process's limits are its own (Proc::nproc_limit), set by itself and
// read by fork, which copies them to the child and checks them in
// kernel/proc/proc.cc:claim_slot. RLIMIT_NPROC is the only resource.
#include "lib/rlimit.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/sysproc.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

static_assert(RLIMIT_NPROC == rlimit::kNproc && RLIM_INFINITY == rlimit::kInfinity);

// getrlimit(resource, struct rlimit*) -> 0, or -1 for a resource other than
// RLIMIT_NPROC or a bad pointer.
SysResult sys_getrlimit() {
    if (arg_int(0) != rlimit::kNproc) return Error::BadArgument;
    const rlimit::Limit& l = myproc()->nproc_limit;
    const struct rlimit out { l.cur, l.max };
    return sys_result(copy_out(myproc()->pagetable, arg_addr(1), &out, sizeof(out)));
}

// setrlimit(resource, const struct rlimit*) -> 0, or -1: EINVAL for a
// resource other than RLIMIT_NPROC or rlim_cur above rlim_max, EFAULT for a
// bad pointer, EPERM for a raised rlim_max when the caller is not root.
// Children forked afterwards inherit the new limits.
SysResult sys_setrlimit() {
    if (arg_int(0) != rlimit::kNproc) return Error::BadArgument;
    struct rlimit in {};
    TRY(copy_in(myproc()->pagetable, &in, arg_addr(1), sizeof(in)));
    const rlimit::Limit want{in.rlim_cur, in.rlim_max};
    Proc* p = myproc();
    if (!rlimit::may_set(p->cred, p->nproc_limit, want))
        return want.cur > want.max ? Error::BadArgument : Error::NotPermitted;
    p->nproc_limit = want;
    return 0;
}

}  // namespace q
