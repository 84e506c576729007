// The verifier's rule groups (see verify/verifier.h for the rules). Each
// check assumes the groups before it passed: e.g. the overlap sweep relies on
// segments being well-formed and one buffer's segments being disjoint in time
// within a space.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <span>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/home_spaces.h"
#include "ir/plan.h"
#include "verify/verifier.h"

namespace memplan::verify_internal {

// The last time step a segment or copy of `b` may reach: the end of its live
// range, or the last step of the run for storage that outlives the run
// (external, constant and variable lifetimes: the caller keeps it between
// runs, so e.g. an end-of-program prefetch may refill it for the next run).
inline TimeStep LastHeldStep(const BufferSet& buffers, const Buffer& b) {
  const bool outlives_run = b.lifetime == Lifetime::kExternal ||
                            b.lifetime == Lifetime::kConstant || b.lifetime == Lifetime::kVariable;
  return outlives_run ? std::max(b.end, buffers.time_steps - 1) : b.end;
}

// A buffer's home space in the plan (ir/home_spaces.h).
using HomeSpaces = PlanHomeSpaces;

// The step from which a copy's destination segment is reserved: its start,
// or step 0 for a prefetch issued before the first op (start -1).
inline TimeStep OpenedAt(const AsyncCopy& c) { return std::max<TimeStep>(c.start, 0); }

// Rules 1 and 2: plan shape, each segment, coverage of live ranges.
absl::Status CheckShapeAndSegments(const BufferSet& buffers, const Plan& plan,
                                   const VerifyOptions& options);

// The steps at which each buffer holds no data, so its segments take no
// bytes then: those the program's liveness gives (program_liveness.h), those
// the input states (a lifetime CSV's gaps, Buffer::gaps, read in place), or
// none.
class BufferDeadSteps {
 public:
  BufferDeadSteps() = default;  // no dead steps
  // Per buffer, possibly shorter (no dead steps for the others).
  static BufferDeadSteps FromProgram(std::vector<std::vector<StepRange>> dead) {
    BufferDeadSteps d;
    d.program_ = std::move(dead);
    return d;
  }
  static BufferDeadSteps FromInput(const BufferSet& buffers) {
    BufferDeadSteps d;
    d.input_ = &buffers;
    return d;
  }
  // Sorted and disjoint.
  std::span<const StepRange> Of(BufferId id) const {
    const auto i = static_cast<std::size_t>(id);
    if (input_ != nullptr) return i < input_->buffers.size() ? input_->buffers[i].gaps() : Span();
    return i < program_.size() ? std::span<const StepRange>(program_[i]) : Span();
  }

 private:
  static std::span<const StepRange> Span() { return {}; }
  std::vector<std::vector<StepRange>> program_;
  const BufferSet* input_ = nullptr;
};

// Rule 13: each sub-allocation (Buffer::inside) lies inside its container's
// bytes and live steps (verify/sub_allocation_checks.cc). `dead` and
// `input_windows` as for CheckNoOverlap: the container must hold all of its
// bytes at every step of the sub-allocation's segments.
absl::Status CheckSubAllocations(const BufferSet& buffers, const Plan& plan,
                                 const BufferDeadSteps& dead, bool input_windows);

// Rule 3: no two live segments of one space share a byte. A buffer's
// segments take no bytes at its `dead` steps. With `input_windows`, a
// buffer takes only its windows' bytes during their steps (Buffer::windows,
// stated by a lifetime CSV).
absl::Status CheckNoOverlap(const BufferSet& buffers, const Plan& plan,
                            const BufferDeadSteps& dead, bool input_windows);

// Rule 4 for the slices of sliced prefetches (verify/slice_checks.cc):
// checks them as groups and records in `opener` (segment -> copy) the
// segment each group opens, by its last slice. O(slices x segments).
absl::Status CheckSlicedPrefetches(const BufferSet& buffers, const Plan& plan,
                                   std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener);

// Rule 16: window prefetches (verify/window_checks.cc). O(windows x
// (segments + slices + windows)), plus numbering the program once.
absl::Status CheckWindowPrefetches(const BufferSet& buffers, const Plan& plan,
                                   const VerifyOptions& options);
// Rule 4 for block prefetches (verify/block_checks.cc): the block in
// plan.msa lies in the alternate space; each copy with AsyncCopy::block is
// a whole-buffer prefetch into alternate memory whose segment (found in
// `opener`, segment -> copy) lies in the block; their segments share no
// byte at a common step; in order of done their starts do not decrease
// (FIFO); no other alternate segment touches the block's bytes; block
// copies without a block are refused. O(block copies^2 + segments).
absl::Status CheckBlockPrefetches(
    const BufferSet& buffers, const Plan& plan,
    const std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener);

// Rules 4 and 5: async copies and outstanding-copy limits.
absl::Status CheckCopies(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options);

// Rules 6 and 7: pools, space peaks, plan peak and lower bound, MSA counts.
absl::Status CheckSummaries(const BufferSet& buffers, const Plan& plan,
                            const VerifyOptions& options);

// Rule 8: one segment per buffer holds the data from its start without a copy.
absl::Status CheckSingleOrigin(const BufferSet& buffers, const Plan& plan);

// Rule 10: data written in another space than the default one goes back to
// the default space when it must (program_liveness.h gives the writes).
// Rule 15 (verify/hierarchy_checks.cc); `program` may be null.
absl::Status CheckHierarchy(const BufferSet& buffers, const Plan& plan,
                            const HierarchyRules& rules, const Program* program);

absl::Status CheckWritesEvicted(const BufferSet& buffers, const Plan& plan, const Program& program);

// Rule 15, staged copies (verify/staging_checks.cc): with `rules` null (no
// hierarchy) a staged copy is refused; otherwise each chunk lies in a level
// of `rules`, at an offset aligned to its space's and the plan's alignment,
// within the level's capacity, and shares no byte at a common step with a
// segment, a window chunk or another staged chunk of its space. O(staged
// copies x (segments + windows + staged copies)).
absl::Status CheckStagingChunks(const BufferSet& buffers, const Plan& plan,
                                const HierarchyRules* rules);

// Rule 11: results that gather operands (verify/gather_checks.cc).
absl::Status CheckGathers(const BufferSet& buffers, const Program& program);

// Rule 9: segments and copies respect while loops and conditionals.
absl::Status CheckControlFlow(const BufferSet& buffers, const Plan& plan);

// Rule 12: a view result of onnx.Slice sits at its window's byte offset and
// the window is contiguous (from the op's `starts` and the dims). O(values
// x rank).
absl::Status CheckSliceViews(const Program& program);

// Rule 14: each value's place in its buffer (Plan::value_offsets) follows
// the program's views, ties and gathers and lies inside the buffer
// (verify/value_offset_checks.cc). O(values + gathers).
absl::Status CheckValueOffsets(const BufferSet& buffers, const Plan& plan, const Program& program);

}  // namespace memplan::verify_internal
