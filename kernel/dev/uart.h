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
void uart_intr();

}  // namespace q
