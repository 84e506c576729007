#include "driver/captured_copy_rating.h"

#include <algorithm>
#include <optional>

namespace memplan {
namespace {

// Seconds one copy of `bytes` from the default level into `level` takes;
// nullopt when no link route leads there.
std::optional<double> CopySeconds(const Target& t, int level, Bytes bytes,
                                  const CostModel& model) {
  if (t.spaces.empty()) return model.CopySeconds(bytes);
  const int from = SlowestWritableSpace(t);
  const std::optional<CopyRoute> route = FindCopyRoute(t, from, level);
  if (!route) return std::nullopt;
  if (route->via < 0) return CopyLegSeconds(t, from, level, bytes);
  return CopyLegSeconds(t, from, route->via, bytes) + CopyLegSeconds(t, route->via, level, bytes);
}

}  // namespace

std::vector<CopyCandidate> RateCapturedCopies(const Program& program,
                                              const ProgramAnalysis& analysis,
                                              const Target& rated, int level,
                                              const CostModelOptions& cost) {
  const CostModel model(program, analysis, rated, cost);
  std::vector<CopyCandidate> out;
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    const Computation& region = program.computations[c];
    if (region.kind != ComputationKind::kRegion) continue;
    for (ValueId v : region.params) {
      const Value& value = program.values[v];
      const BufferId b = analysis.value_buffer[v];
      if (b == kNoId || value.is_timepoint || value.size_expr || value.size <= 0) continue;
      const auto in_b = [&](ValueId x) { return analysis.value_buffer[x] == b; };
      bool written = std::any_of(region.results.begin(), region.results.end(), in_b);
      double gain = 0, runs = 0;
      bool read = false;
      for (OpId o : region.ops) {
        const Op& op = program.ops[o];
        written |= std::any_of(op.results.begin(), op.results.end(), in_b);
        written |= op.kind == OpKind::kCall && std::any_of(op.operands.begin(), op.operands.end(), in_b);
        std::vector<int> positions;
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
          if (op.operands[i] == v) positions.push_back(static_cast<int>(i));
        }
        if (positions.empty()) continue;
        const double op_runs = model.ExecutionCount(o);
        if (!read) runs = op_runs;
        read = true;
        if (op.kind != OpKind::kCompute || op_runs == 0) continue;
        gain += op_runs * (model.OpElapsedAllDefault(o) - model.OpElapsed(o, positions, {}));
      }
      if (written || !read) continue;
      const std::optional<double> copy_s = CopySeconds(rated, level, value.size, model);
      if (!copy_s) continue;
      const double net = gain - runs * *copy_s;
      if (net <= 0) continue;
      out.push_back(CopyCandidate{c, v, b, value.size, *copy_s, net});
    }
  }
  return out;
}

}  // namespace memplan
