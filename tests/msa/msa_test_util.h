// Shared helpers for the msa tests: parse a text-IR program and analyse it.
#pragma once

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "gtest/gtest.h"
#include "ir/program.h"
#include "ir/text_parser.h"
#include "msa/assignment.h"
#include "msa/target.h"

namespace memplan::testing {

// A parsed program with its analysis, kept together so that models built on
// them (which hold references) stay valid.
struct Analyzed {
  Program program;
  ProgramAnalysis analysis;
};

inline std::unique_ptr<Analyzed> Analyze(std::string_view text) {
  auto out = std::make_unique<Analyzed>();
  absl::StatusOr<Program> program = ParseProgram(text, "test.mpir");
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return nullptr;
  out->program = *std::move(program);
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(out->program);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  if (!analysis.ok()) return nullptr;
  out->analysis = *std::move(analysis);
  return out;
}

// A target with round numbers: 1000 flop/s, 100 transcendentals/s, default
// memory 100 B/s, alternate 400 B/s, copies 50 B/s.
inline Target RoundTarget() {
  Target t;
  t.name = "round";
  t.flops_per_second = 1000;
  t.transcendentals_per_second = 100;
  t.default_bandwidth = 100;
  t.alternate_bandwidth = 400;
  t.copy_bandwidth = 50;
  t.fast_memory_bytes = 1000;
  return t;
}

// An MsaResult for `a` with nothing in alternate memory and no copies; tests
// add the alternate segments and copies they need.
inline MsaResult EmptyResult(const Analyzed& a) {
  MsaResult r;
  r.alternate.resize(a.analysis.buffers.buffers.size());
  r.needs_default.assign(a.analysis.buffers.buffers.size(), true);
  return r;
}

// The buffer holding the value named `value` (e.g. "y", without the %) in `a`.
inline BufferId BufferOf(const Analyzed& a, const char* value) {
  return a.analysis.value_buffer[a.program.FindValue(value)];
}

// The buffers the ops at step `t` read or write, each once, in schedule
// and operand order.
inline std::vector<BufferId> BuffersAccessedAt(const Analyzed& a, TimeStep t) {
  std::vector<BufferId> accessed;
  for (OpId op : a.analysis.schedule.order) {
    if (a.analysis.schedule.op_time[op] != t) continue;
    const OpBuffers& ob = a.analysis.op_buffers[op];
    for (const std::vector<BufferId>* list : {&ob.operands, &ob.results}) {
      for (BufferId b : *list) {
        if (b != kNoId && std::find(accessed.begin(), accessed.end(), b) == accessed.end()) {
          accessed.push_back(b);
        }
      }
    }
  }
  return accessed;
}

// A segment in alternate memory at byte `offset` over steps [start, end].
inline Allocation Alt(Bytes offset, TimeStep start, TimeStep end) {
  return Allocation{kAlternateSpace, offset, start, end};
}

}  // namespace memplan::testing
