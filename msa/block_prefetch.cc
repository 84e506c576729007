#include "msa/block_prefetch.h"

#include <algorithm>
#include <tuple>

namespace memplan {
namespace {

Bytes AlignDown(Bytes value, Bytes alignment) { return value / alignment * alignment; }
Bytes AlignUp(Bytes value, Bytes alignment) { return (value + alignment - 1) / alignment * alignment; }

// The first and last read of a weight (IsBlockWeight holds).
std::pair<TimeStep, TimeStep> ReadRange(const MsaBuffer& buffer) {
  return {buffer.accesses.front().time, buffer.accesses.back().time};
}

// The lowest aligned offset in `block` where `size` bytes over the closed
// steps [from, to] meet no slot of the block (each held over [max(start,
// 0), last_use]); -1 if none.
Bytes FirstFit(const BlockPlan& block, Bytes size, TimeStep from, TimeStep to, Bytes alignment) {
  std::vector<std::pair<Bytes, Bytes>> busy;  // [begin, end) byte ranges live in [from, to]
  for (const BlockSlot& s : block.slots) {
    if (std::max<TimeStep>(s.start, 0) <= to && from <= s.last_use) {
      busy.emplace_back(s.offset, s.offset + s.bytes);
    }
  }
  std::sort(busy.begin(), busy.end());
  Bytes candidate = block.offset;
  for (const auto& [begin, end] : busy) {
    if (candidate + size <= begin) break;
    candidate = std::max(candidate, AlignUp(end, alignment));
  }
  return candidate + size <= block.offset + block.size ? candidate : -1;
}

}  // namespace

BlockPlan ReserveBlock(Bytes fast_memory_bytes, Bytes requested, Bytes alignment) {
  BlockPlan block;
  block.size = std::clamp<Bytes>(requested, 0, std::max<Bytes>(fast_memory_bytes, 0));
  block.offset = block.size == 0 ? fast_memory_bytes
                                 : AlignDown(fast_memory_bytes - block.size, alignment);
  return block;
}

bool IsBlockWeight(const MsaProblem& problem, BufferId b, ComputationId entry, Bytes block_size) {
  const MsaBuffer& buffer = problem.buffers[static_cast<std::size_t>(b)];
  if (buffer.policy != AltPolicy::kReadCopies || !buffer.constant || buffer.size <= 0 ||
      buffer.size > block_size || buffer.accesses.empty()) {
    return false;
  }
  for (const BufferAccess& a : buffer.accesses) {
    if (a.write || !a.alternate_ok || a.control) return false;
  }
  const auto [first, last] = ReadRange(buffer);
  for (TimeStep t = first; t <= last; ++t) {
    if (problem.timeline.owner(t) != entry) return false;
  }
  return true;
}

void PlanBlockPrefetch(const MsaProblem& problem, ComputationId entry, Bytes alignment,
                       BlockPlan& block) {
  block.slots.clear();
  if (block.size <= 0) return;
  std::vector<std::tuple<TimeStep, BufferId>> fifo;  // (first read, buffer)
  for (std::size_t i = 0; i < problem.buffers.size(); ++i) {
    const BufferId b = static_cast<BufferId>(i);
    if (IsBlockWeight(problem, b, entry, block.size)) {
      fifo.emplace_back(problem.buffers[i].accesses.front().time, b);
    }
  }
  std::sort(fifo.begin(), fifo.end());
  TimeStep previous_start = -1;
  for (const auto& [first, b] : fifo) {
    const MsaBuffer& buffer = problem.buffers[static_cast<std::size_t>(b)];
    const TimeStep last = buffer.accesses.back().time;
    for (TimeStep t : problem.timeline.StartsOfOwner(first)) {
      if (t >= first) break;
      if (t < previous_start || (t < 0 && !buffer.entry_parameter)) continue;
      // The segment's steps before the first read must be the entry's too.
      bool own = true;
      for (TimeStep u = std::max<TimeStep>(t, 0); u < first && own; ++u) {
        own = problem.timeline.owner(u) == entry;
      }
      if (!own) continue;
      const Bytes offset = FirstFit(block, buffer.size, std::max<TimeStep>(t, 0), last, alignment);
      if (offset < 0) continue;
      block.slots.push_back({b, offset, buffer.size, t, first, last});
      previous_start = t;
      break;
    }
  }
}

}  // namespace memplan
