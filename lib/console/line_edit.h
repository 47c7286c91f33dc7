// lib/console/line_edit.h - the console's line editor (pure, host-testable).
//
// The console (kernel/dev/console.cc) feeds it every byte the keyboard
// sends; it keeps the line being typed, a cursor and a history, and writes
// the echo through a callback. The terminal is driven with '\b', spaces and
// the characters themselves only (no escape sequences), so any terminal,
// and a test reading the echo, sees plain text.
//
// Keys: printable characters insert at the cursor (Tab inserts a space:
// there is no completion); Backspace/DEL/^H erase before the cursor, Delete
// (ESC [ 3 ~) at it; Left/Right (ESC [ D / C, or ESC O D / C), Home/End
// (ESC [ H / F, ESC [ 1 ~ / 4 ~, ^A / ^E) move it, Ctrl- or Alt-Left/Right
// (ESC [ 1 ; 5 D, ...) and Alt-b / Alt-f by a word; Up/Down (ESC [ A / B)
// walk the history (the line being typed comes back past the newest
// entry); ^U erases the line, ^W the word before the cursor, ^K from the
// cursor to the end. Enter (\r or \n) finishes the line; ^D finishes it
// without a newline (at the start of a line: end of input); ^C, ^\ and ^Z
// drop the line, echo their name ("^C") and finish an empty line, which
// the console keeps only when no process took the signal it sends the
// foreground group (kernel/dev/console.cc); ^P asks for the
// process list. Other control characters and unknown escape sequences are
// ignored.
//
// Invariants: 0 <= cursor_ <= len_ <= kMaxLine; the screen shows exactly
// text_[0, len_) with the terminal's cursor at cursor_ (after each feed);
// history entries are non-empty, newest first, none equal to the one
// before it. `room` bounds a line so it fits the caller's buffer with its
// terminator: a key that would make it longer is refused with a bell.
#pragma once

#include "lib/types.h"

namespace q::console {

class LineEditor {
  public:
    // Longest line, without its '\n': what the shell reads (user/sh.c reads
    // 512 bytes: 510 characters, the '\n' and the terminator). It was
    // 127, and a longer command line arrived cut (a bell at every key).
    static constexpr u32 kMaxLine = 510;
    static constexpr u32 kHistory = 16;  // lines remembered
    using Put = void (*)(char);

    enum class Action : u8 {
        None,  // still editing
        Line,  // a line is finished (Enter, or ^C with an empty line): text(), then '\n'
        End,   // ^D: text() (maybe empty), then the end-of-input mark
        Dump,  // ^P: print the process list
    };

    constexpr LineEditor() = default;

    // One byte from the keyboard. room: bytes the caller can take when the
    // line is finished, terminator included. After Line or End, the caller
    // copies text()/size() and calls clear().
    Action feed(char c, u32 room, Put echo) {
        echo_ = echo;
        room_ = room == 0 ? 0 : (room - 1 < kMaxLine ? room - 1 : kMaxLine);
        if (esc_ != Esc::None) return escape(c);
        return key(c);
    }

    const char* text() const { return text_; }
    u32 size() const { return len_; }
    u32 cursor() const { return cursor_; }
    void clear() { len_ = cursor_ = 0; }

  private:
    enum class Esc : u8 { None, Start, Csi, Ss3 };
    static constexpr char ctrl(char c) { return static_cast<char>(c - '@'); }

    struct Entry {
        char text[kMaxLine];
        u32 len;
    };

    Action key(char c) {
        switch (c) {
            case '\r':
            case '\n':
                return finish();
            case ctrl('D'):
                return finish_end();
            case ctrl('C'):
            case ctrl('\\'):
            case ctrl('Z'):
                return interrupt(static_cast<char>(c + '@'));
            case ctrl('P'):
                return Action::Dump;
            case '\x1b':
                esc_ = Esc::Start;
                return Action::None;
            case ctrl('H'):
            case 0x7f:
                erase_before();
                return Action::None;
            case ctrl('A'):
                home();
                return Action::None;
            case ctrl('E'):
                end();
                return Action::None;
            case ctrl('U'):
                erase_line();
                return Action::None;
            case ctrl('W'):
                erase_word();
                return Action::None;
            case ctrl('K'):
                kill_to_end();
                return Action::None;
            case '\t':
                insert(' ');
                return Action::None;
            default:
                if (static_cast<unsigned char>(c) >= ' ') insert(c);
                return Action::None;
        }
    }

    // ESC [ params final, ESC O params final, or ESC and a key (Alt-key).
    // Params are numbers separated by ';' (and the private markers < = > ?
    // and intermediates, skipped); the first number and the second, xterm's
    // modifier (1 + Shift 1, Alt 2, Ctrl 4: ESC [ 1 ; 5 D is Ctrl-Left),
    // are kept. The final byte (0x40..0x7e) ends the sequence; a control
    // key ends it too and is that key (Esc then Enter finishes the line).
    Action escape(char c) {
        if (static_cast<unsigned char>(c) < ' ') {
            esc_ = Esc::None;
            return key(c);
        }
        if (esc_ == Esc::Start) {
            param_ = mod_ = 0;
            field_ = 0;
            esc_ = c == '[' ? Esc::Csi : c == 'O' ? Esc::Ss3 : Esc::None;
            if (c == 'b') word_left();  // Alt-b, Alt-f: readline's word moves
            if (c == 'f') word_right();
            return Action::None;
        }
        if (c >= '0' && c <= '9') {
            u32& n = field_ == 0 ? param_ : mod_;
            n = n * 10 + static_cast<u32>(c - '0');
            if (n > 1000) n = 1000;
            return Action::None;
        }
        if (c < 0x40 || c == 0x7f) {  // ';', a marker or an intermediate
            if (c == ';' && field_ < 2) field_++;
            return Action::None;
        }
        esc_ = Esc::None;
        const bool word = mod_ >= 2 && ((mod_ - 1) & 6) != 0;  // Alt or Ctrl held
        switch (c) {
            case 'A':
                history_older();
                break;
            case 'B':
                history_newer();
                break;
            case 'C':
                if (word) word_right();
                else right();
                break;
            case 'D':
                if (word) word_left();
                else left();
                break;
            case 'H':
                home();
                break;
            case 'F':
                end();
                break;
            case '~':
                if (param_ == 1 || param_ == 7) home();
                if (param_ == 4 || param_ == 8) end();
                if (param_ == 3) erase_at();
                break;
            default:
                break;
        }
        return Action::None;
    }

    // ---- finishing a line ----
    Action finish() {
        end();
        put('\n');
        remember();
        return Action::Line;
    }

    Action finish_end() {
        remember();
        return Action::End;
    }

    // ^C, ^\ or ^Z (the console signals the foreground group): the line is dropped.
    Action interrupt(char name) {
        end();
        put('^');
        put(name);
        put('\n');
        clear();
        shown_ = 0;
        return Action::Line;
    }

    void remember() {
        shown_ = 0;
        if (len_ == 0) return;
        if (count_ > 0 && same(history_[newest_], text_, len_)) return;
        newest_ = (newest_ + kHistory - 1) % kHistory;
        copy(history_[newest_].text, text_, len_);
        history_[newest_].len = len_;
        if (count_ < kHistory) count_++;
    }

    // ---- history ----
    void history_older() {
        if (shown_ >= count_) return bell();
        if (shown_ == 0) {  // keep what was being typed for the way back
            copy(draft_, text_, len_);
            draft_len_ = len_;
        }
        shown_++;
        const Entry& e = history_[(newest_ + shown_ - 1) % kHistory];
        replace(e.text, e.len);
    }

    void history_newer() {
        if (shown_ == 0) return bell();
        shown_--;
        if (shown_ == 0) return replace(draft_, draft_len_);
        const Entry& e = history_[(newest_ + shown_ - 1) % kHistory];
        replace(e.text, e.len);
    }

    // Show s instead of the current line, cursor at its end.
    void replace(const char* s, u32 n) {
        erase_line();
        if (n > room_) n = room_;
        for (u32 i = 0; i < n; i++) {
            text_[i] = s[i];
            put(s[i]);
        }
        len_ = cursor_ = n;
    }

    // ---- editing ----
    void insert(char c) {
        if (len_ >= room_) return bell();
        for (u32 i = len_; i > cursor_; i--) text_[i] = text_[i - 1];
        text_[cursor_] = c;
        len_++;
        put(c);
        cursor_++;
        redraw_tail(0);
    }

    void erase_before() {
        if (cursor_ == 0) return;
        left();
        erase_at();
    }

    void erase_at() {
        if (cursor_ == len_) return;
        for (u32 i = cursor_; i + 1 < len_; i++) text_[i] = text_[i + 1];
        len_--;
        redraw_tail(1);
    }

    void erase_word() {
        const u32 from = cursor_;
        word_left();
        remove_at_cursor(from - cursor_);
    }

    void kill_to_end() { remove_at_cursor(len_ - cursor_); }

    void erase_line() {
        home();
        remove_at_cursor(len_);
    }

    // Remove n characters at the cursor and show the rest.
    void remove_at_cursor(u32 n) {
        if (n == 0) return;
        for (u32 i = cursor_; i + n < len_; i++) text_[i] = text_[i + n];
        len_ -= n;
        redraw_tail(n);
    }

    // Print text_[cursor_, len_), blank `cleared` stale cells after it, and
    // put the terminal's cursor back at cursor_.
    void redraw_tail(u32 cleared) {
        for (u32 i = cursor_; i < len_; i++) put(text_[i]);
        for (u32 i = 0; i < cleared; i++) put(' ');
        for (u32 i = cursor_; i < len_ + cleared; i++) put('\b');
    }

    // ---- moving ----
    void left() {
        if (cursor_ == 0) return;
        cursor_--;
        put('\b');
    }

    void right() {
        if (cursor_ == len_) return;
        put(text_[cursor_++]);
    }

    void home() {
        while (cursor_ > 0) left();
    }

    // To the start of the word before the cursor / past the end of the next.
    void word_left() {
        while (cursor_ > 0 && text_[cursor_ - 1] == ' ') left();
        while (cursor_ > 0 && text_[cursor_ - 1] != ' ') left();
    }

    void word_right() {
        while (cursor_ < len_ && text_[cursor_] == ' ') right();
        while (cursor_ < len_ && text_[cursor_] != ' ') right();
    }

    void end() {
        while (cursor_ < len_) right();
    }

    // ---- helpers ----
    void put(char c) {
        if (echo_ != nullptr) echo_(c);
    }
    void bell() { put('\a'); }

    static void copy(char* dst, const char* src, u32 n) {
        for (u32 i = 0; i < n; i++) dst[i] = src[i];
    }

    static bool same(const Entry& e, const char* s, u32 n) {
        if (e.len != n) return false;
        for (u32 i = 0; i < n; i++)
            if (e.text[i] != s[i]) return false;
        return true;
    }

    char text_[kMaxLine] = {};
    u32 len_ = 0;
    u32 cursor_ = 0;
    u32 room_ = 0;  // set by every feed
    Put echo_ = nullptr;
    Esc esc_ = Esc::None;
    u32 param_ = 0;  // an escape sequence's first number
    u32 mod_ = 0;    // and its second (xterm's modifier)
    u8 field_ = 0;   // which number the digits go to
    Entry history_[kHistory] = {};
    u32 newest_ = 0;
    u32 count_ = 0;
    // What the line shows: 0 the line being typed, k the k-th newest
    // history entry. (Every default is zero: the kernel's editor is .bss.)
    u32 shown_ = 0;
    char draft_[kMaxLine] = {};
    u32 draft_len_ = 0;
};

}  // namespace q::console
