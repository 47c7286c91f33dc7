// user/lib/cxxrt.cc - the bits of C++ run time a freestanding user program needs.
//
// new/delete map onto the user library's malloc/free (new of an impossible
// size returns null; there are no exceptions). A pure virtual call or a
// guard on a static local aborts the program with a message and status -1.
#include <stddef.h>

#include "user/user.h"

void* operator new(size_t n) { return malloc(static_cast<unsigned int>(n)); }
void* operator new[](size_t n) { return malloc(static_cast<unsigned int>(n)); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }

extern "C" void __cxa_pure_virtual() {
    fprintf(2, "pure virtual function called\n");
    exit(-1);
}

// Programs are single-threaded: a static local's guard is a plain flag.
extern "C" int __cxa_guard_acquire(long long* g) { return *reinterpret_cast<char*>(g) == 0; }
extern "C" void __cxa_guard_release(long long* g) { *reinterpret_cast<char*>(g) = 1; }
extern "C" void __cxa_guard_abort(long long*) {}

void* __dso_handle = nullptr;
