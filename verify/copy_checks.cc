// Rules 4 and 5 of verify/verifier.h: async copies and outstanding limits.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// A buffer's segments sorted by (space, start), to find the segment of a space
// that holds a time step. Segments of one space are disjoint in time (rule 2).
class SegmentIndex {
 public:
  explicit SegmentIndex(const AllocationList& segs) : segs_(segs) {
    for (std::size_t k = 0; k < segs.size(); ++k) {
      sorted_.push_back({segs[k].space, segs[k].start, k});
    }
    std::sort(sorted_.begin(), sorted_.end());
  }

  // Index of the segment in `space` whose time range contains `t`.
  std::optional<std::size_t> Holding(MemorySpace space, TimeStep t) const {
    auto it = std::upper_bound(sorted_.begin(), sorted_.end(),
                               Entry{space, t, static_cast<std::size_t>(-1)});
    if (it == sorted_.begin()) return std::nullopt;
    --it;
    if (it->space != space || segs_[it->index].end < t) return std::nullopt;
    return it->index;
  }

 private:
  struct Entry {
    MemorySpace space;
    TimeStep start;
    std::size_t index;
    bool operator<(const Entry& o) const {
      return std::tie(space, start, index) < std::tie(o.space, o.start, o.index);
    }
  };
  const AllocationList& segs_;
  std::vector<Entry> sorted_;
};

// The SegmentIndex of each buffer a copy names, built when first asked for:
// a plan without copies builds none (one per buffer would cost more than
// the plan at 10^7 buffers).
class SegmentIndexes {
 public:
  explicit SegmentIndexes(const Plan& plan) : plan_(plan) {}
  const SegmentIndex& operator[](BufferId id) {
    auto it = built_.find(id);
    if (it == built_.end()) {
      it = built_.emplace(id, SegmentIndex(plan_.placements[id].allocations)).first;
    }
    return it->second;
  }

 private:
  const Plan& plan_;
  std::map<BufferId, SegmentIndex> built_;
};

// True if `b` holds a parameter of `program`'s entry computation: its data
// is in default memory before the first op runs.
bool HoldsEntryParameter(const Program* program, const Buffer& b) {
  if (program == nullptr || program->entry == kNoId) return false;
  const auto count = static_cast<ValueId>(program->values.size());
  return std::any_of(b.values.begin(), b.values.end(), [&](ValueId v) {
    return v >= 0 && v < count && program->values[v].defining_op == kNoId &&
           program->values[v].computation == program->entry;
  });
}

absl::Status CheckCopy(const BufferSet& buffers, const Plan& plan, const HomeSpaces& homes,
                       const Program* program, SegmentIndexes& index, std::size_t i,
                       std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener) {
  const AsyncCopy& c = plan.copies[i];
  const auto count = static_cast<BufferId>(buffers.buffers.size());
  if (c.buffer < 0 || c.buffer >= count) {
    return Violation(absl::StrCat("copy ", i, " names buffer id ", c.buffer, " but the input has ",
                                  CountOf(count, "buffer")));
  }
  const Buffer& b = buffers.buffers[c.buffer];
  const std::string ref = CopyRef(buffers, plan, i);
  const MemorySpace home = homes(c.buffer);
  const std::string home_name =
      home == kDefaultSpace ? absl::StrCat("the default space ", kDefaultSpace)
                            : absl::StrCat("its home space ", home);
  if (c.kind == CopyKind::kPrefetch && (c.from_space != home || c.to_space == home)) {
    return Violation(absl::StrCat(ref, " must go from ", home_name, " to another space"));
  }
  if (c.kind == CopyKind::kEviction && (c.from_space == home || c.to_space != home)) {
    return Violation(absl::StrCat(ref, " must go from another space to ", home_name));
  }
  if (c.start > c.done) return Violation(ref + " is done before it starts");
  // A prefetch may be issued before the first op (start -1) when its data
  // exists then: the buffer holds an entry parameter (known from the program
  // only) and is live from step 0.
  if (c.start == -1 && c.kind == CopyKind::kPrefetch && b.start == 0 &&
      !HoldsEntryParameter(program, b)) {
    return Violation(absl::StrCat(ref, " is issued before the first op (start -1), but the buffer",
                                  program == nullptr ? " is not known (no program) to hold"
                                                     : " holds no",
                                  " entry parameter, whose data alone exists before the run"));
  }
  const bool before_first_op = c.start == -1 && c.kind == CopyKind::kPrefetch && b.start == 0;
  if ((c.start < b.start && !before_first_op) || c.done > LastHeldStep(buffers, b)) {
    return Violation(absl::StrCat(ref, " lies outside the buffer's live range [", b.start, ", ",
                                  b.end, "]"));
  }
  // A copy-done is placed before the ops of its step and a copy-start after
  // them (msa/rewrite.h), so a copy done at its start step would complete
  // before it is issued. The exception is the cross-program prefetch: its
  // copy overlaps the previous run, and it is listed as done at the buffer's
  // start.
  if (c.start == c.done && (c.kind != CopyKind::kPrefetch || c.start != b.start)) {
    return Violation(absl::StrCat(ref, " is done at time ", c.done,
                                  ", the step it starts at: a copy-done must come after its "
                                  "copy-start (only a cross-program prefetch, at the buffer's "
                                  "start ",
                                  b.start, ", may be done when it starts)"));
  }
  // A slice moves part of the buffer; CheckSlicedPrefetches checks its group.
  const bool slice = c.slice_count > 1;
  if (!slice && c.bytes != b.size) {
    return Violation(absl::StrCat(ref, " moves ", CountOf(c.bytes, "byte"), " but the buffer has ",
                                  b.size));
  }
  const SegmentIndex& segs = index[c.buffer];
  const AllocationList& allocs = plan.placements[c.buffer].allocations;
  // The copy reads its source until it completes, before the ops of step
  // done: the source must stay through done - 1 (through start when the
  // copy is done at its start, the cross-program prefetch).
  const TimeStep read_until = std::max(OpenedAt(c), c.done - 1);
  std::optional<std::size_t> source = segs.Holding(c.from_space, OpenedAt(c));
  if (!source || allocs[*source].end < read_until) {
    return Violation(absl::StrCat(ref, " needs the buffer resident in space ", c.from_space,
                                  " throughout [", OpenedAt(c), ", ", read_until, "]"));
  }
  if (slice) return absl::OkStatus();
  std::optional<std::size_t> dest = segs.Holding(c.to_space, OpenedAt(c));
  // An eviction may also refresh a default-space segment that is already
  // reserved (the data was rewritten in place in the other space).
  const bool refreshes = c.kind == CopyKind::kEviction && dest && allocs[*dest].start < c.start;
  if (!dest || (allocs[*dest].start != OpenedAt(c) && !refreshes) || allocs[*dest].end < c.done) {
    return Violation(absl::StrCat(ref, " opens no allocation in space ", c.to_space,
                                  " that starts at time ", OpenedAt(c),
                                  c.kind == CopyKind::kEviction ? " (or covers it)" : "",
                                  " and lasts until time ", c.done));
  }
  if (refreshes) return absl::OkStatus();
  auto [it, inserted] = opener.emplace(std::make_pair(c.buffer, *dest), i);
  if (!inserted) {
    return Violation(absl::StrCat(ref, " opens ", SegmentRef(buffers, plan, c.buffer, *dest),
                                  ", which copy ", it->second, " already opens"));
  }
  return absl::OkStatus();
}

// A copy reads its source segment no earlier than that segment holds the
// data: when a copy opens the source, the reading copy starts at or after its
// done. Needed since an eviction may refresh a default segment: without it an
// eviction could write back a prefetched segment that is still filling.
absl::Status CheckSourcesFilled(
    const BufferSet& buffers, const Plan& plan, SegmentIndexes& index,
    const std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener) {
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    const std::size_t source = *index[c.buffer].Holding(c.from_space, OpenedAt(c));
    auto it = opener.find({c.buffer, source});
    if (it == opener.end() || c.start >= plan.copies[it->second].done) continue;
    return Violation(absl::StrCat(CopyRef(buffers, plan, i), " starts at time ", c.start,
                                  " but its source ", SegmentRef(buffers, plan, c.buffer, source),
                                  " holds the data only when copy ", it->second, " is done at time ",
                                  plan.copies[it->second].done));
  }
  return absl::OkStatus();
}

// Every segment that begins after its buffer's start is opened by a copy; a
// use inside a prefetched segment waits for the prefetch.
absl::Status CheckSegmentsOpened(
    const BufferSet& buffers, const Plan& plan, const HomeSpaces& homes,
    const std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener) {
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    const AllocationList& segs = plan.placements[id].allocations;
    for (std::size_t k = 0; k < segs.size(); ++k) {
      auto it = opener.find({id, k});
      if (it == opener.end()) {
        if (segs[k].start > b.start) {
          return Violation(absl::StrCat(SegmentRef(buffers, plan, id, k),
                                        " begins after the buffer's start ", b.start,
                                        " but no copy brings the data into it"));
        }
        continue;
      }
      const AsyncCopy& c = plan.copies[it->second];
      if (segs[k].space == homes(id)) continue;
      auto use = std::lower_bound(b.use_times().begin(), b.use_times().end(), segs[k].start);
      if (use != b.use_times().end() && *use <= segs[k].end && *use < c.done) {
        return Violation(absl::StrCat(BufferRef(buffers, id), " is used at time ", *use, " in ",
                                      SegmentRef(buffers, plan, id, k), " before copy ",
                                      it->second, " is done at time ", c.done));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutstanding(const Plan& plan, CopyKind kind,
                              std::optional<std::int64_t> limit) {
  if (!limit) return absl::OkStatus();
  // (time, phase, copy): phase 0 = copy starts, 1 = copy done (after the step).
  std::vector<std::tuple<TimeStep, int, std::size_t>> events;
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    if (plan.copies[i].kind != kind) continue;
    events.emplace_back(plan.copies[i].start, 0, i);
    events.emplace_back(plan.copies[i].done, 1, i);
  }
  std::sort(events.begin(), events.end());
  std::set<std::size_t> outstanding;
  for (const auto& [time, phase, i] : events) {
    if (phase == 1) {
      outstanding.erase(i);
      continue;
    }
    outstanding.insert(i);
    if (static_cast<std::int64_t>(outstanding.size()) > *limit) {
      return Violation(absl::StrCat(kind == CopyKind::kPrefetch
                                        ? CountOf(outstanding.size(), "prefetch", "prefetches")
                                        : CountOf(outstanding.size(), "eviction"),
                                    outstanding.size() == 1 ? " is" : " are",
                                    " outstanding at time ", time, ", above the limit ",
                                    *limit, ": copies ", absl::StrJoin(outstanding, ", ")));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCopies(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options) {
  SegmentIndexes index(plan);
  std::map<std::pair<BufferId, std::size_t>, std::size_t> opener;  // segment -> copy
  const HomeSpaces homes(buffers, plan);
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    if (absl::Status s = CheckCopy(buffers, plan, homes, options.program, index, i, opener);
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = CheckSlicedPrefetches(buffers, plan, opener); !s.ok()) return s;
  if (absl::Status s = CheckBlockPrefetches(buffers, plan, opener); !s.ok()) return s;
  if (absl::Status s = CheckSourcesFilled(buffers, plan, index, opener); !s.ok()) return s;
  if (absl::Status s = CheckSegmentsOpened(buffers, plan, homes, opener); !s.ok()) return s;
  if (absl::Status s = CheckOutstanding(plan, CopyKind::kPrefetch,
                                        options.max_outstanding_prefetches);
      !s.ok()) {
    return s;
  }
  return CheckOutstanding(plan, CopyKind::kEviction, options.max_outstanding_evictions);
}

}  // namespace memplan::verify_internal
