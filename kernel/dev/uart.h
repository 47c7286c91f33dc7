// kernel/dev/uart.h - the serial port under the console.
#pragma once

#include "lib/result.h"

namespace q {

void uart_init();
// Queue a character for interrupt-driven output; sleeps while the buffer is
// full. Killed (nothing queued) when the calling process is killed meanwhile.
Status uart_putc(char c);
// Busy-wait output, for kprintf and echo (works with interrupts off).
void uart_putc_sync(char c);
// While one lives, the ring's characters wait: what is put with
// uart_putc_sync meanwhile (the console's echo of one key, "^C" and its
// newline) reaches the screen whole, with no character another hart's
// writer queued in between ("^.C" once, hog -p printing beside it).
class UartEchoGuard {
  public:
    UartEchoGuard();
    ~UartEchoGuard();
    UartEchoGuard(const UartEchoGuard&) = delete;
    UartEchoGuard& operator=(const UartEchoGuard&) = delete;
};
void uart_intr();

}  // namespace q
