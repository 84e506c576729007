#include "driver/compare_times.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/strip.h"
#include "driver/plan_job.h"
#include "msa/target.h"

namespace memplan {
namespace {

absl::StatusOr<PlanJobResult> PlanWithFastMemory(const std::string& input_path,
                                                 const LoadedInput& input,
                                                 const MsaJobOptions& msa, Bytes alignment) {
  PlanJobOptions options;
  options.msa = msa;
  options.pools.alignment = alignment;
  options.measure_aliasing = false;
  return RunPlanJob(input_path, options, input);
}

// A strategy's row that ran and fits (no reason to give).
CompareTimeRow Row(std::string name, std::string planner, std::string rule, std::string source,
                   std::optional<double> estimated_s, bool kept = false) {
  CompareTimeRow row;
  row.name = std::move(name);
  row.planner = std::move(planner);
  row.rule = std::move(rule);
  row.source = std::move(source);
  row.estimated_s = estimated_s;
  row.kept = kept;
  return row;
}

// The rows of a hierarchy's portfolio candidates, by candidate name.
CompareTimeRow HierarchyRow(const HierarchyReport::Candidate& c, const std::string& chosen) {
  CompareTimeRow row;
  row.estimated_s = c.estimated_s;
  row.kept = c.name == chosen;
  row.not_run = c.not_run;
  row.does_not_fit = c.does_not_fit;
  if (c.name == "banked") {
    row.name = "executorch-banked";
    row.planner = "ExecuTorch banked memory planner";
    row.rule = "no copies; buffers by size, largest first, fill the fastest bank, then spill to "
               "the next; constants in a read-only bank first";
    row.source = "pytorch/executorch exir/memory_planning.py";
  } else if (c.name == "two-space") {
    row.name = "memplan-two-space";
    row.rule = "memplan with only the fastest level: prefetches and evictions into it, every "
               "other buffer in the slowest writable level";
  } else if (c.name == "hierarchy-weights-in-flash") {
    row.name = "memplan-weights-in-flash";
    row.rule = "memplan over the hierarchy, constants homed in a read-only level first";
  } else {
    row.name = "memplan-" + c.name;
    row.rule = "memplan over the hierarchy: the fastest level planned with copies, then each "
               "buffer homed in the fastest level that holds it";
  }
  if (c.without_cross_program_prefetch) row.rule += "; without the cross-program prefetch";
  return row;
}

}  // namespace

absl::StatusOr<CompareTimes> CompareTimesOf(const std::string& input_path,
                                            const LoadedInput& input, const MsaJobOptions& msa,
                                            Bytes alignment) {
  absl::StatusOr<PlanJobResult> planned = PlanWithFastMemory(input_path, input, msa, alignment);
  if (absl::IsResourceExhausted(planned.status())) {
    // The arena table stands without the plan: say why there are no times.
    CompareTimes times;
    times.target = msa.target.value_or(std::string(kDefaultTarget));
    absl::StatusOr<Target> target = ResolveTarget(times.target);
    if (!target.ok()) return planned.status();
    times.fast_memory_bytes = msa.fast_memory_bytes.value_or(target->fast_memory_bytes);
    // The planner's message is located ("INPUT: error: plan does not fit:
    // ..."); the section names no file.
    absl::string_view message = planned.status().message();
    absl::ConsumePrefix(&message, input_path + ": error: ");
    times.does_not_fit = std::string(message);
    return times;
  }
  if (!planned.ok()) return planned.status();
  const MsaJobResult& job = *planned->msa;
  const MsaStats& stats = *planned->plan.msa;
  CompareTimes times;
  times.target = msa.target.value_or(std::string(kDefaultTarget));
  times.fast_memory_bytes = job.options.fast_memory_bytes;
  times.bound_s = stats.time_bound_s.value_or(0);
  std::vector<CompareTimeRow> rows;
  if (job.hierarchy) {
    const HierarchyReport& h = *job.hierarchy;
    for (const HierarchyReport::Candidate& c : h.candidates) rows.push_back(HierarchyRow(c, h.chosen));
    rows.push_back(Row("all-slowest-writable", "",
                       "every buffer in the slowest writable level, no copies, its capacity "
                       "ignored (a baseline: the data may not fit it)",
                       "", h.all_slowest_writable_s));
  } else {
    rows.push_back(Row("memplan", "",
                       "memplan plan: memory space assignment, default mode (docs/msa.md)", "",
                       stats.estimated_time_s, /*kept=*/true));
    MsaJobOptions reference = msa;
    reference.msa.mode = MsaMode::kReference;
    absl::StatusOr<PlanJobResult> ref = PlanWithFastMemory(input_path, input, reference, alignment);
    if (!ref.ok()) return ref.status();
    rows.push_back(Row("xla-msa-2021", "XLA memory space assignment (2021), as memplan re-creates it",
                       "prefetch and evict by the cost-analysis picker, best fit in fast memory",
                       "memplan --msa-mode reference (docs/msa.md)",
                       ref->plan.msa->estimated_time_s));
    rows.push_back(Row("all-default", "", "every buffer in default memory, no copies", "",
                       stats.time_all_default_s));
    rows.push_back(Row("all-fast", "",
                       "every buffer in fast memory, its capacity ignored (no plan can do this "
                       "when the data is larger)",
                       "", stats.time_all_fast_s));
  }
  // Fastest first; strategies that do not fit last, in portfolio order.
  std::stable_sort(rows.begin(), rows.end(), [](const CompareTimeRow& a, const CompareTimeRow& b) {
    if (a.estimated_s.has_value() != b.estimated_s.has_value()) return a.estimated_s.has_value();
    return a.estimated_s && *a.estimated_s < *b.estimated_s;
  });
  times.rows.push_back(Row("time bound", "",
                           "no plan is faster: per op, its data fills the fast levels best "
                           "saved-time-per-byte first, copies free (msa/time_bound.h)",
                           "docs/msa.md, Time bound", times.bound_s));
  times.rows.insert(times.rows.end(), rows.begin(), rows.end());
  return times;
}

}  // namespace memplan
