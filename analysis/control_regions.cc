#include "analysis/control_regions.h"

#include <string>

namespace memplan {

std::vector<ControlRegion> ControlRegions(const Program& program, const FlatSchedule& schedule) {
  std::vector<ControlRegion> regions;
  for (OpId op : schedule.order) {
    const Op& o = program.ops[op];
    if (o.kind != OpKind::kWhile && o.kind != OpKind::kConditional) continue;
    ControlRegion region;
    region.kind = o.kind == OpKind::kWhile ? ControlRegion::Kind::kLoop : ControlRegion::Kind::kBranches;
    region.name = (o.kind == OpKind::kWhile ? "while" : "conditional") +
                  (o.results.empty() ? std::string() : " %" + program.values[o.results.front()].name);
    for (std::size_t k = 0; k < o.callees.size(); ++k) {
      const ComputationSpan& span = schedule.spans[o.callees[k]];
      if (span.first == kNoId || span.last < span.first) continue;
      const char* role = o.kind == OpKind::kConditional ? "branch" : k == 0 ? "condition" : "body";
      region.parts.push_back(RegionPart{std::string(role) + " @" + program.computations[o.callees[k]].name,
                                        span.first, span.last});
    }
    if (!region.parts.empty()) regions.push_back(std::move(region));
  }
  return regions;
}

}  // namespace memplan
