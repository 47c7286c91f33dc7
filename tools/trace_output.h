// tools/trace_output.h - writers of a trace Model (tools/trace_model.h);
// formats described in tools/trace_output.cc.
#pragma once

#include <cstdio>

#include "tools/trace_model.h"

namespace q::tools {

// Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing).
void write_json(const Model& m, std::FILE* f);
// `perf sched latency`-style text: per process runtime, switches, delays;
// then each affinity change.
void write_summary(const Model& m, std::FILE* f);
// schedsim --replay file, `tick` timer cycles per simulator tick.
void write_replay(const Model& m, u64 tick, std::FILE* f);

}  // namespace q::tools
