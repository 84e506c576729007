// Rule 3 of verify/region_checks.h: every command range lies inside its
// resource and inside the segment that holds its value (or, for a scratch
// range, a buffer without values) when the command runs.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/describe.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

using verify_internal::BufferRef;

// The buffer's segment in `space` whose time range holds `time`.
const Allocation* SegmentAt(const BufferPlacement& placement, MemorySpace space, TimeStep time) {
  for (const Allocation& a : placement.allocations) {
    if (a.space == space && a.start <= time && time <= a.end) return &a;
  }
  return nullptr;
}

// The segments of buffers without values (ops' scratch) per resource, in
// its space, sorted by start time. A query scans those starting within the
// longest one's live range before its time: only those starting at its time
// for scratch that lives at its op only.
class ScratchIndex {
 public:
  explicit ScratchIndex(const RegionContext& ctx) : resources_(ctx.regions.resources.size()) {
    std::map<std::string, std::int32_t, std::less<>> by_name;
    for (std::int32_t r = 0; r < static_cast<std::int32_t>(resources_.size()); ++r) {
      by_name.emplace(ctx.regions.resources[r].name, r);
    }
    const std::size_t count = std::min(ctx.buffers.buffers.size(), ctx.plan.placements.size());
    for (std::size_t b = 0; b < count; ++b) {
      const Buffer& buffer = ctx.buffers.buffers[b];
      auto it = by_name.find(ctx.plan.placements[b].pool);
      if (!buffer.values.empty() || buffer.space.value_or(kDefaultSpace) != kDefaultSpace ||
          it == by_name.end()) {
        continue;
      }
      PerResource& per = resources_[it->second];
      const Bytes base = ctx.plan.pools[ctx.pool_of[it->second]].offset;
      for (const Allocation& a : ctx.plan.placements[b].allocations) {
        if (a.space != ctx.regions.resources[it->second].space) continue;
        per.segments.push_back({a.start, a.end, a.offset - base, a.offset - base + buffer.size});
        per.longest = std::max(per.longest, a.end - a.start);
      }
    }
    for (PerResource& per : resources_) {
      std::sort(per.segments.begin(), per.segments.end(),
                [](const Segment& x, const Segment& y) { return x.start < y.start; });
    }
  }

  // Whether [begin, end) of `resource` lies in one segment live at `time`.
  bool Covers(std::int32_t resource, TimeStep time, Bytes begin, Bytes end) const {
    const PerResource& per = resources_[resource];
    auto by_start = [](const Segment& s, TimeStep t) { return s.start < t; };
    auto first =
        std::lower_bound(per.segments.begin(), per.segments.end(), time - per.longest, by_start);
    for (auto it = first; it != per.segments.end() && it->start <= time; ++it) {
      if (time <= it->end && it->begin <= begin && end <= it->end_byte) return true;
    }
    return false;
  }

 private:
  struct Segment {
    TimeStep start;
    TimeStep end;
    Bytes begin;  // from the resource's start
    Bytes end_byte;
  };
  struct PerResource {
    std::vector<Segment> segments;
    TimeStep longest = 0;  // max end - start
  };
  std::vector<PerResource> resources_;
};

// Nothing when the device running step `step` (an execute's region's
// affinity, "host" for other steps and regions without one) may access
// `r`'s space (Resource::devices); else why not, continuing a range's
// description.
std::optional<std::string> DeviceBarred(const RegionContext& ctx, std::size_t step,
                                        const Resource& r) {
  if (r.devices.empty()) return std::nullopt;
  const HostStep& host = ctx.regions.steps[step];
  std::string device = "host";
  if (host.kind == HostStepKind::kExecute && host.region >= 0 &&
      host.region < static_cast<std::int32_t>(ctx.regions.regions.size()) &&
      !ctx.regions.regions[host.region].affinity.empty()) {
    device = ctx.regions.regions[host.region].affinity;
  }
  if (std::any_of(r.devices.begin(), r.devices.end(),
                  [&](const std::string& d) { return d == "*" || d == device; })) {
    return std::nullopt;
  }
  std::string devices;
  for (const std::string& d : r.devices) devices += (devices.empty() ? "" : ", ") + d;
  return absl::StrCat(" lies in ", r.name, " in the ", SpaceName(r.space), " space, which ", device,
                      " (the device running it) may not access: only ", devices, " may");
}

absl::Status CheckRange(const RegionContext& ctx, const ScratchIndex& scratch, std::size_t step,
                        std::size_t command_index, std::size_t index) {
  const Command& command = ctx.regions.steps[step].commands[command_index];
  const CommandRange& range = command.ranges[index];
  auto fail = [&](const std::string& message) {
    return CommandViolation(ctx, step, command_index, 3, message);
  };
  const std::string ref = absl::StrCat(StepRef(ctx, step), ": ", CommandRef(ctx.program, command),
                                       " range ", index, " (", RangeRef(ctx, range), ")");
  const auto resources = static_cast<std::int32_t>(ctx.regions.resources.size());
  if (range.resource < 0 || range.resource >= resources) {
    return fail(absl::StrCat(ref, " names no resource (the plan has ", resources, ")"));
  }
  const Resource& r = ctx.regions.resources[range.resource];
  if (Bytes end = 0; range.offset_bytes < 0 || range.length_bytes < 0 ||
                     !CheckedAdd(range.offset_bytes, range.length_bytes, end) ||
                     end > r.size_bytes) {
    return fail(absl::StrCat(ref, " lies outside ", r.name, "'s ", ByteRange(0, r.size_bytes)));
  }
  if (std::optional<std::string> barred = DeviceBarred(ctx, step, r)) return fail(ref + *barred);
  const ValueId v = range.value;
  if (v == kNoId) {
    if (scratch.Covers(range.resource, command.time, range.offset_bytes,
                       range.offset_bytes + range.length_bytes)) {
      return absl::OkStatus();
    }
    return fail(absl::StrCat(ref,
                             " names no value and lies in no segment of a buffer without "
                             "values homed in ",
                             r.name, "'s pool at time ", command.time));
  }
  if (v < 0 || v >= static_cast<ValueId>(ctx.program.values.size())) {
    return fail(ref + " names no value of the program");
  }
  if (ctx.program.values[v].is_timepoint) {
    return fail(
        absl::StrCat(ref, ": ", ValueRef(ctx.program, v), " is a timepoint, which has no storage"));
  }
  const BufferId b = ctx.buffer_of[v];
  if (b == kNoId) {
    return fail(absl::StrCat(ref, ": ", ValueRef(ctx.program, v), " belongs to no buffer"));
  }
  if (b >= static_cast<BufferId>(ctx.plan.placements.size())) {
    return fail(absl::StrCat(ref, ": the plan does not place ", BufferRef(ctx.buffers, b)));
  }
  // A read of a captured copy lies in its fast range (rule 6 checks it).
  if (CopyHolding(ctx, range) != nullptr) return absl::OkStatus();
  const BufferPlacement& placement = ctx.plan.placements[b];
  const MemorySpace home = ctx.buffers.buffers[b].space.value_or(kDefaultSpace);
  if (placement.pool != r.name || home != kDefaultSpace) {
    return fail(absl::StrCat(ref, ": ", ValueRef(ctx.program, v), "'s ", BufferRef(ctx.buffers, b),
                             " is homed in pool '", placement.pool.str(), "' of space ", home,
                             ", not in ", r.name, "'s pool"));
  }
  const Allocation* segment = SegmentAt(placement, r.space, command.time);
  if (!segment) {
    return fail(absl::StrCat(ref, ": ", BufferRef(ctx.buffers, b), " has no ",
                             SpaceName(r.space), "-space segment at time ", command.time));
  }
  // Within the resource's pool, so both are relative to its start.
  const Bytes pool_offset = ctx.plan.pools[ctx.pool_of[range.resource]].offset;
  const Bytes seg_begin = segment->offset - pool_offset;
  const Bytes seg_end = seg_begin + ctx.buffers.buffers[b].size;
  if (range.offset_bytes < seg_begin || range.offset_bytes + range.length_bytes > seg_end) {
    return fail(absl::StrCat(ref, " lies outside ", BufferRef(ctx.buffers, b), ", which holds ",
                             r.name, " ", ByteRange(seg_begin, seg_end), " at time ",
                             command.time));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCommandRanges(const RegionContext& ctx) {
  const ScratchIndex scratch(ctx);
  for (std::size_t i = 0; i < ctx.regions.steps.size(); ++i) {
    const std::vector<Command>& commands = ctx.regions.steps[i].commands;
    for (std::size_t j = 0; j < commands.size(); ++j) {
      for (std::size_t k = 0; k < commands[j].ranges.size(); ++k) {
        if (absl::Status s = CheckRange(ctx, scratch, i, j, k); !s.ok()) return s;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::region_verify
