// The memory-hierarchy branch of the MSA step (issue 27): for a target with
// N memory spaces, plan every candidate of msa/hierarchy.h, lay each out
// (PlanPoolsWithMsa with every buffer's default-memory data in its home
// level's pools), keep those within every level's capacity, simulate them
// (msa/hierarchy_simulator.h) and keep the fastest.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "driver/pools.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/simulator.h"
#include "msa/target.h"
#include "verify/verifier.h"

namespace memplan {

// What the portfolio tried, for the summary, the JSON and bench/.
struct HierarchyReport {
  struct Candidate {
    std::string name;
    std::optional<double> estimated_s;  // nullopt: it does not fit, or was not run
    std::string not_run;                // why it was not run ("" when it was)
    std::string does_not_fit;           // why it does not fit ("" when it fits or was not run)
    // Its time is that of its twin planned without the cross-program
    // prefetch (msa/hierarchy.h), which was strictly faster or alone fit.
    bool without_cross_program_prefetch = false;
  };
  std::vector<Candidate> candidates;    // in portfolio order, one per name
  std::string chosen;
  bool chosen_without_cross_program_prefetch = false;  // the kept plan is a twin
  // Every buffer in the slowest writable level, no copies (whether it fits
  // or not): the baseline of the hierarchy table in docs/msa.md.
  double all_slowest_writable_s = 0;
  // Why that layout cannot run ("" when it can): an op whose device cannot
  // access the level, or a layout beyond its capacity.
  std::string all_slowest_writable_does_not_fit;
  std::vector<MemorySpace> home;        // per buffer, of the chosen plan
};

struct HierarchyJobResult {
  MsaResult assignment;  // the chosen candidate's level-0 segments and copies
  Plan plan;             // not yet verified; plan.msa filled in
  SimulationResult simulation;
  HierarchyReport report;
};

// `target` has spaces; `options` are the level-0 knobs (fast memory and
// alignment filled in); `cost` is built on the target's two-space view.
// Errors: InvalidArgument located at an op whose device can access no
// space for an operand (CheckHierarchyAccess) or for a buffer pinned to a
// space >= 2; ResourceExhausted when no candidate fits every level;
// Internal when the chosen plan simulates below its time bound.
absl::StatusOr<HierarchyJobResult> RunHierarchyJob(const Program& program,
                                                   const ProgramAnalysis& analysis,
                                                   const CostModel& cost, const Target& target,
                                                   const MsaOptions& options,
                                                   const PoolPlanOptions& pools);

// Why every buffer in the slowest writable level of `target`, no copies,
// cannot run ("" when it can): "op 'conv' on device 'npu' cannot access
// it" (the first op, in schedule order, whose device may not access the
// level), or "its layout exceeds the capacity of space 'sram'" (the
// buffers, pins ignored, laid out in that level's pools as a plan's
// default space, by the default packers at offset alignment `alignment`,
// the plan's, over the level's capacity_bytes; --algorithm, --capacity and
// --time-limit are not applied, so the answer depends on the program and
// the target only). Deterministic: the planner records it as
// MsaStats::time_all_default_fits (the baseline bounds the plan's time
// only when it runs) and memplan verify computes it again
// (VerifySavedPlan). Example: tests/driver/staged_copy_test.cc's program
// on its 5632-byte sram gives "its layout exceeds the capacity of space
// 'sram'". Errors: those of the pool planner other than ResourceExhausted.
absl::StatusOr<std::string> AllSlowestWritableDoesNotFit(const Program& program,
                                                         const ProgramAnalysis& analysis,
                                                         const Target& target, Bytes alignment);

// The verifier's rules (rule 15) for hierarchy target `target`.
HierarchyRules HierarchyRulesOf(const Target& target);

// Names `plan`'s spaces by their levels of hierarchy target `target` and adds
// the levels it lacks as spaces holding nothing (their capacity, peak 0),
// sorted by id, so the summary, the JSON's spaces[] and the maps list the
// whole target by the levels' names.
void NameTargetLevels(const Target& target, Plan& plan);

// ResourceExhausted when a space of `plan` uses more than its capacity
// (SpaceInfo::peak over SpaceInfo::capacity), naming the space and `target`:
// "plan does not fit: dram memory needs 1103118336 bytes, more than its
// 1073741824 bytes on target 'npu-3level'". OK otherwise.
absl::Status CheckSpaceCapacities(const Target& target, const Plan& plan);

}  // namespace memplan
