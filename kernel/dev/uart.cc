// kernel/dev/uart.cc - interrupt-driven 16550 UART driver.
//
// Output: uart_putc() appends to a ring buffer and starts transmission;
// the transmit-idle interrupt drains the ring one character at a time.
// Writers sleep on the ring when it is full, and give up when they are
// killed (the character is then not queued). Input: every received character
// is handed to console_intr(), which does line editing.
// Invariant: tx_read <= tx_write <= tx_read + kTxSize (free-running counters).
#include "kernel/dev/uart.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/uart16550.h"
#include "kernel/dev/console.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"

namespace q {

using namespace uart16550;

namespace {

constexpr u64 kTxSize = 32;
constinit SpinLock g_tx_lock("uart");
constinit char g_tx_buf[kTxSize];
constinit u64 g_tx_write = 0;
constinit u64 g_tx_read = 0;

volatile u8& reg(Reg r) { return *reinterpret_cast<volatile u8*>(layout::kUart0 + static_cast<u8>(r)); }

// Move buffered characters to the device while it can take them.
// Caller holds g_tx_lock.
void tx_start() {
    while (g_tx_write != g_tx_read) {
        if ((reg(Reg::Lsr) & kLsrTxIdle) == 0) return;  // interrupt will call again
        char c = g_tx_buf[g_tx_read % kTxSize];
        g_tx_read++;
        wakeup(&g_tx_read);
        reg(Reg::Thr) = static_cast<u8>(c);
    }
}

}  // namespace

void uart_init() {
    reg(Reg::Ier) = 0;
    reg(Reg::Lcr) = kLcrBaudLatch;
    reg(Reg::Rhr) = 0x03;  // divisor low byte: 38.4K baud
    reg(Reg::Ier) = 0x00;  // divisor high byte
    reg(Reg::Lcr) = kLcrEightBits;
    reg(Reg::Fcr) = kFcrFifoEnable | kFcrFifoClear;
    reg(Reg::Ier) = kIerTxEnable | kIerRxEnable;
}

Status uart_putc(char c) {
    LockGuard g(g_tx_lock);
    if (g_panicked)
        for (;;) {}
    while (g_tx_write == g_tx_read + kTxSize) {
        Proc* p = myproc();
        if (p && killed(p)) return Error::Killed;  // kill() wakes the sleeper to see it
        sleep_killable(&g_tx_read, g_tx_lock);
    }
    g_tx_buf[g_tx_write % kTxSize] = c;
    g_tx_write++;
    tx_start();
    return {};
}

void uart_putc_sync(char c) {
    push_off();
    if (g_panicked)
        for (;;) {}
    while ((reg(Reg::Lsr) & kLsrTxIdle) == 0) {}
    reg(Reg::Thr) = static_cast<u8>(c);
    pop_off();
}

UartEchoGuard::UartEchoGuard() { g_tx_lock.acquire(); }
UartEchoGuard::~UartEchoGuard() {
    tx_start();  // what waited behind the echo
    g_tx_lock.release();
}

void uart_intr() {
    while (reg(Reg::Lsr) & kLsrRxReady) console_intr(static_cast<char>(reg(Reg::Rhr)));
    LockGuard g(g_tx_lock);
    tx_start();
}

}  // namespace q
