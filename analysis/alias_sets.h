// Alias sets: values that must share storage, found by union-find. Each set
// becomes one buffer; each member sits at a fixed byte offset inside it.
//
// Joins (all at equal offsets unless noted):
//  * a tied result with its operand; a view with its operand, `view_offset`
//    bytes in (offsets accumulate along chains of views);
//  * a gathered operand with the result gathering it, `offset` bytes into
//    the result (`gathers(%a, 0, %b, 1024)`: the producers of %a and %b
//    write straight into the result);
//  * while: operand i, cond param i, body param i, body result i, result i;
//  * conditional: arg i with param i of every branch; result j of every
//    branch with the op's result j;
//  * call / execute: arg i with callee param i; callee result j with result j;
//  * X-done: result i with operand i (the X-start's result i).
// Timepoints have no storage and belong to no set. This is the storage part of
// XLA's HloAliasAnalysis / IREE's tied-resource alias sets.
//
// Example:
//   %x = exp(%a) : f32[4]                       16 bytes
//   %v = view(%x) : f32[2] view(%x, 8)          bytes 8..15 of %x
//   %w = view(%v) : f32[1] view(%v, 4)          bytes 12..15 of %x
//   %y = relu(%x) : f32[4] tied(%x)
// gives one set {x, v, w, y} of 16 bytes with offsets x 0, v 8, w 12, y 0.
//
// Offsets are normalised so the lowest member starts at 0; the set size is
// the largest (offset + size) of its members.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

struct AliasSet {
  std::vector<ValueId> members;         // ascending ValueId
  Bytes size = 0;                       // max over members of offset + size
  Lifetime lifetime = Lifetime::kTransient;  // DominantLifetime over ValueLifetimes of members
  std::optional<MemorySpace> space;     // the members' common pinned space, if any
};

struct AliasSets {
  std::vector<std::int32_t> set_of_value;  // per ValueId: index into `sets`; kNoId for timepoints
  std::vector<Bytes> offset_of_value;      // per ValueId: bytes from the set's base (0 for timepoints)
  std::vector<AliasSet> sets;              // ordered by smallest member ValueId
  // Offsets that depend on dims: the members of sets holding a subview at a
  // dynamic offset (`view(%x, align(%n, 64))`) whose place in the set is an
  // expression; offset_of_value holds its value at the evaluation point.
  // Every other member sits at its constant offset_of_value.
  std::map<ValueId, SizeExpr> symbolic_offset_of_value;
};

// Computes the alias sets of `program` (assumed to pass ValidateProgram) in
// O((values + ops) * α) time. Errors (InvalidArgument, `path:line:col: error:`
// with path = program.source, at the offending value):
//  * "%b is pinned to memory space 1 but shares storage with %a pinned to
//    memory space 0" — members pinned to different spaces (%b is the
//    lowest-id member disagreeing with the lowest-id pinned member %a);
//  * "%r writes in place into constant %c (constants are read-only)" — a tied
//    result in a set that has a constant-lifetime member (%c the lowest-id);
//  * "%n is written by add but shares storage with constant %c (constants are
//    read-only); copy the constant first, e.g. %c_copy = copy(%c), and use the
//    copy" — in such a set, a member that a compute op writes (its result, not
//    a view) and whose own lifetime is not constant, e.g. a while's
//    loop-carried value whose init is a constant and which the body
//    recomputes. Both errors are reported at the lowest-id offending member;
//  * "conflicting aliasing: %a would sit at two byte offsets N bytes apart in
//    one buffer" — joins place a value at two different offsets (e.g. a loop
//    body returning a view of its own parameter at a nonzero offset, or a
//    concat gathering an operand and a view of that operand).
//  * "conflicting aliasing: %a would sit at byte offsets E1 and E2 in one
//    buffer" — the same for dynamic views, whose offsets must agree as
//    expressions (for every binding of the dims), not just at one point;
//  * "cannot place %a in its buffer at an offset given by dims: ..." — a set
//    whose symbolic offsets would need a subtraction (e.g. a dynamic view
//    whose operand is only reached through the view).
absl::StatusOr<AliasSets> ComputeAliasSets(const Program& program);

}  // namespace memplan
