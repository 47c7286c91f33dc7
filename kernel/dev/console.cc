// kernel/dev/console.cc - console line discipline, device major CONSOLE.
//
// Input is gathered into a ring buffer by console_intr() (UART interrupt):
// backspace/DEL erases a character, ^U erases the line, ^D ends input (read
// returns what is buffered, or 0 at the start of a line), ^P prints the
// process list. A reader sleeps until a whole line (or ^D) is available.
// Indexes are free-running: r <= w <= e <= r + kInputSize, where [r, w) is
// ready for readers and [w, e) is the line being edited.
// Output: one write() reaches the screen whole. The UART's ring is small
// and a writer sleeps when it is full, so without g_write_lock another
// process's characters would land inside the line (the shell's "$ " inside
// a background job's output, say). As in Linux's terminal writes, the lock
// is held for the whole call; characters echoed by the interrupt handler
// and kernel messages do not take it.
#include "kernel/dev/console.h"

#include "kernel/dev/uart.h"
#include "kernel/fs/file.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/procdump.h"
#include "kernel/sync/sleeplock.h"
#include "lib/abi/abi.h"

namespace q {

namespace {

constexpr u32 kInputSize = 128;
constexpr char ctrl(char c) { return static_cast<char>(c - '@'); }
constexpr char kBackspace = 0x7f;

constinit SpinLock g_cons_lock("console");
constinit SleepLock g_write_lock("console write");  // one writer's call at a time
constinit char g_in[kInputSize];
constinit u32 g_r = 0;  // read index
constinit u32 g_w = 0;  // write index (end of committed lines)
constinit u32 g_e = 0;  // edit index

// Echo one character; a backspace erases the previous one on the screen.
void echo(char c) {
    if (c == kBackspace) {
        uart_putc_sync('\b');
        uart_putc_sync(' ');
        uart_putc_sync('\b');
    } else {
        uart_putc_sync(c);
    }
}

// Write n bytes; a bad source address ends the write: -1 when nothing was
// written, else the count written before it.
i64 console_write(bool user_src, u64 src, int n, u32* /*off*/) {
    SleepGuard whole(g_write_lock);
    char chunk[64];
    int i = 0;
    while (i < n) {
        const int len = n - i < static_cast<int>(sizeof chunk) ? n - i : static_cast<int>(sizeof chunk);
        if (!either_copyin(chunk, user_src, src + i, static_cast<u64>(len)).ok()) break;
        for (int k = 0; k < len; k++) uart_putc(chunk[k]);
        i += len;
    }
    return i == 0 && n > 0 ? -1 : i;
}

// Read up to n bytes, at most one line. A character is consumed only once
// it has been copied out, so a bad destination address loses no input: the
// call returns what it copied before, or -1.
i64 console_read(bool user_dst, u64 dst, int n, u32* /*off*/) {
    const int want = n;
    LockGuard g(g_cons_lock);
    while (n > 0) {
        while (g_r == g_w) {
            if (killed(myproc())) return -1;
            sleep(&g_r, g_cons_lock);
        }
        const char c = g_in[g_r % kInputSize];
        if (c == ctrl('D')) {
            // End of file: if some bytes were already read, keep ^D for next time.
            if (n == want) g_r++;
            break;
        }
        if (!either_copyout(user_dst, dst, &c, 1).ok()) return n == want ? -1 : want - n;
        g_r++;
        dst++;
        n--;
        if (c == '\n') break;
    }
    return want - n;
}

}  // namespace

void console_intr(char c) {
    bool dump = false;
    {
        LockGuard g(g_cons_lock);
        switch (c) {
            case ctrl('P'):
                dump = true;
                break;
            case ctrl('U'):
                while (g_e != g_w && g_in[(g_e - 1) % kInputSize] != '\n') {
                    g_e--;
                    echo(kBackspace);
                }
                break;
            case ctrl('H'):
            case kBackspace:
                if (g_e != g_w) {
                    g_e--;
                    echo(kBackspace);
                }
                break;
            default:
                if (c == 0 || g_e - g_r >= kInputSize) break;
                if (c == '\r') c = '\n';
                echo(c);
                g_in[g_e++ % kInputSize] = c;
                if (c == '\n' || c == ctrl('D') || g_e - g_r == kInputSize) {
                    g_w = g_e;
                    wakeup(&g_r);
                }
                break;
        }
    }
    if (dump) procdump();
}

void console_init() {
    uart_init();
    g_devsw[CONSOLE].read = console_read;
    g_devsw[CONSOLE].write = console_write;
}

}  // namespace q
