// Region rule 6 (verify/region_checks.h): captured copies, a region's
// copies of a captured value into its fast slab (RegionInfo::copies).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {

const RegionCopy* CopyHolding(const RegionContext& ctx, const CommandRange& range) {
  for (const RegionInfo& info : ctx.regions.regions) {
    for (const RegionCopy& c : info.copies) {
      Bytes end = 0, copy_end = 0;
      if (c.resource == range.resource && c.value == range.value &&
          range.offset_bytes >= c.offset_bytes && CheckedAdd(range.offset_bytes, range.length_bytes, end) &&
          CheckedAdd(c.offset_bytes, c.bytes, copy_end) && end <= copy_end) {
        return &c;
      }
    }
  }
  return nullptr;
}

namespace {

// The checks of copy `c` of region `region` (index `index` in its list).
absl::Status CheckCopy(const RegionContext& ctx, std::size_t region, std::size_t index) {
  const RegionInfo& info = ctx.regions.regions[region];
  const RegionCopy& c = info.copies[index];
  const auto fail = [&](const std::string& message) {
    return RuleViolation(6, absl::StrCat("region @", info.name, " copy ", index, " (",
                                         ValueRef(ctx.program, c.value), "): ", message));
  };
  // The value: a parameter of the region, homed outside it in default memory.
  const Computation* computation =
      info.computation >= 0 && info.computation < static_cast<ComputationId>(ctx.program.computations.size())
          ? &ctx.program.computations[info.computation]
          : nullptr;
  if (computation == nullptr || c.value < 0 ||
      std::find(computation->params.begin(), computation->params.end(), c.value) ==
          computation->params.end()) {
    return fail("the value is not a parameter of the region (only captured values are copied)");
  }
  const Value& value = ctx.program.values[c.value];
  const BufferId b = ctx.buffer_of[c.value];
  if (value.is_timepoint || b == kNoId || b >= static_cast<BufferId>(ctx.plan.placements.size())) {
    return fail("the value has no storage to copy");
  }
  if (c.bytes != value.size || c.bytes <= 0) {
    return fail(absl::StrCat("it copies ", c.bytes, " bytes, but the value has ", value.size));
  }
  if (c.from_space != kDefaultSpace) {
    return fail(absl::StrCat("it copies from space ", c.from_space,
                             ", but a captured value is homed in the default space"));
  }
  // The destination: bytes of one of the region's own fast slabs.
  const auto resources = static_cast<std::int32_t>(ctx.regions.resources.size());
  if (c.resource < 0 || c.resource >= resources) {
    return fail(absl::StrCat("it names no resource (the plan has ", resources, ")"));
  }
  const Resource& r = ctx.regions.resources[c.resource];
  if (r.kind != ResourceKind::kSlab || r.region != info.name || r.space == kDefaultSpace) {
    return fail(absl::StrCat("its destination ", r.name,
                             " is not a fast slab of the region (a slab of @", info.name,
                             " outside the default space)"));
  }
  if (c.to_space != r.space) {
    return fail(absl::StrCat("it copies to space ", c.to_space, ", but ", r.name, " is in space ",
                             r.space));
  }
  if (ctx.plan.placements[b].pool.str() == r.name) {
    return fail(absl::StrCat("the value is homed in ", r.name, " itself"));
  }
  const std::string device = info.affinity.empty() ? "host" : info.affinity;
  if (!r.devices.empty() &&
      std::none_of(r.devices.begin(), r.devices.end(),
                   [&](const std::string& d) { return d == "*" || d == device; })) {
    return fail(absl::StrCat("it copies into ", r.name, " in the ", SpaceName(r.space),
                             " space, which ", device, " may not access"));
  }
  if (Bytes end = 0; c.offset_bytes < 0 || !CheckedAdd(c.offset_bytes, c.bytes, end) ||
                     end > r.size_bytes) {
    return fail(absl::StrCat(ByteRange(c.offset_bytes, c.offset_bytes + c.bytes),
                             " lies outside ", r.name, "'s ", ByteRange(0, r.size_bytes)));
  }
  if (c.offset_bytes % std::max<Bytes>(1, ctx.regions.options.offset_alignment) != 0) {
    return fail(absl::StrCat("offset ", c.offset_bytes, " is not a multiple of the offset alignment ",
                             ctx.regions.options.offset_alignment));
  }
  if (c.start < r.start || c.end > r.end || c.start > c.end) {
    return fail(absl::StrCat("its steps [", c.start, ", ", c.end, "] do not lie in ", r.name,
                             "'s [", r.start, ", ", r.end, "]"));
  }
  // No other live slice or copy of the slab shares its bytes while it lives.
  const Bytes lo = c.offset_bytes, hi = c.offset_bytes + c.bytes;
  for (const Slice& s : r.slices) {
    if (s.end < c.start || s.start > c.end) continue;
    if (s.offset_bytes < hi && lo < s.offset_bytes + s.size_bytes) {
      return fail(absl::StrCat("its bytes ", r.name, " ", ByteRange(lo, hi), " over steps [",
                               c.start, ", ", c.end, "] overlap ",
                               ctx.buffers.buffers[s.buffer].name.str(), " at ",
                               ByteRange(s.offset_bytes, s.offset_bytes + s.size_bytes),
                               ", live over [", s.start, ", ", s.end, "]"));
    }
  }
  for (const RegionInfo& other_region : ctx.regions.regions) {
    for (const RegionCopy& o : other_region.copies) {
      if (&o == &c || o.resource != c.resource || o.end < c.start || o.start > c.end) continue;
      if (o.offset_bytes < hi && lo < o.offset_bytes + o.bytes) {
        return fail(absl::StrCat("its bytes ", r.name, " ", ByteRange(lo, hi), " overlap the copy of ",
                                 ValueRef(ctx.program, o.value), " at ",
                                 ByteRange(o.offset_bytes, o.offset_bytes + o.bytes),
                                 " while both live"));
      }
    }
  }
  // The copy command: in the region's execute step, reading the value's
  // home range and writing the fast range; every other use of the fast range
  // is a read after it, within the copy's steps.
  std::size_t found = 0;
  bool copied = false;
  for (std::size_t i = 0; i < ctx.regions.steps.size(); ++i) {
    const HostStep& step = ctx.regions.steps[i];
    const bool own = step.kind == HostStepKind::kExecute &&
                     step.region == static_cast<std::int32_t>(region);
    for (std::size_t j = 0; j < step.commands.size(); ++j) {
      const Command& command = step.commands[j];
      const auto is_write = [&](const CommandRange& range) {
        return range.resource == c.resource && range.value == c.value &&
               range.access == Access::kWrite && range.offset_bytes == c.offset_bytes &&
               range.length_bytes == c.bytes;
      };
      const bool is_copy = own && command.kind == CommandKind::kCopy && command.ranges.size() == 2 &&
                           is_write(command.ranges[1]);
      if (is_copy) {
        const CommandRange& from = command.ranges[0];
        if (from.access != Access::kRead || from.value != c.value || from.length_bytes != c.bytes ||
            from.resource < 0 || from.resource >= resources ||
            ctx.regions.resources[from.resource].name != ctx.plan.placements[b].pool.str()) {
          return CommandViolation(ctx, i, j, 6, absl::StrCat(
              StepRef(ctx, i), ": ", CommandRef(ctx.program, command), " copies ",
              ValueRef(ctx.program, c.value), " but does not read all of its home range in pool '",
              ctx.plan.placements[b].pool.str(), "' (", RangeRef(ctx, from), ")"));
        }
        if (command.time != c.start) {
          return CommandViolation(ctx, i, j, 6, absl::StrCat(
              StepRef(ctx, i), ": ", CommandRef(ctx.program, command), " runs at step ",
              command.time, ", not at the copy's step ", c.start));
        }
        if (copied) {
          return CommandViolation(ctx, i, j, 6, absl::StrCat(StepRef(ctx, i), ": ",
              ValueRef(ctx.program, c.value), " is copied into ", r.name, " twice"));
        }
        ++found;
        copied = true;
        continue;
      }
      for (const CommandRange& range : command.ranges) {
        if (range.resource != c.resource || range.value != c.value) continue;
        if (range.offset_bytes >= hi || range.offset_bytes + range.length_bytes <= lo) continue;
        std::string why;
        if (!own) {
          why = absl::StrCat("outside the execute of @", info.name);
        } else if (!copied) {
          why = "before the copy command";
        } else if (range.access != Access::kRead) {
          why = "writing it (the fast copy is read only)";
        } else if (command.time < c.start || command.time > c.end) {
          why = absl::StrCat("at step ", command.time, ", after the copy's last read step ", c.end);
        }
        if (!why.empty()) {
          return CommandViolation(ctx, i, j, 6, absl::StrCat(
              StepRef(ctx, i), ": ", CommandRef(ctx.program, command), " uses the fast copy of ",
              ValueRef(ctx.program, c.value), " (", RangeRef(ctx, range), ") ", why));
        }
      }
    }
  }
  if (found == 0) {
    return fail(absl::StrCat("no copy command of the region writes it into ", r.name, " ",
                             ByteRange(lo, hi)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCopies(const RegionContext& ctx) {
  for (std::size_t r = 0; r < ctx.regions.regions.size(); ++r) {
    for (std::size_t i = 0; i < ctx.regions.regions[r].copies.size(); ++i) {
      if (absl::Status s = CheckCopy(ctx, r, i); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::region_verify
