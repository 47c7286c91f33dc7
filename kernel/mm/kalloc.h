// kernel/mm/kalloc.h - the physical page allocator.
//
// All free physical memory between the end of the kernel image and the end
// of RAM sits on one free list of 4096-byte pages. There is no other
// allocator in the kernel.
#pragma once

#include "lib/types.h"

namespace q {

void kalloc_init(u64 ram_end);
// A zero-filled page, or null when memory is exhausted.
void* kalloc();
// A page still holding the free-page junk, for a caller that overwrites all
// of it before anyone reads it (fork's page copies): saves kalloc's zeroing.
void* kalloc_unzeroed();
void kfree(void* page);
u64 kalloc_free_pages();
u64 ram_end();

}  // namespace q
