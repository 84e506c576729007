#include "regions/allocate_regions.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "fmt/format.h"
#include "ir/diagnostic.h"
#include "ir/dims.h"
#include "regions/host_timeline.h"
#include "regions/region_resources.h"
#include "regions/region_scope.h"

namespace memplan {

namespace {

// Layouts are computed at the planning point, where sizes are largest: every
// region buffer, padded and aligned, must fit the limits there too (the
// input limits are checked at the evaluation point, which --dim may lower).
absl::Status CheckPlanningPointLimits(const Program& program, const ProgramAnalysis& analysis,
                                      const RegionScopes& scopes, const LayoutOptions& layout) {
  Bytes total = 0;
  for (BufferId b = 0; b < static_cast<BufferId>(scopes.owner.size()); ++b) {
    if (scopes.owner[b] == kNoId) continue;
    const SizeExpr padded = SizeExpr::AlignUp(BufferSizeExpr(program, analysis, b),
                                              layout.range_alignment);
    const std::optional<Bytes> bytes = padded.Evaluate(layout.planning_point);
    if (!bytes || __builtin_add_overflow(total, *bytes + layout.offset_alignment, &total) ||
        total > kMaxTotalBytes) {
      std::string at;
      for (std::size_t d = 0; d < program.dims.size(); ++d) {
        at += (at.empty() ? "" : ", ") + program.dims[d].name + "=" +
              std::to_string(layout.planning_point[d]);
      }
      const Buffer& buffer = analysis.buffers.buffers[b];
      return LocatedError(
          program.source, buffer.values.empty() ? SourceLocation{} : program.values[buffer.values.front()].loc,
          "at the dims' planning point (" + at + "), where region layouts are computed, the region "
          "buffers total more than 2^62 bytes with their padding (reached at buffer '" +
              buffer.name + "'); lower the dims' bounds");
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool HasRegions(const Program& program) {
  return std::any_of(program.computations.begin(), program.computations.end(),
                     [](const Computation& c) { return c.kind == ComputationKind::kRegion; });
}

SizeExpr BufferSizeExpr(const Program& program, const ProgramAnalysis& analysis, BufferId b) {
  const Buffer& buffer = analysis.buffers.buffers[b];
  if (buffer.values.empty()) return SizeExpr::Constant(buffer.size);  // scratch
  SizeExpr size;
  for (ValueId v : buffer.values) {
    const Value& value = program.values[v];
    size = SizeExpr::Max(size, ValueOffsetExpr(analysis, v) + SizeExprOf(value));
  }
  return size;
}

absl::StatusOr<RegionPlan> AllocateRegions(const Program& program,
                                           const ProgramAnalysis& analysis,
                                           const RegionPlanOptions& options) {
  ResourceBuildOptions build;
  build.layout.offset_alignment = std::max<Bytes>(1, options.offset_alignment);
  build.layout.range_alignment = std::max<Bytes>(1, options.range_alignment);
  build.layout.planning_point = PlanningPoint(program);
  build.layout.box = DimRanges(program);
  build.max_allocation_size = options.max_allocation_size;
  build.fast_memory = options.fast_memory;
  build.layout.time_limit_seconds = options.pack_time_limit_seconds;
  build.in_order = options.pack == "in-order";
  if (!build.in_order) {
    absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(options.pack);
    if (!algorithm.ok()) return algorithm.status();
    build.algorithm = *algorithm;
  }
  absl::StatusOr<RegionScopes> scopes = FindRegionScopes(program, analysis);
  if (!scopes.ok()) return scopes.status();
  if (absl::Status s = CheckPlanningPointLimits(program, analysis, *scopes, build.layout); !s.ok()) {
    return s;
  }

  RegionPlan plan;
  plan.options = options;
  BuildRegionResources(program, analysis, *scopes, build, plan);
  BuildHostTimeline(program, analysis, *scopes, plan);
  return plan;
}

absl::Status ResolveCommandRanges(const Program& program, const ProgramAnalysis& analysis,
                                  RegionPlan& plan) {
  std::unordered_map<BufferId, std::pair<std::int32_t, const Slice*>> home;
  for (std::size_t r = 0; r < plan.resources.size(); ++r) {
    for (const Slice& slice : plan.resources[r].slices) {
      home[slice.buffer] = {static_cast<std::int32_t>(r), &slice};
    }
  }
  for (HostStep& step : plan.steps) {
    for (Command& command : step.commands) {
      for (CommandRange& range : command.ranges) {
        if (range.resource != kNoId) continue;
        // A range without a value is the op's scratch buffer.
        const BufferId b = range.value == kNoId
                               ? (command.op == kNoId ? kNoId : analysis.op_buffers[command.op].scratch)
                               : analysis.value_buffer[range.value];
        auto it = b == kNoId ? home.end() : home.find(b);
        if (it == home.end()) {
          return absl::InternalError(fmt::format(
              "internal error: {} of a command is in no resource",
              range.value == kNoId ? "a scratch range" : "value %" + program.values[range.value].name));
        }
        range.resource = it->second.first;
        const SizeExpr in_buffer = range.value == kNoId ? SizeExpr() : ValueOffsetExpr(analysis, range.value);
        range.value_offset = range.offset;
        range.offset = it->second.second->offset + in_buffer + range.offset;
      }
      if (step.kind != HostStepKind::kExecute) continue;
      std::vector<std::int32_t>& used = plan.regions[step.region].resources;
      for (const CommandRange& range : command.ranges) used.push_back(range.resource);
    }
  }
  for (RegionInfo& region : plan.regions) {
    std::sort(region.resources.begin(), region.resources.end());
    region.resources.erase(std::unique(region.resources.begin(), region.resources.end()),
                           region.resources.end());
  }
  return absl::OkStatus();
}

absl::Status EvaluateRegionPlan(const Program& program, RegionPlan& plan) {
  const std::vector<std::int64_t> point = EvaluationPoint(program);
  absl::Status status = absl::OkStatus();
  const auto eval = [&](const SizeExpr& e, const std::string& what) -> Bytes {
    std::optional<Bytes> v = e.Evaluate(point);
    if ((!v || *v > kMaxTotalBytes) && status.ok()) {
      status = absl::InvalidArgumentError(fmt::format(
          "{}: error: {} exceeds 2^62 bytes at the dims' evaluation point", program.source, what));
    }
    return v.value_or(0);
  };
  for (Resource& r : plan.resources) {
    r.size_bytes = eval(r.size, r.name);
    for (Slice& s : r.slices) {
      s.offset_bytes = eval(s.offset, r.name + " slice offset");
      s.size_bytes = eval(s.size, r.name + " slice size");
    }
    std::sort(r.slices.begin(), r.slices.end(), [](const Slice& a, const Slice& b) {
      return std::pair(a.offset_bytes, a.buffer) < std::pair(b.offset_bytes, b.buffer);
    });
  }
  for (HostStep& step : plan.steps) {
    for (Command& c : step.commands) {
      for (CommandRange& range : c.ranges) {
        range.offset_bytes = eval(range.offset, "a command range offset");
        range.length_bytes = eval(range.length, "a command range length");
      }
    }
  }
  for (RegionInfo& region : plan.regions) {
    region.slab_bytes = eval(region.slab_size, region.name + " slab");
    // Per memory space: a fast slab's slices never share bytes with the
    // default slab's, so the bound is the sum of each space's max live.
    std::map<MemorySpace, std::vector<PackItem>> items;
    for (std::int32_t r : region.resources) {
      if (plan.resources[r].kind != ResourceKind::kSlab) continue;
      for (const Slice& s : plan.resources[r].slices) {
        items[plan.resources[r].space].push_back(PackItem{s.size_bytes, 1, s.start, s.end});
      }
    }
    for (RegionCopy& c : region.copies) {
      c.offset_bytes = eval(c.offset, region.name + " copy offset");
      items[c.to_space].push_back(PackItem{c.bytes, 1, c.start, c.end});
    }
    region.slab_lower_bound = 0;
    for (const auto& [space, space_items] : items) region.slab_lower_bound += MaxLiveBytes(space_items);
  }
  return status;
}

}  // namespace memplan
