// kernel/arch/riscv/uart16550.h - the 16550 UART's register map (QEMU virt).
#pragma once

#include "lib/types.h"

namespace q::uart16550 {

enum class Reg : u8 {
    Rhr = 0,  // receive holding (read)
    Thr = 0,  // transmit holding (write)
    Ier = 1,  // interrupt enable
    Fcr = 2,  // FIFO control (write)
    Isr = 2,  // interrupt status (read)
    Lcr = 3,  // line control
    Lsr = 5,  // line status
};

constexpr u8 kIerRxEnable = 1 << 0;
constexpr u8 kIerTxEnable = 1 << 1;
constexpr u8 kFcrFifoEnable = 1 << 0;
constexpr u8 kFcrFifoClear = 3 << 1;
constexpr u8 kLcrEightBits = 3;
constexpr u8 kLcrBaudLatch = 1 << 7;
constexpr u8 kLsrRxReady = 1 << 0;
constexpr u8 kLsrTxIdle = 1 << 5;

}  // namespace q::uart16550
