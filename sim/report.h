// sim/report.h - schedsim's reports: the seed's text format, CSV, JSON, a
// side-by-side comparison for --policy all, a per-task CSV and a gnuplot
// chart.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "sim/sim.h"

namespace schedsim {

enum class Format { Text, Csv, Json };

// One policy's report in the seed's layout (plus a fairness section).
void print_text(std::FILE* out, const Result& r);
// Several policies on the same workload, one column each.
void print_side_by_side(std::FILE* out, const std::vector<Result>& rs);
void print_csv(std::FILE* out, const std::vector<Result>& rs);
void print_json(std::FILE* out, const std::vector<Result>& rs);
// --tasks-out: one CSV row per task and policy. Returns false (with a
// message on stderr) if the file cannot be written.
bool write_tasks_csv(const std::string& path, const std::vector<Result>& rs);
// Per-level execs and response time, one line per policy (gnuplot).
// Returns false (with a message on stderr) if gnuplot fails.
bool plot(const std::string& png, const std::vector<Result>& rs);

}  // namespace schedsim
