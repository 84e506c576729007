// The executor's state (execute/executor.h): arenas, where each buffer's data
// is expected, and the writers; shared by the program, region and CSV runs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "execute/arena.h"
#include "execute/executor.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

class ExecutionMachine {
 public:
  ExecutionMachine(const BufferSet& buffers, const Plan& plan, ExecuteReport& report);

  // Sizes the arenas; InvalidArgument past `max_bytes`.
  absl::Status AllocateArenas(Bytes max_bytes);

  // One data write: who wrote, for messages.
  struct Writer {
    std::string what;       // "%x" or "buffer 'b1'" or "scratch of op %y"
    std::string by;         // "op %x at step 3", "the caller", ...
  };
  std::int64_t NewWriter(std::string what, std::string by);

  // Moves the clock to step `time`: leaving a step never does anything;
  // entering one performs the async copies done at it.
  absl::Status AdvanceTo(TimeStep time);
  // Sets the clock to step 0 without performing its copies (the caller's
  // inputs are written first); PerformCopiesDone(0) follows.
  void StartClock() { now_ = 0; }
  // Performs the async copies done at `time` (in plan order), then the
  // window prefetches done at it: each copies bytes [0, bytes) of its
  // buffer into its window chunk.
  absl::Status PerformCopiesDone(TimeStep time);
  // Checks that each window prefetch of op `op` still holds its buffer's
  // bytes [0, bytes) in its window chunk when the op reads it.
  absl::Status CheckWindows(OpId op, const std::string& reader);

  // Writes bytes [lo, hi) of buffer `buffer` (positions from its base) at
  // its place at the current step, as writer `writer`.
  // With `in_home`, in its segment in its home space: the space it is pinned
  // to, else default memory (the caller provides inputs and reads outputs
  // there).
  absl::Status WriteBuffer(BufferId buffer, Bytes lo, Bytes hi, std::int64_t writer,
                           bool in_home = false);
  // Checks that bytes [lo, hi) of `buffer` hold what was last written there;
  // `reader` and `what` name the read in a failure.
  absl::Status CheckBuffer(BufferId buffer, Bytes lo, Bytes hi, const std::string& reader,
                           const std::string& what, bool in_home = false);
  // Writes `length` bytes at `address` of `space` as writer (no buffer: scratch).
  absl::Status WriteRaw(MemorySpace space, Bytes address, Bytes length, Bytes position,
                        std::int64_t writer);
  // Copies `length` bytes from `from` of `from_space` to `to` of `to_space`
  // (a region's captured copy: the pattern moves along, as in async copies).
  absl::Status CopyRaw(MemorySpace from_space, Bytes from, MemorySpace to_space, Bytes to,
                       Bytes length, const std::string& what);
  // Checks bytes at `address` of `space` against buffer positions [lo, hi).
  // With `unwritten_ok` (uninitialised storage: an alloca's) positions no
  // writer filled hold whatever they hold; the filled ones are checked.
  absl::Status CheckRaw(MemorySpace space, Bytes address, BufferId buffer, Bytes lo, Bytes hi,
                        const std::string& reader, const std::string& what,
                        bool unwritten_ok = false);
  // Records that positions [lo, hi) of `buffer` now hold `writer`'s data.
  void SetContent(BufferId buffer, Bytes lo, Bytes hi, std::int64_t writer);
  // Drops the expected data of positions [lo, hi) (the buffer holds none there).
  void ClearContent(BufferId buffer, Bytes lo, Bytes hi);

  // The segment holding `buffer`'s data at `time`: one outside its home
  // space first, else the home one; nullptr when none covers `time`.
  const Allocation* SegmentAt(BufferId buffer, TimeStep time) const;
  // The segment of `buffer` in `space` covering `time`, or nullptr.
  const Allocation* SegmentIn(BufferId buffer, MemorySpace space, TimeStep time) const;

  TimeStep now() const { return now_; }
  const Plan& plan() const { return plan_; }
  const BufferSet& buffers() const { return buffers_; }
  ExecuteReport& report() { return report_; }
  std::string DescribeBuffer(BufferId buffer) const;
  // The space `buffer` lives in when it is not copied elsewhere: the space
  // it is pinned to (Buffer::space), else its pool's space (a level of a
  // memory hierarchy: pools "sram.transient" etc.), else default memory.
  MemorySpace HomeSpace(BufferId buffer) const;

  struct Piece {
    Bytes lo = 0;
    Bytes hi = 0;
    std::int64_t writer = -1;
  };
  const std::vector<Piece>& Content(BufferId buffer) const {
    return content_[static_cast<std::size_t>(buffer)];
  }

 private:
  Arena* ArenaOf(MemorySpace space);
  // Performs plan_.copies[index].
  absl::Status PerformCopy(std::size_t index);
  // Performs plan_.window_prefetches[index].
  absl::Status PerformWindow(std::size_t index);
  // "the eviction of buffer 'x' (start 1, done 2)"; an index past the
  // copies names window prefetch index - copies.size() (a mover in arenas).
  std::string DescribeCopy(std::size_t index) const;
  std::string DescribeWriter(std::int64_t writer) const;

  const BufferSet& buffers_;
  const Plan& plan_;
  ExecuteReport& report_;
  std::map<MemorySpace, Arena> arenas_;
  std::vector<std::vector<Piece>> content_;   // per buffer, sorted, disjoint
  std::vector<MemorySpace> home_;             // per buffer: HomeSpace
  std::vector<Writer> writers_;
  std::multimap<TimeStep, std::size_t> copies_by_done_;
  std::multimap<TimeStep, std::size_t> windows_by_done_;
  TimeStep now_ = -1;
};

}  // namespace memplan
