// Memory space assignment over a hierarchy of N memory spaces (issue 27).
//
// The algorithm generalises the two-level one level by level:
//  1. Level 0 (the fastest space) is planned by the two-space allocator
//     (msa/allocator.h) with everything slower seen as default memory: the
//     hierarchy's two-space view (msa/target.h). Buffers accessed by an op
//     whose device cannot access level 0 stay out of it (pinned to default).
//  2. The data that still needs default memory (MsaResult::needs_default)
//     gets a *home* level among the slower ones: buffers by bytes accessed
//     per byte of size (descending), each in the fastest level that its
//     ops' devices can all access, that is writable or holds a constant
//     nobody writes, that has the routes its copies need (home -> level 0
//     for prefetches, level 0 -> home for evictions; over a link, or
//     staged through a level: FindCopyRoute, msa/target.h), and where a best-fit
//     chunk over its live range fits the level's capacity; activations thus
//     spill to the next level down when a level is full, and weights may
//     stay in a read-only (flash) level and be read in place. A staged
//     copy (staged candidates only) also needs a best-fit chunk in its
//     intermediate level over [max(start, 0), done] (AsyncCopy::via),
//     reserved there like a home chunk, so that level's capacity counts
//     it, and its leg away from level 0 within its link's max_outstanding.
// Candidates (a portfolio: the lowest SimulateHierarchy time wins, the
// driver checking that each fits):
//  * "hierarchy": steps 1 and 2, every copy over a direct link;
//  * "hierarchy-weights-in-flash": step 2 tries read-only levels first for
//    constants (frees the faster RAM for activations);
//  * "hierarchy-staged", "hierarchy-weights-in-flash-staged": the same two
//    with staged copies (only on targets where some level and level 0 are
//    joined only through another level);
//  * "two-space": step 1 with every home in the slowest writable level — the
//    plan memplan makes with only the fastest level;
//  * "banked": no copies; buffers by size (descending) fill level 0, then
//    the next level, and so on, constants in a read-only level first — the
//    strategy of ExecuTorch's banked memory planner (greedy per bank, fill
//    the fastest bank and spill to the next; pytorch/executorch
//    exir/memory_planning.py).
// When level 0 used a cross-program prefetch, it is planned once more
// without it and every candidate but banked is built on that result too
// (a twin of the same name): the cross-program-prefetched buffer's home
// needs a direct link to level 0 (its copy runs before the program), so a
// weight whose only route is staged finds no home with it, and level 0
// judged it on the two-space view, not on the hierarchy.
// So the kept plan is never slower (estimated) than its own two-space plan,
// than the banked strategy, nor than the same candidates without the
// cross-program prefetch, when those fit.
// Cost: one two-space allocator run (two with a cross-program prefetch),
// then per level one best-fit query per buffer (O(log n + k), k chunks
// overlapping in time): O(L n log n) for L levels, plus the simulations,
// O(ops + operands log segments + copies).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/target.h"

namespace memplan {

// One assignment over the hierarchy.
struct HierarchyCandidate {
  std::string name;                // "hierarchy", "two-space", "banked", ...
  MsaResult fast;                  // level-0 segments (space 1) and copies
  std::vector<MemorySpace> home;   // per buffer: plan space id of its home level
  // Per buffer: the best-fit offset step 2 found in its home level (none
  // for buffers without a home chunk); a layout that keeps them fits every
  // level.
  std::vector<std::optional<Bytes>> home_offset;
  bool fits = true;                // false: some buffer found no home (the rest is empty)
  std::string not_run;             // why it was not tried ("" when it was; fits is false)
  // When it was tried and some buffer found no home: which, e.g. "buffer
  // 'h1' (32768 bytes) finds no room in a level its ops can access".
  std::string does_not_fit;
  // Built on level 0 planned again without the cross-program prefetch: the
  // twin of the earlier candidate of the same name, planned only when
  // level 0 used a cross-program prefetch (MsaOptions::cross_program_prefetch
  // on). The driver reports the faster of the two under the name.
  bool without_cross_program_prefetch = false;
};

// The device each op's accesses are checked against: its affinity, else
// kHostDevice.
std::string OpDevice(const Program& program, OpId op);

// Checks that every op's device can access some space and that every
// buffer has a space all its ops' devices can access. Errors:
// InvalidArgument `program:line:col: error: op 'X' on device 'D' ...` at the
// op (exit 2).
absl::Status CheckHierarchyAccess(const Program& program, const ProgramAnalysis& analysis,
                                  const Target& target);

// The candidates above for hierarchy target `target` (target.spaces not
// empty), level-0 planning under `options` (fast memory and alignment as for
// two spaces). A candidate whose homes do not fit some buffer is returned
// with fits = false. The twins without the cross-program prefetch follow
// the others (after banked), in the same order.
// `plan_alignment` is the plan's --alignment (every home offset a multiple
// of it and of its level's). Errors: those of AssignMemorySpaces;
// InvalidArgument for a buffer pinned to a space >= 2 (not supported with a
// hierarchy); ResourceExhausted when no candidate fits, naming a buffer that
// fits no accessible level.
absl::StatusOr<std::vector<HierarchyCandidate>> HierarchyCandidates(
    const Program& program, const ProgramAnalysis& analysis, const CostModel& cost,
    const Target& target, const MsaOptions& options, Bytes plan_alignment);

}  // namespace memplan
