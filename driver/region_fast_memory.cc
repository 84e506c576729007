#include "driver/region_fast_memory.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "driver/captured_copy_rating.h"
#include "fmt/format.h"
#include "msa/cost_model.h"

namespace memplan {
namespace {

// Operand and result positions of `op` whose buffer `in` accepts.
template <typename In>
std::pair<std::vector<int>, std::vector<int>> Positions(const Op& op,
                                                        const ProgramAnalysis& analysis, In in) {
  std::pair<std::vector<int>, std::vector<int>> out;
  for (std::size_t i = 0; i < op.operands.size(); ++i) {
    if (in(analysis.value_buffer[op.operands[i]])) out.first.push_back(static_cast<int>(i));
  }
  for (std::size_t i = 0; i < op.results.size(); ++i) {
    if (in(analysis.value_buffer[op.results[i]])) out.second.push_back(static_cast<int>(i));
  }
  return out;
}

// Per buffer: the seconds one run saves with the buffer served at
// `target`'s alternate bandwidth instead of its default one — per op
// touching it, the op's time with all in default memory minus its time with
// that buffer's operands and results fast, times the op's runs.
std::vector<double> Benefits(const Program& program, const ProgramAnalysis& analysis,
                             const Target& target, const CostModelOptions& cost) {
  const CostModel model(program, analysis, target, cost);
  std::vector<double> benefit(analysis.buffers.buffers.size(), 0);
  for (OpId id = 0; id < static_cast<OpId>(program.ops.size()); ++id) {
    const Op& op = program.ops[id];
    const double runs = model.ExecutionCount(id);
    if (op.kind != OpKind::kCompute || runs == 0) continue;
    const double all_default = model.OpElapsedAllDefault(id);
    std::vector<BufferId> touched;
    for (ValueId v : op.operands) touched.push_back(analysis.value_buffer[v]);
    for (ValueId v : op.results) touched.push_back(analysis.value_buffer[v]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (BufferId b : touched) {
      if (b == kNoId) continue;
      const auto [operands, results] = Positions(op, analysis, [b](BufferId x) { return x == b; });
      benefit[b] += runs * (all_default - model.OpElapsed(id, operands, results));
    }
  }
  return benefit;
}

// The bytes per second an op moves in plan space `space` of `target`: a
// level's slower direction (as the two-space view rates the fastest level),
// the alternate bandwidth on a flat target.
double SpaceBandwidth(const Target& target, MemorySpace space) {
  if (space == kDefaultSpace) return target.default_bandwidth;
  const int level = LevelOfSpace(target, space);
  if (target.spaces.empty() || level < 0) return target.alternate_bandwidth;
  const MemorySpaceSpec& s = target.spaces[static_cast<std::size_t>(level)];
  return std::min(s.read_bandwidth, s.write_bandwidth);
}

}  // namespace

absl::StatusOr<RegionFastMemorySetup> SetUpRegionFastMemory(const Program& program,
                                                            const ProgramAnalysis& analysis,
                                                            const MsaJobOptions& options,
                                                            Bytes plan_alignment) {
  absl::StatusOr<Target> target =
      ResolveTarget(options.target.value_or(std::string(kDefaultTarget)));
  if (!target.ok()) return target.status();
  RegionFastMemorySetup setup;
  setup.target = *std::move(target);
  Target& t = setup.target;
  if (options.fast_memory_bytes) t.fast_memory_bytes = *options.fast_memory_bytes;
  if (options.fast_memory_alignment) t.alignment = *options.fast_memory_alignment;
  // The levels: the flat target's alternate memory, or every writable level
  // faster than the slowest writable one (the default space), fastest first;
  // --fast-memory sizes the fastest.
  struct Candidate {
    MemorySpace space;
    std::string suffix;
    Bytes capacity;
    Bytes alignment;
    std::vector<std::string> devices;
    Target rated;  // alternate_bandwidth: the level's
    int level = 0;  // index in t.spaces (hierarchy targets)
  };
  std::vector<Candidate> candidates;
  if (t.spaces.empty()) {
    candidates.push_back({kAlternateSpace, "fast", t.fast_memory_bytes, t.alignment, {}, t, 0});
  } else {
    t.spaces[0].capacity_bytes = t.fast_memory_bytes;
    t.spaces[0].alignment = t.alignment;
    const int slowest = SlowestWritableSpace(t);
    for (int level = 0; level < slowest; ++level) {
      const MemorySpaceSpec& s = t.spaces[static_cast<std::size_t>(level)];
      if (!s.writable) continue;
      Target rated = t;
      rated.alternate_bandwidth = SpaceBandwidth(t, SpaceIdOfLevel(t, level));
      candidates.push_back(
          {SpaceIdOfLevel(t, level), s.name, s.capacity_bytes, s.alignment, s.devices, rated, level});
    }
    if (candidates.empty()) {
      return absl::InvalidArgumentError(fmt::format(
          "memplan: error: target '{}' has no writable memory level faster than '{}' for region "
          "slabs; choose a target with a writable level above its default one",
          t.name, t.spaces[static_cast<std::size_t>(slowest)].name));
    }
  }
  for (Candidate& c : candidates) {
    const std::optional<Bytes> alignment =
        AlignmentLcm(std::max<Bytes>(1, c.alignment), std::max<Bytes>(1, plan_alignment));
    if (!alignment) {
      return absl::InvalidArgumentError(fmt::format(
          "memplan: error: the fast-memory alignment, the least common multiple of target "
          "'{}''s alignment {}{} and --alignment {}, exceeds 2^32 ({})",
          t.name, c.alignment, c.suffix == "fast" ? "" : " for '" + c.suffix + "'",
          plan_alignment, kMaxAlignment));
    }
    RegionFastLevel level;
    level.space = c.space;
    level.suffix = c.suffix;
    level.capacity = c.capacity;
    level.alignment = *alignment;
    level.devices = c.devices;
    level.benefit = Benefits(program, analysis, c.rated, options.cost);
    level.copies = RateCapturedCopies(program, analysis, c.rated, c.level, options.cost);
    setup.memory.levels.push_back(std::move(level));
  }
  return setup;
}

void EstimateRegionTimes(const Program& program, const ProgramAnalysis& analysis,
                         const Target& target, const CostModelOptions& cost, Plan& plan) {
  RegionPlan& regions = *plan.regions;
  const CostModel model(program, analysis, target, cost);
  const auto space_of = [&](BufferId b) {
    if (b == kNoId || static_cast<std::size_t>(b) >= plan.placements.size()) return kDefaultSpace;
    const AllocationList& a = plan.placements[b].allocations;
    return a.empty() ? kDefaultSpace : a.front().space;
  };
  std::vector<std::int32_t> region_of(program.computations.size(), kNoId);
  for (std::size_t r = 0; r < regions.regions.size(); ++r) {
    region_of[regions.regions[r].computation] = static_cast<std::int32_t>(r);
    regions.regions[r].estimated_s = regions.regions[r].all_default_s = 0;
  }
  regions.estimated_s = regions.all_default_s = 0;
  // Captured copies: the copied value's reads are served from the copy's
  // space, and each copy takes its seconds once per run of the region.
  std::map<std::pair<ComputationId, ValueId>, MemorySpace> copied;
  for (RegionInfo& info : regions.regions) {
    const double runs = info.execute == kNoId ? 1 : model.ExecutionCount(info.execute);
    for (const RegionCopy& c : info.copies) {
      copied[{info.computation, c.value}] = c.to_space;
      info.estimated_s += c.copy_s;
      regions.estimated_s += runs * c.copy_s;
    }
  }
  std::map<MemorySpace, double> fast_bytes;  // per space outside the default, this op
  for (OpId id = 0; id < static_cast<OpId>(program.ops.size()); ++id) {
    const Op& op = program.ops[id];
    if (op.kind != OpKind::kCompute) continue;
    // Bytes per space in position order (operands, then results); each
    // space's at its bandwidth, the rest at the default one.
    fast_bytes.clear();
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      const auto copy = copied.find({op.computation, op.operands[i]});
      const MemorySpace s = copy != copied.end() ? copy->second
                                                 : space_of(analysis.value_buffer[op.operands[i]]);
      if (s != kDefaultSpace) fast_bytes[s] += model.OperandBytesAccessed(id, static_cast<int>(i));
    }
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      const MemorySpace s = space_of(analysis.value_buffer[op.results[i]]);
      if (s != kDefaultSpace) fast_bytes[s] += model.ResultBytesAccessed(id, static_cast<int>(i));
    }
    const double total = model.TotalBytesAccessed(id);
    double memory = 0, served = 0;
    for (const auto& [space, bytes] : fast_bytes) {
      const double here = std::min(bytes, total - served);
      memory += here / SpaceBandwidth(target, space);
      served += here;
    }
    memory += (total - served) / target.default_bandwidth;
    const double planned = std::max(model.ComputeSeconds(id), memory);
    const double all_default = model.OpElapsedAllDefault(id);
    const double runs = model.ExecutionCount(id);
    regions.estimated_s += runs * planned;
    regions.all_default_s += runs * all_default;
    if (const std::int32_t r = region_of[op.computation]; r != kNoId) {
      regions.regions[r].estimated_s += planned;
      regions.regions[r].all_default_s += all_default;
    }
  }
}

}  // namespace memplan
