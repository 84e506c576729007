// The exact order of one computation: a dynamic program over scheduled-set
// frontiers (the downsets of the dependency graph), as in SERENITY (Ahn et
// al., MLSys 2020) and HMCOS (Wang et al., DAC 2022). The bytes live after a
// set S of units has run do not depend on the order within S, so the lowest
// model peak of any order of S is
//   peak(S ∪ {v}) = min over ready v of max(peak(S), live while v runs),
// memoised per S (of two paths to one frontier only the lower peak is kept)
// and pruned by an upper bound: a frontier whose peak already reaches the
// best known order's peak cannot lead to a better one.
#pragma once

#include <cstdint>
#include <optional>

#include "schedule/order_problem.h"
#include "schedule/strategies.h"

namespace memplan {

// Limits: problems of at most kExactMaxUnits units (frontiers are 64-bit
// masks) and at most kExactMaxStates frontiers kept over all layers (about
// 40 bytes each).
inline constexpr std::int32_t kExactMaxUnits = 64;
inline constexpr std::int64_t kExactMaxStates = 1'000'000;

enum class ExactStatus {
  kImproved,    // `order` is optimal and below the upper bound
  kProven,      // no order is below the upper bound: the bound's order is optimal
  kTooLarge,    // more than kExactMaxUnits units: not attempted
  kStateLimit,  // stopped at kExactMaxStates frontiers: nothing proven
};

struct ExactResult {
  ExactStatus status = ExactStatus::kTooLarge;
  UnitOrder order;       // kImproved only: an optimal order
  Bytes peak = 0;        // kImproved: its model peak; kProven: the upper bound
  std::int64_t states = 0;  // frontiers kept
};

// Searches for an order of `problem` with ModelPeak below `upper_bound` (the
// model peak of a known order). O(states * units * touches) time.
ExactResult ExactOrder(const OrderProblem& problem, Bytes upper_bound);

}  // namespace memplan
