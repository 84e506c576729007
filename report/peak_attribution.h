// Who sets the peak: the time step at which the most bytes of a selection of
// buffers (e.g. the transient ones) are live, the op that runs there, and the
// largest buffers live at that moment, for the plan summary and `memplan
// stats`. The step is the max-live lower bound's (analysis/live_profile.h):
// no packing can use fewer bytes than are live there, so these buffers are
// what a user shrinks, splits or moves to lower the peak.
//
// Example: a = 4 B [0,1], b = 8 B [1,2], c = 2 B [3,3]: peak step 1, 12
// bytes in 2 buffers, largest b (8 B, 66.67%) then a (4 B, 33.33%).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "analysis/schedule.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

struct PeakAttribution {
  TimeStep step = kNoId;            // first step with the most live bytes; kNoId if none live
  Bytes live_bytes = 0;             // bytes live at `step` (the max-live lower bound)
  std::int64_t live_buffers = 0;    // buffers live at `step`
  std::vector<BufferId> largest;    // up to `top` of them, by bytes held descending, then id
};

// The peak of the buffers for which `include` is true, with its `top`
// largest live buffers (by the bytes they hold at the step, HeldBytesAt). A
// buffer is live at the steps of [start, end] outside its dead gaps, and
// holds only a window's bytes in its occupancy windows. O(n log n) for n buffers (the profile), plus O(n +
// top log top) for the buffers live at the step.
PeakAttribution AttributePeak(const BufferSet& buffers,
                              absl::FunctionRef<bool(const Buffer&)> include, std::size_t top);

// The bytes `b` holds at step `t`: 0 outside [start, end] and in its dead
// gaps, hi - lo in an occupancy window (Buffer::windows), else its size.
// O(gaps + windows).
Bytes HeldBytesAt(const Buffer& b, TimeStep t);

// A buffer set derived from another: the other itself when deriving would
// change nothing (no copy: at 10^7 buffers a copy costs as much as the
// input), else the derived copy.
class DerivedBufferSet {
 public:
  // `same` itself (it must outlive the result), or a derived `copy`.
  static DerivedBufferSet Same(const BufferSet& same) {
    DerivedBufferSet d;
    d.same_ = &same;
    return d;
  }
  static DerivedBufferSet Copy(BufferSet copy) {
    DerivedBufferSet d;
    d.copy_ = std::move(copy);
    return d;
  }
  const BufferSet& get() const { return same_ != nullptr ? *same_ : copy_; }

 private:
  const BufferSet* same_ = nullptr;
  BufferSet copy_;
};

// The buffers as `plan` holds them in default memory: each transient buffer
// with a default-space allocation, over the hull of those allocations (its
// dead gaps kept); buffers planned only in other spaces (fast memory) are
// given size 0 (ids stay aligned with `buffers`). Its max-live peak is then
// the peak of the plan's default-memory transient pool, not that of a plan
// without fast memory. `buffers` itself when every buffer's default
// allocations cover its live range (a plan without fast memory). O(n +
// allocations).
DerivedBufferSet DefaultMemoryView(const BufferSet& buffers, const Plan& plan);

// `op` as the summaries name it: its first result and opcode ("%y = conv"),
// or "opcode#id" for an op without results.
std::string DescribeOp(const Program& program, OpId op);

// The op scheduled at time step `step` (its name and opcode, e.g. "%y =
// conv"), or nullopt when no op runs there. O(ops).
std::optional<std::string> DescribeOpAt(const Program& program, const FlatSchedule& schedule,
                                        TimeStep step);

}  // namespace memplan
