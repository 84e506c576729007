// A buffer's home space in a plan: the space its data lives in when it is
// not copied elsewhere. Shared by the verifier and the executor, which both
// read plans this way.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>

#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// The space a buffer is pinned to (Buffer::space), else the space of its
// pool (a level of a memory hierarchy: pools "sram.transient" etc.), else
// the default space. A pool name used in several spaces (the two-space
// plan's "transient" beside "alternate") homes its buffers in the default
// space. Holds references to `buffers` and `plan`.
class PlanHomeSpaces {
 public:
  PlanHomeSpaces(const BufferSet& buffers, const Plan& plan) : buffers_(buffers), plan_(plan) {
    for (const PoolInfo& pool : plan.pools) {
      auto [it, fresh] = space_of_.emplace(pool.name, pool.space);
      if (!fresh && pool.space == kDefaultSpace) it->second = kDefaultSpace;
    }
  }
  MemorySpace operator()(BufferId id) const {
    const Buffer& b = buffers_.buffers[static_cast<std::size_t>(id)];
    if (b.space) return *b.space;
    if (static_cast<std::size_t>(id) >= plan_.placements.size()) return kDefaultSpace;
    auto it = space_of_.find(plan_.placements[static_cast<std::size_t>(id)].pool.str());
    return it == space_of_.end() ? kDefaultSpace : it->second;
  }

 private:
  const BufferSet& buffers_;
  const Plan& plan_;
  std::map<std::string, MemorySpace, std::less<>> space_of_;
};

}  // namespace memplan
