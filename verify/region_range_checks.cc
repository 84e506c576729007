// Rule 3 of verify/region_checks.h: every command range lies inside its
// resource and inside the segment that holds its value when the command runs.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/describe.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

using verify_internal::BufferRef;

// The buffer's default-space segment whose time range holds `time`.
const Allocation* SegmentAt(const BufferPlacement& placement, TimeStep time) {
  for (const Allocation& a : placement.allocations) {
    if (a.space == kDefaultSpace && a.start <= time && time <= a.end) return &a;
  }
  return nullptr;
}

absl::Status CheckRange(const RegionContext& ctx, std::size_t step, const Command& command,
                        std::size_t index) {
  const CommandRange& range = command.ranges[index];
  const std::string ref = absl::StrCat(StepRef(ctx, step), ": ", CommandRef(ctx.program, command),
                                       " range ", index, " (", RangeRef(ctx, range), ")");
  const auto resources = static_cast<std::int32_t>(ctx.regions.resources.size());
  if (range.resource < 0 || range.resource >= resources) {
    return RuleViolation(3, absl::StrCat(ref, " names no resource (the plan has ", resources, ")"));
  }
  const Resource& r = ctx.regions.resources[range.resource];
  if (Bytes end = 0; range.offset_bytes < 0 || range.length_bytes < 0 ||
                     !CheckedAdd(range.offset_bytes, range.length_bytes, end) ||
                     end > r.size_bytes) {
    return RuleViolation(
        3, absl::StrCat(ref, " lies outside ", r.name, "'s ", ByteRange(0, r.size_bytes)));
  }
  const ValueId v = range.value;
  if (v < 0 || v >= static_cast<ValueId>(ctx.program.values.size())) {
    return RuleViolation(3, ref + " names no value of the program");
  }
  if (ctx.program.values[v].is_timepoint) {
    return RuleViolation(3, absl::StrCat(ref, ": ", ValueRef(ctx.program, v),
                                         " is a timepoint, which has no storage"));
  }
  const BufferId b = ctx.buffer_of[v];
  if (b == kNoId) {
    return RuleViolation(
        3, absl::StrCat(ref, ": ", ValueRef(ctx.program, v), " belongs to no buffer"));
  }
  if (b >= static_cast<BufferId>(ctx.plan.placements.size())) {
    return RuleViolation(
        3, absl::StrCat(ref, ": the plan does not place ", BufferRef(ctx.buffers, b)));
  }
  const BufferPlacement& placement = ctx.plan.placements[b];
  const MemorySpace home = ctx.buffers.buffers[b].space.value_or(kDefaultSpace);
  if (placement.pool != r.name || home != kDefaultSpace) {
    return RuleViolation(
        3, absl::StrCat(ref, ": ", ValueRef(ctx.program, v), "'s ", BufferRef(ctx.buffers, b),
                        " is homed in pool '", placement.pool, "' of space ", home, ", not in ",
                        r.name, "'s pool"));
  }
  const Allocation* segment = SegmentAt(placement, command.time);
  if (!segment) {
    return RuleViolation(3, absl::StrCat(ref, ": ", BufferRef(ctx.buffers, b),
                                         " has no default-space segment at time ", command.time));
  }
  // Within the resource's pool, so both are relative to its start.
  const Bytes pool_offset = ctx.plan.pools[ctx.pool_of[range.resource]].offset;
  const Bytes seg_begin = segment->offset - pool_offset;
  const Bytes seg_end = seg_begin + ctx.buffers.buffers[b].size;
  if (range.offset_bytes < seg_begin || range.offset_bytes + range.length_bytes > seg_end) {
    return RuleViolation(
        3, absl::StrCat(ref, " lies outside ", BufferRef(ctx.buffers, b), ", which holds ", r.name,
                        " ", ByteRange(seg_begin, seg_end), " at time ", command.time));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCommandRanges(const RegionContext& ctx) {
  for (std::size_t i = 0; i < ctx.regions.steps.size(); ++i) {
    for (const Command& c : ctx.regions.steps[i].commands) {
      for (std::size_t k = 0; k < c.ranges.size(); ++k) {
        if (absl::Status s = CheckRange(ctx, i, c, k); !s.ok()) return s;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::region_verify
