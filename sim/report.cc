// sim/report.cc - report formatting (see report.h). The text layout copies
// the seed harness's report line by line; the "Fairness" section is ours.
#include "sim/report.h"

#include <cstdlib>

namespace schedsim {

namespace {

void print_levels(std::FILE* out, const Result& r) {
    std::fprintf(out, "\n  Prio | Theor. Weight | Avg Execs/Task | Avg Wait/Task | Avg Resp/Task | Samples\n");
    std::fprintf(out, "  %s\n", std::string(82, '-').c_str());
    for (unsigned l = 0; l < q::sched::kLevels; l++) {
        const LevelStats& s = r.levels[l];
        std::fprintf(out, "  %4u | %13u | %14.2f | %13.2f | %13.2f | %7llu\n", l, s.weight, s.avg_execs, s.avg_wait,
                     s.avg_resp, static_cast<unsigned long long>(s.samples));
    }
}

unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

// A fairness figure as printf would print it with `fmt`, or `none` when the
// run did not measure fairness (without --fairness).
std::string fair(const Result& r, const char* fmt, double v, const char* none) {
    if (!r.fairness) return none;
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

}  // namespace

void print_text(std::FILE* out, const Result& r) {
    std::fprintf(out, "=== Simulation finished (%llu ticks, %u cores) ===\n", ull(r.ticks), r.cores);
    std::fprintf(out, "  Tasks spawned : %llu\n", ull(r.spawned));
    std::fprintf(out, "  Tasks finished: %llu\n", ull(r.finished));
    std::fprintf(out, "  Execute events: %llu\n", ull(r.executed));
    std::fprintf(out, "  Block events  : %llu\n", ull(r.blocks));
    std::fprintf(out, "  Idle slots    : %llu\n", ull(r.idle));
    std::fprintf(out, "  Tasks alive   : %llu\n", ull(r.alive));
    std::fprintf(out, "\n=== Diagnostics ===\n");
    std::fprintf(out, "  Absolute CPU Util : %.2f%%\n", 100.0 * r.util);
    std::fprintf(out, "  Scheduler Effic.  : %.2f%%\n", 100.0 * r.efficiency);
    std::fprintf(out, "  Forced Idles      : %llu\n", ull(r.forced_idle));
    std::fprintf(out, "  Wasted Idles      : %llu\n", ull(r.wasted_idle));
    if (r.any_finished) {
        std::fprintf(out, "  Avg Turnaround    : %.2f ticks (Completed tasks only)\n", r.avg_turnaround);
    } else {
        std::fprintf(out, "  Avg Turnaround    : N/A (No tasks finished)\n");
    }
    std::fprintf(out, "  Avg Wait Time     : %.2f ticks (All tasks)\n", r.avg_wait);
    std::fprintf(out, "  Max Wait Time     : %llu ticks\n", ull(r.max_wait));
    std::fprintf(out, "\n=== Scheduler Verification ===\n");
    std::fprintf(out, "  Avg Response Time : %.2f ticks (All tasks)\n", r.avg_response);
    std::fprintf(out, "  Context Switches  : %llu\n", ull(r.ctx_switches));
    std::fprintf(out, "  Ctx Switch Rate   : %.2f%% of executed ticks\n", 100.0 * r.ctx_rate);
    if (r.percpu) std::fprintf(out, "  Migrations        : %llu (between per-core queues)\n", ull(r.migrations));
    if (r.policy != "rr") print_levels(out, r);
    std::fprintf(out, "\n=== Fairness ===\n");
    if (!r.fairness) std::fprintf(out, "  not measured (run with --fairness for Jain's index and lags vs GPS)\n");
    if (r.fairness) std::fprintf(out, "  Jain's Index      : %.4f (received / fluid service, per task)\n", r.jain);
    if (r.fairness) std::fprintf(out, "  Worst Lag vs GPS  : %.2f ticks (at the end of the run)\n", r.worst_lag);
    if (r.fairness) std::fprintf(out, "  Max Lag vs GPS    : %.2f ticks (any task, any time)\n", r.max_lag);
    std::fprintf(out, "\n=== Wake-ups ===\n");
    std::fprintf(out, "  Wake-ups          : %llu\n", ull(r.wakeups));
    std::fprintf(out, "  Wakeup Latency    : p50 %llu, p99 %llu, max %llu ticks (wake-up to dispatch)\n",
                 ull(r.wake_p50), ull(r.wake_p99), ull(r.wake_max));
}

void print_side_by_side(std::FILE* out, const std::vector<Result>& rs) {
    if (rs.empty()) return;
    std::fprintf(out, "=== Simulation finished (%llu ticks, %u cores) ===\n", ull(rs[0].ticks), rs[0].cores);
    std::fprintf(out, "  %-22s", "");
    for (const Result& r : rs) std::fprintf(out, " %14s", r.policy.c_str());
    std::fprintf(out, "\n");
    auto row = [&](const char* name, auto get, const char* fmt) {
        std::fprintf(out, "  %-22s", name);
        for (const Result& r : rs) std::fprintf(out, fmt, get(r));
        std::fprintf(out, "\n");
    };
    using R = const Result&;
    row(
        "Tasks spawned", [](R r) { return ull(r.spawned); }, " %14llu");
    row(
        "Tasks finished", [](R r) { return ull(r.finished); }, " %14llu");
    row(
        "Execute events", [](R r) { return ull(r.executed); }, " %14llu");
    row(
        "Block events", [](R r) { return ull(r.blocks); }, " %14llu");
    row(
        "Idle slots", [](R r) { return ull(r.idle); }, " %14llu");
    row(
        "Absolute CPU Util %", [](R r) { return 100.0 * r.util; }, " %14.2f");
    row(
        "Scheduler Effic. %", [](R r) { return 100.0 * r.efficiency; }, " %14.2f");
    row(
        "Forced Idles", [](R r) { return ull(r.forced_idle); }, " %14llu");
    row(
        "Wasted Idles", [](R r) { return ull(r.wasted_idle); }, " %14llu");
    row(
        "Avg Turnaround", [](R r) { return r.avg_turnaround; }, " %14.2f");
    row(
        "Avg Wait Time", [](R r) { return r.avg_wait; }, " %14.2f");
    row(
        "Max Wait Time", [](R r) { return ull(r.max_wait); }, " %14llu");
    row(
        "Avg Response Time", [](R r) { return r.avg_response; }, " %14.2f");
    row(
        "Context Switches", [](R r) { return ull(r.ctx_switches); }, " %14llu");
    row(
        "Ctx Switch Rate %", [](R r) { return 100.0 * r.ctx_rate; }, " %14.2f");
    if (!rs.empty() && rs[0].percpu) {
        row(
            "Migrations", [](R r) { return ull(r.migrations); }, " %14llu");
    }
    auto fair_row = [&](const char* name, const char* fmt, double Result::*field) {
        std::fprintf(out, "  %-22s", name);
        for (const Result& r : rs) std::fprintf(out, " %14s", fair(r, fmt, r.*field, "-").c_str());
        std::fprintf(out, "\n");
    };
    fair_row("Jain's Index", "%.4f", &Result::jain);
    fair_row("Worst Lag vs GPS", "%.2f", &Result::worst_lag);
    fair_row("Max Lag vs GPS", "%.2f", &Result::max_lag);
    bool unmeasured = false;
    for (const Result& r : rs) unmeasured = unmeasured || !r.fairness;
    if (unmeasured) std::fprintf(out, "  %-22s (-: not measured; run with --fairness)\n", "");
    row(
        "Wake-ups", [](R r) { return ull(r.wakeups); }, " %14llu");
    row(
        "Wakeup Latency p50", [](R r) { return ull(r.wake_p50); }, " %14llu");
    row(
        "Wakeup Latency p99", [](R r) { return ull(r.wake_p99); }, " %14llu");
    row(
        "Wakeup Latency max", [](R r) { return ull(r.wake_max); }, " %14llu");
    std::fprintf(out, "\n  Avg Execs/Task (Avg Resp/Task) per level\n  Prio | Weight");
    for (const Result& r : rs) std::fprintf(out, " | %21s", r.policy.c_str());
    std::fprintf(out, "\n");
    for (unsigned l = 0; l < q::sched::kLevels; l++) {
        std::fprintf(out, "  %4u | %6u", l, rs[0].levels[l].weight);
        for (const Result& r : rs) std::fprintf(out, " | %8.2f (%10.2f)", r.levels[l].avg_execs, r.levels[l].avg_resp);
        std::fprintf(out, "\n");
    }
}

void print_csv(std::FILE* out, const std::vector<Result>& rs) {
    std::fprintf(out,
                 "policy,level,weight,ticks,cores,spawned,finished,executed,blocks,idle,alive,util,efficiency,"
                 "forced_idle,wasted_idle,avg_turnaround,avg_wait,max_wait,avg_response,ctx_switches,ctx_rate,jain,"
                 "worst_lag,max_lag,wakeups,wake_p50,wake_p99,wake_max,avg_execs,level_avg_wait,level_avg_resp,samples,"
                 "migrations\n");
    for (const Result& r : rs) {
        for (unsigned l = 0; l < q::sched::kLevels; l++) {
            const LevelStats& s = r.levels[l];
            std::fprintf(out,
                         "%s,%u,%u,%llu,%u,%llu,%llu,%llu,%llu,%llu,%llu,%.6f,%.6f,%llu,%llu,%.2f,%.2f,%llu,%.2f,%llu,%"
                         ".6f,%s,%s,%s,%llu,%llu,%llu,%llu,%.4f,%.2f,%.2f,%llu,%llu\n",
                         r.policy.c_str(), l, s.weight, ull(r.ticks), r.cores, ull(r.spawned), ull(r.finished),
                         ull(r.executed), ull(r.blocks), ull(r.idle), ull(r.alive), r.util, r.efficiency,
                         ull(r.forced_idle), ull(r.wasted_idle), r.avg_turnaround, r.avg_wait, ull(r.max_wait),
                         r.avg_response, ull(r.ctx_switches), r.ctx_rate, fair(r, "%.6f", r.jain, "").c_str(),
                         fair(r, "%.2f", r.worst_lag, "").c_str(), fair(r, "%.2f", r.max_lag, "").c_str(),
                         ull(r.wakeups), ull(r.wake_p50), ull(r.wake_p99), ull(r.wake_max), s.avg_execs, s.avg_wait,
                         s.avg_resp, ull(s.samples), ull(r.migrations));
        }
    }
}

void print_json(std::FILE* out, const std::vector<Result>& rs) {
    std::fprintf(out, "[\n");
    for (size_t i = 0; i < rs.size(); i++) {
        const Result& r = rs[i];
        std::fprintf(out,
                     "  {\"policy\": \"%s\", \"ticks\": %llu, \"cores\": %u, \"spawned\": %llu, \"finished\": %llu, "
                     "\"executed\": %llu, \"blocks\": %llu, \"idle\": %llu, \"alive\": %llu, \"util\": %.6f, "
                     "\"efficiency\": %.6f, \"forced_idle\": %llu, \"wasted_idle\": %llu, ",
                     r.policy.c_str(), ull(r.ticks), r.cores, ull(r.spawned), ull(r.finished), ull(r.executed),
                     ull(r.blocks), ull(r.idle), ull(r.alive), r.util, r.efficiency, ull(r.forced_idle),
                     ull(r.wasted_idle));
        if (r.any_finished) {
            std::fprintf(out, "\"avg_turnaround\": %.2f, ", r.avg_turnaround);
        } else {
            std::fprintf(out, "\"avg_turnaround\": null, ");
        }
        std::fprintf(
            out,
            "\"avg_wait\": %.2f, \"max_wait\": %llu, \"avg_response\": %.2f, \"ctx_switches\": %llu, "
            "\"ctx_rate\": %.6f, \"jain\": %s, \"worst_lag\": %s, \"max_lag\": %s, \"wakeups\": %llu, "
            "\"wake_p50\": %llu, \"wake_p99\": %llu, \"wake_max\": %llu, \"migrations\": %llu,\n   \"levels\": [",
            r.avg_wait, ull(r.max_wait), r.avg_response, ull(r.ctx_switches), r.ctx_rate,
            fair(r, "%.6f", r.jain, "null").c_str(), fair(r, "%.2f", r.worst_lag, "null").c_str(),
            fair(r, "%.2f", r.max_lag, "null").c_str(), ull(r.wakeups), ull(r.wake_p50), ull(r.wake_p99),
            ull(r.wake_max), ull(r.migrations));
        for (unsigned l = 0; l < q::sched::kLevels; l++) {
            const LevelStats& s = r.levels[l];
            std::fprintf(out,
                         "%s\n    {\"level\": %u, \"weight\": %u, \"avg_execs\": %.4f, \"avg_wait\": %.2f, "
                         "\"avg_resp\": %.2f, \"samples\": %llu}",
                         l ? "," : "", l, s.weight, s.avg_execs, s.avg_wait, s.avg_resp, ull(s.samples));
        }
        std::fprintf(out, "]}%s\n", i + 1 < rs.size() ? "," : "");
    }
    std::fprintf(out, "]\n");
}

bool write_tasks_csv(const std::string& path, const std::vector<Result>& rs) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) {
        std::fprintf(stderr, "schedsim: cannot write %s\n", path.c_str());
        return false;
    }
    std::fprintf(
        f,
        "policy,id,arrival,level,weight,executed,waited,blocks,wakeups,wake_p50,wake_p99,wake_max,max_lag,fluid,"
        "migrations,dispatches\n");
    for (const Result& r : rs) {
        for (const TaskStats& t : r.tasks) {
            std::fprintf(f, "%s,%llu,%llu,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s,%s,%llu,%llu\n", r.policy.c_str(),
                         ull(t.id), ull(t.arrival), t.level, t.weight, ull(t.executed), ull(t.waited), ull(t.blocks),
                         ull(t.wakeups), ull(t.wake_p50), ull(t.wake_p99), ull(t.wake_max),
                         fair(r, "%.3f", t.max_lag, "").c_str(), fair(r, "%.3f", t.fluid, "").c_str(),
                         ull(t.migrations), ull(t.dispatches));
        }
    }
    if (std::fclose(f) != 0) {
        std::fprintf(stderr, "schedsim: cannot write %s\n", path.c_str());
        return false;
    }
    return true;
}

// Levels without tasks are left out (their averages are not data). A
// panel is drawn on a log scale when it has a positive value (gnuplot drops
// the points <= 0, e.g. a level that never ran); with none (every response
// time 0) a log scale has no point at all and gnuplot fails, so that panel
// is linear. The data file is removed whether gnuplot succeeds or not.
bool plot(const std::string& png, const std::vector<Result>& rs) {
    const std::string data = png + ".dat";
    std::FILE* d = std::fopen(data.c_str(), "w");
    if (!d) {
        std::fprintf(stderr, "schedsim: cannot write %s\n", data.c_str());
        return false;
    }
    bool execs_positive = false, resp_positive = false;
    for (unsigned l = 0; l < q::sched::kLevels; l++) {
        bool any = false;
        for (const Result& r : rs) any = any || r.levels[l].samples > 0;
        if (!any) continue;
        std::fprintf(d, "%u", l);
        for (const Result& r : rs) {
            std::fprintf(d, " %.4f %.4f", r.levels[l].avg_execs, r.levels[l].avg_resp);
            execs_positive = execs_positive || r.levels[l].avg_execs > 0;
            resp_positive = resp_positive || r.levels[l].avg_resp > 0;
        }
        std::fprintf(d, "\n");
    }
    std::fclose(d);
    auto scale = [](bool log) { return std::string(log ? "set logscale y; " : "unset logscale y; "); };
    std::string cmd = "gnuplot -e \"set terminal png size 1000,800; set output '" + png +
                      "'; set multiplot layout 2,1; set key left top; set grid; set xlabel 'priority level';"
                      " set ylabel 'avg execs/task'; " +
                      scale(execs_positive) + "plot";
    for (size_t i = 0; i < rs.size(); i++)
        cmd += (i ? "," : "") + std::string(" '") + data + "' using 1:" + std::to_string(2 + 2 * i) +
               " with linespoints title '" + rs[i].policy + "'";
    cmd += "; set ylabel 'avg response (ticks)'; set key right top; " + scale(resp_positive) + "plot";
    for (size_t i = 0; i < rs.size(); i++)
        cmd += (i ? "," : "") + std::string(" '") + data + "' using 1:" + std::to_string(3 + 2 * i) +
               " with linespoints title '" + rs[i].policy + "'";
    cmd += "; unset multiplot\"";
    const int rc = std::system(cmd.c_str());
    std::remove(data.c_str());
    if (rc != 0) {
        std::fprintf(stderr, "schedsim: gnuplot failed on %s (is gnuplot installed?)\n", png.c_str());
        return false;
    }
    return true;
}

}  // namespace schedsim
