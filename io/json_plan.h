// The JSON plan (schema "memplan.plan/1", see DESIGN.md "JSON plan"): what
// `memplan plan --json` writes and `memplan verify` reads back.
//
// Layout (keys in this order; `msa` only when the plan has MSA statistics):
//   {"schema": "memplan.plan/1", "input", "algorithm", "time_steps",
//    "lower_bound_bytes", "peak_bytes", "verified", "alignment",
//    "spaces":  [{"name", "id", "capacity_bytes" (null: unbounded), "peak_bytes"}],
//    "pools":   [{"name", "space", "offset_bytes", "size_bytes",
//                 "lower_bound_bytes", "buffers", "total_bytes"}],
//    "buffers": [{"id", "name", "values", "size", "start", "end", "pool",
//                 "lifetime", "allocations": [{"space", "offset", "start", "end"}]}],
//    "async_copies": [{"buffer", "kind" ("prefetch"|"eviction"), "from_space",
//                      "to_space", "start", "done", "bytes"}],
//    "msa": {"estimated_time_s", "time_all_default_s", "time_all_fast_s",
//            "prefetches", "evictions", "prefetch_bytes", "eviction_bytes",
//            "max_outstanding_copies"}}
// Sizes and offsets are bytes, times are time steps (closed ranges), the msa
// times are seconds. peak_bytes and lower_bound_bytes are the default space's
// transient pool. The text puts each top-level key on its own line and each
// array element on its own line, so plans diff well.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

inline constexpr std::string_view kPlanSchema = "memplan.plan/1";

// Renders `plan` for `buffers` (parallel to plan.placements). A buffer's
// `values` are the names of its values in `program`; without a program
// (nullptr, e.g. CSV input) they are the value ids as decimal strings.
// Deterministic: the same arguments give the same bytes. Non-finite MSA times
// are written as null (JSON has no NaN); ReadPlanJson rejects them.
std::string WritePlanJson(const Plan& plan, const BufferSet& buffers, const Program* program);

// Parses a plan written by WritePlanJson for the input whose re-analysed
// buffers are `expected`. Unknown keys are ignored. Errors: InvalidArgument
//  * `path:line:col: error: ...` for malformed JSON (nlohmann's message);
//  * `path: error: /json/pointer: ...` for a wrong schema, a missing key or a
//    value of the wrong type or range (e.g. `/buffers/3/allocations/0/offset:
//    expected an integer, found string`);
//  * the same form when time_steps or a buffer's count, id, name, size, live
//    range or lifetime disagrees with `expected` (the plan is for another
//    input).
// Everything else (overlaps, pools, copies, ...) is for VerifyPlan to judge.
absl::StatusOr<Plan> ReadPlanJson(std::string_view text, std::string_view path,
                                  const BufferSet& expected);

}  // namespace memplan
