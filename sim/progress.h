// sim/progress.h - progress of one schedsim run on stderr (the loop,
// simulator.h, reports every tick; a run shows nothing in its first second).
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "sim/sim.h"

namespace schedsim {

// Progress of one run on stderr, once it has lasted a second: a bar
// redrawn in place on a terminal, else (--progress) a line every 10% and
// one at the end.
class Progress {
  public:
    explicit Progress(const Config& c)
        : tty_(isatty(2) != 0),
          enabled_(c.progress && (tty_ || c.progress_always)),
          label_(c.progress_label),
          start_(Clock::now()) {}
    void update(uint64_t done, uint64_t total) {
        if (!enabled_ || (done & 1023) != 0) return;
        const double secs = std::chrono::duration<double>(Clock::now() - start_).count();
        if (secs < 1.0) return;
        int pct = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
        if (!tty_) pct -= pct % 10;
        if (pct == last_) return;
        last_ = pct;
        const char* sep = label_.empty() ? "" : " ";
        if (tty_) {
            std::fprintf(stderr, "\r%s%s[%-40.*s] %3d%%", label_.c_str(), sep, pct * 40 / 100,
                         "########################################", pct);
        } else {
            std::fprintf(stderr, "schedsim: %s%s%d%% after %.0f s\n", label_.c_str(), sep, pct, secs);
        }
        shown_ = true;
    }
    ~Progress() {
        if (!shown_) return;
        if (tty_) {
            std::fprintf(stderr, "\r%*s\r", static_cast<int>(label_.size()) + 48, "");
        } else {
            const double secs = std::chrono::duration<double>(Clock::now() - start_).count();
            std::fprintf(stderr, "schedsim: %s%sdone after %.0f s\n", label_.c_str(), label_.empty() ? "" : " ", secs);
        }
    }

  private:
    using Clock = std::chrono::steady_clock;
    bool tty_;
    bool enabled_;
    std::string label_;
    Clock::time_point start_;
    int last_ = -1;
    bool shown_ = false;
};

}  // namespace schedsim
