// kernel/dev/console.cc - console line discipline, device major CONSOLE.
//
// Input: console_intr() (UART interrupt) feeds each byte to the line editor
// (lib/console/line_edit.h: cursor movement, history on Up/Down, ^U, ^W,
// ^C, ^\ and ^Z drop the line and signal the foreground group, ^P prints the
// process list). Only the foreground group reads (tty_read_check). A finished line goes into
// a ring with its '\n' (or, for ^D, the end-of-input mark: read returns
// what was typed, or 0 at the start of a line). A reader sleeps until a
// whole line is there (poll reports POLLIN then: console_poll; a finished
// line calls poll_notify). Indexes are free-running: r <= w <= r + kInputSize,
// [r, w) ready for readers; the editor never lets a line outgrow the ring's
// free space, so a finished line always fits.
// Output goes out a piece at a time: up to and including a newline, at
// most kPiece bytes. A piece reaches the screen whole: the UART's ring is
// small and a writer sleeps when it is full, so each piece is written
// under the writers' turn (WriteTurn), or another process's characters
// would land inside the line (the shell's "$ " inside a background job's
// output, say). The turn passes first come, first served between pieces,
// so a megabyte write lets every other writer in after each of its lines
// instead of holding the console for a minute. A writer killed while it
// waits for the turn or for room in the ring stops there (uart_putc) and
// the call returns what it wrote. Characters echoed by the interrupt
// handler and kernel messages take no turn; one key's echo holds the UART's
// ring (UartEchoGuard), so no queued character lands inside it.
#include "kernel/dev/console.h"

#include "kernel/dev/uart.h"
#include "kernel/fs/file.h"
#include "kernel/fs/poll.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/procdump.h"
#include "kernel/proc/signal.h"
#include "lib/abi/abi.h"
#include "lib/console/line_edit.h"
#include "lib/signal/jobs.h"

namespace q {

namespace {

using console::LineEditor;

constexpr u32 kInputSize = 512;
static_assert(LineEditor::kMaxLine < kInputSize, "a whole line and its '\\n' fit the ring");
constexpr char ctrl(char c) { return static_cast<char>(c - '@'); }

constinit SpinLock g_cons_lock("console");
constinit char g_in[kInputSize];
constinit u32 g_r = 0;          // read index
constinit u32 g_w = 0;          // write index (end of finished lines)
constinit LineEditor g_editor;  // the line being typed; under g_cons_lock

// The longest piece written under one turn: a line of up to 512 bytes
// (PIPE_BUF's figure) arrives whole.
constexpr int kPiece = 512;

// Whose turn it is to write a piece, and who waits for it, oldest first.
// Each process waits at most once, so kMaxProcs places always suffice.
class WriteTurn {
  public:
    // Wait for the caller's turn; Killed (not waiting any more) if it is
    // killed meanwhile.
    Status take(Proc* me) {
        LockGuard g(lock_);
        if (owner_ == nullptr && n_ == 0) {
            owner_ = me;
            return {};
        }
        queue_[(head_ + n_++) % kPlaces] = me;
        while (owner_ != me) {
            if (killed(me)) {
                drop(me);
                return Error::Killed;
            }
            sleep_killable(this, lock_);
        }
        return {};
    }
    // Hand the turn to the oldest waiter, if any.
    void give() {
        LockGuard g(lock_);
        owner_ = nullptr;
        if (n_ == 0) return;
        owner_ = queue_[head_];
        head_ = (head_ + 1) % kPlaces;
        n_--;
        wakeup(this);
    }

  private:
    static constexpr u32 kPlaces = param::kMaxProcs;
    void drop(Proc* me) {
        u32 out = 0;
        for (u32 i = 0; i < n_; i++) {
            Proc* p = queue_[(head_ + i) % kPlaces];
            if (p != me) queue_[(head_ + out++) % kPlaces] = p;
        }
        n_ = out;
    }
    SpinLock lock_{"console turn"};
    Proc* owner_ = nullptr;
    Proc* queue_[kPlaces] = {};
    u32 head_ = 0;
    u32 n_ = 0;  // waiting
};

constinit WriteTurn g_turn;

// Write one piece of [src, src+n): up to and including the first newline,
// at most kPiece bytes. Returns the bytes queued; fewer when a source byte
// cannot be read or the caller is killed, -1 when not even the first could.
int write_piece(bool user_src, u64 src, int n) {
    if (n > kPiece) n = kPiece;
    char chunk[64];
    int i = 0;
    while (i < n) {
        const int len = n - i < static_cast<int>(sizeof chunk) ? n - i : static_cast<int>(sizeof chunk);
        if (!either_copyin(chunk, user_src, src + i, static_cast<u64>(len)).ok()) return i == 0 ? -1 : i;
        for (int k = 0; k < len; k++) {
            if (!uart_putc(chunk[k]).ok()) return i + k;
            if (chunk[k] == '\n') return i + k + 1;
        }
        i += len;
    }
    return i;
}

// Write n bytes, a piece per turn. Ends early at a bad source address or
// when the caller is killed: -1 when nothing was written, else the count
// written before.
i64 console_write(bool user_src, u64 src, int n, u32* /*off*/) {
    Proc* me = myproc();
    int done = 0;
    while (done < n && !killed(me)) {
        if (!g_turn.take(me).ok()) break;
        const int wrote = write_piece(user_src, src + static_cast<u64>(done), n - done);
        g_turn.give();
        if (wrote <= 0) break;
        done += wrote;
    }
    return done == 0 && n > 0 ? -1 : done;
}

// Read up to n bytes, at most one line. A character is consumed only once
// it has been copied out, so a bad destination address loses no input: the
// call returns what it copied before, or -1.
i64 console_read(bool user_dst, u64 dst, int n, u32* /*off*/) {
    const int want = n;
    // Only the foreground group reads (a background job gets SIGTTIN, or
    // EIO if it ignores or blocks it: lib/signal/jobs.h read_access).
    const Status may = tty_read_check();
    if (!may.ok()) return dev_error(may.error());
    LockGuard g(g_cons_lock);
    while (n > 0) {
        while (g_r == g_w) {
            if (killed(myproc())) return n == want ? dev_error(Error::Killed) : want - n;
            sleep_killable(&g_r, g_cons_lock);
        }
        const char c = g_in[g_r % kInputSize];
        if (c == ctrl('D')) {
            // End of file: if some bytes were already read, keep ^D for next time.
            if (n == want) g_r++;
            break;
        }
        if (!either_copyout(user_dst, dst, &c, 1).ok()) {
            if (user_dst && vm_fault_later(g)) continue;  // a page to read in first: then look again
            return n == want ? -1 : want - n;
        }
        g_r++;
        dst++;
        n--;
        if (c == '\n') break;
    }
    return want - n;
}

// poll: input is ready once a whole line (or ^D) is in the ring; output
// is always accepted (a writer may wait for the UART, never for ever).
u16 console_poll() {
    LockGuard g(g_cons_lock);
    return static_cast<u16>(POLLOUT | (g_r != g_w ? POLLIN : 0));
}

}  // namespace

// Put text[0..n) and its terminator into the ring and wake readers, or
// nothing if they do not fit. Caller holds g_cons_lock. The editor keeps a
// line within the ring's free space, so only a ^C on a full ring can find
// no room: its empty line is then dropped (the reader has unread lines to
// get to first).
static void queue_line(const char* text, u32 n, char terminator) {
    if (g_w - g_r + n + 1 > kInputSize) return;
    for (u32 i = 0; i < n; i++) g_in[g_w++ % kInputSize] = text[i];
    g_in[g_w++ % kInputSize] = terminator;
    wakeup(&g_r);
    poll_notify();
}

// Move the finished line and its terminator into the ring (queue_line).
// Caller holds g_cons_lock.
static void finish_line(char terminator) {
    queue_line(g_editor.text(), g_editor.size(), terminator);
    g_editor.clear();
}

// Queue an empty line (a '\n' alone), leaving the editor alone. Caller
// holds g_cons_lock.
static void queue_empty_line() { queue_line(nullptr, 0, '\n'); }

void console_intr(char c) {
    // ^C, ^\ and ^Z: SIGINT, SIGQUIT, SIGTSTP to the foreground process
    // group (tcsetpgrp; init's group until a shell takes the console, so
    // then every process but init). The editor drops the line typed so
    // far and echoes the character's name first: the signal goes out only
    // after "^C" and its newline are on the console, so whatever it makes
    // its receivers print comes after them. (Signalled first, a program
    // killed on another hart let `time` print its report while this hart
    // had not echoed yet: "sys^C" inside its line.) If some process took
    // the signal, that is all: when a foreground program dies of it its
    // shell prompts once. If nobody did (a shell alone at its prompt
    // ignores all three), an empty line is queued instead, so the shell
    // prompts again. (Before, ^C always queued an empty line, and a shell
    // whose program ^C had killed read it next and printed a second
    // prompt.)
    const int s = jobs::console_signal(c);
    LineEditor::Action action = LineEditor::Action::None;
    {
        LockGuard g(g_cons_lock);
        const UartEchoGuard whole;  // after g_cons_lock, as nowhere else are both held
        action = g_editor.feed(c, kInputSize - (g_w - g_r), uart_putc_sync);
        if (action == LineEditor::Action::Line && s == 0) finish_line('\n');
        if (action == LineEditor::Action::End) finish_line(ctrl('D'));
    }
    if (s != 0) {
        const bool taken = sig_send_group(tty_foreground(), s, nullptr).value_or(0) > 0;
        if (!taken && action == LineEditor::Action::Line) {
            LockGuard g(g_cons_lock);
            queue_empty_line();
        }
    }
    if (action == LineEditor::Action::Dump) procdump();
}

void console_init() {
    uart_init();
    g_devsw[CONSOLE].read = console_read;
    g_devsw[CONSOLE].write = console_write;
    g_devsw[CONSOLE].poll = console_poll;
}

}  // namespace q
