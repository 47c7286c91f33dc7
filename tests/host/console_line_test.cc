// tests/host/console_line_test.cc - the console's line editor
// (lib/console/line_edit.h) against a model terminal: every echo byte is
// applied to a screen line ('\b' moves left, a character overwrites at the
// cursor), and after every key the screen must show exactly the line being
// edited with the cursor in the same place. Then the keys a student uses:
// arrows, Home/End, history, ^U ^W ^K, ^C, ^D, and the room limit.
#include "lib/console/line_edit.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using q::u32;
using q::console::LineEditor;
using Action = LineEditor::Action;

namespace {

// The terminal the echo draws on: one line, a cursor, and what scrolled off.
struct Screen {
    std::string line;
    size_t cursor = 0;
    std::vector<std::string> done;  // lines ended by '\n'
    int bells = 0;

    void put(char c) {
        if (c == '\b') {
            if (cursor > 0) cursor--;
        } else if (c == '\n') {
            done.push_back(line);
            line.clear();
            cursor = 0;
        } else if (c == '\a') {
            bells++;
        } else {
            if (cursor == line.size()) line.push_back(c);
            else line[cursor] = c;
            cursor++;
        }
    }
    // What is visible: trailing blanks are erased cells.
    std::string shown() const { return line.substr(0, line.find_last_not_of(' ') + 1); }
};

Screen* g_screen = nullptr;
void put(char c) { g_screen->put(c); }

struct Console {
    LineEditor ed;
    Screen screen;
    std::vector<std::string> lines;  // finished lines (Enter, ^C)
    std::vector<std::string> ends;   // ^D
    int dumps = 0;
    u32 room = 128;

    Console() { g_screen = &screen; }

    void type(const std::string& keys) {
        for (char c : keys) {
            switch (ed.feed(c, room, put)) {
                case Action::None:
                    break;
                case Action::Line:
                    lines.emplace_back(ed.text(), ed.size());
                    ed.clear();
                    break;
                case Action::End:  // no echo: whatever comes next starts after the text
                    ends.emplace_back(ed.text(), ed.size());
                    ed.clear();
                    screen.put('\n');
                    break;
                case Action::Dump:
                    dumps++;
                    break;
            }
            check_screen();
        }
    }

    void check_screen() {
        const std::string text(ed.text(), ed.size());
        // The shown line may keep blanks only past the text's end.
        ASSERT_EQ(screen.shown(), text.substr(0, text.find_last_not_of(' ') + 1)) << "text '" << text << "'";
        ASSERT_EQ(screen.line.substr(0, text.size()), text);
        ASSERT_EQ(screen.cursor, ed.cursor());
    }

    std::string text() const { return std::string(ed.text(), ed.size()); }
};

const std::string kUp = "\x1b[A", kDown = "\x1b[B", kRight = "\x1b[C", kLeft = "\x1b[D";
const std::string kHome = "\x1b[H", kEnd = "\x1b[F", kDelete = "\x1b[3~";

TEST(ConsoleLine, TypingEchoesAndEnterFinishes) {
    Console c;
    c.type("echo hi\r");
    ASSERT_EQ(c.lines, std::vector<std::string>{"echo hi"});
    EXPECT_EQ(c.screen.done, std::vector<std::string>{"echo hi"});
    c.type("ls\n");
    EXPECT_EQ(c.lines.back(), "ls");
}

TEST(ConsoleLine, LeftRightInsertAndErase) {
    Console c;
    c.type("ech hi" + kLeft + kLeft + kLeft + "o");
    EXPECT_EQ(c.text(), "echo hi");
    EXPECT_EQ(c.ed.cursor(), 4u);
    c.type(kRight + kRight + "\x7f");  // backspace in the middle
    EXPECT_EQ(c.text(), "echo i");
    c.type(kHome + kDelete + "E");
    EXPECT_EQ(c.text(), "Echo i");
    c.type(kEnd + "!\r");
    EXPECT_EQ(c.lines.back(), "Echo i!");
    EXPECT_EQ(c.screen.done.back(), "Echo i!");  // the cursor went to the end before the newline
}

TEST(ConsoleLine, Ss3ArrowsAndVt220HomeEnd) {
    Console c;
    c.type(
        "ab\x1bOD\x1bOD"
        "x\x1b[4~y\x1b[1~z");
    EXPECT_EQ(c.text(), "zxaby");
}

TEST(ConsoleLine, HistoryUpDownKeepsTheDraft) {
    Console c;
    c.type("one\rtwo\rthree\r");
    c.type("dra");
    c.type(kUp);
    EXPECT_EQ(c.text(), "three");
    c.type(kUp + kUp);
    EXPECT_EQ(c.text(), "one");
    c.type(kUp);  // nothing older: a bell, the line stays
    EXPECT_EQ(c.text(), "one");
    EXPECT_EQ(c.screen.bells, 1);
    c.type(kDown);
    EXPECT_EQ(c.text(), "two");
    c.type(kDown + kDown);
    EXPECT_EQ(c.text(), "dra");  // back to what was being typed
    c.type(kUp + " again\r");
    EXPECT_EQ(c.lines.back(), "three again");
    c.type(kUp);
    EXPECT_EQ(c.text(), "three again");
}

TEST(ConsoleLine, HistorySkipsEmptyAndRepeatedLinesAndForgetsTheOldest) {
    Console c;
    c.type("a\r\ra\r");
    c.type(kUp + kUp);
    EXPECT_EQ(c.text(), "a");
    EXPECT_EQ(c.screen.bells, 1);  // only one entry
    c.type("\x15");
    for (u32 i = 0; i < LineEditor::kHistory + 3; i++) c.type("cmd" + std::to_string(i) + "\r");
    for (u32 i = 0; i < LineEditor::kHistory; i++) c.type(kUp);
    EXPECT_EQ(c.text(), "cmd3");
    c.type(kUp);
    EXPECT_EQ(c.text(), "cmd3");
}

TEST(ConsoleLine, CtrlCDropsTheLineAndFinishesAnEmptyOne) {
    Console c;
    c.type("garbage\x03");
    ASSERT_EQ(c.lines, std::vector<std::string>{""});
    EXPECT_EQ(c.screen.done.back(), "garbage^C");
    c.type("ls\r");
    EXPECT_EQ(c.lines.back(), "ls");  // nothing of the dropped line left
    c.type(kUp);
    EXPECT_EQ(c.text(), "ls");  // and it is not in the history
}

TEST(ConsoleLine, CtrlDEndsInput) {
    Console c;
    c.type("\x04");
    ASSERT_EQ(c.ends, std::vector<std::string>{""});
    c.type("part\x04");
    EXPECT_EQ(c.ends.back(), "part");
}

TEST(ConsoleLine, KillKeys) {
    Console c;
    c.type("cat one two" + kLeft + kLeft + kLeft + kLeft + "\x0b");  // ^K
    EXPECT_EQ(c.text(), "cat one");
    c.type("\x17");  // ^W
    EXPECT_EQ(c.text(), "cat ");
    c.type("\x17");
    EXPECT_EQ(c.text(), "");
    c.type("abc\x15");  // ^U
    EXPECT_EQ(c.text(), "");
    c.type("\x01x\x05y");  // ^A ^E
    EXPECT_EQ(c.text(), "xy");
}

TEST(ConsoleLine, ControlKeysAndUnknownSequencesAreNotTyped) {
    Console c;
    c.type("a\x02\x1b[Z\x1b[5~\x1bxb\tc");
    EXPECT_EQ(c.text(), "ab c");  // ESC x: Alt-x is ignored, tab is a space
    c.type("\x10");
    EXPECT_EQ(c.dumps, 1);
}

// Terminals send modified arrows with a parameter list (xterm: ESC [ 1 ; 5 D
// for Ctrl-Left); before, the ';' ended the sequence and "5D" was typed in.
// Ctrl- and Alt-Left/Right (and Alt-b / Alt-f, as readline has them) move by
// a word; other modifiers (Shift) move as the plain key does.
TEST(ConsoleLine, ModifiedArrowsMoveByWordsAndAreNotTyped) {
    Console c;
    const std::string kCtrlLeft = "\x1b[1;5D", kCtrlRight = "\x1b[1;5C";
    c.type("echo ab  cd" + kCtrlLeft);
    EXPECT_EQ(c.ed.cursor(), 9u);  // at the start of "cd"
    c.type(kCtrlLeft + "x");
    EXPECT_EQ(c.text(), "echo xab  cd");
    c.type(kCtrlRight);
    EXPECT_EQ(c.ed.cursor(), 8u);  // past "xab"
    c.type(
        "\x1b[1;3D"
        "\x1b"
        "b"
        "\x1b"
        "f"
        "\x1b[1;2D"
        "\x1b[1;2C"
        "\x1b[1;2A"
        "\x1b[1;2B");
    EXPECT_EQ(c.text(), "echo xab  cd");  // nothing typed in
    EXPECT_EQ(c.ed.cursor(), 4u);         // words: to 5, to 0, to 4; Shift: 3, 4; no history
    c.type("\x1b[1;5H!\x1b[1;5F?\r");
    EXPECT_EQ(c.lines.back(), "!echo xab  cd?");
}

// ESC followed by a control key (Esc then Enter, Esc then ^C) is that key:
// before, the Enter after an Esc was swallowed and the line not finished.
TEST(ConsoleLine, EscapeThenControlKeyIsTheKey) {
    Console c;
    c.type("ls\x1b\r");
    ASSERT_EQ(c.lines, std::vector<std::string>{"ls"});
    c.type("x\x1b[\x03");
    EXPECT_EQ(c.lines.back(), "");
    EXPECT_EQ(c.screen.done.back(), "x^C");
    c.type("ok\r");
    EXPECT_EQ(c.lines.back(), "ok");
}

TEST(ConsoleLine, RoomLimitsTheLine) {
    Console c;
    c.room = 4;  // three characters and the newline
    c.type("abcdef");
    EXPECT_EQ(c.text(), "abc");
    EXPECT_EQ(c.screen.bells, 3);
    c.type("\r");
    EXPECT_EQ(c.lines.back(), "abc");
    c.room = 1024;
    c.type(std::string(600, 'x'));
    EXPECT_EQ(c.ed.size(), LineEditor::kMaxLine);
}

// A line as long as the shell reads (user/sh.c: 512 bytes with the '\n'
// and the terminator) is taken whole; it was cut at 127 characters.
TEST(ConsoleLine, TakesALineAsLongAsTheShellReads) {
    Console c;
    c.room = 512;  // the kernel's input ring, empty
    const std::string line(510, 'y');
    c.type(line + "\r");
    EXPECT_EQ(c.lines.back(), line);
    EXPECT_EQ(c.screen.bells, 0);
}

// Any key sequence keeps the screen and the line in step (checked inside
// type() after every byte), and every finished line is at most kMaxLine.
TEST(ConsoleLine, RandomKeysKeepTheScreenRight) {
    const std::vector<std::string> keys = {"a",
                                           "b",
                                           " ",
                                           "\x7f",
                                           "\x15",
                                           "\x17",
                                           "\x0b",
                                           "\x01",
                                           "\x05",
                                           "\r",
                                           "\x03",
                                           "\x04",
                                           kUp,
                                           kDown,
                                           kLeft,
                                           kRight,
                                           kHome,
                                           kEnd,
                                           kDelete,
                                           "\x1b[1;5D",
                                           "\x1b[1;5C",
                                           "\x1b"
                                           "b",
                                           "\x1b"
                                           "f",
                                           "\x1b[1;2A",
                                           "\x1b"};
    std::mt19937 rng(27);
    for (int run = 0; run < 200; run++) {
        Console c;
        c.room = 8 + rng() % 120;
        for (int i = 0; i < 300; i++) {
            c.type(keys[rng() % keys.size()]);
            if (::testing::Test::HasFatalFailure()) return;
        }
        for (const auto& l : c.lines) EXPECT_LE(l.size() + 1, c.room);
    }
}

}  // namespace

// ^Z and ^\ (the console sends SIGTSTP / SIGQUIT to the foreground group)
// drop the line as ^C does and echo their names.
TEST(ConsoleLine, CtrlZAndCtrlBackslashDropTheLine) {
    Console c;
    c.type("half\x1a");
    ASSERT_EQ(c.lines, std::vector<std::string>{""});
    EXPECT_EQ(c.screen.done.back(), "half^Z");
    c.type("x\x1c");
    EXPECT_EQ(c.screen.done.back(), "x^\\");
    c.type("ls\r");
    EXPECT_EQ(c.lines.back(), "ls");
}
