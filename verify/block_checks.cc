// Rule 4 for block prefetches (verify/verifier.h, msa/block_prefetch.h):
// the block lies in the alternate space, every block prefetch's segment
// lies in the block, the slots of the block do not share a byte while they
// are held, the copies are issued in FIFO order of their done, and no other
// segment of the alternate space uses the block's bytes.
#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "verify/checks.h"
#include "verify/describe.h"

namespace memplan::verify_internal {
namespace {

// A block prefetch and the segment it opens.
struct Slot {
  std::size_t copy = 0;
  BufferId buffer = kNoId;
  std::size_t segment = 0;
};

}  // namespace

absl::Status CheckBlockPrefetches(
    const BufferSet& buffers, const Plan& plan,
    const std::map<std::pair<BufferId, std::size_t>, std::size_t>& opener) {
  std::vector<Slot> slots;
  for (const auto& [segment, copy] : opener) {
    if (plan.copies[copy].block) slots.push_back({copy, segment.first, segment.second});
  }
  std::size_t block_copies = 0;
  for (const AsyncCopy& c : plan.copies) block_copies += c.block ? 1 : 0;
  const std::optional<PrefetchBlock> block = plan.msa ? plan.msa->block : std::nullopt;
  if (!block) {
    if (block_copies == 0) return absl::OkStatus();
    return Violation("the plan has block prefetches but no block (msa.block_prefetch)");
  }
  if (block->offset < 0 || block->size <= 0) {
    return Violation(absl::StrCat("the prefetch block [", block->offset, ", +", block->size,
                                  ") needs offset >= 0 and size > 0"));
  }
  for (const SpaceInfo& space : plan.spaces) {
    if (space.id == kAlternateSpace && space.capacity &&
        block->offset + block->size > *space.capacity) {
      return Violation(absl::StrCat("the prefetch block [", block->offset, ", ",
                                    block->offset + block->size, ") ends past the ",
                                    *space.capacity, " bytes of the alternate space"));
    }
  }
  const Bytes block_end = block->offset + block->size;
  for (std::size_t i = 0; i < plan.copies.size(); ++i) {
    const AsyncCopy& c = plan.copies[i];
    if (c.block && (c.kind != CopyKind::kPrefetch || c.to_space != kAlternateSpace ||
                    c.slice_count != 1)) {
      return Violation(CopyRef(buffers, plan, i) +
                       " is a block prefetch but not a whole-buffer prefetch into alternate memory");
    }
  }
  if (slots.size() != block_copies) {
    return Violation("a block prefetch opens no segment of its buffer");
  }
  for (const Slot& s : slots) {
    const Allocation& a = plan.placements[s.buffer].allocations[s.segment];
    const Bytes size = buffers.buffers[s.buffer].size;
    if (a.offset < block->offset || a.offset + size > block_end) {
      return Violation(absl::StrCat(CopyRef(buffers, plan, s.copy), " fills [", a.offset, ", ",
                                    a.offset + size, "), outside the prefetch block [",
                                    block->offset, ", ", block_end, ")"),
                       s.buffer);
    }
  }
  // Slots held at a common step share no byte.
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const Allocation& a = plan.placements[slots[i].buffer].allocations[slots[i].segment];
    const Bytes a_size = buffers.buffers[slots[i].buffer].size;
    for (std::size_t j = i + 1; j < slots.size(); ++j) {
      const Allocation& b = plan.placements[slots[j].buffer].allocations[slots[j].segment];
      const Bytes b_size = buffers.buffers[slots[j].buffer].size;
      if (a.offset < b.offset + b_size && b.offset < a.offset + a_size && a.start <= b.end &&
          b.start <= a.end) {
        return Violation(absl::StrCat(CopyRef(buffers, plan, slots[i].copy), " and ",
                                      CopyRef(buffers, plan, slots[j].copy),
                                      " fill slots of the prefetch block that share bytes while "
                                      "both are held"),
                         slots[j].buffer);
      }
    }
  }
  // FIFO: in order of done, the starts do not decrease.
  std::vector<std::size_t> fifo;
  for (const Slot& s : slots) fifo.push_back(s.copy);
  std::sort(fifo.begin(), fifo.end(), [&](std::size_t x, std::size_t y) {
    return std::tie(plan.copies[x].done, x) < std::tie(plan.copies[y].done, y);
  });
  for (std::size_t k = 1; k < fifo.size(); ++k) {
    if (plan.copies[fifo[k]].start < plan.copies[fifo[k - 1]].start) {
      return Violation(absl::StrCat(CopyRef(buffers, plan, fifo[k]), " starts at time ",
                                    plan.copies[fifo[k]].start, ", before ",
                                    CopyRef(buffers, plan, fifo[k - 1]),
                                    ", which is done earlier: block prefetches are issued in "
                                    "FIFO order"));
    }
  }
  // Only block prefetches' segments use the block.
  for (std::size_t b = 0; b < plan.placements.size(); ++b) {
    const AllocationList& list = plan.placements[b].allocations;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const Allocation& a = list[k];
      if (a.space != kAlternateSpace) continue;
      auto it = opener.find({static_cast<BufferId>(b), k});
      if (it != opener.end() && plan.copies[it->second].block) continue;
      const Bytes size = buffers.buffers[b].size;
      if (size > 0 && a.offset < block_end && block->offset < a.offset + size) {
        return Violation(absl::StrCat(SegmentRef(buffers, plan, static_cast<BufferId>(b), k),
                                      " uses the prefetch block [",
                                      block->offset, ", ", block_end,
                                      ") without a block prefetch"),
                         static_cast<BufferId>(b));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::verify_internal
