// An order-independent lower bound on a computation's live bytes: at unit v,
// in every topological order, these sets are live together —
//  * the sets v touches (operands, results), and v's scratch;
//  * a set touched by an ancestor of v and by a descendant of v;
//  * a set holding a parameter (live from the start) touched by a
//    descendant of v, one holding a result (live to the end) touched by an
//    ancestor of v, and one holding both.
// The bound is the most of these bytes at any unit. It counts no callee's
// bytes (the model's `extra` beyond scratch is an estimate, not a bound), so
// it is also a lower bound on the re-analysed transient max-live of any
// reordered program, taken over all computations.
#pragma once

#include <cstdint>

#include "schedule/order_problem.h"

namespace memplan {

// Reachability is kept as bitsets, O(n^2 / 8) bytes and O(edges * n / 64 +
// touches * n / 64 + sets * n) time; above kBoundMaxUnits units only the
// first and last rules apply (O(units + touches)).
inline constexpr std::int32_t kBoundMaxUnits = 8192;

// The bound in bytes (0 for a problem without units).
Bytes OrderLowerBound(const OrderProblem& problem);

}  // namespace memplan
