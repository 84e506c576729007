#include "driver/pools.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "fmt/format.h"

namespace memplan {
namespace {

constexpr std::array<Lifetime, 5> kPoolOrder = {
    Lifetime::kTransient, Lifetime::kStaging, Lifetime::kVariable, Lifetime::kConstant,
    Lifetime::kExternal};

MemorySpace SpaceOf(const Buffer& b) { return b.space.value_or(kDefaultSpace); }

}  // namespace

std::string SpaceName(MemorySpace space) {
  if (space == kDefaultSpace) return "default";
  if (space == kAlternateSpace) return "alternate";
  return fmt::format("space{}", space);
}

absl::StatusOr<Plan> PlanPools(const BufferSet& buffers, const PoolPlanOptions& options) {
  Plan plan;
  plan.input = buffers.input;
  plan.time_steps = buffers.time_steps;
  plan.alignment = std::max<Bytes>(1, options.alignment);
  plan.placements.resize(buffers.buffers.size());
  plan.algorithm = std::string(PackingAlgorithmName(options.algorithm));

  std::map<MemorySpace, std::vector<BufferId>> by_space;
  by_space[kDefaultSpace];  // the default space is always reported
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    by_space[SpaceOf(buffers.buffers[id])].push_back(id);
  }

  for (const auto& [space, ids] : by_space) {
    Bytes base = 0;
    for (Lifetime lifetime : kPoolOrder) {
      std::vector<BufferId> members;
      for (BufferId id : ids) {
        if (buffers.buffers[id].lifetime == lifetime) members.push_back(id);
      }
      if (members.empty()) continue;

      std::vector<PackItem> items;
      items.reserve(members.size());
      Bytes pool_alignment = plan.alignment;
      PoolInfo pool;
      pool.name = std::string(LifetimeName(lifetime));
      pool.space = space;
      for (BufferId id : members) {
        const Buffer& b = buffers.buffers[id];
        items.push_back(PackItem{b.size, std::max<Bytes>(1, b.alignment), b.start, b.end});
        pool_alignment = std::max(pool_alignment, items.back().alignment);
        pool.total_bytes += b.size;
      }
      const bool reusable = IsReusable(lifetime);
      PackResult packed =
          Pack(items, reusable ? options.algorithm : PackingAlgorithm::kNaive, plan.alignment);

      pool.offset = AlignUp(base, pool_alignment);
      pool.size = packed.peak;
      pool.buffers = static_cast<std::int64_t>(members.size());
      // Without reuse the bound is every byte at once; with reuse, max live.
      pool.lower_bound = reusable ? MaxLiveBytes(items) : pool.total_bytes;
      for (size_t i = 0; i < members.size(); ++i) {
        const Buffer& b = buffers.buffers[members[i]];
        BufferPlacement& placement = plan.placements[members[i]];
        placement.pool = pool.name;
        placement.allocations.push_back(
            Allocation{space, pool.offset + packed.offsets[i], b.start, b.end});
      }
      if (space == kDefaultSpace && lifetime == Lifetime::kTransient) {
        plan.peak = pool.size;
        plan.lower_bound = pool.lower_bound;
        plan.algorithm = packed.algorithm;
      }
      base = pool.offset + pool.size;
      plan.pools.push_back(pool);
    }

    SpaceInfo info;
    info.name = SpaceName(space);
    info.id = space;
    info.peak = base;
    if (space == kDefaultSpace) info.capacity = options.capacity;
    plan.spaces.push_back(info);
    if (info.capacity && base > *info.capacity) {
      return absl::ResourceExhaustedError(fmt::format(
          "plan does not fit: {} memory needs {} bytes but its capacity is {} bytes "
          "(transient peak {} bytes, lower bound {} bytes)",
          info.name, base, *info.capacity, plan.peak, plan.lower_bound));
    }
  }
  return plan;
}

}  // namespace memplan
