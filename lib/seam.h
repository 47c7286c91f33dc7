// lib/seam.h - the one seam between pure library code and its environment.
//
// Code under lib/ is compiled into the kernel and into host programs. When it
// must report a broken invariant, it calls this hook; the kernel implements
// it in kernel/lib/kprintf.cc (panic prints and halts every hart), host
// programs link lib/host/seam_host.cc (abort with a message).
// Nothing else in lib/ may depend on which world it runs in.
#pragma once

namespace q::seam {

[[noreturn]] void panic(const char* msg);

}  // namespace q::seam

// Check an invariant; on failure, panic with the expression and location.
#define Q_ASSERT(cond)                                                             \
    do {                                                                           \
        if (!(cond)) ::q::seam::panic("assertion failed: " #cond " at " __FILE__); \
    } while (0)
