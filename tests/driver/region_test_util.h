// Plans text-IR programs with execution regions and renders the region plan
// as compact text, so scenario tests compare whole outcomes exactly.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "driver/region_pools.h"
#include "ir/dims.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/text_parser.h"
#include "verify/region_checks.h"
#include "verify/verifier.h"

namespace memplan::testing_regions {

struct Planned {
  Program program;
  ProgramAnalysis analysis;
  Plan plan;
};

// Parses, binds dims, analyses, plans with regions and verifies (both
// verifiers); any failure is returned.
inline absl::StatusOr<Planned> PlanText(const std::string& text,
                                        RegionPlanOptions options = {},
                                        const std::map<std::string, std::int64_t>& dims = {},
                                        const PoolPlanOptions& pools = {}) {
  absl::StatusOr<Program> program = ParseProgram(text, "t.mpir");
  if (!program.ok()) return program.status();
  if (absl::Status s = BindDims(*program, dims); !s.ok()) return s;
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  if (!analysis.ok()) return analysis.status();
  absl::StatusOr<Plan> plan = PlanRegions(*program, *analysis, options, pools);
  if (!plan.ok()) return plan.status();
  VerifyOptions verify;
  verify.alignment = plan->alignment;
  if (absl::Status s = VerifyPlan(analysis->buffers, *plan, verify); !s.ok()) return s;
  if (absl::Status s = VerifyRegionPlan(*program, analysis->buffers, *plan); !s.ok()) return s;
  return Planned{*std::move(program), *std::move(analysis), *std::move(plan)};
}

inline std::string Join(const std::vector<std::string>& parts, const char* sep = " ") {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// One line per region resource: "name kind lifetime [affinity] size: buffer@offset ...".
inline std::vector<std::string> Resources(const Planned& p) {
  std::vector<std::string> lines;
  std::vector<std::string> names;
  for (const DimDecl& d : p.program.dims) names.push_back(d.name);
  for (const Resource& r : p.plan.regions->resources) {
    if (r.kind == ResourceKind::kPool) continue;
    std::string line = r.name + " " + ResourceKindName(r.kind) + " " +
                       std::string(LifetimeName(r.lifetime)) +
                       (r.affinity.empty() ? "" : " [" + r.affinity + "]") + " " +
                       r.size.ToString(names) + ":";
    for (const Slice& s : r.slices) {
      line += " " + p.analysis.buffers.buffers[s.buffer].name + "@" + s.offset.ToString(names);
    }
    lines.push_back(line);
  }
  return lines;
}

// One line per host step: "kind signal <- awaits" plus its commands,
// "  kind[wave] resource[offset+length] access %value ...".
inline std::vector<std::string> Steps(const Planned& p) {
  std::vector<std::string> lines;
  const RegionPlan& rp = *p.plan.regions;
  for (const HostStep& step : rp.steps) {
    std::string line = HostStepKindName(step.kind);
    if (step.resource != kNoId) line += " " + rp.resources[step.resource].name;
    if (step.region != kNoId) line += " @" + rp.regions[step.region].name;
    if (!step.signal.empty()) line += " -> " + step.signal;
    if (!step.awaits.empty()) line += " <- " + Join(step.awaits, ",");
    lines.push_back(line);
    for (const Command& c : step.commands) {
      std::string cl = std::string("  ") + CommandKindName(c.kind);
      if (c.concurrent >= 0) cl += "[w" + std::to_string(c.concurrent) + "]";
      for (const CommandRange& r : c.ranges) {
        cl += " " + rp.resources[r.resource].name + "[" + std::to_string(r.offset_bytes) + "+" +
              std::to_string(r.length_bytes) + "] " + AccessName(r.access) + " %" +
              p.program.values[r.value].name;
      }
      if (!c.detail.empty()) cl += " (" + c.detail + ")";
      lines.push_back(cl);
    }
  }
  return lines;
}

}  // namespace memplan::testing_regions
