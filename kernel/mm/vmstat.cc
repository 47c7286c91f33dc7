// kernel/mm/vmstat.cc - the paging counters and SYS_vmstat.
//
// The counters are a plain array of u64 indexed by VmEvent, updated with
// relaxed atomics (they order nothing); sys_vmstat adds the page
// allocator's and the swap area's figures of the moment.
#include "kernel/mm/vmstat.h"

#include "kernel/mm/kalloc.h"
#include "kernel/mm/pcache.h"
#include "kernel/mm/swap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {
namespace {
constinit u64 g_counts[static_cast<int>(VmEvent::Count)] = {};
}  // namespace

void vm_count(VmEvent e, u64 n) { __atomic_fetch_add(&g_counts[static_cast<int>(e)], n, __ATOMIC_RELAXED); }

u64 vm_counted(VmEvent e) { return __atomic_load_n(&g_counts[static_cast<int>(e)], __ATOMIC_RELAXED); }

SysResult sys_vmstat() {
    vmstat st{};
    st.free_pages = kalloc_free_pages();
    st.total_pages = kalloc_total_pages();
    st.minor_faults = vm_counted(VmEvent::MinorFault);
    st.major_faults = vm_counted(VmEvent::MajorFault);
    st.cow_copies = vm_counted(VmEvent::CowCopy);
    st.page_ins = vm_counted(VmEvent::PageIn);
    st.page_outs = vm_counted(VmEvent::PageOut);
    st.swap_total = swap_total_slots();
    st.swap_used = st.swap_total - swap_free_slots();
    st.cached = pcache_pages();
    st.cache_idle = pcache_idle_pages();
    return sys_result(copy_out(myproc()->pagetable, arg_addr(0), &st, sizeof st));
}

}  // namespace q
