#include "driver/region_pools.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "ir/diagnostic.h"
#include "ir/units.h"
#include "regions/allocate_regions.h"

namespace memplan {
namespace {

// `copies`: the captured copies in the resource (a fast slab), which take
// its bytes like slices.
TimedPool ToTimedPool(const Resource& r, Bytes offset_alignment,
                      const std::vector<PackItem>& copies) {
  TimedPool timed;
  timed.pool.name = r.name;
  timed.pool.lifetime = r.lifetime;
  timed.pool.space = r.space;
  timed.pool.size = r.size_bytes;
  timed.pool.buffers = static_cast<std::int64_t>(r.slices.size());
  // Uploads exist for the whole run; their time range says so explicitly,
  // marking them as region allocations (whose size includes padding).
  timed.pool.start = r.start;
  timed.pool.end = r.end;
  for (const Slice& s : r.slices) {
    timed.pool.total_bytes += s.size_bytes;
    timed.live.push_back(PackItem{s.size_bytes, 1, s.start, s.end});
  }
  timed.live.insert(timed.live.end(), copies.begin(), copies.end());
  // Slabs reuse memory by lifetime; reservations and uploads never do.
  timed.pool.lower_bound = r.kind == ResourceKind::kSlab ? MaxLiveBytes(timed.live)
                                                         : timed.pool.total_bytes;
  timed.alignment = std::max<Bytes>(1, offset_alignment);
  return timed;
}

// Places the slabs of `fast` in `level`'s space over their time ranges
// (slabs never alive together share bytes) and declares the space, whose
// peak (the arena's extent, bytes) may exceed the capacity.
void PlaceFastSlabs(std::vector<TimedPool*>& fast, const RegionFastLevel& level,
                    const PoolPlanOptions& options, Plan& plan) {
  Bytes alignment = std::max<Bytes>(1, plan.alignment);
  std::vector<PackItem> items;
  for (const TimedPool* t : fast) {
    alignment = std::lcm(alignment, std::max<Bytes>(1, t->alignment));
    items.push_back(PackItem{t->pool.size, 1, t->pool.start.value_or(0),
                             t->pool.end.value_or(plan.time_steps - 1)});
  }
  const PackResult packed = Pack(items, options.algorithm, alignment);
  for (std::size_t i = 0; i < fast.size(); ++i) {
    fast[i]->pool.offset = packed.offsets[i];
    plan.pools.push_back(fast[i]->pool);
  }
  plan.spaces.push_back(SpaceInfo{std::string(SpaceName(level.space)), level.space,
                                  level.capacity, packed.peak, alignment});
}

// Leaves the slice or captured copy in `level`'s space with the lowest
// benefit per byte there (ties: a slice of the higher buffer id, then the
// later copy) out of it, when its slabs do not fit together. False when the
// level holds neither.
bool DropLeastFast(const RegionPlan& regions, RegionFastLevel& level) {
  BufferId least = kNoId;
  const RegionCopy* least_copy = nullptr;
  ComputationId copy_region = kNoId;
  double least_density = 0;
  bool any = false;
  const auto consider = [&](double density, BufferId slice, const RegionCopy* copy,
                            ComputationId region) {
    if (any && density > least_density) return;
    if (any && density == least_density && copy == nullptr && slice < least) return;
    if (any && density == least_density && copy != nullptr && least_copy == nullptr) return;
    any = true;
    least_density = density;
    least = slice;
    least_copy = copy;
    copy_region = region;
  };
  for (const Resource& r : regions.resources) {
    if (r.space != level.space) continue;
    for (const Slice& s : r.slices) {
      consider(level.benefit[s.buffer] / static_cast<double>(std::max<Bytes>(1, s.size_bytes)),
               s.buffer, nullptr, kNoId);
    }
  }
  for (const RegionInfo& info : regions.regions) {
    for (const RegionCopy& c : info.copies) {
      if (c.to_space != level.space) continue;
      consider(c.saves_s / static_cast<double>(std::max<Bytes>(1, c.bytes)), kNoId, &c,
               info.computation);
    }
  }
  if (!any) return false;
  if (least_copy == nullptr) {
    level.benefit[least] = 0;
    return true;
  }
  for (CopyCandidate& c : level.copies) {
    if (c.region == copy_region && c.value == least_copy->value) c.saves_s = 0;
  }
  return true;
}

// Places the allocations of `placed` (evaluated): the default space's among
// the program pools, the fast slabs in the fast memory; resolves the
// command ranges. Errors: those of PlanPoolsAround and ResolveCommandRanges.
absl::StatusOr<Plan> PlaceRegions(const Program& program, const ProgramAnalysis& analysis,
                                  const RegionPlanOptions& region_options,
                                  const PoolPlanOptions& options, bool reuse,
                                  RegionPlan regions) {
  const BufferSet& buffers = analysis.buffers;
  std::vector<bool> excluded(buffers.buffers.size(), false);
  std::vector<TimedPool> timed, fast;
  std::vector<const TimedPool*> pool_of;  // per resource
  std::vector<std::vector<PackItem>> copies(regions.resources.size());
  for (const RegionInfo& info : regions.regions) {
    for (const RegionCopy& c : info.copies) {
      copies[static_cast<std::size_t>(c.resource)].push_back(PackItem{c.bytes, 1, c.start, c.end});
    }
  }
  for (std::size_t i = 0; i < regions.resources.size(); ++i) {
    const Resource& r = regions.resources[i];
    for (const Slice& s : r.slices) excluded[s.buffer] = true;
    std::vector<TimedPool>& into = r.space == kDefaultSpace ? timed : fast;
    into.push_back(ToTimedPool(r, region_options.offset_alignment, copies[i]));
    if (!reuse) {
      into.back().pool.start = 0;
      into.back().pool.end = buffers.time_steps - 1;
    }
  }
  // A region may still run when the host's text order has moved past it: the
  // host buffers it touches keep their bytes to the end of the run.
  std::vector<bool> held(buffers.buffers.size(), false);
  for (const Op& op : program.ops) {
    if (op.kind != OpKind::kExecute) continue;
    for (ValueId v : op.operands) {
      const BufferId b = analysis.value_buffer[v];
      if (b != kNoId && !excluded[b]) held[b] = true;
    }
  }
  absl::StatusOr<Plan> plan = PlanPoolsAround(buffers, excluded, held, timed, options);
  if (!plan.ok()) return plan.status();
  if (region_options.fast_memory) {
    for (const RegionFastLevel& level : region_options.fast_memory->levels) {
      std::vector<TimedPool*> here;
      for (TimedPool& t : fast) {
        if (t.pool.space == level.space) here.push_back(&t);
      }
      PlaceFastSlabs(here, level, options, *plan);
    }
  }
  std::size_t next_default = 0, next_fast = 0;
  for (const Resource& r : regions.resources) {
    pool_of.push_back(r.space == kDefaultSpace ? &timed[next_default++] : &fast[next_fast++]);
  }

  for (std::size_t i = 0; i < regions.resources.size(); ++i) {
    const Resource& r = regions.resources[i];
    for (const Slice& s : r.slices) {
      BufferPlacement& placement = plan->placements[s.buffer];
      placement.pool = r.name;
      placement.allocations = {Allocation{r.space, pool_of[i]->pool.offset + s.offset_bytes,
                                          buffers.buffers[s.buffer].start,
                                          buffers.buffers[s.buffer].end}};
    }
  }
  // The program pools, as resources commands can name.
  for (const PoolInfo& pool : plan->pools) {
    if (pool.start || pool.space != kDefaultSpace) continue;
    bool is_region_resource = false;
    for (const Resource& r : regions.resources) is_region_resource |= r.name == pool.name;
    if (is_region_resource) continue;
    Resource r;
    r.name = pool.name;
    r.kind = ResourceKind::kPool;
    r.lifetime = pool.lifetime;
    r.size = SizeExpr::Constant(pool.size);
    r.start = 0;
    r.end = buffers.time_steps - 1;
    for (BufferId b = 0; b < static_cast<BufferId>(buffers.buffers.size()); ++b) {
      if (excluded[b] || plan->placements[b].pool != pool.name) continue;
      const Allocation& a = plan->placements[b].allocations.front();
      Slice s;
      s.buffer = b;
      s.offset = SizeExpr::Constant(a.offset - pool.offset);
      s.size = SizeExpr::Constant(buffers.buffers[b].size);
      s.start = a.start;
      s.end = a.end;
      r.slices.push_back(std::move(s));
    }
    regions.resources.push_back(std::move(r));
  }
  if (absl::Status s = ResolveCommandRanges(program, analysis, regions); !s.ok()) return s;
  if (absl::Status s = EvaluateRegionPlan(program, regions); !s.ok()) return s;
  if (plan->algorithm == "auto" || plan->algorithm.empty()) plan->algorithm = region_options.pack;
  plan->regions = std::move(regions);
  return plan;
}

}  // namespace

absl::StatusOr<Plan> PlanRegions(const Program& program, const ProgramAnalysis& analysis,
                                 const RegionPlanOptions& requested,
                                 const PoolPlanOptions& options, bool reuse) {
  const BufferSet& buffers = analysis.buffers;
  RegionPlanOptions region_options = requested;
  if (!reuse) region_options.pack = "naive";
  // Slice offsets must also be multiples of the plan's --alignment, which
  // need not be a power of two (nor divide --offset-alignment): lay slices out
  // on the least common multiple, and record that as the offset alignment.
  const Bytes offset_alignment = std::max<Bytes>(1, region_options.offset_alignment);
  const Bytes plan_alignment = std::max<Bytes>(1, options.alignment);
  const std::optional<Bytes> slice_alignment = AlignmentLcm(offset_alignment, plan_alignment);
  if (!slice_alignment) {
    return absl::InvalidArgumentError(fmt::format(
        "--offset-alignment {} and --alignment {} combine to a slice alignment (their least "
        "common multiple) above the supported 2^32 ({}); choose alignments that divide one another",
        offset_alignment, plan_alignment, kMaxAlignment));
  }
  region_options.offset_alignment = *slice_alignment;
  for (const Buffer& b : buffers.buffers) {
    if (b.space && *b.space != kDefaultSpace && !b.values.empty()) {
      return LocatedError(program.source, program.values[b.values.front()].loc,
                          "%" + program.values[b.values.front()].name +
                              " is pinned to memory space " + std::to_string(*b.space) +
                              ": memory-space pins are not supported in programs with "
                              "execution regions");
    }
  }
  // Fast slabs that do not fit together (regions that may run at once) lose
  // their least beneficial slice until they do; each round re-plans.
  for (;;) {
    absl::StatusOr<RegionPlan> regions = AllocateRegions(program, analysis, region_options);
    if (!regions.ok()) return regions.status();
    if (absl::Status s = EvaluateRegionPlan(program, *regions); !s.ok()) return s;
    absl::StatusOr<Plan> plan = PlaceRegions(program, analysis, region_options, options, reuse,
                                             *std::move(regions));
    if (!plan.ok() || !region_options.fast_memory) return plan;
    // The fastest level over its capacity gives up a slice (which a slower
    // level may take in the next round).
    bool fits = true;
    for (RegionFastLevel& level : region_options.fast_memory->levels) {
      const auto space = std::find_if(plan->spaces.begin(), plan->spaces.end(),
                                      [&](const SpaceInfo& i) { return i.id == level.space; });
      if (space == plan->spaces.end() || space->peak <= level.capacity) continue;
      if (!DropLeastFast(*plan->regions, level)) {
        return absl::InternalError("internal error: fast slabs over capacity without slices");
      }
      fits = false;
      break;
    }
    if (fits) return plan;
  }
}

}  // namespace memplan
