// lib/in_place.h - construct an object in storage that already exists.
//
// The freestanding cross toolchain has no <new>, so the project has one
// tagged placement new of its own: `new (where, InPlace{}) T(args...)`.
// The tag keeps it from clashing with <new>'s on the host. It is used
// where storage outlives what lives in it (a buffer slab's header, a run
// queue's policy slot) and where a table must be built at boot because
// the compiler will not build it at compile time (kernel/proc/proc.cc)
// or should not, to keep it out of the image's .data (BootBuilt below).
#pragma once

#include "lib/types.h"

namespace q {
struct InPlace {};
}  // namespace q

inline void* operator new(q::usize, void* where, q::InPlace) noexcept { return where; }

namespace q {

// BootBuilt<T>: storage for one T that the kernel image holds as zeros
// (.bss) until boot builds it in place: build(args...) runs T's
// constructor (T() when there are none: value-initialised, as a constinit
// T would be). It is for a global whose type has non-zero defaults (a
// lock's name, a list head's self-links, a Config): a constinit T is
// emitted whole into the image's .data, every zero byte of its arrays too
// (kernel/arch/riscv/kernel.ld bounds .data to catch the next one). The
// storage is a union whose constexpr constructor builds no T (a one-byte
// member is the active one, which GCC 12 requires), so a constinit
// BootBuilt is all zeros. Nothing ever destroys the T (the kernel does
// not exit; a host test's next boot builds it again), so T must be
// trivially destructible: otherwise the union's destructor is deleted and
// a global BootBuilt does not compile.
// Using the T before build() is a bug that built() lets its owner catch
// with a panic naming the missing init call; each owner also checks, after
// build(), that the T kept its defaults (the failure GCC 12 has with
// constinit tables, kernel/proc/proc.cc:proc_init).
template <typename T>
class BootBuilt {
  public:
    constexpr BootBuilt() : unbuilt_(0) {}

    template <typename... Args>
    T& build(Args&&... args) {
        new (&obj_, InPlace{}) T(static_cast<Args&&>(args)...);
        built_ = true;
        return obj_;
    }
    bool built() const { return built_; }

    constexpr T& operator*() { return obj_; }
    constexpr T* operator->() { return &obj_; }
    const T& operator*() const { return obj_; }
    const T* operator->() const { return &obj_; }

  private:
    union {
        T obj_;
        char unbuilt_;  // the member the image holds
    };
    bool built_ = false;
};

}  // namespace q
