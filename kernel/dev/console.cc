// kernel/dev/console.cc - console line discipline, device major CONSOLE.
//
// Input: console_intr() (UART interrupt) feeds each byte to the line editor
// (lib/console/line_edit.h: cursor movement, history on Up/Down, ^U, ^W,
// ^C drops the line, ^P prints the process list). A finished line goes into
// a ring with its '\n' (or, for ^D, the end-of-input mark: read returns
// what was typed, or 0 at the start of a line). A reader sleeps until a
// whole line is there. Indexes are free-running: r <= w <= r + kInputSize,
// [r, w) ready for readers; the editor never lets a line outgrow the ring's
// free space, so a finished line always fits.
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
#include "lib/console/line_edit.h"

namespace q {

namespace {

using console::LineEditor;

constexpr u32 kInputSize = 128;
static_assert(LineEditor::kMaxLine < kInputSize, "a whole line and its '\\n' fit the ring");
constexpr char ctrl(char c) { return static_cast<char>(c - '@'); }

constinit SpinLock g_cons_lock("console");
constinit SleepLock g_write_lock("console write");  // one writer's call at a time
constinit char g_in[kInputSize];
constinit u32 g_r = 0;          // read index
constinit u32 g_w = 0;          // write index (end of finished lines)
constinit LineEditor g_editor;  // the line being typed; under g_cons_lock

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

// Move the finished line and its terminator into the ring and wake readers.
// Caller holds g_cons_lock. The editor kept the line within the ring's free
// space, so only a ^C on a full ring can find no room: its empty line is
// then dropped (the reader has unread lines to get to first).
static void finish_line(char terminator) {
    const u32 n = g_editor.size();
    if (g_w - g_r + n + 1 <= kInputSize) {
        for (u32 i = 0; i < n; i++) g_in[g_w++ % kInputSize] = g_editor.text()[i];
        g_in[g_w++ % kInputSize] = terminator;
        wakeup(&g_r);
    }
    g_editor.clear();
}

void console_intr(char c) {
    bool dump = false;
    {
        LockGuard g(g_cons_lock);
        switch (g_editor.feed(c, kInputSize - (g_w - g_r), uart_putc_sync)) {
            case LineEditor::Action::None:
                break;
            case LineEditor::Action::Line:
                finish_line('\n');
                break;
            case LineEditor::Action::End:
                finish_line(ctrl('D'));
                break;
            case LineEditor::Action::Dump:
                dump = true;
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
