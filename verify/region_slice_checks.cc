// Rule 2 of verify/region_checks.h: slices, and every symbolic size (slice,
// resource, command range) evaluated at the program's evaluation point.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/dims.h"
#include "ir/plural.h"
#include "verify/describe.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

using verify_internal::BufferRef;

// Evaluates symbolic sizes at the evaluation point and names them in messages.
class Evaluator {
 public:
  explicit Evaluator(const Program& program)
      : point_(EvaluationPoint(program)),
        planning_point_(PlanningPoint(program)),
        names_(DimNames(program)) {}

  std::string Text(const SizeExpr& expr) const { return expr.ToString(names_); }

  // `expr` at the planning point; call only after Mismatch passed for it.
  std::optional<Bytes> AtPlanningPoint(const SizeExpr& expr) const {
    return expr.Evaluate(planning_point_);
  }

  // "" when `expr` evaluates to `bytes`, else what is wrong; `field` is
  // "offset", "size" or "length" (the plan's figure is `field`_bytes).
  std::string Mismatch(const SizeExpr& expr, Bytes bytes, const char* field) const {
    if (expr.Overflowed()) return absl::StrCat(field, " overflowed when it was computed");
    for (DimId d : expr.Dims()) {
      if (d < 0 || d >= static_cast<DimId>(point_.size())) {
        return absl::StrCat(field, " mentions dim #", d, " but the program declares ",
                            point_.size(), " dims");
      }
    }
    const std::string text = expr.ToString(names_);
    const std::optional<Bytes> value = expr.Evaluate(point_);
    if (!value) return absl::StrCat(field, " (", text, ") overflows at the evaluation point");
    if (*value != bytes) {
      return absl::StrCat(field, " (", text, ") is ", *value, " at the evaluation point but ",
                          field, "_bytes is ", bytes);
    }
    return "";
  }

 private:
  std::vector<std::int64_t> point_;
  std::vector<std::int64_t> planning_point_;
  std::vector<std::string> names_;
};

// "slice 1 of @stage.slab (buffer 't0' (id 2))"; the buffer id must be valid.
std::string SliceRef(const RegionContext& ctx, std::int32_t resource, std::size_t index) {
  const Resource& r = ctx.regions.resources[resource];
  return absl::StrCat("slice ", index, " of ", r.name, " (",
                      BufferRef(ctx.buffers, r.slices[index].buffer), ")");
}

// Region allocations (not program pools): aligned, split, sliced.
bool IsRegionAllocation(ResourceKind kind) {
  return kind == ResourceKind::kUpload || kind == ResourceKind::kResults ||
         kind == ResourceKind::kSlab;
}

// The slice's buffer: it exists, is homed in the resource's pool, is in no
// other slice, and every segment of it in the resource's space is where the
// slice says.
// `slice_of` maps a buffer to the "slice k of <resource>" already holding it.
absl::Status CheckSliceBuffer(const RegionContext& ctx, std::int32_t resource, std::size_t index,
                              std::vector<std::string>& slice_of) {
  const Resource& r = ctx.regions.resources[resource];
  const Slice& s = r.slices[index];
  const std::string where = absl::StrCat("slice ", index, " of ", r.name);
  const auto count = static_cast<BufferId>(ctx.buffers.buffers.size());
  if (s.buffer < 0 || s.buffer >= count ||
      s.buffer >= static_cast<BufferId>(ctx.plan.placements.size())) {
    return RuleViolation(2, absl::StrCat(where, " names buffer id ", s.buffer,
                                         " but the input has ", CountOf(count, "buffer")));
  }
  const BufferPlacement& placement = ctx.plan.placements[s.buffer];
  const std::string ref = SliceRef(ctx, resource, index);
  const MemorySpace home = ctx.buffers.buffers[s.buffer].space.value_or(kDefaultSpace);
  if (placement.pool != r.name || home != kDefaultSpace) {
    return RuleViolation(2, absl::StrCat(ref, ": the buffer is homed in pool '", placement.pool.str(),
                                         "' of space ", home, ", not in the resource's pool"));
  }
  if (!slice_of[s.buffer].empty()) {
    return RuleViolation(2, absl::StrCat(ref, ": the buffer is also in ", slice_of[s.buffer]));
  }
  slice_of[s.buffer] = where;

  // A slice has one offset, so every segment in its space must sit there
  // (more than one only when fast-memory planning moves the buffer out and back).
  const PoolInfo& pool = ctx.plan.pools[ctx.pool_of[resource]];
  Bytes at = 0;
  const bool representable = CheckedAdd(pool.offset, s.offset_bytes, at);
  bool any = false;
  for (const Allocation& a : placement.allocations) {
    if (a.space != r.space) continue;
    any = true;
    if (!representable || a.offset != at) {
      return RuleViolation(
          2, absl::StrCat(ref, ": the buffer's ", SpaceName(r.space), "-space segment over time [", a.start, ", ",
                          a.end, "] is at byte ", a.offset, " but the slice is at pool offset ",
                          pool.offset, " + offset_bytes ", s.offset_bytes));
    }
  }
  if (!any) {
    return RuleViolation(2, absl::StrCat(ref, ": the buffer has no ", SpaceName(r.space),
                                         "-space segment"));
  }
  return absl::OkStatus();
}

// The slice's bytes and times: its size is the buffer's, it lies in the
// resource, is aligned, spans the buffer's live range within the resource's,
// and its symbolic offset and size evaluate to its figures.
absl::Status CheckSliceExtent(const RegionContext& ctx, const Evaluator& eval,
                              std::int32_t resource, std::size_t index) {
  const Resource& r = ctx.regions.resources[resource];
  const Slice& s = r.slices[index];
  const Buffer& b = ctx.buffers.buffers[s.buffer];
  const std::string ref = SliceRef(ctx, resource, index);
  if (s.size_bytes != b.size) {
    return RuleViolation(2, absl::StrCat(ref, ": size_bytes ", s.size_bytes,
                                         " differs from the buffer's size ", b.size));
  }
  Bytes end = 0;
  const bool representable = CheckedAdd(s.offset_bytes, s.size_bytes, end);
  if (s.offset_bytes < 0 || s.size_bytes < 0 || !representable || end > r.size_bytes) {
    const std::string bytes = representable ? ByteRange(s.offset_bytes, end)
                                            : absl::StrCat("[", s.offset_bytes, ", ",
                                                           s.offset_bytes, "+", s.size_bytes, ")");
    return RuleViolation(2, absl::StrCat(ref, ": bytes ", bytes, " lie outside the resource's ",
                                         ByteRange(0, r.size_bytes)));
  }
  const Bytes alignment = ctx.regions.options.offset_alignment;
  if (IsRegionAllocation(r.kind) && alignment > 1 && s.offset_bytes % alignment != 0) {
    return RuleViolation(2, absl::StrCat(ref, ": offset_bytes ", s.offset_bytes,
                                         " is not a multiple of the offset alignment ", alignment));
  }
  if (s.start != b.start || s.end != b.end) {
    return RuleViolation(
        2, absl::StrCat(ref, ": time range [", s.start, ", ", s.end,
                        "] differs from the buffer's live range [", b.start, ", ", b.end, "]"));
  }
  if (s.start < r.start || s.end > r.end) {
    return RuleViolation(
        2, absl::StrCat(ref, ": time range [", s.start, ", ", s.end,
                        "] lies outside the resource's [", r.start, ", ", r.end, "]"));
  }
  for (const auto& [expr, bytes, field] : {std::tuple{&s.offset, s.offset_bytes, "offset"},
                                           std::tuple{&s.size, s.size_bytes, "size"}}) {
    if (std::string why = eval.Mismatch(*expr, bytes, field); !why.empty()) {
      return RuleViolation(2, absl::StrCat(ref, ": ", why));
    }
  }
  return absl::OkStatus();
}

// The resource's size against the options: padded to the range alignment,
// split at max_allocation_size (decided at the planning point) unless one
// item alone is larger.
absl::Status CheckResourceSize(const RegionContext& ctx, const Evaluator& eval, const Resource& r) {
  const RegionPlanOptions& options = ctx.regions.options;
  const std::string ref = absl::StrCat("resource ", r.name);
  if (IsRegionAllocation(r.kind) && r.size_bytes % options.range_alignment != 0) {
    return RuleViolation(
        2, absl::StrCat(ref, ": size_bytes ", r.size_bytes,
                        " is not a multiple of the range alignment ", options.range_alignment));
  }
  if (!options.max_allocation_size) {
    if (!r.over_limit) return absl::OkStatus();
    return RuleViolation(2,
                         ref + " is marked over_limit but the options set no max_allocation_size");
  }
  const Bytes limit = *options.max_allocation_size;
  const std::optional<Bytes> planned = eval.AtPlanningPoint(r.size);
  if (!planned) {
    return RuleViolation(
        2, absl::StrCat(ref, ": size (", eval.Text(r.size), ") overflows at the planning point"));
  }
  if (r.over_limit) {
    if (r.slices.size() != 1) {
      return RuleViolation(2, absl::StrCat(ref, " is marked over_limit but holds ", r.slices.size(),
                                           " slices, not one"));
    }
    if (*planned <= limit) {
      return RuleViolation(2, absl::StrCat(ref, " is marked over_limit but is ",
                                           CountOf(*planned, "byte"), " at the planning point, within "
                                           "max_allocation_size ",
                                           limit));
    }
  } else if (IsRegionAllocation(r.kind) && *planned > limit) {
    return RuleViolation(2, absl::StrCat(ref, " is ", CountOf(*planned, "byte"),
                                         " at the planning point, more than "
                                         "max_allocation_size ",
                                         limit, ", but is not marked over_limit"));
  }
  return absl::OkStatus();
}

// Every buffer homed in a region allocation's pool is in one of its slices.
absl::Status CheckHomedBuffersSliced(const RegionContext& ctx,
                                     const std::vector<std::string>& slice_of) {
  std::map<std::string, const Resource*, std::less<>> allocations;
  for (const Resource& r : ctx.regions.resources) {
    if (IsRegionAllocation(r.kind)) allocations.emplace(r.name, &r);
  }
  const std::size_t count = std::min(ctx.buffers.buffers.size(), ctx.plan.placements.size());
  for (std::size_t b = 0; b < count; ++b) {
    auto it = allocations.find(ctx.plan.placements[b].pool);
    if (it == allocations.end() || !slice_of[b].empty()) continue;
    return RuleViolation(
        2, absl::StrCat(BufferRef(ctx.buffers, static_cast<BufferId>(b)), " is homed in pool '",
                        it->first, "' (a ", ResourceKindName(it->second->kind),
                        " resource) but is in no slice of it"));
  }
  return absl::OkStatus();
}

absl::Status CheckRangeSizes(const RegionContext& ctx, const Evaluator& eval) {
  for (std::size_t i = 0; i < ctx.regions.steps.size(); ++i) {
    const std::vector<Command>& commands = ctx.regions.steps[i].commands;
    for (std::size_t j = 0; j < commands.size(); ++j) {
      const Command& c = commands[j];
      for (std::size_t k = 0; k < c.ranges.size(); ++k) {
        const CommandRange& range = c.ranges[k];
        for (const auto& [expr, bytes, field] :
             {std::tuple{&range.offset, range.offset_bytes, "offset"},
              std::tuple{&range.length, range.length_bytes, "length"}}) {
          if (std::string why = eval.Mismatch(*expr, bytes, field); !why.empty()) {
            return CommandViolation(
                ctx, i, j, 2,
                absl::StrCat(StepRef(ctx, i), ": ", CommandRef(ctx.program, c), " range ", k, " (",
                             RangeRef(ctx, range), "): ", why));
          }
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckSlices(const RegionContext& ctx) {
  const Evaluator eval(ctx.program);
  std::vector<std::string> slice_of(ctx.buffers.buffers.size());
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(ctx.regions.resources.size()); ++i) {
    const Resource& r = ctx.regions.resources[i];
    if (std::string why = eval.Mismatch(r.size, r.size_bytes, "size"); !why.empty()) {
      return RuleViolation(2, absl::StrCat("resource ", r.name, ": ", why));
    }
    if (absl::Status s = CheckResourceSize(ctx, eval, r); !s.ok()) return s;
    for (std::size_t k = 0; k < r.slices.size(); ++k) {
      if (absl::Status s = CheckSliceBuffer(ctx, i, k, slice_of); !s.ok()) return s;
      if (absl::Status s = CheckSliceExtent(ctx, eval, i, k); !s.ok()) return s;
    }
  }
  if (absl::Status s = CheckHomedBuffersSliced(ctx, slice_of); !s.ok()) return s;
  return CheckRangeSizes(ctx, eval);
}

}  // namespace memplan::region_verify
