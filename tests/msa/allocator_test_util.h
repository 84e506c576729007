// Helpers for the allocator, picker and scenario tests: load a text-IR
// program with a cost model, run AssignMemorySpaces, and check the result
// with an independent checker that knows only the result conventions of
// msa/assignment.h.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/target.h"

namespace memplan::testing {

// A program with everything derived from it, at stable addresses (the cost
// model points into the program and the analysis).
struct MsaFixture {
  Program program;
  ProgramAnalysis analysis;
  std::unique_ptr<CostModel> cost;

  BufferId Buffer(std::string_view value_name) const;
  TimeStep Time(std::string_view value_name) const;  // step of the op defining the value
};

// Every op memory bound (no flops given): default 1e10 B/s, alternate 1e11,
// copies 1e10, 1e12 flop/s.
Target TestTarget();

// Parses and analyzes `text` (failing the test on errors).
std::unique_ptr<MsaFixture> Load(std::string_view text, const Target& target = TestTarget());

// The harness of msa.md §6: 128 B of fast memory, alignment 8,
// instruction-count picker min 2 / max 10, reference mode.
MsaOptions HarnessOptions();

MsaResult Assign(const MsaFixture& f, const MsaOptions& options);

// "" if `result` obeys the conventions (shapes, bounds, alignment, capacity,
// no overlap in alternate memory, copies open their segments and finish
// before use, limits, coverage, and a step-by-step data-validity replay),
// else the first problem found.
std::string CheckResult(const MsaFixture& f, const MsaOptions& options, const MsaResult& result);

// Per copy kind, the most copies in flight at one step ([start, done] closed),
// the cross-program prefetch counting as a prefetch at its buffer's start.
std::int64_t MaxOutstanding(const MsaResult& result, CopyKind kind);

// "start-end@offset" for each alternate segment of `buffer`, e.g. {"0-2@0"}.
std::vector<std::string> Segments(const MsaResult& result, BufferId buffer);
// "prefetch start->done" / "eviction start->done" for the copies of `buffer`.
std::vector<std::string> Copies(const MsaResult& result, BufferId buffer);

}  // namespace memplan::testing
