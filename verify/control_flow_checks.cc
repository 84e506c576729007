// Rule 9 of verify/verifier.h: residency and copies respect while loops and
// conditionals.
//
// The parts of all regions (a loop's condition and body, a conditional's
// branches) nest or are disjoint, so every time step has an innermost part
// and each part an innermost enclosing one: a segment or copy is judged by
// comparing the chains of parts around its two ends, O(nesting depth) each.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

struct Part {
  TimeStep first = 0;
  TimeStep last = 0;
  std::size_t region = 0;
  std::size_t index = 0;     // within the region's parts
  std::int64_t parent = -1;  // innermost enclosing part
};

class PartTree {
 public:
  PartTree(const BufferSet& buffers) : buffers_(buffers) {
    for (std::size_t r = 0; r < buffers.control_regions.size(); ++r) {
      const std::vector<RegionPart>& parts = buffers.control_regions[r].parts;
      for (std::size_t k = 0; k < parts.size(); ++k) {
        parts_.push_back(Part{parts[k].first, parts[k].last, r, k, -1});
      }
    }
    std::sort(parts_.begin(), parts_.end(), [](const Part& a, const Part& b) {
      return std::make_tuple(a.first, -a.last, a.region) < std::make_tuple(b.first, -b.last, b.region);
    });
  }

  // Checks that parts lie in [0, time_steps) and nest; fills the step index.
  absl::Status Build() {
    std::vector<std::int64_t> open;
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      const Part& part = parts_[p];
      if (part.first < 0 || part.first > part.last || part.last >= buffers_.time_steps) {
        return Violation(absl::StrCat(Name(p), " spans [", part.first, ", ", part.last,
                                      "], outside [0, ", buffers_.time_steps, ")"));
      }
      while (!open.empty() && parts_[open.back()].last < part.first) open.pop_back();
      if (!open.empty() && parts_[open.back()].last < part.last) {
        return Violation(absl::StrCat(Name(p), " overlaps ", Name(open.back()), " without nesting"));
      }
      parts_[p].parent = open.empty() ? -1 : open.back();
      open.push_back(static_cast<std::int64_t>(p));
    }
    innermost_.assign(static_cast<std::size_t>(std::max<TimeStep>(buffers_.time_steps, 0)), -1);
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      for (TimeStep t = parts_[p].first; t <= parts_[p].last; ++t) innermost_[t] = static_cast<std::int64_t>(p);
    }
    return absl::OkStatus();
  }

  // The parts holding step t, innermost first.
  std::vector<std::int64_t> Chain(TimeStep t) const {
    std::vector<std::int64_t> chain;
    if (t < 0 || t >= static_cast<TimeStep>(innermost_.size())) return chain;
    for (std::int64_t p = innermost_[t]; p >= 0; p = parts_[p].parent) chain.push_back(p);
    return chain;
  }

  // A part that holds exactly one of the segment's ends and is not the last
  // part of a region the segment covers from before it, or -1. A segment
  // may leave the innermost part holding its start when that part is a
  // loop's body (an exit segment): `exit` is then set to that part.
  // A segment that begins at its buffer's start holds data produced there:
  // it may begin inside a branch (a conditional's result, produced by every
  // branch into one place) or at a region's first step (the buffer exists
  // before it, e.g. a parameter).
  std::int64_t SplitBySegment(TimeStep start, TimeStep end, bool origin, std::int64_t& exit) const {
    exit = -1;
    const std::vector<std::int64_t> at_start = Chain(start);
    const std::vector<std::int64_t> at_end = Chain(end);
    for (std::size_t k = 0; k < at_start.size(); ++k) {
      const std::int64_t p = at_start[k];
      if (std::find(at_end.begin(), at_end.end(), p) != at_end.end()) continue;
      if (origin && (!IsLoop(p) || start == Before(p).first)) continue;
      if (k == 0 && !origin && IsLoop(p) && IsLastPart(p)) {
        exit = p;
        continue;
      }
      return p;
    }
    for (std::int64_t p : at_end) {
      if (std::find(at_start.begin(), at_start.end(), p) != at_start.end()) continue;
      const ControlRegion& region = buffers_.control_regions[parts_[p].region];
      if (!(IsLastPart(p) && end == parts_[p].last && start < region.parts.front().first)) return p;
    }
    return -1;
  }

  // A part that holds exactly one of a copy's start and done, or -1.
  std::int64_t SplitByCopy(TimeStep start, TimeStep done) const {
    const std::vector<std::int64_t> a = Chain(start);
    const std::vector<std::int64_t> b = Chain(done);
    if (a == b) return -1;
    for (std::int64_t p : a) {
      if (std::find(b.begin(), b.end(), p) == b.end()) return p;
    }
    for (std::int64_t p : b) {
      if (std::find(a.begin(), a.end(), p) == a.end()) return p;
    }
    return -1;
  }

  std::string Name(std::size_t p) const {
    const Part& part = parts_[p];
    const ControlRegion& region = buffers_.control_regions[part.region];
    return absl::StrCat("the ", region.parts[part.index].name, " of ", region.name, " [",
                        part.first, ", ", part.last, "]");
  }

  bool IsLastPart(std::size_t p) const {
    return parts_[p].index + 1 == buffers_.control_regions[parts_[p].region].parts.size();
  }

  // The steps of p's region before p: [first, last], empty if first > last.
  std::pair<TimeStep, TimeStep> Before(std::size_t p) const {
    const ControlRegion& region = buffers_.control_regions[parts_[p].region];
    return {region.parts.front().first, parts_[p].first - 1};
  }

  bool IsLoop(std::size_t p) const {
    return buffers_.control_regions[parts_[p].region].kind == ControlRegion::Kind::kLoop;
  }

  bool empty() const { return parts_.empty(); }

 private:
  const BufferSet& buffers_;
  std::vector<Part> parts_;
  std::vector<std::int64_t> innermost_;  // per step
};

std::string Why(const PartTree& tree, std::size_t p) {
  return tree.IsLoop(p)
             ? "a loop repeats it, so data must be in the same place at the start and end of "
               "every iteration as before and after the loop"
             : "only one branch runs, so data must be in the same place at the start and end of "
               "every branch as before and after the conditional";
}

// An exit segment (k of buffer id) leaves loop body `part`: after the last
// iteration the loop's condition still runs, so no other segment of its
// space may touch its bytes during the condition.
absl::Status CheckExitHeld(const BufferSet& buffers, const Plan& plan, const PartTree& tree,
                           BufferId id, std::size_t k, std::size_t part) {
  const auto [first, last] = tree.Before(part);
  if (first > last) return absl::OkStatus();
  const Allocation& seg = plan.placements[id].allocations[k];
  const Bytes size = buffers.buffers[id].size;
  for (BufferId other = 0; other < static_cast<BufferId>(plan.placements.size()); ++other) {
    const Bytes other_size = buffers.buffers[other].size;
    const AllocationList& segs = plan.placements[other].allocations;
    for (std::size_t j = 0; j < segs.size(); ++j) {
      const Allocation& o = segs[j];
      if ((other == id && j == k) || o.space != seg.space || size == 0 || other_size == 0) continue;
      if (o.end < first || o.start > last) continue;
      if (o.offset < seg.offset + size && seg.offset < o.offset + other_size) {
        return Violation(absl::StrCat(
            SegmentRef(buffers, plan, id, k), " leaves ", tree.Name(part),
            " with data the loop's last iteration left in it, but ", SegmentRef(buffers, plan, other, j),
            " uses those bytes during [", first, ", ", last,
            "], which runs again after that iteration"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckControlFlow(const BufferSet& buffers, const Plan& plan) {
  PartTree tree(buffers);
  if (tree.empty()) return absl::OkStatus();
  if (absl::Status s = tree.Build(); !s.ok()) return s;
  for (BufferId id = 0; id < static_cast<BufferId>(plan.placements.size()); ++id) {
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      std::int64_t exit = -1;
      const bool origin = segs[k].start == buffers.buffers[id].start;
      const std::int64_t p = tree.SplitBySegment(segs[k].start, segs[k].end, origin, exit);
      if (p < 0 && exit >= 0) {
        if (absl::Status s = CheckExitHeld(buffers, plan, tree, id, k, static_cast<std::size_t>(exit));
            !s.ok()) {
          return s;
        }
      }
      if (p < 0) continue;
      return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k),
                                    " neither stays inside nor covers the whole of ",
                                    tree.Name(static_cast<std::size_t>(p)), ": ",
                                    Why(tree, static_cast<std::size_t>(p))));
    }
  }
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    const std::int64_t p = tree.SplitByCopy(c.start, c.done);
    if (p < 0) continue;
    return Violation(absl::StrCat(CopyRef(buffers, plan, i),
                                  " starts and is done on different sides of the bounds of ",
                                  tree.Name(static_cast<std::size_t>(p)), ": ",
                                  Why(tree, static_cast<std::size_t>(p))));
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
