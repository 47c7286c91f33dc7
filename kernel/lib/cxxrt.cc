// kernel/lib/cxxrt.cc - the little C++ runtime support a freestanding kernel needs.
//
// Policies are polymorphic objects in static storage: the compiler still
// emits deleting destructors that reference operator delete, and pure
// virtual slots that reference __cxa_pure_virtual. Neither may ever run.
#include "kernel/lib/kprintf.h"

void operator delete(void*) noexcept { q::panic("operator delete called in the kernel"); }
void operator delete(void*, q::usize) noexcept { q::panic("operator delete called in the kernel"); }
extern "C" void __cxa_pure_virtual() { q::panic("pure virtual call"); }
