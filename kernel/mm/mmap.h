// kernel/mm/mmap.h - memory mappings (docs/memory.md "Mappings").
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct ThreadGroup;

SysResult sys_mmap();
SysResult sys_munmap();
SysResult sys_mprotect();
SysResult sys_msync();
// fork: give child ctg parent ptg's mappings (the caller copies the map
// afterwards): shared ones map the same pages, private ones copy-on-write
// (or copied, `copy`, when the parent has threads). Returns how many pages
// were untouched, promised (admitted by kernel/proc/oom.h:oom_reserve:
// the caller adds them to ctg's reserved); on NoMemory nothing of the
// mappings is left in ctg and nothing is promised. Caller holds ptg's
// MmGuard.
Result<u64> vm_mmap_fork(ThreadGroup* ptg, ThreadGroup* ctg, bool copy);
// fork, once ctg's map is copied: the copies of the parent's pages each
// took a promise (uvm_share, vm_mmap_fork), but a kPteShared mapping of a
// page-cache frame (text, a MAP_SHARED file mapping) is never copied and
// holds none (kernel/mm/kalloc.h: page_put): those are given back.
void vm_file_promises(ThreadGroup* ctg);
// exit or exec: write back shared file pages, free every mapping's pages
// and drop its file references (may sleep).
void vm_mmap_release(ThreadGroup* tg);
// sbrk shrinking to `from` removes the program's regions at or above it:
// their file references (demand-paged text), collected before the cut
// (out: kMaxRegions entries) and dropped after it (may sleep).
struct Inode;
int vm_objs_from(const ThreadGroup* tg, u64 from, Inode** out);
void vm_drop_objs(Inode** objs, int n);

}  // namespace q
