// Rule 16 (verify/verifier.h): window prefetches (Plan::window_prefetches,
// msa/window_prefetch.h), each checked on its own and its reserved chunk
// against every other chunk of its space.
#include <algorithm>
#include <cstddef>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/checks.h"
#include "verify/describe.h"
#include "verify/program_liveness.h"

namespace memplan::verify_internal {
namespace {

bool Overlap(Bytes a, Bytes a_bytes, TimeStep a_start, TimeStep a_end, Bytes b, Bytes b_bytes,
             TimeStep b_start, TimeStep b_end) {
  return a < b + b_bytes && b < a + a_bytes && a_start <= b_end && b_start <= a_end;
}

std::string WindowRef(const BufferSet& buffers, const WindowPrefetch& w, std::size_t index) {
  return absl::StrCat("window prefetch ", index, " (", BufferRef(buffers, w.buffer), " for op ",
                      w.op, ", bytes [", w.offset, ", ", w.offset + w.bytes, ") of space ", w.space,
                      " during [", std::max<TimeStep>(w.start, 0), ", ", w.done, "])");
}

// The window alone: its space, bytes, times, source and op.
absl::Status CheckOne(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options,
                      const ProgramSteps* steps, const WindowPrefetch& w, std::size_t index) {
  const std::string ref = WindowRef(buffers, w, index);
  if (w.buffer < 0 || static_cast<std::size_t>(w.buffer) >= buffers.buffers.size()) {
    return Violation(absl::StrCat("window prefetch ", index, " names buffer ", w.buffer,
                                  ", which does not exist"));
  }
  const Buffer& b = buffers.buffers[static_cast<std::size_t>(w.buffer)];
  const SpaceInfo* space = nullptr;
  for (const SpaceInfo& s : plan.spaces) {
    if (s.id == w.space) space = &s;
  }
  if (w.space == kDefaultSpace || space == nullptr) {
    return Violation(absl::StrCat(ref, ": a window lies in a declared space other than the "
                                  "default space"), w.buffer);
  }
  if (w.bytes <= 0 || w.bytes > b.size) {
    return Violation(absl::StrCat(ref, " moves ", CountOf(w.bytes, "byte"), " of a buffer of ",
                                  b.size, ": a window is 1 to size bytes"), w.buffer);
  }
  const Bytes alignment = std::max<Bytes>({1, space->alignment, plan.alignment, options.alignment});
  std::optional<Bytes> capacity = space->capacity;
  if (auto it = options.capacity.find(w.space); it != options.capacity.end()) capacity = it->second;
  if (w.offset < 0 || w.offset % alignment != 0 || (capacity && w.offset + w.bytes > *capacity)) {
    return Violation(absl::StrCat(ref, " is not inside the space: its offset must be >= 0 and a "
                                  "multiple of ", alignment, capacity ? absl::StrCat(
                                      ", and it must end by byte ", *capacity) : std::string()),
                     w.buffer);
  }
  if (w.start < 0 || w.start >= w.done || w.start < b.start || w.done > b.end) {
    return Violation(absl::StrCat(ref, ": its copy runs from time ", w.start, " to ", w.done,
                                  "; a window copy starts at or after the buffer's start (",
                                  b.start, ") and is done at a later step, within its live range "
                                  "(to ", b.end, ")"), w.buffer);
  }
  // The source: the buffer's default segment holds the data while it copies.
  const AllocationList& segs = plan.placements[static_cast<std::size_t>(w.buffer)].allocations;
  const bool source = std::any_of(segs.begin(), segs.end(), [&](const Allocation& a) {
    return a.space == kDefaultSpace && a.start <= w.start && w.done - 1 <= a.end;
  });
  if (!source) {
    return Violation(absl::StrCat(ref, ": no segment of the buffer in the default space covers [",
                                  w.start, ", ", w.done - 1, "], the copy's source"), w.buffer);
  }
  if (steps == nullptr) return absl::OkStatus();
  const Program& program = *options.program;
  if (w.op < 0 || static_cast<std::size_t>(w.op) >= program.ops.size()) {
    return Violation(absl::StrCat(ref, " names an op the program does not have"), w.buffer);
  }
  const Op& op = program.ops[static_cast<std::size_t>(w.op)];
  if (w.operand < 0 || static_cast<std::size_t>(w.operand) >= op.operands.size() ||
      std::find(b.values.begin(), b.values.end(), op.operands[static_cast<std::size_t>(w.operand)]) ==
          b.values.end()) {
    return Violation(absl::StrCat(ref, ": operand ", w.operand, " of op ", w.op,
                                  " is not a value of the buffer"), w.buffer);
  }
  const TimeStep at = steps->op[static_cast<std::size_t>(w.op)];
  if (at != w.done) {
    return Violation(absl::StrCat(ref, " is done at time ", w.done, " but op ", w.op,
                                  " runs at time ", at, ": a window copy is done right before "
                                  "its op"), w.buffer);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckWindowPrefetches(const BufferSet& buffers, const Plan& plan,
                                   const VerifyOptions& options) {
  if (plan.window_prefetches.empty()) return absl::OkStatus();
  std::optional<ProgramSteps> steps;
  if (options.program) steps = NumberProgram(*options.program);
  for (std::size_t i = 0; i < plan.window_prefetches.size(); ++i) {
    if (absl::Status s = CheckOne(buffers, plan, options, steps ? &*steps : nullptr,
                                  plan.window_prefetches[i], i);
        !s.ok()) {
      return s;
    }
  }
  // Each reserved chunk against every segment, slice reservation and other
  // window of its space.
  for (std::size_t i = 0; i < plan.window_prefetches.size(); ++i) {
    const WindowPrefetch& w = plan.window_prefetches[i];
    const TimeStep from = std::max<TimeStep>(w.start, 0);
    for (BufferId id = 0; id < static_cast<BufferId>(plan.placements.size()); ++id) {
      const AllocationList& segs = plan.placements[static_cast<std::size_t>(id)].allocations;
      const Bytes size = buffers.buffers[static_cast<std::size_t>(id)].size;
      for (std::size_t k = 0; k < segs.size(); ++k) {
        const Allocation& a = segs[k];
        if (a.space == w.space && Overlap(w.offset, w.bytes, from, w.done, a.offset, size, a.start, a.end)) {
          return Violation(absl::StrCat(WindowRef(buffers, w, i), " meets ",
                                        SegmentRef(buffers, plan, id, k)), w.buffer);
        }
      }
    }
    for (std::size_t c = 0; c < plan.copies.size(); ++c) {
      const AsyncCopy& x = plan.copies[c];
      if (x.slice_count <= 1 || x.to_space != w.space) continue;
      // The slice's chunk before its segment begins (verify/slice_checks.cc).
      for (const Allocation& a : plan.placements[static_cast<std::size_t>(x.buffer)].allocations) {
        if (a.space != x.to_space || a.start > x.done || x.done > a.end || OpenedAt(x) >= a.start) {
          continue;
        }
        if (Overlap(w.offset, w.bytes, from, w.done, a.offset + x.slice_offset, x.bytes, OpenedAt(x),
                    a.start - 1)) {
          return Violation(absl::StrCat(WindowRef(buffers, w, i), " meets the bytes ",
                                        CopyRef(buffers, plan, c), " fills"), w.buffer);
        }
      }
    }
    for (std::size_t j = i + 1; j < plan.window_prefetches.size(); ++j) {
      const WindowPrefetch& v = plan.window_prefetches[j];
      if (v.space == w.space &&
          Overlap(w.offset, w.bytes, from, w.done, v.offset, v.bytes, std::max<TimeStep>(v.start, 0), v.done)) {
        return Violation(absl::StrCat(WindowRef(buffers, w, i), " and ", WindowRef(buffers, v, j),
                                      " hold the same bytes at one time"), w.buffer);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
