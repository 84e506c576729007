#include "driver/hierarchy_job.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <utility>

#include "driver/staging_layout.h"
#include "fmt/format.h"
#include "msa/hierarchy.h"
#include "msa/hierarchy_simulator.h"

namespace memplan {
namespace {

// The relative slack of the check estimated time >= time bound.
constexpr double kHierarchyBoundSlack = 1e-9;

// Lays candidate `c` out: its buffers' default-memory data in the pools of
// their home levels, named "<level>.<lifetime>" outside the default and
// alternate spaces; packed by the pools' packers, or with `at_home_offsets`
// at the offsets the home choice found (one transient pool per level, which
// fits by construction); the staged copies' chunks likewise
// (driver/staging_layout.h). nullopt when a level's capacity is exceeded.
absl::StatusOr<std::optional<Plan>> LayOut(const BufferSet& buffers, const HierarchyCandidate& c,
                                           const Target& target, const MsaOptions& options,
                                           const PoolPlanOptions& pools, bool at_home_offsets) {
  BufferSet homed = buffers;
  for (std::size_t b = 0; b < homed.buffers.size(); ++b) {
    Buffer& buffer = homed.buffers[b];
    if (!buffer.space && c.home[b] != kDefaultSpace) buffer.space = c.home[b];
    if (at_home_offsets && c.home_offset[b] && c.home[b] != kAlternateSpace) {
      buffer.mutable_fixed_offset() = *c.home_offset[b];
      buffer.lifetime = Lifetime::kTransient;
    }
  }
  PoolPlanOptions level_pools = pools;
  const int slowest = SlowestWritableSpace(target);
  const Bytes slowest_capacity = target.spaces[static_cast<std::size_t>(slowest)].capacity_bytes;
  level_pools.capacity = std::min(pools.capacity.value_or(slowest_capacity), slowest_capacity);
  if (level_pools.capacity_spelled.empty() || !pools.capacity ||
      *pools.capacity > slowest_capacity) {
    level_pools.capacity_spelled = fmt::format(
        "the capacity of space '{}'", target.spaces[static_cast<std::size_t>(slowest)].name);
  }
  absl::StatusOr<Plan> plan =
      PlanPoolsWithMsa(homed, c.fast, options.fast_memory_bytes, options.alignment, level_pools);
  if (!plan.ok()) {
    if (plan.status().code() == absl::StatusCode::kResourceExhausted) return std::optional<Plan>();
    return plan.status();
  }
  // Name the levels, state their capacities, and check them.
  std::map<std::pair<MemorySpace, std::string>, std::string> renamed;
  for (PoolInfo& pool : plan->pools) {
    if (pool.space == kDefaultSpace || pool.space == kAlternateSpace) continue;
    const int level = LevelOfSpace(target, pool.space);
    const std::string name =
        fmt::format("{}.{}", target.spaces[static_cast<std::size_t>(level)].name, pool.name);
    renamed[{pool.space, pool.name}] = name;
    pool.name = name;
  }
  for (std::size_t b = 0; b < homed.buffers.size(); ++b) {
    const MemorySpace home = homed.buffers[b].space.value_or(kDefaultSpace);
    if (home == kDefaultSpace || home == kAlternateSpace) continue;
    auto it = renamed.find({home, plan->placements[b].pool.str()});
    if (it != renamed.end()) plan->placements[b].pool = it->second;
  }
  for (SpaceInfo& s : plan->spaces) {
    const int level = LevelOfSpace(target, s.id);
    if (level < 0) continue;
    const MemorySpaceSpec& spec = target.spaces[static_cast<std::size_t>(level)];
    if (s.id != kDefaultSpace) s.capacity = spec.capacity_bytes;
    if (s.peak > spec.capacity_bytes) return std::optional<Plan>();
  }
  NameTargetLevels(target, *plan);
  for (AsyncCopy& copy : plan->copies) {
    // The cross-program prefetch comes from the buffer's home.
    if (copy.kind == CopyKind::kPrefetch) copy.from_space = c.home[copy.buffer];
    if (copy.kind == CopyKind::kEviction) copy.to_space = c.home[copy.buffer];
  }
  if (!PlaceStagingChunks(*plan, at_home_offsets)) return std::optional<Plan>();
  return std::optional<Plan>(*std::move(plan));
}

}  // namespace

absl::StatusOr<std::string> AllSlowestWritableDoesNotFit(const Program& program,
                                                         const ProgramAnalysis& analysis,
                                                         const Target& target, Bytes alignment) {
  const MemorySpaceSpec& slowest =
      target.spaces[static_cast<std::size_t>(SlowestWritableSpace(target))];
  for (OpId op : analysis.schedule.order) {
    const std::string device = OpDevice(program, op);
    if (!DeviceMayAccess(slowest, device)) {
      return fmt::format("op '{}' on device '{}' cannot access it", program.OpName(op), device);
    }
  }
  const std::size_t n = analysis.buffers.buffers.size();
  // Pins are ignored, as by the two-space baseline (TimeAllDefault).
  BufferSet unpinned = analysis.buffers;
  for (Buffer& b : unpinned.buffers) b.space.reset();
  HierarchyCandidate all;
  all.fast.alternate.assign(n, {});
  all.fast.needs_default.assign(n, true);
  all.home.assign(n, kDefaultSpace);
  all.home_offset.assign(n, std::nullopt);
  // The planner's packers at their defaults, whatever the plan's flags:
  // the answer is the target's and the program's, and memplan verify gets
  // the same one.
  MsaOptions options;
  options.fast_memory_bytes = target.spaces[0].capacity_bytes;
  options.alignment = alignment;
  PoolPlanOptions pools;
  pools.alignment = alignment;
  absl::StatusOr<std::optional<Plan>> plan = LayOut(unpinned, all, target, options, pools, false);
  if (!plan.ok()) return plan.status();
  if (*plan) return std::string();
  return fmt::format("its layout exceeds the capacity of space '{}'", slowest.name);
}

HierarchyRules HierarchyRulesOf(const Target& target) {
  HierarchyRules rules;
  for (int level = 0; level < static_cast<int>(target.spaces.size()); ++level) {
    const MemorySpaceSpec& s = target.spaces[static_cast<std::size_t>(level)];
    rules.spaces.push_back(HierarchySpaceRule{SpaceIdOfLevel(target, level), s.name,
                                              s.capacity_bytes, s.writable, s.devices});
  }
  for (const LinkSpec& l : target.links) {
    rules.links.push_back(HierarchyLinkRule{SpaceIdOfLevel(target, l.from),
                                            SpaceIdOfLevel(target, l.to), l.max_outstanding});
  }
  return rules;
}

void NameTargetLevels(const Target& target, Plan& plan) {
  for (SpaceInfo& s : plan.spaces) {
    const int level = LevelOfSpace(target, s.id);
    if (level < 0) continue;
    s.name = target.spaces[static_cast<std::size_t>(level)].name;
    s.capacity = target.spaces[static_cast<std::size_t>(level)].capacity_bytes;
  }
  for (int level = 0; level < static_cast<int>(target.spaces.size()); ++level) {
    const MemorySpace id = SpaceIdOfLevel(target, level);
    if (std::any_of(plan.spaces.begin(), plan.spaces.end(),
                    [&](const SpaceInfo& s) { return s.id == id; })) {
      continue;
    }
    const MemorySpaceSpec& spec = target.spaces[static_cast<std::size_t>(level)];
    plan.spaces.push_back(SpaceInfo{spec.name, id, spec.capacity_bytes, 0, plan.alignment});
  }
  std::sort(plan.spaces.begin(), plan.spaces.end(),
            [](const SpaceInfo& a, const SpaceInfo& b) { return a.id < b.id; });
}

absl::Status CheckSpaceCapacities(const Target& target, const Plan& plan) {
  for (const SpaceInfo& s : plan.spaces) {
    if (s.capacity && s.peak > *s.capacity) {
      return absl::ResourceExhaustedError(
          fmt::format("plan does not fit: {} memory needs {} bytes, more than its {} bytes on "
                      "target '{}'",
                      s.name, s.peak, *s.capacity, target.name));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<HierarchyJobResult> RunHierarchyJob(const Program& program,
                                                   const ProgramAnalysis& analysis,
                                                   const CostModel& cost, const Target& target,
                                                   const MsaOptions& options,
                                                   const PoolPlanOptions& pools) {
  if (absl::Status s = CheckHierarchyAccess(program, analysis, target); !s.ok()) return s;
  absl::StatusOr<std::vector<HierarchyCandidate>> candidates =
      HierarchyCandidates(program, analysis, cost, target, options, pools.alignment);
  if (!candidates.ok()) return candidates.status();

  HierarchyJobResult out;
  std::optional<std::size_t> best;
  std::vector<std::optional<Plan>> plans;
  std::vector<SimulationResult> simulations(candidates->size());
  for (std::size_t i = 0; i < candidates->size(); ++i) {
    const HierarchyCandidate& c = (*candidates)[i];
    if (!c.fits) {
      plans.emplace_back();
      if (!c.without_cross_program_prefetch) {
        out.report.candidates.push_back({c.name, std::nullopt, c.not_run, c.does_not_fit});
      }
      continue;
    }
    absl::StatusOr<std::optional<Plan>> plan =
        LayOut(analysis.buffers, c, target, options, pools, false);
    if (plan.ok() && !*plan) plan = LayOut(analysis.buffers, c, target, options, pools, true);
    if (!plan.ok()) return plan.status();
    plans.push_back(*std::move(plan));
    std::optional<double> time;
    if (plans.back()) {
      simulations[i] = SimulateHierarchy(analysis, cost, target, c.fast, c.home);
      time = simulations[i].elapsed_s;
      // Ties: the earlier candidate.
      if (!best || *time < simulations[*best].elapsed_s) best = i;
    }
    HierarchyReport::Candidate entry{c.name, time, "",
                                     time ? "" : "its layout exceeds the capacity of a level",
                                     c.without_cross_program_prefetch};
    if (!c.without_cross_program_prefetch) {
      out.report.candidates.push_back(std::move(entry));
    } else if (time) {
      // The twin replaces its namesake when strictly faster or when that
      // does not fit.
      for (HierarchyReport::Candidate& original : out.report.candidates) {
        if (original.name != c.name) continue;
        if (!original.estimated_s || *time < *original.estimated_s) original = std::move(entry);
        break;
      }
    }
  }
  if (!best) {
    return absl::ResourceExhaustedError(fmt::format(
        "plan does not fit: no assignment fits the capacities of target '{}' (its slowest "
        "writable space '{}' holds {} bytes)",
        target.name, target.spaces[static_cast<std::size_t>(SlowestWritableSpace(target))].name,
        target.spaces[static_cast<std::size_t>(SlowestWritableSpace(target))].capacity_bytes));
  }
  HierarchyCandidate& chosen = (*candidates)[*best];
  out.report.chosen = chosen.name;
  out.report.chosen_without_cross_program_prefetch = chosen.without_cross_program_prefetch;
  out.report.home = chosen.home;
  out.report.all_slowest_writable_s =
      SimulateHierarchy(analysis, cost, target, MsaResult{},
                        std::vector<MemorySpace>(analysis.buffers.buffers.size(), kDefaultSpace))
          .elapsed_s;
  absl::StatusOr<std::string> does_not_fit =
      AllSlowestWritableDoesNotFit(program, analysis, target, pools.alignment);
  if (!does_not_fit.ok()) return does_not_fit.status();
  out.report.all_slowest_writable_does_not_fit = *std::move(does_not_fit);
  out.assignment = std::move(chosen.fast);
  out.assignment.variant = chosen.name;
  out.plan = *std::move(plans[*best]);
  out.simulation = simulations[*best];

  MsaStats stats;
  stats.estimated_time_s = out.simulation.elapsed_s;
  // All in default memory: every buffer in the default space, the slowest
  // writable level, as the hierarchy line's "all in the slowest writable
  // space" (charging every byte at the slowest bandwidth of any level,
  // read-only flash included, overstated the captured speed-up).
  stats.time_all_default_s = out.report.all_slowest_writable_s;
  stats.time_all_default_fits = out.report.all_slowest_writable_does_not_fit.empty();
  stats.time_all_fast_s = HierarchyTimeAllFastest(analysis, cost, target);
  stats.time_bound_s = HierarchyTimeBound(analysis, cost, target);
  if (out.simulation.elapsed_s < *stats.time_bound_s * (1 - kHierarchyBoundSlack)) {
    return absl::InternalError(fmt::format(
        "memplan: internal error: the plan's estimated time {:.12g} s is below the hierarchy's "
        "time bound {:.12g} s",
        out.simulation.elapsed_s, *stats.time_bound_s));
  }
  CountCopies(out.plan.copies, options, stats);
  out.plan.msa = stats;
  return out;
}

}  // namespace memplan
