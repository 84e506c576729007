// The ordering problem of one computation: its ops as units of a dependency
// graph, and the peak model a strategy minimises (docs/reorder.md).
//
// Dependencies (every rule keeps the program's meaning in any order the graph
// allows):
//  * data: an op after the producers of its operands in the computation (an
//    X-done after its X-start this way);
//  * side effects: ops without results, ops writing in place into storage that
//    holds a parameter of the computation or a value that is not transient,
//    and control-flow ops whose callees hold such ops keep their relative
//    order;
//  * storage: a *writer* of an alias set is a compute op with a result tied to
//    an operand in the set, or a control-flow op with an operand in it (its
//    callee may write its parameters in place). Every other op touching the
//    set keeps its order relative to each writer, so an in-place op stays the
//    last reader of its operand's storage (views of it included);
//  * a region computation (ComputationKind::kRegion), or one with ops that
//    carry a `wave`, keeps its order: every unit follows the one before.
// Control-flow ops are units: their called computations are problems of their
// own.
//
// Peak model (over alias sets, which no order changes; only transient sets
// count, as in the transient max-live): at position p the live bytes are the
// sets whose live span [first, last] holds p — first = 0 for a set holding a
// parameter of the computation, else the first position of a unit touching
// it; last = n - 1 for a set holding a result of the computation, else the
// last touching position (an X-done also touches its X-start's operands) —
// plus the unit's `extra` bytes: its scratch and, for a control-flow op, the
// model peak of its callees in their input order (an estimate: the callee's
// parameters count again). For a program without control flow the model
// peak equals the re-analysed transient max-live (tests/schedule_test.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/alias_sets.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

struct OrderProblem {
  ComputationId computation = kNoId;
  std::vector<OpId> ops;                     // unit i = ops[i], in the input order
  std::vector<std::vector<std::int32_t>> preds;  // per unit, ascending, unique
  std::vector<std::vector<std::int32_t>> succs;  // per unit, ascending, unique
  std::vector<std::vector<std::int32_t>> touches;  // per unit: model sets, ascending
  std::vector<Bytes> set_bytes;              // per model set
  std::vector<char> live_in;                 // per model set: holds a parameter
  std::vector<char> live_out;                // per model set: holds a result
  std::vector<Bytes> scratch;                // per unit: Op::scratch_bytes
  std::vector<Bytes> extra;                  // per unit: scratch + callees' model peak
  bool fixed = false;                        // region or waves: input order only

  std::int32_t size() const { return static_cast<std::int32_t>(ops.size()); }
};

// One problem per computation (indexed by ComputationId) of `program`, which
// must pass ValidateProgram and AnalyzeProgram (so the call graph is a tree).
// O(ops + operands + callees) time and memory, plus the model peak of each
// callee in its input order.
std::vector<OrderProblem> BuildOrderProblems(const Program& program, const AliasSets& sets);

// The model peak (bytes) of `problem` run in `order` (a permutation of its
// units; not checked to be topological). O(units + touches).
Bytes ModelPeak(const OrderProblem& problem, const std::vector<std::int32_t>& order);

// The identity order 0, 1, ..., n - 1 (the input order).
std::vector<std::int32_t> InputOrder(const OrderProblem& problem);

// True when `order` is a permutation of the units in which every unit comes
// after its predecessors. O(units + edges).
bool IsTopological(const OrderProblem& problem, const std::vector<std::int32_t>& order);

}  // namespace memplan
