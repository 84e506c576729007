// Rule 1 of verify/region_checks.h: options and resources.
//
// The byte-sharing check is a sweep over time events like the plan
// verifier's overlap check (verify/overlap_sweep.cc): resources alive at one
// time step are pairwise disjoint by induction, so a new one need only be
// compared with its two neighbours by address. O(R log R).
#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ir/plural.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

// packing/'s algorithm names (not linked here; a CLI test compares them).
constexpr std::string_view kPackNames[] = {"auto",
                                           "best-fit-spatial",
                                           "best-fit-temporal",
                                           "best-fit-busiest",
                                           "best-fit-start-time",
                                           "in-order",
                                           "skyline-longest",
                                           "skyline-area",
                                           "skyline-crowded",
                                           "skyline-local-search",
                                           "skyline-window-search",
                                           "online-best-fit",
                                           "naive",
                                           "exact"};

absl::Status CheckOptions(const RegionPlanOptions& options) {
  if (std::find(std::begin(kPackNames), std::end(kPackNames), options.pack) ==
      std::end(kPackNames)) {
    std::string known;
    for (std::string_view name : kPackNames) {
      if (!known.empty()) known += ", ";
      known += name;
    }
    return RuleViolation(1,
                         absl::StrCat("options: pack '", options.pack, "' is not one of: ", known));
  }
  constexpr Bytes kMaxAlignment = Bytes{1} << 32;
  for (const auto& [name, value] : {std::pair{"offset_alignment", options.offset_alignment},
                                    std::pair{"range_alignment", options.range_alignment}}) {
    if (value < 1 || value > kMaxAlignment) {
      return RuleViolation(
          1, absl::StrCat("options: ", name, " ", value, " lies outside [1, ", kMaxAlignment, "]"));
    }
  }
  if (options.max_allocation_size && *options.max_allocation_size < 1) {
    return RuleViolation(1, absl::StrCat("options: max_allocation_size ",
                                         *options.max_allocation_size, " is below 1"));
  }
  return absl::OkStatus();
}

struct Event {
  TimeStep time;
  int phase;  // 0: the resource comes into existence, 1: it ends (after the step)
  std::int32_t resource;
  auto Key() const { return std::tie(time, phase, resource); }
};

// "@a (bytes [0, 64) of the default space, time [0, 5])".
std::string Placed(const RegionContext& ctx, std::int32_t i) {
  const Resource& r = ctx.regions.resources[i];
  const Bytes offset = ctx.plan.pools[ctx.pool_of[i]].offset;
  return absl::StrCat(r.name, " (bytes ", ByteRange(offset, offset + r.size_bytes), " of the ",
                      SpaceName(r.space), " space, time [", r.start, ", ", r.end, "])");
}

// Resources of `space` alive at one time step are disjoint.
absl::Status CheckNoSharedBytes(const RegionContext& ctx, MemorySpace space) {
  const std::vector<Resource>& resources = ctx.regions.resources;
  std::vector<Event> events;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(resources.size()); ++i) {
    if (resources[i].size_bytes == 0 || resources[i].space != space) continue;  // no bytes here
    events.push_back({resources[i].start, 0, i});
    events.push_back({resources[i].end, 1, i});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.Key() < y.Key(); });
  auto begin_of = [&](std::int32_t i) { return ctx.plan.pools[ctx.pool_of[i]].offset; };
  auto end_of = [&](std::int32_t i) { return begin_of(i) + resources[i].size_bytes; };
  std::multimap<Bytes, std::int32_t> live;  // by address; disjoint
  for (const Event& e : events) {
    if (e.phase == 1) {
      auto [first, last] = live.equal_range(begin_of(e.resource));
      for (auto it = first; it != last; ++it) {
        if (it->second == e.resource) {
          live.erase(it);
          break;
        }
      }
      continue;
    }
    const Bytes lo = begin_of(e.resource);
    const Bytes hi = end_of(e.resource);
    auto next = live.lower_bound(lo);
    std::vector<std::int32_t> neighbours;
    if (next != live.begin()) neighbours.push_back(std::prev(next)->second);
    if (next != live.end()) neighbours.push_back(next->second);
    for (std::int32_t other : neighbours) {
      if (begin_of(other) < hi && lo < end_of(other)) {
        const auto [a, b] = std::minmax(other, e.resource);
        return RuleViolation(
            1, absl::StrCat(
                   "resources ", Placed(ctx, a), " and ", Placed(ctx, b), " share bytes ",
                   ByteRange(std::max(begin_of(a), begin_of(b)), std::min(end_of(a), end_of(b))),
                   " while both exist at time ", e.time));
      }
    }
    live.emplace(lo, e.resource);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckResources(const RegionContext& ctx) {
  if (absl::Status s = CheckOptions(ctx.regions.options); !s.ok()) return s;
  const std::vector<Resource>& resources = ctx.regions.resources;
  std::map<std::string, std::int32_t, std::less<>> names;
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(resources.size()); ++i) {
    const Resource& r = resources[i];
    const std::string ref =
        absl::StrCat("resource ", i, " (", r.name, ", ", ResourceKindName(r.kind), ")");
    if (auto [it, fresh] = names.emplace(r.name, i); !fresh) {
      return RuleViolation(1, absl::StrCat(ref, " has the name of resource ", it->second));
    }
    if (ctx.pool_of[i] < 0) {
      return RuleViolation(1, absl::StrCat(ref, " names no pool of the ", SpaceName(r.space),
                                           " space"));
    }
    const PoolInfo& pool = ctx.plan.pools[ctx.pool_of[i]];
    if (pool.size < 0 || pool.size > r.size_bytes) {
      return RuleViolation(
          1, absl::StrCat(ref, " has size_bytes ", r.size_bytes, " but its pool spans ",
                          CountOf(pool.size, "byte"), " (must be within [0, size_bytes])"));
    }
    Bytes end = 0;
    if (!CheckedAdd(pool.offset, r.size_bytes, end)) {
      return RuleViolation(1, ref + " ends beyond the largest representable offset");
    }
    for (const SpaceInfo& space : ctx.plan.spaces) {
      if (space.id == r.space && space.capacity && end > *space.capacity) {
        return RuleViolation(
            1, absl::StrCat(ref, " (bytes ", ByteRange(pool.offset, end), " of the ",
                            SpaceName(r.space), " space) exceeds the space's capacity of ",
                            CountOf(*space.capacity, "byte")));
      }
    }
    if (r.start < 0 || r.start > r.end || r.end >= ctx.buffers.time_steps) {
      return RuleViolation(1, absl::StrCat(ref, " has time range [", r.start, ", ", r.end,
                                           "] outside [0, ", ctx.buffers.time_steps, ")"));
    }
  }
  std::vector<MemorySpace> spaces;
  for (const Resource& r : resources) spaces.push_back(r.space);
  std::sort(spaces.begin(), spaces.end());
  spaces.erase(std::unique(spaces.begin(), spaces.end()), spaces.end());
  for (MemorySpace space : spaces) {
    if (absl::Status s = CheckNoSharedBytes(ctx, space); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace memplan::region_verify
