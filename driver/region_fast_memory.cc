#include "driver/region_fast_memory.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "ir/diagnostic.h"
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
  if (!t.spaces.empty()) {
    // --fast-memory sizes the fastest level, the one fast slabs use.
    t.spaces[0].capacity_bytes = t.fast_memory_bytes;
    t.spaces[0].alignment = t.alignment;
    for (const Computation& c : program.computations) {
      if (c.kind != ComputationKind::kRegion) continue;
      const std::string device = c.affinity.value_or(std::string(kHostDevice));
      if (!t.spaces[0].writable || !DeviceMayAccess(t.spaces[0], device)) {
        return LocatedError(
            program.source, c.loc,
            fmt::format("region @{} runs on {}, which cannot {} memory space '{}' of target '{}' "
                        "(its fast memory, where region slabs go); choose a target whose fastest "
                        "level it may write",
                        c.name, device, t.spaces[0].writable ? "access" : "write to",
                        t.spaces[0].name, t.name));
      }
    }
  }
  const std::optional<Bytes> alignment =
      AlignmentLcm(std::max<Bytes>(1, t.alignment), std::max<Bytes>(1, plan_alignment));
  if (!alignment) {
    return absl::InvalidArgumentError(fmt::format(
        "memplan: error: the fast-memory alignment, the least common multiple of target '{}''s "
        "alignment {} and --alignment {}, exceeds 2^32 ({})",
        t.name, t.alignment, plan_alignment, kMaxAlignment));
  }
  setup.memory.space = kAlternateSpace;
  setup.memory.capacity = t.fast_memory_bytes;
  setup.memory.alignment = *alignment;

  // A buffer's benefit: per op touching it, the seconds saved with just that
  // buffer's operands and results in fast memory, times the op's runs.
  const CostModel model(program, analysis, t, options.cost);
  std::vector<double>& benefit = setup.memory.benefit;
  benefit.assign(analysis.buffers.buffers.size(), 0);
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
  return setup;
}

void EstimateRegionTimes(const Program& program, const ProgramAnalysis& analysis,
                         const Target& target, const CostModelOptions& cost, Plan& plan) {
  RegionPlan& regions = *plan.regions;
  const CostModel model(program, analysis, target, cost);
  const auto fast = [&](BufferId b) {
    if (b == kNoId || static_cast<std::size_t>(b) >= plan.placements.size()) return false;
    const AllocationList& a = plan.placements[b].allocations;
    return !a.empty() && a.front().space != kDefaultSpace;
  };
  std::vector<std::int32_t> region_of(program.computations.size(), kNoId);
  for (std::size_t r = 0; r < regions.regions.size(); ++r) {
    region_of[regions.regions[r].computation] = static_cast<std::int32_t>(r);
    regions.regions[r].estimated_s = regions.regions[r].all_default_s = 0;
  }
  regions.estimated_s = regions.all_default_s = 0;
  for (OpId id = 0; id < static_cast<OpId>(program.ops.size()); ++id) {
    const Op& op = program.ops[id];
    if (op.kind != OpKind::kCompute) continue;
    const auto [operands, results] = Positions(op, analysis, fast);
    const double planned = model.OpElapsed(id, operands, results);
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
