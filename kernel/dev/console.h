// kernel/dev/console.h - the console device (major 1): UART plus line editing.
#pragma once

namespace q {

void console_init();
// Called by the UART interrupt handler for each received character.
void console_intr(char c);

}  // namespace q
